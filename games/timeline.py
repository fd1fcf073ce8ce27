"""A game's events in words, for the timeline on the game page and in the analysis."""

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import cast

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from club.kernel.numbers import signed
from games.rules.event_types import HandsEvent, VotesEvent

# Why a seat left, and what a check found, in words.
REASONS = {
    "voted": gettext_lazy("voted out"),
    "car_crash": gettext_lazy("both voted out"),
    "fouls": gettext_lazy("three fouls"),
    "killed": gettext_lazy("killed"),
    "kamikaze": gettext_lazy("taken by the kamikaze"),
    "swindler": gettext_lazy("taken by the swindler"),
    "disqualified": gettext_lazy("disqualified"),
}
CHECK_RESULTS = {
    "red": gettext_lazy("red"),
    "black": gettext_lazy("black"),
    "commissar": gettext_lazy("the commissar"),
    "not_commissar": gettext_lazy("not the commissar"),
}


def _seat(number: object, nick: Mapping[int, str]) -> str:
    if isinstance(number, int) and number in nick:
        return f"{number} ({nick[number]})"
    return str(number)


def _tally(event: VotesEvent | HandsEvent, nick: Mapping[int, str]) -> str:
    if "voters" in event:
        counts: dict[int, int] = {}
        for target in event["voters"].values():
            counts[target] = counts.get(target, 0) + 1
    else:
        counts = {int(seat): count for seat, count in event.get("counts", {}).items()}
    return ", ".join(f"{_seat(seat, nick)}: {count}" for seat, count in sorted(counts.items()))


def _bonus(event: Mapping[str, object], seat: str) -> str:
    """The host's extra points, or a penalty, as the score's lines name them: «−0,20»."""
    points = event.get("points")
    if not isinstance(points, int | float):
        points = 0.0
    words = {"seat": seat, "points": signed(points), "reason": event.get("reason")}
    if points < 0:
        return _("Penalty to %(seat)s: %(points)s, «%(reason)s»") % words
    return _("Extra points to %(seat)s: %(points)s, «%(reason)s»") % words


def _best_move(event: Mapping[str, object], nick: Mapping[int, str]) -> str:
    targets = event.get("targets")
    named = [_seat(seat, nick) for seat in targets] if isinstance(targets, list) else []
    by = _seat(event.get("by"), nick)
    if not named:
        return _("No best move from %(by)s") % {"by": by}
    return _("Best move of %(by)s: %(seats)s") % {"by": by, "seats": ", ".join(named)}


