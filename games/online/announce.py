"""What the players of an online game are told, privately through the outbox by each
member's channels: each once (a dedupe key per game, step and member).

Telegram carries every step. Email carries two letters a game (BY_EMAIL): the deal (when
the game starts, the player's seat and card) and the end (who won), each with a link to the
game's page. The steps between — each day and night, a night's turn, a check's answer, an
outcome, a removal — are not written as letters: a game of five days would send some thirty
(one per phase), and the table's page shows them all as they happen. So a member without
Telegram hears that the game is coming and how it ended, and plays it on the site."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from django.conf import settings
from django.urls import reverse

from accounts.languages import speaking_to
from accounts.models import User
from games.models import Game
from games.online import texts
from games.online.table import Table
from notifications.services import member_notify

NIGHT_ACTIONS = ("shot", "don_check", "com_check")

# The messages (by their key's first word) that go by email too; the rest leave email out.
BY_EMAIL = frozenset({"deal", "end"})


def key_prefix(game_id: int) -> str:
    """What every message about one game is keyed with (the admin hides them by it)."""
    return f"online:{game_id}:"


def tell(game: Game, member: User, key: str, compose: Callable[[], str]) -> None:
    """Tell one player what `compose` writes (in their language), keyed `key` (its first
    word, before a colon, names the kind of message: BY_EMAIL's rule reads it)."""
    with speaking_to(member):
        member_notify(
            member=member,
            dedupe_key=f"{key_prefix(game.pk)}{key}:{member.pk}",
            text=compose(),
            link=settings.SITE_URL + reverse("online_game", args=[game.pk]),
            email=key.partition(":")[0] in BY_EMAIL,
        )


def everyone(found: Table, key: str, compose: Callable[[], str]) -> None:
    """Tell every player, each in their own language."""
    for seat in found.seats:
        tell(found.game, seat.player, key, compose)


def phase(found: Table) -> None:
    state = found.state
    key = f"phase:{state.phase.value}:{state.n}"
    until = found.table.deadline_at
    everyone(
        found, key, lambda: texts.online_phase(phase=state.phase.value, n=state.n, until=until)
    )
    if state.phase.value == "night":
        for seat in found.seats:
            turn = [a for a in state.actions_for(seat.number) if a in NIGHT_ACTIONS]
            if turn:
                tell(
                    found.game,
                    seat.player,
                    f"turn:{state.n}",
                    partial(texts.online_night_turn, actions=turn, n=state.n),
                )


def outcome(found: Table) -> None:
    state = found.state
    nick = {s.number: s.player.nickname for s in found.seats}
    out = [
        e
        for e in state.eliminated
        if (e.phase, e.n) == (state.phase.value, state.n) and e.reason in ("voted", "killed")
    ]
    compose = partial(
        texts.online_outcome,
        phase=state.phase.value,
        n=state.n,
        outcome=state.outcome or "",
        out=[f"{e.seat}. {nick[e.seat]}" for e in out],
        tied=[f"{s}. {nick[s]}" for s in (state.catastrophe.tied if state.catastrophe else [])],
        fast_night_at=found.table.deadline_at if state.ended_by_fast and not state.open else None,
    )
    everyone(found, f"outcome:{state.phase.value}:{state.n}:{found.game.last_seq}", compose)


def end(found: Table) -> None:
    everyone(
        found,
        "end",
        partial(texts.online_end, number=found.game.number, winner=found.state.winner or ""),
    )
