"""What members read about the club's evenings, in Telegram and in letters: in the
language of the message being composed (accounts.languages.message_language): the
recipient's inside `speaking_to(member)`, else the club's (Russian, as the club's group
reads it), whatever language the page that caused them was showing."""

from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from accounts.languages import message_language
from club.kernel.clubs import Club
from club.models import Evening


def in_message_language[**R, T](text: Callable[R, T]) -> Callable[R, T]:
    """The text rendered in the language of the message being composed."""

    @wraps(text)
    def rendered(*args: R.args, **kwargs: R.kwargs) -> T:
        with translation.override(message_language()):
            return text(*args, **kwargs)

    return rendered


@in_message_language
def evening_when(evening: Evening, club: Club) -> str:
    """When and where, as every message about an evening names it: in the middle of a
    sentence, so lower case in Russian («воскресенье, 6 декабря, 18:00, …»). A text that
    starts a sentence with it says `sentence(when)`."""
    local = timezone.localtime(evening.starts_at, club.zone)
    return f"{date_format(local, 'l, j E, H:i')}, {evening.venue}"


def evening_link(evening: Evening) -> str:
    """The evening's page on the site: where a letter sends the member to act on it."""
    return settings.SITE_URL + reverse("evening", args=[evening.pk])


def sentence(when: str) -> str:
    """`when` at the start of a sentence: a capital after the full stop before it."""
    return str(capfirst(when))


@in_message_language
def seat_confirmed(*, seat: int | str, capacity: int, when: str) -> str:
    return _("You are in! No. %(seat)s of %(capacity)d on the list. %(when)s.") % {
        "seat": seat,
        "capacity": capacity,
        "when": sentence(when),
    }


@in_message_language
def in_reserve(*, position: int | str, when: str) -> str:
    return _(
        "The evening is full: you are in the reserve, position %(position)s. "
        "When a seat frees up, it is yours and we will tell you. %(when)s."
    ) % {"position": position, "when": sentence(when)}


@in_message_language
def promoted(*, seat: int, capacity: int, when: str) -> str:
    return _(
        "A seat has freed up: you are in! No. %(seat)d of %(capacity)d on the list. "
        "%(when)s. Please confirm you are coming."
    ) % {"seat": seat, "capacity": capacity, "when": sentence(when)}


@in_message_language
def promoted_to_second_table(*, seat: int, capacity: int, when: str) -> str:
    """A seat of a second table the organiser opened: nobody gave theirs up."""
    return _(
        "A second table has opened: you are in! No. %(seat)d of %(capacity)d on the list. "
        "%(when)s. Please confirm you are coming."
    ) % {"seat": seat, "capacity": capacity, "when": sentence(when)}


@in_message_language
def reserve_moved_up(*, position: int, when: str) -> str:
    return _(
        "You have moved up the reserve: position %(position)d. When a seat frees up, it is "
        "yours and we will tell you. %(when)s."
    ) % {"position": position, "when": sentence(when)}


@in_message_language
def cancelled(*, when: str) -> str:
    return _("Your sign-up is cancelled. %(when)s.") % {"when": sentence(when)}


@in_message_language
def removed_by_club(*, had_seat: bool, when: str) -> str:
    """An admin took the sign-up off: who did it, and what became of the member's place."""
    if had_seat:
        text = _(
            "The club has cancelled your sign-up: your seat is no longer yours and goes to "
            "someone else. If this is a mistake, tell the organiser. %(when)s."
        )
    else:
        text = _(
            "The club has cancelled your sign-up: you are no longer in the reserve and will "
            "not get a seat. If this is a mistake, tell the organiser. %(when)s."
        )
    return text % {"when": sentence(when)}


@in_message_language
def removed_by_phone(*, had_seat: bool, when: str) -> str:
    """The organiser took the sign-up off as the member asked by phone."""
    if had_seat:
        text = _(
            "As you asked by phone, the organiser has cancelled your sign-up: your seat "
            "goes to someone else. %(when)s."
        )
    else:
        text = _("As you asked by phone, the organiser has taken you off the reserve. %(when)s.")
    return text % {"when": sentence(when)}


