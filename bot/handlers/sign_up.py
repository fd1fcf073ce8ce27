"""Signing up in the bot: «Sign up here» starts a conversation kept in BotConversation (a
nickname, then a birth date, the 21+ check as everywhere), so a restart loses nothing."""

from __future__ import annotations

from datetime import date, datetime

from django.utils.translation import gettext as _

from accounts import services as accounts
from accounts.languages import speaking_to
from bot.chat import Chat
from bot.payloads import CallbackAnswer
from club.kernel.errors import Refused
from notifications.models import BotConversation


def on_join(chat: Chat) -> CallbackAnswer:
    if chat.member is not None:
        return chat.toast(_("You are already a member: /evening"))
    BotConversation.objects.update_or_create(
        telegram_id=chat.incoming.telegram_id, defaults={"state": "nickname", "data": {}}
    )
    chat.reply(_("What is your name at the table? Send your nickname (2–32 letters)."))
    return chat.toast(_("Let's sign you up."))


def on_sign_up_step(chat: Chat, conversation: BotConversation, text: str) -> None:
    """A message while signing up: the nickname, then the birth date."""
    if conversation.state == "nickname":
        try:
            nickname = accounts.nickname_clean(text)
        except Refused as refusal:
            chat.reply(refusal.message)
            return
        conversation.state, conversation.data = "birth_date", {"nickname": nickname}
        conversation.save()
        chat.reply(_("Your birth date, as DD.MM.YYYY? The club is 21+."))
        return
    try:
        birth_date = datetime.strptime(text, "%d.%m.%Y").date()
    except ValueError:
        chat.reply(_("Please send the date as DD.MM.YYYY, for example 07.03.1995."))
        return
    _finish(chat, conversation, birth_date)


def _finish(chat: Chat, conversation: BotConversation, birth_date: date) -> None:
    try:
        member = accounts.member_sign_up(
            nickname=conversation.data.get("nickname", ""),
            birth_date=birth_date,
            password=None,
            telegram_id=chat.incoming.telegram_id,
            telegram_username=chat.incoming.username,
            language=chat.incoming.language,
        )
    except Refused as refusal:
        chat.reply(refusal.message)
        if "nickname" in accounts.refusal_fields(refusal):
            conversation.state, conversation.data = "nickname", {}
            conversation.save()
        return
    conversation.delete()
    chat.member = member
    with speaking_to(member):
        chat.reply(_("Welcome to the club, %(nick)s!") % {"nick": member.nickname})
        chat.evening_card(None)
