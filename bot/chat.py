"""What every handler of the bot shares: the update it answers, the member it comes from,
and the two ways to answer, a message (through the outbox) or a toast on the button."""

from __future__ import annotations

from django.utils.translation import gettext as _

from accounts.models import User
from bot.cards import Buttons, evening_card
from bot.payloads import CallbackAnswer
from bot.updates import Incoming
from club import queries
from club.models import Evening
from notifications.services import notification_enqueue


class Chat:
    """One update being answered. `member` is who the Telegram user is, None for someone
    not linked yet; linking and signing up set it, so what follows speaks to the member."""

    def __init__(self, incoming: Incoming) -> None:
        self.incoming = incoming
        self.member = User.objects.filter(telegram_id=incoming.telegram_id).first()
        self._replies = 0

    def reply(self, text: str, buttons: Buttons | None = None, *, key: str = "") -> None:
        """A message to the chat, sent after the commit; its dedupe key carries the update's
        id, so a repeat delivery of the update sends nothing twice."""
        self._replies += 1
        notification_enqueue(
            dedupe_key=key or f"reply:{self.incoming.update_id}:{self._replies}",
            chat_id=self.incoming.chat_id,
            text=text,
            buttons=buttons or [],
        )

    def toast(self, text: str) -> CallbackAnswer:
        """The answer to a button press: the webhook puts it in its response."""
        return {
            "method": "answerCallbackQuery",
            "callback_query_id": self.incoming.callback_id,
            "text": text[:200],
        }

    def not_linked(self) -> None:
        """The answer to someone the bot does not know yet: the two ways in."""
        self.reply(
            _(
                "Hello! I do not know you yet. Two ways in:\n"
                "1. Already a member of the club's site? Open your profile there and press "
                "«Connect Telegram».\n"
                "2. New to the club? Sign up right here: a nickname and your birth date."
            ),
            [[{"text": _("Sign up here"), "callback_data": "join"}]],
        )

    def evening_card(self, evening_id: int | None) -> None:
        """The evening's card (the next one's when no id is given), or word that none is
        scheduled: what /start, /evening, linking and signing up end with."""
        evening = (
            Evening.objects.filter(pk=evening_id).first()
            if evening_id is not None
            else queries.upcoming_evenings().first()
        )
        if evening is None:
            self.reply(_("No evening is scheduled yet. I will tell you when sign-up opens."))
            return
        self.reply(*evening_card(evening, self.member))
