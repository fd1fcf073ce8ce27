"""What the bot does with an update: one `handle` routes a command, a button press or a
step of the sign-up dialogue to the handler of its concern (bot/handlers/), each acting
through the services every other door uses; a refusal is one reply."""

from __future__ import annotations

from collections.abc import Callable

from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import services as accounts
from accounts.models import User
from bot.cards import ONLINE_BUTTONS
from bot.chat import Chat
from bot.handlers import account, evening, online, settings, sign_up, tournament
from bot.payloads import CallbackAnswer
from bot.updates import Incoming
from club import buttons
from club.kernel import throttle
from club.kernel.errors import RefusalCode, Refused
from games.ratings import reports
from notifications.models import BotConversation

COMMANDS: dict[str, Callable[[Chat, str], None]] = {
    "/start": account.on_start,
    "/evening": evening.on_evening,
    "/settings": settings.on_settings,
    "/online": online.on_online,
    "/say": online.on_say,
    "/tournament": tournament.on_tournament,
    "/help": account.on_help,
}


class Bot:
    def __init__(self, incoming: Incoming) -> None:
        self.chat = Chat(incoming)

    @property
    def member(self) -> User | None:
        return self.chat.member

    def handle(self) -> CallbackAnswer | None:
        """Dispatch the update; a refusal from any service is the one reply: a toast for a
        button, a message for a command. A banned member gets that refusal for everything,
        with the same message as on the site and in the API."""
        chat, incoming = self.chat, self.chat.incoming
        try:
            throttle.refuse_if_over(throttle.BOT_PER_CHAT, str(incoming.telegram_id))
            if chat.member is not None:
                accounts.refuse_unless_usable(chat.member)
            if incoming.callback_id:
                return on_button(chat, incoming.data)
            on_message(chat, incoming.text.strip())
            return None
        except Refused as refusal:
            if incoming.callback_id:
                return chat.toast(refusal.message)
            if refusal.code == RefusalCode.THROTTLED:
                # One word about it a minute, not one per message: the reply is a message too.
                minute = int(timezone.now().timestamp() // 60)
                chat.reply(refusal.message, key=f"throttled:{incoming.telegram_id}:{minute}")
            else:
                chat.reply(refusal.message)
            return None


def on_message(chat: Chat, text: str) -> None:
    """A command ends any sign-up in progress; other text is that sign-up's next step, or
    gets the help."""
    command, _space, argument = text.partition(" ")
    command = command.split("@", 1)[0]
    telegram_id = chat.incoming.telegram_id
    if command in COMMANDS:
        BotConversation.objects.filter(telegram_id=telegram_id).delete()
        COMMANDS[command](chat, argument.strip())
        return
    conversation = BotConversation.objects.filter(telegram_id=telegram_id).first()
    if conversation is not None:
        sign_up.on_sign_up_step(chat, conversation, text)
    else:
        account.on_help(chat, "")


def on_button(chat: Chat, data: str) -> CallbackAnswer:
    """A button press, by its callback data; all but joining and linking need a member."""
    action, _colon, argument = data.partition(":")
    if action == "join":
        return sign_up.on_join(chat)
    if action == "lk":
        return account.on_link_button(chat, argument)
    if chat.member is None:
        chat.not_linked()
        return chat.toast(_("First link your account or sign up: /start"))
    if action == "set":
        return settings.on_toggle(chat, argument)
    if action == reports.REPORTS_ANSWER:
        return settings.on_reports_answer(chat, argument)
    evening_button = buttons.pressed(data)
    if evening_button is not None:
        return evening.on_evening_button(chat, *evening_button)
    if action in ONLINE_BUTTONS:
        return online.on_online_button(chat, action, argument)
    return chat.toast(_("This button no longer works."))
