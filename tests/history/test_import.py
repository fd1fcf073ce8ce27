"""An import of a club's past (history/imports/services.py): the preview shows what a
confirm creates, the confirm creates exactly that in one transaction, the same file twice
creates nothing twice, an overlapping file only its new games, and an undo removes it all."""

from __future__ import annotations

import dataclasses
import random
from datetime import date, timedelta

import pytest
from django.utils import timezone, translation

from accounts.models import User
from club.kernel.clubs import Club
from club.kernel.errors import Refused
from club.models import Evening, EveningStatus, Guest
from games.models import Game, GameEvent, GameSource, Seat
from games.ratings.models import GameAnalysis, PlayerScore, PlayFacts
from games.ratings.tasks import game_analyse
from games.rules.protocol import Seat as ProtocolSeat
from games.rules.protocol import export
from games.rules.simulate import random_game
from history.formats.records import GameRecord, Problem, Read, SeatRecord, Source
from history.imports import rebuild, services
from history.imports.matching import How
from history.models import HistoryImport, ImportedGame, ImportStatus
from notifications.models import Notification
from tests.factories import make_member
from tests.history.records import NICKNAMES, game_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser() -> User:
    return make_member(nickname="Организатор", role="organiser")


def upload(
    organiser: User,
    games: list[GameRecord],
    data: bytes = b"file",
    problems: tuple[Problem, ...] = (),
) -> HistoryImport:
    read = Read(games=games, problems=list(problems))
    return services.import_upload(
        author=organiser, filename="past.csv", data=data, read=read, source=Source.SPREADSHEET
    )


def confirm(found: HistoryImport, organiser: User, **choices: str) -> HistoryImport:
    done = services.import_confirm(history_import_id=found.pk, actor=organiser, choices=choices)
    rebuild.history_rebuild(history_import_id=done.pk)  # the worker's part
    done.refresh_from_db()
    return done


def test_the_preview_lists_games_problems_and_every_name_matched(organiser: User) -> None:
    make_member(nickname="Ворон")
    make_member(nickname="Лиса")
    names = ("ворон", "Лисa", "Новичок", *tuple(f"Старый {n}" for n in range(4, 11)))
    games = [
        game_record("g1", nicknames=names),
        game_record("g2", table=2, nicknames=names),
        game_record("g3", played_on=date(2024, 3, 9), nicknames=names),
    ]
    found = upload(organiser, games, problems=(Problem(7, "Роль «пират» клубу неизвестна."),))
    preview = services.import_preview(found)
    assert [(day, table, len(g)) for day, table, g in preview.by_date] == [
        (date(2024, 3, 2), 1, 1),
        (date(2024, 3, 2), 2, 1),
        (date(2024, 3, 9), 1, 1),
    ]
    assert preview.problems == [{"line": 7, "message": "Роль «пират» клубу неизвестна."}]
    how = {
        match.nickname: (match.how, match.member and match.member.nickname)
        for match, _seats in preview.matches
    }
    assert how["ворон"] == (How.EXACT, "Ворон")
    # A Latin «a» for the Cyrillic «а»: the skeleton finds Лиса.
    assert how["Лисa"] == (How.LOOKALIKE, "Лиса")
    assert how["Новичок"] == (How.NEW, None)
    assert dict((m.nickname, seats) for m, seats in preview.matches)["Новичок"] == 3
    # Nothing is written before the confirm.
    assert not Game.objects.exists() and not Guest.objects.exists()


