"""Account and linking: /start (with a deep link's payload or without), /help, and the
«Yes, link it» button that ties a Telegram account to a member of the site."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import services as accounts
from accounts.languages import speaking_to
from bot.chat import Chat
from bot.payloads import CallbackAnswer
from club.kernel.parsing import whole_number
from notifications.models import TelegramLinkCode


def on_help(chat: Chat, _argument: str) -> None:
    chat.reply(
        _(
            "I am the club's bot.\n/evening — the next evening and your seat\n"
            "/online — your online game: vote, fast, shoot, check\n"
            "/say TEXT — a post in the online game's day thread\n"
            "/tournament — where you play next in your tournament, your standing\n"
            "/settings — publication of your nickname, reminders, reports after games\n"
            "/help — this message"
        )
    )


def on_start(chat: Chat, payload: str) -> None:
    """/start: "e<id>" opens an evening's card (the site's «open in the bot»), any other
    payload is a link code from «Connect Telegram», none greets the member."""
    evening_id = whole_number(payload[1:], low=1) if payload.startswith("e") else None
    if evening_id is not None:
        if chat.member is None:
            chat.not_linked()
        else:
            chat.evening_card(evening_id)
        return
    if payload:
        _ask_to_link(chat, payload)
        return
    if chat.member is not None:
        # Starting a club's bot joins that club (a member of another club, or back after
        # leaving): one account, a membership per club.
        accounts.member_join_club(member=chat.member)
        chat.reply(_("Hello, %(nick)s!") % {"nick": chat.member.nickname})
        chat.evening_card(None)
        return
    chat.not_linked()


def _link_code(code: str) -> TelegramLinkCode | None:
    return (
        TelegramLinkCode.objects.select_related("member")
        .filter(code=code[:64], used_at__isnull=True, expires_at__gt=timezone.now())
        .first()
    )


def _expired_link(chat: Chat) -> None:
    chat.reply(_("This link has expired or was already used. Make a new one on your profile page."))


def _ask_to_link(chat: Chat, code: str) -> None:
    """A deep link from «Connect Telegram»: ask before linking, naming the account, so
    a link someone else made for their own account is not taken unawares."""
    link = _link_code(code)
    if link is None:
        _expired_link(chat)
        return
    chat.reply(
        _("Link this Telegram account to the club member «%(nick)s»?")
        % {"nick": link.member.nickname},
        [[{"text": _("Yes, link it"), "callback_data": f"lk:{link.code}"}]],
    )


def on_link_button(chat: Chat, code: str) -> CallbackAnswer:
    """«Yes, link it»: the code, if still good, links the account and is used up."""
    with transaction.atomic():
        link = _link_code(code)
        if link is None:
            _expired_link(chat)
            return chat.toast(_("This button no longer works."))
        member = accounts.member_telegram_link(
            member=link.member,
            telegram_id=chat.incoming.telegram_id,
            username=chat.incoming.username,
            language=chat.incoming.language,
        )
        TelegramLinkCode.objects.filter(pk=link.pk).update(used_at=timezone.now())
        accounts.member_join_club(member=member)  # linked in this club's bot: its member
    chat.member = member
    with speaking_to(member):  # from now on the member's, which may be their own choice
        chat.reply(_("Done! Telegram is linked to %(nick)s.") % {"nick": member.nickname})
        chat.evening_card(None)
        return chat.toast(_("Telegram is linked."))
