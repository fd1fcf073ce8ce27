"""What the players of an online game read in Telegram (in the club's language), and the
online roles' names."""

from datetime import datetime

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from club.club_settings import ClubSettings
from club.texts import in_club_language


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


@in_club_language
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


@in_club_language
def online_phase(*, phase: str, n: int, until: datetime | None) -> str:
    if phase == "day":
        return _("Day %(n)d has begun: discuss and vote until %(until)s.") % {
            "n": n,
            "until": _moment(until),
        }
    return _("Night %(n)d has fallen, until %(until)s.") % {"n": n, "until": _moment(until)}


@in_club_language
def online_night_turn(*, actions: list[str], n: int) -> str:
    """The night's reminder, naming what the player may still do (OnlineGame.actions_for)."""
    if "shot" in actions and "don_check" in actions:
        return _("Night %(n)d: send your shot, and your check for the commissar.") % {"n": n}
    if "shot" in actions:
        return _("Night %(n)d: send your shot.") % {"n": n}
    return _("Night %(n)d: send your check.") % {"n": n}


@in_club_language
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


@in_club_language
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


@in_club_language
def online_end(*, number: int, winner: str) -> str:
    side = _("the town (red)") if winner == "red" else _("the mafia (black)")
    return _("Online game %(number)d is over: %(side)s wins.") % {"number": number, "side": side}


@in_club_language
def online_removed(*, names: list[str]) -> str:
    return _("The host removes %(names)s from the game.") % {"names": ", ".join(names)}