def test_confirm_creates_exactly_the_games_with_their_results_and_scores(
    organiser: User,
) -> None:
    voron = make_member(nickname="Ворон")
    names = ("Ворон", *tuple(f"Старый {n}" for n in range(2, 11)))
    games = [
        game_record("g1", nicknames=names, killed_first=5, best_move=(1, 2, 6)),
        game_record(
            "g2",
            number=2,
            nicknames=names,
            winner="black",
            fouled_out=4,
            extra={1: (0.3, "за игру")},
        ),
    ]
    found = confirm(upload(organiser, games), organiser)
    assert found.status == ImportStatus.IMPORTED and found.progress == 100
    assert found.counts["games"] == 2 and found.counts["guests"] == 9
    assert found.counts["evenings"] == 1 and found.records == []
    evening = Evening.objects.get()
    assert evening.status == EveningStatus.FINISHED and evening.starts_at < timezone.now()
    assert timezone.localtime(evening.starts_at).date() == date(2024, 3, 2)
    first, second = Game.objects.order_by("number")
    assert first.source == second.source == GameSource.RESULTS
    assert not GameEvent.objects.exists()  # no fake log
    assert first.winner == "red" and first.results["seats"]["5"]["left"] == "killed"
    assert Seat.objects.filter(member=voron).count() == 2
    assert Guest.objects.filter(from_history=True).count() == 9
    assert GameAnalysis.objects.count() == 2
    # The boss (seat 1) lost the first game, won the second with 0.3 extra points.
    scores = {s.game_id: s for s in PlayerScore.objects.filter(member=voron)}
    assert scores[first.pk].points == 0 and not scores[first.pk].won
    assert scores[second.pk].won and scores[second.pk].points == pytest.approx(1.4)
    assert {line["code"] for line in scores[second.pk].lines} == {"win", "winner_survives", "bonus"}
    assert scores[second.pk].rating_after is not None  # the ratings were replayed


def test_the_killed_first_night_comes_from_the_results(organiser: User) -> None:
    voron = make_member(nickname="Ворон")
    names = (
        *tuple(f"Старый {n}" for n in range(1, 5)),
        "Ворон",
        *tuple(f"Старый {n}" for n in range(6, 11)),
    )
    confirm(upload(organiser, [game_record("g1", nicknames=names, killed_first=5)]), organiser)
    assert PlayerScore.objects.get(member=voron).killed_first_night


def test_the_same_file_twice_creates_nothing_twice(organiser: User) -> None:
    confirm(upload(organiser, [game_record("g1")], data=b"same"), organiser)
    with pytest.raises(Refused) as refused:
        upload(organiser, [game_record("g1")], data=b"same")
    assert refused.value.code == "conflict"
    assert "Этот файл уже перенесён" in refused.value.message
    assert Game.objects.count() == 1 and HistoryImport.objects.count() == 1


def test_an_overlapping_file_adds_only_its_new_games(organiser: User) -> None:
    confirm(upload(organiser, [game_record("g1"), game_record("g2", number=2)], b"a"), organiser)
    later = upload(
        organiser,
        [game_record("g2", number=2), game_record("g3", played_on=date(2024, 3, 9))],
        b"b",
    )
    preview = services.import_preview(later)
    assert [(g.record.key, g.skipped) for g in preview.games] == [("g2", True), ("g3", False)]
    done = confirm(later, organiser)
    assert done.counts["games"] == 1 and done.counts["skipped"] == 1
    assert Game.objects.count() == 3 and Evening.objects.count() == 2
    # The second file's players are the first file's unclaimed players, not new ones.
    assert Guest.objects.count() == 10 and done.counts["guests"] == 0


def test_undo_removes_what_the_import_created_and_the_scores(organiser: User) -> None:
    voron = make_member(nickname="Старый 1")
    first = confirm(upload(organiser, [game_record("g1")], b"a"), organiser)
    second = confirm(upload(organiser, [game_record("g2", number=2)], b"b"), organiser)
    assert PlayerScore.objects.filter(member=voron).count() == 2
    services.import_undo(history_import_id=second.pk)
    rebuild.history_rebuild(history_import_id=second.pk)
    second.refresh_from_db()
    assert second.status == ImportStatus.UNDONE and second.undone_at is not None
    # The first import's games, guests and evening stay; the second's game is gone.
    assert list(Game.objects.values_list("imported__key", flat=True)) == ["g1"]
    assert Guest.objects.count() == 9 and Evening.objects.count() == 1
    services.import_undo(history_import_id=first.pk)
    rebuild.history_rebuild(history_import_id=first.pk)
    assert not Game.objects.exists() and not Guest.objects.exists()
    assert not Evening.objects.exists() and not ImportedGame.objects.exists()
    assert not PlayerScore.objects.exists() and not Seat.objects.exists()
    # An undone file may be brought in again.
    assert upload(organiser, [game_record("g1")], b"a").status == ImportStatus.PREVIEW