@in_message_language
def removed_no_show(*, when: str) -> str:
    return _(
        "The organiser marked you as not come, so your place went to the reserve. If you "
        "are on your way, tell the organiser. %(when)s."
    ) % {"when": sentence(when)}


@in_message_language
def removal_undone_seat(*, seat: int, capacity: int, when: str) -> str:
    """The organiser took back their removal, and the seat is the member's again."""
    return _(
        "The organiser has taken back your removal: you are on the list again, no. "
        "%(seat)d of %(capacity)d. %(when)s."
    ) % {"seat": seat, "capacity": capacity, "when": sentence(when)}


@in_message_language
def removal_undone_reserve(*, position: int, when: str) -> str:
    """The organiser took back their removal of a place in the reserve."""
    return _(
        "The organiser has taken back your removal: you are in the reserve again, position "
        "%(position)d. When a seat frees up, it is yours and we will tell you. %(when)s."
    ) % {"position": position, "when": sentence(when)}


@in_message_language
def removal_undone_seat_taken(*, when: str) -> str:
    """The organiser took back their removal, but the seat went to the reserve meanwhile:
    whoever took it keeps it, and the member waits first in the reserve."""
    return _(
        "The organiser has taken back your removal, but your seat has already gone to "
        "someone from the reserve: you are first in the reserve now, and the next seat "
        "that frees up is yours; we will tell you. %(when)s."
    ) % {"when": sentence(when)}


@in_message_language
def evening_message(*, when: str, text: str) -> str:
    return _("From the evening's organiser (%(when)s):\n%(text)s") % {"when": when, "text": text}


@in_message_language
def evening_message_subject(*, when: str) -> str:
    """The letter's subject for evening_message (whose first line ends with a colon)."""
    return _("A message from the evening's organiser (%(when)s)") % {"when": when}


@in_message_language
def released_unconfirmed(*, position: int, when: str) -> str:
    return _(
        "You did not confirm your seat in time, so it went to the reserve. You are in the "
        "reserve, position %(position)d. %(when)s."
    ) % {"position": position, "when": sentence(when)}


@in_message_language
def signup_open(*, when: str, capacity: int) -> str:
    return _("Sign-up is open! %(when)s. %(capacity)d seats: first come, first served.") % {
        "when": sentence(when),
        "capacity": capacity,
    }


@in_message_language
def lineup(*, when: str, players: list[str], reserve: list[str]) -> str:
    lines = [_("Tonight's line-up. %(when)s.") % {"when": sentence(when)}]
    lines += [f"{number}. {nick}" for number, nick in enumerate(players, start=1)]
    if reserve:
        lines.append(_("Reserve: %(names)s") % {"names": ", ".join(reserve)})
    return "\n".join(lines)


@in_message_language
def ok_playing_label() -> str:
    return _("OK, I'm playing")


@in_message_language
def reminder(*, when: str, seat: int) -> str:
    return _(
        "Today is the evening! %(when)s. You are no. %(seat)d on the list. Please confirm "
        "you are coming."
    ) % {
        "when": sentence(when),
        "seat": seat,
    }


@in_message_language
def evening_cancelled(*, when: str) -> str:
    return _("The evening is cancelled: %(when)s. Sorry! Your sign-up is cancelled too.") % {
        "when": when
    }


@in_message_language
def evening_moved(*, when: str) -> str:
    return _("The evening has moved: now %(when)s. Your place stays yours.") % {"when": when}


@in_message_language
def mark_no_shows(*, when: str) -> str:
    return _("The evening is over (%(when)s). Please mark who came and who did not in admin.") % {
        "when": when
    }


@in_message_language
def open_in_app_label() -> str:
    return _("Open in the club's app")


@in_message_language
def undo_label() -> str:
    return _("Take it back")


@in_message_language
def confirm_labels() -> tuple[str, str]:
    return _("I confirm"), _("I can't make it")


@in_message_language
def leave_labels() -> tuple[str, str]:
    """The answers to «Не смогу»'s question, as the evening page words them."""
    return _("Yes, I can't make it"), _("No, I'm staying")
