"""What members read in their notifications: always in the club's language (Russian), whatever
language the page that caused them was showing."""

from collections.abc import Callable
from datetime import datetime
from functools import wraps

from django.conf import settings
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from club.models import ClubSettings, Evening


def _in_club_language[**P](text: Callable[P, str]) -> Callable[P, str]:
    @wraps(text)
    def rendered(*args: P.args, **kwargs: P.kwargs) -> str:
        with translation.override(settings.LANGUAGE_CODE):
            return text(*args, **kwargs)

    return rendered


@_in_club_language
def evening_when(evening: Evening, club: ClubSettings) -> str:
    """When and where, as every message about an evening names it."""
    local = timezone.localtime(evening.starts_at, club.zone)
    return f"{date_format(local, 'l, j E, H:i')}, {evening.venue}"


@_in_club_language
def seat_confirmed(*, seat: int | str, capacity: int, when: str) -> str:
    return _("You are in! Seat %(seat)s of %(capacity)d. %(when)s.") % {
        "seat": seat,
        "capacity": capacity,
        "when": when,
    }


@_in_club_language
def in_reserve(*, position: int | str, when: str) -> str:
    return _(
        "The evening is full: you are in the reserve, position %(position)s. "
        "When a seat frees up, it is yours and we will tell you. %(when)s."
    ) % {"position": position, "when": when}


@_in_club_language
def promoted(*, when: str) -> str:
    return _("A seat has freed up: you are in! %(when)s.") % {"when": when}


@_in_club_language
def cancelled(*, when: str) -> str:
    return _("Your sign-up is cancelled. %(when)s.") % {"when": when}


@_in_club_language
def released_unconfirmed(*, position: int, when: str) -> str:
    return _(
        "You did not confirm your seat in time, so it went to the reserve. You are in the "
        "reserve, position %(position)d. %(when)s."
    ) % {"position": position, "when": when}


@_in_club_language
def signup_open(*, when: str, capacity: int) -> str:
    return _("Sign-up is open! %(when)s. %(capacity)d seats: first come, first served.") % {
        "when": when,
        "capacity": capacity,
    }


@_in_club_language
def lineup(*, when: str, players: list[str], reserve: list[str]) -> str:
    lines = [_("Tonight's line-up. %(when)s.") % {"when": when}]
    lines += [f"{number}. {nick}" for number, nick in enumerate(players, start=1)]
    if reserve:
        lines.append(_("Reserve: %(names)s") % {"names": ", ".join(reserve)})
    return "\n".join(lines)


@_in_club_language
def ok_playing_label() -> str:
    return _("OK, I'm playing")


@_in_club_language
def reminder(*, when: str, seat: int) -> str:
    return _(
        "Today is the evening! %(when)s. Your seat: %(seat)d. Please confirm you are coming."
    ) % {
        "when": when,
        "seat": seat,
    }


@_in_club_language
def evening_cancelled(*, when: str) -> str:
    return _("The evening is cancelled: %(when)s. Sorry! Your sign-up is cancelled too.") % {
        "when": when
    }


@_in_club_language
def evening_moved(*, when: str) -> str:
    return _("The evening has moved: now %(when)s. Your place stays yours.") % {"when": when}


@_in_club_language
def mark_no_shows(*, when: str) -> str:
    return _("The evening is over (%(when)s). Please mark who came and who did not in admin.") % {
        "when": when
    }


@_in_club_language
def confirm_labels() -> tuple[str, str]:
    return _("I confirm"), _("I can't make it")


def online_role(role: str) -> str:
    names = {
        "don": _("Don"),
        "mafia": _("Mafia"),
        "commissar": _("Commissar"),
        "civilian": _("Civilian"),
    }
    return names.get(role, role)


def _moment(moment: datetime | None) -> str:
    if moment is None:
        return ""
    return date_format(timezone.localtime(moment, ClubSettings.load().zone), "j E, H:i")


@_in_club_language
def online_dealt(
    *, number: int, seat: int, role: str, starts_at: datetime, partners: list[str]
) -> str:
    text = _(
        "Online game %(number)d starts %(when)s. Your seat: %(seat)d. Your role: %(role)s "
        "(keep it to yourself)."
    ) % {"number": number, "when": _moment(starts_at), "seat": seat, "role": online_role(role)}
    if partners:
        text += " " + _(
            "Your mafia: %(partners)s. Your chat on the site is open for the 30 minutes "
            "before the start."
        ) % {"partners": ", ".join(partners)}
    return text


@_in_club_language
def online_phase(*, phase: str, n: int, until: datetime | None) -> str:
    if phase == "day":
        return _("Day %(n)d has begun: discuss and vote until %(until)s.") % {
            "n": n,
            "until": _moment(until),
        }
    return _("Night %(n)d has fallen, until %(until)s.") % {"n": n, "until": _moment(until)}


@_in_club_language
def online_night_turn(*, role: str, n: int) -> str:
    if role == "commissar":
        return _("Night %(n)d: send your check.") % {"n": n}
    if role == "don":
        return _("Night %(n)d: send your shot, and your check for the commissar.") % {"n": n}
    return _("Night %(n)d: send your shot.") % {"n": n}


@_in_club_language
def online_check(*, night: int, target: int, result: str) -> str:
    answers = {
        "red": _("red"),
        "black": _("black"),
        "commissar": _("the commissar"),
        "not_commissar": _("not the commissar"),
    }
    return _("Night %(n)d, your check of seat %(seat)d: %(answer)s.") % {
        "n": night,
        "seat": target,
        "answer": answers.get(result, result),
    }


@_in_club_language
def online_outcome(*, phase: str, n: int, outcome: str, out: list[str], tied: list[str]) -> str:
    names = ", ".join(out)
    if outcome == "catastrophe":
        return _(
            "Day %(n)d: a tie between %(tied)s. Catastrophe: each of them may write one post; "
            "everyone else votes again among them."
        ) % {"n": n, "tied": ", ".join(tied)}
    if phase == "night":
        if out:
            return _("Night %(n)d: %(names)s was killed.") % {"n": n, "names": names}
        return _("Night %(n)d: the mafia misfired, nobody died.") % {"n": n}
    if out:
        return _("Day %(n)d: %(names)s leaves by the vote.") % {"n": n, "names": names}
    reasons = {
        "pardoned": _("pardoned"),
        "cancelled": _("no vote today (a modkill)"),
        "pardon_all": _("all pardoned"),
        "catastrophe_at_four": _("a tie at four players: nobody leaves"),
        "tie_again": _("the same tie again: nobody leaves"),
    }
    return _("Day %(n)d: nobody leaves (%(why)s).") % {
        "n": n,
        "why": reasons.get(outcome, _("no votes")),
    }


@_in_club_language
def online_end(*, number: int, winner: str) -> str:
    side = _("the town (red)") if winner == "red" else _("the mafia (black)")
    return _("Online game %(number)d is over: %(side)s wins.") % {"number": number, "side": side}


@_in_club_language
def online_removed(*, names: list[str]) -> str:
    return _("The host removes %(names)s from the game.") % {"names": ", ".join(names)}