def test_a_failure_mid_import_leaves_nothing(
    organiser: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = upload(organiser, [game_record("g1"), game_record("g2", number=2)])

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the disk is full")

    # The last write of the confirm fails, after the evenings, guests, games and seats.
    monkeypatch.setattr(ImportedGame.objects, "bulk_create", broken)
    with pytest.raises(RuntimeError):
        services.import_confirm(history_import_id=found.pk, actor=organiser, choices={})
    assert not Game.objects.exists() and not Seat.objects.exists()
    assert not Guest.objects.exists() and not Evening.objects.exists()
    found.refresh_from_db()
    assert found.status == ImportStatus.PREVIEW and len(found.records) == 2


def test_a_name_the_organiser_chose_and_one_kept_unclaimed(organiser: User) -> None:
    lisa = make_member(nickname="Лиса")
    make_member(nickname="Старый 2")
    found = upload(organiser, [game_record("g1")])
    done = confirm(found, organiser, **{"старый 1": f"member:{lisa.pk}", "старый 2": "new"})
    assert Seat.objects.get(number=1).member == lisa
    assert Guest.objects.get(game_seats__number=2).name == "Старый 2"
    assert done.counts["guests"] == 9


def test_a_member_at_two_seats_of_one_game_is_refused_and_nothing_written(
    organiser: User,
) -> None:
    lisa = make_member(nickname="Лиса")
    found = upload(organiser, [game_record("g1", line=5)])
    choices = {"старый 1": f"member:{lisa.pk}", "старый 2": f"member:{lisa.pk}"}
    with pytest.raises(Refused) as refused:
        services.import_confirm(history_import_id=found.pk, actor=organiser, choices=choices)
    assert "Строка 5: Лиса" in refused.value.message
    assert not Game.objects.exists() and not Guest.objects.exists()


def test_a_preview_older_than_a_day_is_dropped(organiser: User) -> None:
    found = upload(organiser, [game_record("g1")])
    HistoryImport.objects.filter(pk=found.pk).update(created_at=timezone.now() - timedelta(days=2))
    with pytest.raises(Refused):
        services.preview_of(found.pk)
    assert not HistoryImport.objects.exists()


def test_the_facts_of_play_come_from_the_results_and_say_there_is_no_log(
    organiser: User,
) -> None:
    voron = make_member(nickname="Ворон")
    names = ("Ворон", *tuple(f"Старый {n}" for n in range(2, 11)))
    record = game_record("g1", nicknames=names, killed_first=1, best_move=(2, 3, 6))
    confirm(upload(organiser, [record]), organiser)
    facts = PlayFacts.objects.get(member=voron)
    assert not facts.has_log and facts.role == "boss" and not facts.won
    assert facts.killed_first and facts.left_reason == "killed"
    assert (facts.left_phase, facts.left_n) == ("night", 1)
    assert (facts.best_move_named, facts.best_move_black) == (3, 2)
    assert facts.nominations == facts.votes == 0
    assert PlayFacts.objects.count() == 10  # the guests' seats count for the table


def test_a_protocols_game_keeps_its_log_and_is_scored_from_it(organiser: User) -> None:
    generated = random_game(random.Random(7), players=12, immune_chance=0)
    seats = [ProtocolSeat(n, f"Старый {n}", role) for n, role in sorted(generated.seats.items())]
    document = export(seats=seats, events=generated.events)
    voron = make_member(nickname="Старый 1")
    base = game_record("p1")
    record = GameRecord(
        line=1,
        key="p1",
        source=Source.PROTOCOL,
        played_on=base.played_on,
        table=1,
        number=1,
        seats=tuple(SeatRecord(seat=s.seat, nickname=s.nick, role=s.role) for s in seats),
        winner=generated.game.winner or "",
        protocol=document,
    )
    found = services.import_upload(
        author=organiser,
        filename="protocols.json",
        data=b"p",
        read=Read(games=[record]),
        source=Source.PROTOCOL,
    )
    done = confirm(found, organiser)
    game = Game.objects.get()
    assert done.counts["games"] == 1 and game.source == GameSource.PROTOCOL
    assert game.results == {} and game.winner == generated.game.winner
    assert GameEvent.objects.filter(game=game).count() == len(generated.events)
    score = PlayerScore.objects.get(member=voron)
    assert score.won == (score.team == generated.game.winner)
    assert PlayFacts.objects.get(member=voron).has_log


def test_a_protocol_that_does_not_replay_is_a_problem_not_a_game(organiser: User) -> None:
    seats = [ProtocolSeat(n, f"Старый {n}", "civilian") for n in range(1, 11)]
    document = export(seats=seats, events=[{"type": "night", "n": 1}])
    base = game_record("bad")
    record = GameRecord(
        line=4,
        key="bad",
        source=Source.PROTOCOL,
        played_on=base.played_on,
        table=1,
        number=1,
        seats=base.seats,
        winner="red",
        protocol=document,
    )
    found = services.import_upload(
        author=organiser,
        filename="protocols.json",
        data=b"q",
        read=Read(games=[record]),
        source=Source.PROTOCOL,
    )
    assert found.records == [] and [p["line"] for p in found.problems] == [4]


def test_an_imported_game_analysed_by_the_catch_up_posts_nothing_and_tells_nobody(
    organiser: User,
) -> None:
    club = Club.current()
    club.telegram_group_chat_id = -100123
    club.save()
    make_member(nickname="Старый 1", telegram_id=5_123_456)
    found = upload(organiser, [game_record("g1")])
    services.import_confirm(history_import_id=found.pk, actor=organiser, choices={})
    game = Game.objects.get()
    # The import's rebuild was lost: the beat's catch-up sweep queues game_analyse for it.
    game_analyse(game.pk)
    assert GameAnalysis.objects.filter(game=game).exists()
    assert PlayerScore.objects.filter(game=game).count() == 1
    assert not Notification.objects.exists()


def test_a_date_in_the_future_or_before_the_game_is_the_lines_problem_in_the_preview(
    organiser: User,
) -> None:
    """Not a confirm refused whole after the preview promised the games: the bad lines are
    left out with their reason, the rest goes in."""
    tomorrow = timezone.localdate() + timedelta(days=2)
    with translation.override("en"):
        found = upload(
            organiser,
            [
                game_record("a", line=2),
                game_record("b", played_on=date(1899, 12, 30), line=12),
                game_record("c", played_on=tomorrow, line=22),
            ],
        )
    assert [raw["key"] for raw in found.records] == ["a"]
    assert [p["line"] for p in found.problems] == [12, 22]
    assert "1986" in found.problems[0]["message"]
    assert "future" in found.problems[1]["message"]
    done = confirm(found, organiser)
    assert done.status == ImportStatus.IMPORTED and Game.objects.count() == 1


def test_a_game_the_club_holds_by_another_way_is_skipped_by_its_day_and_seating(
    organiser: User,
) -> None:
    """The club's own export brought back (or the same games in another format): the same
    day, table and number, the same names at the same seats, is the same game."""
    confirm(upload(organiser, [game_record("a")]), organiser)
    held = dataclasses.replace(game_record("a"), key="other-format", source=Source.EXCHANGE)
    moved = game_record("b", nicknames=tuple(reversed(NICKNAMES)))
    found = upload(organiser, [held, moved], data=b"another file")
    preview = services.import_preview(found)
    assert (preview.new_games, preview.skipped) == (1, 1)
    done = confirm(found, organiser)
    assert done.counts["games"] == 1 and Game.objects.count() == 2
