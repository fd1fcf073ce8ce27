"""The best move and the host's extra points at the site's doors: the host screen's tap,
the API and the finished game's page; who may give them, the scheme's bounds, the club's
window after the end, the analysis they rebuild, and the game's page that shows them."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
import time_machine
from django.test import Client
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.models import Role, User
from accounts.services import api_token_create
from club.kernel.clubs import Club
from club.kernel.errors import RefusalCode, Refused
from games.host_screen import bonus_window, page_data
from games.models import Game, GameEvent
from games.queries import bonuses_given
from games.ratings import analysis
from games.ratings.models import PlayerScore, ScoringPreset, ScoringScheme
from games.recording import engine_for, game_record_event
from games.rules.club import ClubGame
from games.rules.scoring import Scheme
from tests.checks import present
from tests.factories import make_member, set_consent
from tests.games.recording import OPENING, TOWN_WINS, Table, record, start_game, view_of
from tests.responses import Response

pytestmark = pytest.mark.django_db

# Seat 6 (a civilian) is shot on night 1 of OPENING; seats 1–3 are black.
BEST_MOVE = {"type": "best_move", "by": 6, "targets": [1, 2, 9]}


def bearer(member: User) -> dict[str, str]:
    return {"Authorization": f"Bearer {api_token_create(member=member).key}"}


def api_event(game: Game, who: User, body: dict[str, Any]) -> Response:
    url = f"/api/v1/games/{game.pk}/events"
    return Client().post(url, body, content_type="application/json", headers=bearer(who))


def bonus(seat: int, points: float, reason: str = "вёл стол") -> dict[str, Any]:
    return {"type": "bonus", "seat": seat, "points": points, "reason": reason}


def finished(table: Table, *extra: dict[str, Any]) -> Game:
    """The town's win (TOWN_WINS), with the best move of night 1's victim recorded in the
    morning of day 2, and `extra` after the end."""
    host, evening, players = table
    game = start_game(host, evening, players)
    opening = len(OPENING)
    record(game, host, *TOWN_WINS[:opening], BEST_MOVE, *TOWN_WINS[opening:], *extra)
    assert game.finished
    return game


def test_the_host_gives_extra_points_and_the_best_move_through_the_api(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, *OPENING)
    assert api_event(game, host, BEST_MOVE).status_code == 201
    given = api_event(game, host, bonus(6, 0.3, "  точный лучший ход "))
    assert given.status_code == 201, given.content
    assert api_event(game, host, bonus(2, -0.5, "грубость")).status_code == 201
    state = view_of(game.pk).club_state
    assert state.best_move is not None and state.best_move.targets == (1, 2, 9)
    assert [(b.seat, b.points, b.reason) for b in state.bonuses] == [
        (6, 0.3, "точный лучший ход"),
        (2, -0.5, "грубость"),
    ]
    assert sorted(state.alive) == sorted(set(range(1, 13)) - {6})  # no rule state changed
    # The log keeps who gave them and when: the audit.
    (first, second) = bonuses_given(game)
    assert (first.author, second.author) == (host, host) and first.at <= second.at


@pytest.mark.parametrize(
    ("event", "status", "words"),
    [
        (bonus(5, 1.5), 422, "от -1 до +1"),
        (bonus(5, -1.01), 422, "от -1 до +1"),
        (bonus(5, 0.3, "   "), 422, "нужна причина"),
        (bonus(5, 0), 422, "не бывают нулевыми"),
        (bonus(5, 0.123), 422, "в сотых долях"),
        ({"type": "best_move", "by": 5, "targets": [1]}, 422, "не называет лучший ход"),
        ({"type": "best_move", "by": 6, "targets": [1, 2, 3, 4]}, 422, "не больше трёх"),
        ({"type": "best_move", "by": 6, "targets": [1, 1]}, 422, "один раз"),
        ({"type": "best_move", "by": 6, "targets": [6, 1]}, 422, "своё место"),
    ],
)
def test_refusals_of_the_api(table: Table, event: dict[str, Any], status: int, words: str) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, *OPENING)
    refused = api_event(game, host, event)
    assert refused.status_code == status and words in refused.json()["detail"]
    assert GameEvent.objects.filter(game=game).count() == len(OPENING)


def test_the_best_move_is_recorded_once(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, *OPENING, {"type": "best_move", "by": 6, "targets": []})  # «без ЛХ»
    again = api_event(game, host, BEST_MOVE)
    assert again.status_code == 422 and "уже записан" in again.json()["detail"]


def test_only_the_games_host_and_admins_give_extra_points(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, *OPENING)
    # A seated player, a member, another host of the club: refused.
    other_host = make_member(nickname="Другой ведущий", role=Role.HOST)
    for who in (players[0], make_member(nickname="Зритель"), User.objects.get(pk=other_host.pk)):
        refused = api_event(game, who, bonus(5, 0.3))
        assert refused.status_code == 403, who
    admin = make_member(nickname="Админ", is_staff=True, is_superuser=True)
    assert api_event(game, admin, bonus(5, 0.3, "от админа")).status_code == 201
    assert [b.author for b in bonuses_given(game)] == [admin]


def test_the_bounds_are_the_current_schemes(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, *OPENING)
    ScoringScheme.objects.create(version=2, points={"bonus_min": -0.3, "bonus_max": 0.5})
    refused = api_event(game, host, bonus(5, 0.7))
    assert refused.status_code == 422 and refused.json()["bonus_max"] == 0.5
    assert api_event(game, host, bonus(5, -0.4)).status_code == 422
    assert api_event(game, host, bonus(5, 0.5)).status_code == 201


def test_a_bonus_on_a_finished_game_within_the_window_rebuilds_its_analysis(
    table: Table,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    queued: list[tuple[str, tuple[object, ...]]],
) -> None:
    host = table[0]
    game = finished(table)
    queued.clear()
    with django_capture_on_commit_callbacks(execute=True):
        given = api_event(game, host, bonus(2, 0.4, "сильная защита"))
    assert given.status_code == 201, given.content
    assert queued == [("games.ratings.tasks.game_analyse", (game.pk,))]
    analysis.game_analysis_build(game_id=game.pk)
    black = PlayerScore.objects.get(game=game, seat=2)
    assert black.lines == [{"code": "bonus", "points": 0.4, "reason": "сильная защита"}]
    assert black.points == 0.4  # black lost: the extra points are all of it
    victim = PlayerScore.objects.get(game=game, seat=6)
    assert {"code": "best_move_2", "points": 0.25, "targets": [1, 2, 9], "black": 2} in (
        victim.lines
    )


def test_after_the_window_nothing_more_is_given(table: Table) -> None:
    host = table[0]
    game = finished(table)
    assert game.first_ended_at is not None
    Club.objects.filter(pk=1).update(bonus_window_days=2)
    Club.forget_cached()
    with time_machine.travel(game.first_ended_at + timedelta(days=2, minutes=-1)):
        assert api_event(game, host, bonus(5, 0.1, "в срок")).status_code == 201
    with time_machine.travel(game.first_ended_at + timedelta(days=2, minutes=1)):
        late = api_event(game, host, bonus(5, 0.1, "поздно"))
        assert late.status_code == 403 and "2 дн" in late.json()["detail"]
        admin = make_member(nickname="Админ", is_staff=True, is_superuser=True)
        assert api_event(game, admin, bonus(5, 0.1, "поздно")).status_code == 403
        # A foul heard on the recording is not the host's judgement: no window for it.
        assert api_event(game, host, {"type": "foul", "seat": 5}).status_code == 201
    Club.objects.filter(pk=1).update(bonus_window_days=0)
    Club.forget_cached()
    assert api_event(game, host, bonus(5, 0.1, "после игры")).status_code == 403


def test_the_best_move_after_the_end_keeps_to_the_window_too(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS)  # no best move recorded in the morning
    assert game.first_ended_at is not None
    assert api_event(game, host, BEST_MOVE).status_code == 201
    with time_machine.travel(game.first_ended_at + timedelta(days=4)):
        assert api_event(game, host, BEST_MOVE).status_code == 403
        # Nor is it taken back after the window (an undo of it was a way around it).
        with pytest.raises(Refused):
            record(game, host, {"type": "undo"})
    assert view_of(game.pk).club_state.best_move is not None


def test_the_host_screen_is_told_when_the_window_closes(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS[:-1])
    assert bonus_window(game) == {"days": 3, "closes": None}  # it runs: no window yet
    record(game, host, TOWN_WINS[-1])
    ended = present(game.first_ended_at)
    closes = (ended + timedelta(days=3)).isoformat()
    assert bonus_window(game) == {"days": 3, "closes": closes}
    assert page_data(view_of(game.pk), host)["bonusWindow"]["closes"] == closes
    # Reopened by an undo and ended again later, the window counts from the first end.
    with time_machine.travel(ended + timedelta(days=1)):
        record(game, host, {"type": "undo"})
        assert bonus_window(game) == {"days": 3, "closes": closes}
        record(game, host, TOWN_WINS[-1])
    assert bonus_window(game) == {"days": 3, "closes": closes}
    Club.objects.filter(pk=1).update(bonus_window_days=0)
    Club.forget_cached()
    assert bonus_window(game) == {"days": 0, "closes": ended.isoformat()}


def test_the_host_screens_tap_takes_them_as_the_api_does(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, *OPENING)
    client = Client()
    client.force_login(host)

    def tap(event: dict[str, Any], seq: int) -> Response:
        body = {"seq": seq, "client_id": f"c{seq}", "event": event, "confirmed": False}
        return client.post(f"/games/{game.pk}/tap/", body, content_type="application/json")

    shown = tap(BEST_MOVE, len(OPENING) + 1)
    assert shown.status_code == 201 and shown.json()["table"]["best_move"] is None
    assert shown.json()["table"]["best_move_given"] == {"by": 6, "targets": [1, 2, 9]}
    out_of_bounds = tap(bonus(3, 2), len(OPENING) + 2)
    assert out_of_bounds.status_code == 422 and out_of_bounds.json()["error"]
    given = tap(bonus(3, -0.2, "телефон"), len(OPENING) + 2)
    assert given.status_code == 201  # nobody leaves: no question first
    assert given.json()["table"]["bonuses"] == [{"seat": 3, "points": -0.2, "reason": "телефон"}]


def test_the_page_shows_them_with_the_reason_once_the_cards_are_shown(table: Table) -> None:
    host, evening, players = table
    set_consent(players[5], consent=False)  # seat 6, the best move's giver
    game = start_game(host, evening, players)
    record(game, host, *OPENING, BEST_MOVE, bonus(2, 0.2, "сильная речь за мафию"))
    running = Client().get(f"/games/{game.pk}/").content.decode()
    assert "сильная речь" not in running  # a reason may speak of a card: not while it runs
    record(game, host, *TOWN_WINS[len(OPENING) :])
    analysis.game_analysis_build(game_id=game.pk)
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert "«сильная речь за мафию»" in page and "+0,20" in page
    assert "Игрок 6" in page and players[5].nickname not in page
    # The line, in its score's disclosure: what it is for, then its points.
    assert (
        "<span>дополнительные баллы от ведущего: «сильная речь за мафию»</span>"
        ' <strong class="num">+0,20</strong>'
    ) in page
    assert "лучший ход, два из названных чёрные" in page
    assert 'action="/games/' not in page  # no form for the public
    member = Client()
    member.force_login(players[0])
    assert 'name="reason"' not in member.get(f"/games/{game.pk}/").content.decode()


def test_the_exported_protocol_names_no_opted_out_member_in_a_reason(table: Table) -> None:
    host, _evening, players = table
    set_consent(players[1], consent=False)  # seat 2
    # Written before reasons were screened for nicknames (games/reasons.py).
    with mock.patch("games.reasons.refuse_named_event"):
        game = finished(table, bonus(4, 0.2, f"поймал {players[1].nickname.upper()} на лжи"))
    url = f"/api/v1/games/{game.pk}/protocol"
    document = Client().get(url, headers=bearer(players[0])).json()
    (given,) = [event for event in document["events"] if event["type"] == "bonus"]
    # The protocol names the player by a reference to the seat, as a reason written now.
    assert given["reason"] == "поймал {seat:2} на лжи"
    assert players[1].nickname not in str(document)
    # The host still reads the reason as written.
    hosts = Client().get(url, headers=bearer(host)).json()
    assert players[1].nickname.upper() in str(hosts)


def test_the_finished_games_page_gives_extra_points_to_its_host(
    table: Table, queued: list[tuple[str, tuple[object, ...]]]
) -> None:
    host, _evening, players = table
    game = finished(table)
    client = Client()
    client.force_login(host)
    page = client.get(f"/games/{game.pk}/?public=1").content.decode()
    assert 'name="reason"' in page and "От -1 до +1" in page
    assert '<option value="1.00">+1,00</option>' in page and 'value="-1.00"' in page
    assert 'value="0.10" selected' in page and 'value="0.00"' not in page
    answer = client.post(
        f"/games/{game.pk}/bonus/", {"seat": "4", "points": "0,35", "reason": "вёл город"}
    )
    assert answer.status_code == 302 and answer["Location"].endswith("?public=1#bonuses")
    assert [(b.seat, b.points, b.reason) for b in bonuses_given(game)] == [(4, 0.35, "вёл город")]
    refused = client.post(
        f"/games/{game.pk}/bonus/", {"seat": "7", "points": "5", "reason": "много за речь"}
    )
    # Said beside the form, which keeps what was typed.
    assert refused.status_code == 422
    text = refused.content.decode()
    assert 'id="bonus-error"' in text and "от -1 до +1" in text
    assert 'value="много за речь"' in text and '<option value="7" selected>' in text
    member = Client()
    member.force_login(players[0])
    member.post(f"/games/{game.pk}/bonus/", {"seat": "1", "points": "1", "reason": "себе"})
    assert len(bonuses_given(game)) == 1
    assert game.first_ended_at is not None
    with time_machine.travel(game.first_ended_at + timedelta(days=3, minutes=1)):
        late = client.get(f"/games/{game.pk}/?public=1").content.decode()
        assert 'name="reason"' not in late and "вёл город" in late
        assert "срок истёк" in late  # the host learns why the form is gone
        too_late = client.post(
            f"/games/{game.pk}/bonus/", {"seat": "4", "points": "0.1", "reason": "x"}
        )
        assert too_late.status_code == 403 and 'id="bonus-error"' in too_late.content.decode()
    assert len(bonuses_given(game)) == 1


def test_a_new_game_keeps_the_clubs_reading_of_the_best_move(table: Table) -> None:
    host, evening, players = table
    Club.objects.filter(pk=1).update(best_move_victims="first_killed")
    Club.forget_cached()
    game = start_game(host, evening, players)
    assert game.options["best_move_victims"] == "first_killed"
    Club.objects.filter(pk=1).update(best_move_victims="night_one")
    Club.forget_cached()
    game.refresh_from_db()
    engine = engine_for(game, list(game.seats.all()))
    assert isinstance(engine, ClubGame) and engine.options.best_move_victims == "first_killed"


def test_the_admin_sets_the_window_and_the_reading(admin_client_: Client) -> None:
    page = admin_client_.get("/admin/club/club/1/change/").content.decode()
    assert 'name="bonus_window_days"' in page and 'name="best_move_victims"' in page


def test_a_scheme_version_carries_the_best_move_flag_and_the_bounds(
    admin_client_: Client,
) -> None:
    add = f"/admin/ratings/scoringscheme/add/?preset={ScoringPreset.objects.club().pk}"
    page = admin_client_.get(add).content.decode()
    for field in ("best_move_2", "best_move_3", "best_move_loners_black", "bonus_min"):
        assert f'name="{field}"' in page
    form: dict[str, object] = {"note": "ЛХ с одиночками", **Scheme().to_dict()}
    form["preset"] = ScoringPreset.objects.club().pk  # the preset the version is of
    form["tie_breakers"] = ", ".join(Scheme().tie_breakers)
    form["best_move_loners_black"] = "on"
    form["bonus_max"] = 0.7
    assert admin_client_.post(add, form).status_code == 302
    latest = ScoringScheme.objects.current().scheme()
    assert latest.best_move_loners_black is True and latest.bonus_max == 0.7


def test_an_undo_takes_extra_points_back_within_the_window_only(table: Table) -> None:
    host, _evening, _players = table
    game = finished(table, bonus(4, 0.35, "вёл город"))

    def undo(confirmed: bool) -> None:
        game.refresh_from_db()
        game_record_event(
            game_id=game.pk,
            author=host,
            event={"type": "undo"},
            seq=game.last_seq + 1,
            client_id=None,
            confirmed=confirmed,
        )

    # Asked first, saying what it takes back: not «the game reopens», which it does not.
    with pytest.raises(Refused) as asked:
        undo(confirmed=False)
    assert asked.value.code == RefusalCode.CONFIRM and "+0,35 месту 4" in asked.value.message
    assert asked.value.details["reopens"] is False
    assert game.first_ended_at is not None
    with time_machine.travel(game.first_ended_at + timedelta(days=3, minutes=1)):
        with pytest.raises(Refused) as late:
            undo(confirmed=True)
        assert late.value.code == RefusalCode.FORBIDDEN
    assert [(b.seat, b.points) for b in bonuses_given(game)] == [(4, 0.35)]
    undo(confirmed=True)
    game.refresh_from_db()
    assert bonuses_given(game) == [] and game.finished