def describe(
    event: Mapping[str, object], nick: Mapping[int, str], role_names: Mapping[str, str]
) -> str:
    """One event in a line. `nick` maps seats to the names this reader may see;
    `role_names` names who shoots ("mafia", "maniac", "swindler"). The event is one of
    the log (of either ruleset), read field by field: a field its kind lacks reads as None."""
    kind = event.get("type")
    # The log holds what normalize shaped and the engine took: a count is one.
    counted = cast("VotesEvent | HandsEvent", event)

    def s(key: str) -> str:
        return _seat(event.get(key), nick)

    def shooter() -> str:
        return role_names.get(str(event.get("by")), str(event.get("by")))

    words = {"pass": _("PASS"), "hang_all": _("hang all"), "pardon_all": _("pardon all")}

    def _target() -> str:
        target = event.get("target")
        return str(words[target]) if isinstance(target, str) and target in words else s("target")

    texts = {
        "day": lambda: _("Day %(n)s") % {"n": event.get("n")},
        "night": lambda: _("Night %(n)s") % {"n": event.get("n")},
        "nominate": lambda: (
            _("%(by)s nominates %(target)s") % {"by": s("by"), "target": s("target")}
        ),
        "votes": lambda: _("Votes: %(tally)s") % {"tally": _tally(counted, nick)},
        "hands": lambda: _("Hands: %(tally)s") % {"tally": _tally(counted, nick)},
        "first_day_expel": lambda: (
            _("Expel anyone at all? %(for)s for") % {"for": event.get("for")}
        ),
        "expel_both": lambda: _("Expel both? %(for)s for") % {"for": event.get("for")},
        "foul": lambda: _("Foul: %(seat)s") % {"seat": s("seat")},
        "disqualify": lambda: (
            _("Disqualified: %(seat)s, «%(reason)s»")
            % {"seat": s("seat"), "reason": event.get("reason")}
        ),
        "extension": lambda: _("%(seat)s speaks on under a foul") % {"seat": s("seat")},
        "check": lambda: (
            _("%(by)s checks %(target)s") % {"by": s("by"), "target": s("target")}
            if event.get("target") is not None
            else _("%(by)s checks nobody") % {"by": s("by")}
        ),
        "kill": lambda: (
            _("%(by)s shoots %(target)s") % {"by": shooter(), "target": s("target")}
            if event.get("target") is not None
            else _("%(by)s does not shoot") % {"by": shooter()}
        ),
        "heal": lambda: (
            _("The doctor heals %(target)s") % {"target": s("target")}
            if event.get("target") is not None
            else _("The doctor heals nobody")
        ),
        "action": lambda: (
            _("%(by)s acts on %(target)s") % {"by": s("by"), "target": s("target")}
            if event.get("target") is not None
            else _("%(by)s does nothing") % {"by": s("by")}
        ),
        "speech": lambda: _("%(seat)s speaks") % {"seat": s("seat")},
        "last_word": lambda: _("Last word: %(seat)s") % {"seat": s("seat")},
        "best_move": lambda: _best_move(event, nick),
        "bonus": lambda: _bonus(event, s("seat")),
        # The online game's events.
        "vote": lambda: (
            _("%(voter)s votes for %(target)s") % {"voter": s("voter"), "target": _target()}
        ),
        "revote": lambda: (
            _("%(voter)s votes again: %(target)s") % {"voter": s("voter"), "target": _target()}
        ),
        "fast": lambda: _("%(voter)s fasts") % {"voter": s("voter")},
        "unfast": lambda: _("%(voter)s withdraws the fast") % {"voter": s("voter")},
        "post": lambda: _("%(seat)s posts") % {"seat": s("seat")},
        "shot": lambda: (
            _("%(by)s shoots %(target)s") % {"by": s("by"), "target": _target()}
            if event.get("target") is not None
            else _("%(by)s does not shoot") % {"by": s("by")}
        ),
        "don_check": lambda: _("The don checks %(target)s") % {"target": s("target")},
        "com_check": lambda: _("The commissar checks %(target)s") % {"target": s("target")},
        "warning": lambda: _("Warning: %(seat)s") % {"seat": s("seat")},
        "modkill": lambda: _("Modkill: %(seat)s") % {"seat": s("seat")},
        "extend": lambda: _("The phase is extended by %(m)s min") % {"m": event.get("minutes")},
        "day_end": lambda: _("The day closes"),
        "night_end": lambda: _("The night closes"),
    }
    text = texts.get(str(kind))
    return text() if text else str(kind)


def _moment(event: Mapping[str, object]) -> datetime | None:
    at = event.get("at")
    try:
        return datetime.fromisoformat(at) if isinstance(at, str) else None
    except ValueError:
        return None


def in_time_order[E: Mapping[str, object]](events: Sequence[E]) -> list[E]:
    """The log's events where they happened. An event recorded after the fact (a foul the
    recording suggested, given once the game was over) carries the moment it describes in
    `at`, earlier than the events before it in the log: it is placed at that moment, in
    the day or night it belongs to. Every other event keeps the log's order."""
    placed: list[E] = []
    latest: datetime | None = None
    for event in events:
        moment = _moment(event)
        if moment is not None and latest is not None and moment < latest:
            later = (i for i, e in enumerate(placed) if (m := _moment(e)) and m > moment)
            placed.insert(next(later, len(placed)), event)
            continue
        placed.append(event)
        if moment is not None:
            latest = moment
    return placed
