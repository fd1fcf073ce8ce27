"""Recording a game through the services: starting it, every tap, undo, the sequence check,
retried taps, immunity into the next game, and the protocol it exports."""

from datetime import date

import pytest

from club.kernel.errors import RefusalCode, Refused
from games.models import GameEvent, GameStatus
from games.protocols import game_import, game_protocol
from games.recording import game_record_event
from games.rules import protocol
from games.rules.errors import RuleCode
from tests.factories import make_member
from tests.games.recording import (
    LINEUP,
    TOWN_WINS,
    Table,
    evening_with_players,
    make_host,
    record,
    start_game,
    view_of,
)

pytestmark = pytest.mark.django_db


def test_a_game_is_recorded_to_the_end_and_the_engine_names_the_winner(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS)

    assert game.status == GameStatus.FINISHED
    assert game.winner == "red"
    assert game.ended_at is not None
    assert game.first_eliminated == [6]
    view = view_of(game.pk)
    assert [e.seat for e in view.state.eliminated] == [6, 2, 8, 3, 9, 1]


def test_the_protocol_replays_to_the_same_result(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS)
    view = view_of(game.pk)
    document = game_protocol(view.game, view.seats, view.log)

    assert document["format"] == "mafia-protocol/1"
    assert [s["nick"] for s in document["seats"]] == [p.nickname for p in players]
    replayed, failure = protocol.replay(protocol.parse(document))
    assert failure is None
    assert replayed.summary() == view.state.summary()


def test_a_rule_violation_is_refused_with_the_engines_message_and_changes_nothing(
    table: Table,
) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, {"type": "day", "n": 1})
    with pytest.raises(Refused) as refused:
        record(game, host, {"type": "nominate", "by": 1, "target": 99})
    assert refused.value.code == RuleCode.NO_SUCH_SEAT and refused.value.status == 422
    assert "99" in refused.value.message
    assert GameEvent.objects.filter(game=game).count() == 1


def test_a_stale_sequence_number_is_refused(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, {"type": "day", "n": 1})
    with pytest.raises(Refused) as refused:
        game_record_event(
            game_id=game.pk,
            author=host,
            event={"type": "foul", "seat": 3},
            seq=1,  # the phone had not seen entry 1
            client_id="second-phone",
        )
    assert refused.value.code == RefusalCode.STALE
    assert refused.value.details["seq"] == 1
    assert GameEvent.objects.filter(game=game).count() == 1


def test_a_retried_tap_with_the_same_client_id_is_not_doubled(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, {"type": "day", "n": 1})
    first = game_record_event(
        game_id=game.pk, author=host, event={"type": "foul", "seat": 3}, seq=2, client_id="tap-1"
    )
    again = game_record_event(
        game_id=game.pk, author=host, event={"type": "foul", "seat": 3}, seq=2, client_id="tap-1"
    )
    assert first.created and not again.created
    assert again.entry.pk == first.entry.pk
    assert view_of(game.pk).club_state.fouls == {3: 1}


def test_undo_cancels_the_last_effective_event_and_is_kept_in_the_log(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(
        game,
        host,
        {"type": "day", "n": 1},
        {"type": "foul", "seat": 3},
        {"type": "foul", "seat": 5},
        {"type": "undo"},
        {"type": "undo"},
    )
    view = view_of(game.pk)
    assert view.club_state.fouls == {}
    assert [e["type"] for e in view.events] == ["day"]
    assert [e["type"] for e in view.log] == ["day", "foul", "foul", "undo", "undo"]
    document = game_protocol(view.game, view.seats, view.log)
    assert [e["type"] for e in document["events"]] == ["day"]


def test_undo_reopens_a_finished_game(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS, {"type": "undo"})
    assert game.status == GameStatus.RUNNING
    assert game.winner == ""
    assert game.ended_at is None


def test_nothing_to_undo_is_refused(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    with pytest.raises(Refused):
        record(game, host, {"type": "undo"})


def test_a_malformed_event_is_refused(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    for bad in (
        {"type": "explode"},
        {"type": "day", "n": 1, "extra": 1},
        {"type": "speech", "seat": 1, "start": "yesterday", "end": "now", "limit": 30},
        "not an object",
    ):
        with pytest.raises(Refused):
            game_record_event(game_id=game.pk, author=host, event=bad, seq=1, client_id=None)
    assert not GameEvent.objects.filter(game=game).exists()


def test_the_next_game_of_the_evening_carries_the_first_eliminated_as_immune(table: Table) -> None:
    host, evening, players = table
    first = start_game(host, evening, players)
    record(first, host, *TOWN_WINS)
    # Seat 6 left first; in the next game that member sits at seat 1.
    reseated = [players[5], *players[:5], *players[6:]]
    second = start_game(host, evening, reseated)
    assert second.number == 2
    assert second.immune == [1]
    with pytest.raises(Refused) as refused:
        record(
            second,
            host,
            {"type": "day", "n": 1},
            {"type": "nominate", "by": 2, "target": 1},
        )
    assert "иммунитет" in refused.value.message


def test_too_few_players_do_not_start_a_game() -> None:
    host = make_host()
    evening, players = evening_with_players(11)
    with pytest.raises(Refused) as refused:
        start_game(host, evening, players, LINEUP[:11])
    assert "12" in refused.value.message


def test_only_members_present_and_of_age_are_seated() -> None:
    host = make_host()
    evening, players = evening_with_players(11)
    stranger = make_member()
    with pytest.raises(Refused):
        start_game(host, evening, [*players, stranger])
    young = make_member(birth_date=date.today().replace(year=date.today().year - 30))
    from club.models import Registration

    Registration.objects.create(
        member=young, evening=evening, status="confirmed", source="admin", arrival=99
    )
    type(young).objects.filter(pk=young.pk).update(birth_date=date(date.today().year - 18, 1, 1))
    with pytest.raises(Refused) as refused:
        start_game(host, evening, [*players, young])
    assert "21" in refused.value.message


def test_a_line_up_that_decides_the_game_is_refused(table: Table) -> None:
    host, evening, players = table
    with pytest.raises(Refused):
        start_game(host, evening, players, ["mafia"] * 6 + ["civilian"] * 6)


def test_members_who_are_not_hosts_cannot_start_or_record(table: Table) -> None:
    host, evening, players = table
    with pytest.raises(Refused) as refused:
        start_game(players[0], evening, players)
    assert refused.value.code == RefusalCode.FORBIDDEN
    game = start_game(host, evening, players)
    other_host = make_host()
    for outsider in (players[0], other_host):
        with pytest.raises(Refused) as refused:
            record(game, outsider, {"type": "day", "n": 1})
        assert refused.value.code == RefusalCode.FORBIDDEN
    admin = make_member(is_staff=True, is_superuser=True)
    record(game, admin, {"type": "day", "n": 1})  # an admin may take over
    assert game.last_seq == 1


def test_import_rebuilds_a_game_from_its_protocol(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS)
    view = view_of(game.pk)
    document = game_protocol(view.game, view.seats, view.log)
    imported = game_import(document=document, evening_id=evening.pk, host=host, author=host)
    assert imported.status == GameStatus.FINISHED and imported.winner == "red"
    again = view_of(imported.pk)
    assert again.state.summary() == view.state.summary()
    document["events"].append({"type": "day", "n": 9})  # after the end: refused
    with pytest.raises(Refused) as refused:
        game_import(document=document, evening_id=evening.pk, host=host, author=host)
    assert str(len(TOWN_WINS)) in refused.value.message
