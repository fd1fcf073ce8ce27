"""Settings: /settings and its switches (publication, reminders, reports after games), and
the answer to the one offer of reports after games."""

from __future__ import annotations

from django.utils.translation import gettext as _

from accounts import roles
from accounts import services as accounts
from bot.cards import settings_card
from bot.chat import Chat
from bot.payloads import CallbackAnswer
from games.ratings import reports


def on_settings(chat: Chat, _argument: str) -> None:
    if chat.member is None:
        chat.not_linked()
        return
    chat.reply(*settings_card(chat.member))


def on_toggle(chat: Chat, which: str) -> CallbackAnswer:
    """A switch of the settings card ("set:<which>")."""
    member = chat.member
    assert member is not None
    if which == "consent":
        accounts.member_set_publication_consent(
            member=member, consent=not roles.consents_in(member)
        )
    elif which == "reminders":
        accounts.member_set_reminders(member=member, reminders=not member.reminders)
    elif which == "reports":
        accounts.member_set_game_reports(member=member, on=not member.game_reports)
    else:
        return chat.toast(_("This button no longer works."))
    chat.reply(*settings_card(member))
    return chat.toast(_("Settings saved."))


def on_reports_answer(chat: Chat, argument: str) -> CallbackAnswer:
    """The answer to the one offer of reports after games (games/ratings/reports.py):
    «yes» switches them on and sends the report of the game the offer came after,
    «no» leaves them off; either way the bot has asked."""
    assert chat.member is not None
    answer = reports.offer_read(argument)
    if answer is None:
        return chat.toast(_("This button no longer works."))
    yes, game_id = answer
    if yes:
        chat.reply(
            _(
                "Done: after each of your games I will send you your report. "
                "/settings switches it off."
            )
        )
    else:
        chat.reply(_("Fine: no reports. /settings switches them on whenever you like."))
    reports.answer_offer(member=chat.member, yes=yes, game_id=game_id)
    return chat.toast(_("Reports after games: on.") if yes else _("Reports after games: off."))
