"""The facts of play kept once per game with its analysis (games/ratings/play_facts.py,
games/rules/facts.py): each fact read off a game built to have it, rebuilt and withdrawn
with the analysis, and filled for games analysed before the facts were kept."""

from __future__ import annotations

import io
import random

import pytest
from django.core.management import call_command

from accounts.models import User
from club.models import Guest
from games.models import Game, GameStatus
from games.ratings import analysis
from games.ratings.models import PlayFacts
from games.rules.facts import online_facts
from games.rules.online import BLACK_ROLES, OnlineGame
from games.rules.simulate import random_online_game
from tests.factories import make_member
from tests.games.ratings.played import BLACK_WINS, game_played
from tests.games.recording import make_host

pytestmark = pytest.mark.django_db


def facts(game: Game) -> dict[int, PlayFacts]:
    return {row.seat: row for row in PlayFacts.objects.filter(game=game)}


@pytest.fixture
def twelve() -> list[User]:
    return [make_member() for _ in range(12)]


def test_each_seat_keeps_its_facts_of_play(twelve: list[User]) -> None:
    host = make_host()
    game = game_played(twelve, host=host)
    seats = facts(game)
    assert len(seats) == 12
    assert {(row.table_size, row.host_id, row.has_log) for row in seats.values()} == {
        (12, host.pk, True)
    }
    assert [seats[n].member_id for n in range(1, 13)] == [m.pk for m in twelve]
    doctor, mafia, commissar = seats[5], seats[2], seats[4]
    assert (doctor.role, doctor.team, doctor.won) == ("doctor", "red", True)
    assert (mafia.role, mafia.team, mafia.won) == ("mafia", "black", False)
    # A red player's nomination of black, a black one's of red.
    assert (doctor.nominations, doctor.nominations_rival) == (1, 1)
    assert (mafia.nominations, mafia.nominations_rival) == (1, 1)
    # The commissar nominated 2, 3 and 1 (all black) and voted on seat 7 (red) on day 1.
    assert (commissar.nominations, commissar.nominations_rival) == (3, 3)
    assert (commissar.votes, commissar.votes_rival) == (1, 0)
    assert (doctor.votes, doctor.votes_rival) == (1, 1)
    assert (seats[12].votes, seats[12].votes_rival) == (1, 0)
    assert (mafia.votes, mafia.votes_rival) == (1, 1)  # black on red
    # Counted without voters (a count of hands only): nobody's vote is known.
    assert seats[1].votes == 1  # day 1's tapped hands only
    assert (commissar.checks, commissar.checks_black) == (1, 1)
    assert seats[1].checks == 0  # the boss's check is not the commissar's
    victim = seats[6]
    assert victim.killed_first
    assert (victim.left_reason, victim.left_phase, victim.left_n) == ("killed", "night", 1)
    assert (victim.best_move_named, victim.best_move_black) == (3, 2)
    assert [n for n, row in seats.items() if row.killed_first] == [6]
    assert (seats[2].left_reason, seats[2].left_phase, seats[2].left_n) == ("voted", "day", 2)
    assert seats[9].fouls == 1
    assert sum(row.fouls for row in seats.values()) == 1
    assert seats[10].left_reason == ""


def test_a_guests_seat_counts_for_the_table_but_belongs_to_nobody(twelve: list[User]) -> None:
    guest = Guest.objects.create(name="Гость")
    game = game_played([*twelve[:11], guest], host=make_host())
    seats = facts(game)
    assert seats[12].member_id is None
    assert seats[12].table_size == 12


def test_black_wins_and_the_first_kill_of_another_game(twelve: list[User]) -> None:
    game = game_played(twelve, host=make_host(), events=BLACK_WINS)
    seats = facts(game)
    assert {n for n, row in seats.items() if row.won} == {1, 2, 3}
    assert [n for n, row in seats.items() if row.killed_first] == [6]
    assert seats[7].nominations == 1 and seats[7].nominations_rival == 0  # red on red


def test_facts_follow_the_analysis_withdrawn_and_rebuilt(twelve: list[User]) -> None:
    game = game_played(twelve, host=make_host())
    Game.objects.filter(pk=game.pk).update(status=GameStatus.RUNNING)
    assert analysis.game_analysis_build(game_id=game.pk)
    assert not PlayFacts.objects.filter(game=game).exists()
    Game.objects.filter(pk=game.pk).update(status=GameStatus.FINISHED)
    assert analysis.game_analysis_build(game_id=game.pk)
    assert len(facts(game)) == 12


def test_the_rebuild_fills_the_facts_of_games_analysed_before_them(twelve: list[User]) -> None:
    game = game_played(twelve, host=make_host())
    kept = {n: (row.votes, row.nominations, row.fouls) for n, row in facts(game).items()}
    PlayFacts.objects.all().delete()  # as before the facts were kept
    assert analysis.analyses_rebuild() == []  # no analysis changed
    assert {n: (row.votes, row.nominations, row.fouls) for n, row in facts(game).items()} == kept


def test_the_command_fills_the_facts_of_every_club_once(twelve: list[User]) -> None:
    game = game_played(twelve, host=make_host())
    PlayFacts.objects.all().delete()
    out = io.StringIO()
    call_command("play_facts_fill", stdout=out)
    assert "for 1 games" in out.getvalue()
    assert len(facts(game)) == 12
    call_command("play_facts_fill", stdout=out)
    assert "for 0 games" in out.getvalue()


def test_an_online_games_facts_are_read_off_its_engine() -> None:
    """The online ruleset: votes are the ones standing when a day's vote closed, fouls are
    warnings, the commissar's checks are the engine's, and each seat left as it says."""
    rng = random.Random(7)
    for _ in range(20):
        seats, events, end = random_online_game(rng)
        facts = online_facts(OnlineGame(seats), events)
        assert {seat: f.won for seat, f in facts.items()} == {
            seat: ("black" if role in BLACK_ROLES else "red") == end.winner
            for seat, role in seats.items()
        }
        assert {s: f.fouls for s, f in facts.items() if f.fouls} == {
            s: n for s, n in end.warnings.items() if n
        }
        commissar = [c for c in end.checks if c.kind == "commissar"]
        assert sum(f.checks for f in facts.values()) == len(commissar)
        assert sum(f.checks_black for f in facts.values()) == sum(
            c.result == "black" for c in commissar
        )
        assert {f.seat: f.left_reason for f in facts.values() if f.left_reason} == {
            out.seat: str(out.reason) for out in end.eliminated
        }
        assert all(f.votes_rival <= f.votes for f in facts.values())
        killed = [out for out in end.eliminated if out.reason == "killed"]
        first = {out.seat for out in killed if out.n == min((o.n for o in killed), default=0)}
        assert {f.seat for f in facts.values() if f.killed_first} == first
