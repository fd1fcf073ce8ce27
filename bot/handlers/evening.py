"""The evening: /evening, and the card's buttons (sign up, «Не смогу» and its question,
«Вернуть», confirm attendance), each through the club's services as on the site."""

from __future__ import annotations

from django.utils.translation import gettext as _

from bot.cards import evening_card
from bot.chat import Chat
from bot.payloads import CallbackAnswer
from club import buttons, texts
from club import services as club
from club.kernel.clubs import Club
from club.models import Registration, RegistrationSource, RegistrationStatus


def on_evening(chat: Chat, _argument: str) -> None:
    if chat.member is None:
        chat.not_linked()
        return
    chat.evening_card(None)


def on_evening_button(chat: Chat, action: str, evening_id: int) -> CallbackAnswer:
    """A button of the evening's card (club/buttons.py reads its callback data)."""
    member = chat.member
    assert member is not None
    if action == buttons.SIGN_UP:
        result = club.registration_create(
            member=member, evening_id=evening_id, source=RegistrationSource.BOT
        )
        if result.seat is not None:
            capacity = result.registration.evening.capacity
            answer = _("You are in: no. %(seat)d of %(capacity)d on the list.") % {
                "seat": result.seat,
                "capacity": capacity,
            }
        elif result.registration.awaiting_approval:
            answer = _("Asked: an organiser of the club will let you in.")
        else:
            answer = _("The evening is full: you are in the reserve, position %(position)d.") % {
                "position": result.position
            }
    elif action == buttons.CANCEL:
        return _ask_to_leave(chat, evening_id)
    elif action == buttons.LEAVE:
        registration = club.registration_cancel(
            member=member, evening_id=evening_id, undo_window=club.UNDO_WINDOW
        )
        answer = _("You gave up your place. You can still take it back.")
        chat.reply(*evening_card(registration.evening, member))
    elif action == buttons.STAY:
        registration = club.registration_cancel_asked(member=member, evening_id=evening_id)
        if registration.leaves_at is not None:  # «Да, не смогу» came first
            return _leaving(chat, registration)
        answer = _("Good: your place stays yours.")
    elif action == buttons.UNDO:
        club.registration_cancel_undo(member=member, evening_id=evening_id)
        answer = _("Taken back: your place is yours, as it was.")
    else:
        club.registration_confirm_attendance(member=member, evening_id=evening_id)
        answer = _("Thank you: your attendance is confirmed.")
    return chat.toast(answer)


def _ask_to_leave(chat: Chat, evening_id: int) -> CallbackAnswer:
    """«Не смогу» asks first, as the evening page does: the question names the evening
    and what goes, «Да, не смогу» gives the place up, «Нет, остаюсь» keeps it."""
    assert chat.member is not None
    registration = club.registration_cancel_asked(member=chat.member, evening_id=evening_id)
    evening = registration.evening
    if registration.leaves_at is not None:
        return _leaving(chat, registration)
    question = (
        _(
            "Give up your seat? You have 30 seconds to take it back; then it goes to the "
            "first of the reserve."
        )
        if registration.status == RegistrationStatus.CONFIRMED
        else _("Leave the reserve? You have 30 seconds to take it back.")
    )
    when = texts.sentence(texts.evening_when(evening, Club.current()))
    chat.reply(f"{when}.\n{question}", [[buttons.leave(evening_id), buttons.stay(evening_id)]])
    return chat.toast(_("Sure you can't make it? Answer in the message below."))


def _leaving(chat: Chat, registration: Registration) -> CallbackAnswer:
    """«Не смогу» answered already: the card says when the place goes, with «Вернуть»."""
    chat.reply(*evening_card(registration.evening, chat.member))
    return chat.toast(_("Your place is being given up."))
