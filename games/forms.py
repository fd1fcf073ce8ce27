"""What the host's screen posts, turned into the protocol event it stands for.

The screen's forms are shaped for a thumb (a mode, then a tap on a seat); this maps them to
PROTOCOL.md events. Whether the event is allowed is the engine's to say, not this module's.
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.utils import timezone

from club.parsing import whole_number
from games.queries import GameView


class BadForm(Exception):
    pass


def _int(post: QueryDict, key: str) -> int:
    number = whole_number(post.get(key, ""))
    if number is None:
        raise BadForm(key)
    return number


def _counts(post: QueryDict, seats: tuple[int, ...] | list[int]) -> dict[str, int]:
    counts = {}
    for seat in seats:
        count = whole_number(post.get(f"count_{seat}", "").strip() or "0", high=1000)
        if count is None:
            raise BadForm(f"count_{seat}")
        counts[str(seat)] = count
    return counts


def seat_action(mode: str, seat: int, post: QueryDict, view: GameView) -> dict[str, Any]:
    """A tap on `seat` in the chosen mode."""
    if mode == "nominate":
        return {"type": "nominate", "by": _int(post, "by"), "target": seat}
    if mode in ("foul", "extension"):
        return {"type": mode, "seat": seat}
    kind, _colon, who = mode.partition(":")
    if kind == "check":
        actor = next((s.number for s in view.seats if s.role == who), None)
        return {"type": "check", "by": actor, "target": seat}
    if kind == "kill":
        return {"type": "kill", "by": who, "target": seat}
    if kind == "heal":
        return {"type": "heal", "target": seat}
    if kind == "action" and (by := whole_number(who, low=1)) is not None:
        acting = view.by_number.get(by)
        return {
            "type": "action",
            "by": by,
            "target": seat,
            "kind": acting.role if acting else "",
        }
    raise BadForm("mode")


def event_from_post(post: QueryDict, view: GameView) -> dict[str, Any]:
    kind = post.get("type", "")
    now = timezone.now().isoformat()
    if kind == "seat":
        return seat_action(post.get("mode", ""), _int(post, "seat"), post, view)
    if kind in ("day", "night"):
        return {"type": kind, "n": _int(post, "n")}
    if kind in ("votes", "hands"):
        prompt = view.prompt
        among = view.club_state.nominees if kind == "votes" else list(prompt.candidates)
        return {"type": kind, "counts": _counts(post, among)}
    if kind in ("first_day_expel", "expel_both"):
        return {"type": kind, "for": _int(post, "for")}
    if kind in ("speech", "last_word"):
        event: dict[str, Any] = {
            "type": kind,
            "seat": _int(post, "seat"),
            "start": post.get("start") or now,
            "end": post.get("end") or now,
        }
        if kind == "speech":
            event["limit"] = _int(post, "limit")
        return event
    if kind == "undo":
        return {"type": "undo"}
    raise BadForm("type")
