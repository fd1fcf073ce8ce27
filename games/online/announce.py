"""What the players of an online game are told, privately in Telegram through the outbox:
each once (a dedupe key per game, step and member)."""

from __future__ import annotations

from accounts.models import User
from games.models import Game
from games.online import texts
from games.online.table import Table
from notifications.services import notification_enqueue

NIGHT_ACTIONS = ("shot", "don_check", "com_check")


def key_prefix(game_id: int) -> str:
    """What every message about one game is keyed with (the admin hides them by it)."""
    return f"online:{game_id}:"


def tell(game: Game, member: User, key: str, text: str) -> None:
    notification_enqueue(
        dedupe_key=f"{key_prefix(game.pk)}{key}:{member.pk}", member=member, text=text
    )


def everyone(found: Table, key: str, text: str) -> None:
    for seat in found.seats:
        tell(found.game, seat.player, key, text)


def phase(found: Table) -> None:
    state = found.state
    key = f"phase:{state.phase.value}:{state.n}"
    until = found.table.deadline_at
    everyone(found, key, texts.online_phase(phase=state.phase.value, n=state.n, until=until))
    if state.phase.value == "night":
        for seat in found.seats:
            turn = [a for a in state.actions_for(seat.number) if a in NIGHT_ACTIONS]
            if turn:
                tell(
                    found.game,
                    seat.player,
                    f"turn:{state.n}",
                    texts.online_night_turn(actions=turn, n=state.n),
                )


def outcome(found: Table) -> None:
    state = found.state
    nick = {s.number: s.player.nickname for s in found.seats}
    out = [
        e
        for e in state.eliminated
        if (e.phase, e.n) == (state.phase.value, state.n) and e.reason in ("voted", "killed")
    ]
    text = texts.online_outcome(
        phase=state.phase.value,
        n=state.n,
        outcome=state.outcome or "",
        out=[f"{e.seat}. {nick[e.seat]}" for e in out],
        tied=[f"{s}. {nick[s]}" for s in (state.catastrophe.tied if state.catastrophe else [])],
        fast_night_at=found.table.deadline_at if state.ended_by_fast and not state.open else None,
    )
    everyone(found, f"outcome:{state.phase.value}:{state.n}:{found.game.last_seq}", text)


def end(found: Table) -> None:
    everyone(
        found, "end", texts.online_end(number=found.game.number, winner=found.state.winner or "")
    )
