"""The facts of play kept once per game, in the worker, beside its analysis
(games/rules/facts.py reads them off the engine; docs/statistics.md sums them)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from games.models import Game, Seat
from games.ratings.models import PlayFacts
from games.recording import engine_for
from games.rules.facts import SeatFacts, club_facts, online_facts
from games.rules.online import OnlineGame
from games.rules.options import ClubOptions
from games.rules.results import Results, results_facts


def play_facts_write(
    game: Game, seats: Sequence[Seat], events: Sequence[Mapping[str, Any]], played_on: date
) -> None:
    """The game's rows written anew (its analysis was just built). Raises the engine's
    ProtocolError / RuleViolation for a log that does not replay, as the scoring does.
    A results-only game has no log: its facts are what its results hold
    (games/rules/results.results_facts), and its rows say so (`has_log`)."""
    if game.results_only:
        known = ClubOptions.from_dict(game.options).roles
        roles = {seat.number: known[seat.role] for seat in seats if seat.role in known}
        facts = results_facts(roles, Results.from_dict(game.results), game.winner)
    else:
        state = engine_for(game, seats)
        facts = (
            online_facts(state, events)
            if isinstance(state, OnlineGame)
            else club_facts(state, events)
        )
    PlayFacts.objects.filter(game=game).delete()
    PlayFacts.objects.bulk_create(
        _row(game, seat, facts[seat.number], played_on, len(seats))
        for seat in seats
        if seat.number in facts
    )


def play_facts_delete(game_id: int) -> None:
    """The game's analysis was withdrawn (an undo reopened it): so are its facts."""
    PlayFacts.objects.filter(game_id=game_id).delete()


def play_facts_missing(game_id: int) -> bool:
    return not PlayFacts.objects.filter(game_id=game_id).exists()


def _row(game: Game, seat: Seat, facts: SeatFacts, played_on: date, size: int) -> PlayFacts:
    return PlayFacts(
        club_id=game.club_id,
        game=game,
        seat=seat.number,
        # A guest's seat has no member: it counts for the table and the host, no player.
        member_id=seat.member_id,
        # An imported game's records name no host (Game.host_known): it counts for none.
        host_id=game.host_id if game.host_known else None,
        played_on=played_on,
        table_size=size,
        has_log=not game.results_only,
        role=facts.role,
        team=facts.team,
        won=facts.won,
        nominations=facts.nominations,
        nominations_rival=facts.nominations_rival,
        votes=facts.votes,
        votes_rival=facts.votes_rival,
        checks=facts.checks,
        checks_black=facts.checks_black,
        killed_first=facts.killed_first,
        best_move_named=facts.best_move_named,
        best_move_black=facts.best_move_black,
        fouls=facts.fouls,
        left_reason=facts.left_reason,
        left_phase=facts.left_phase,
        left_n=facts.left_n,
    )
