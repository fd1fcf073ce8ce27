"""What the bot does with an update: commands, button presses and the sign-up dialogue,
each through the services every other door uses; a refusal is one reply."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import services as accounts
from accounts.languages import speaking_to
from accounts.models import User
from bot.cards import (
    ONLINE_BUTTONS,
    Buttons,
    evening_card,
    online_card,
    settings_card,
)
from bot.updates import Incoming
from club import buttons, queries, texts
from club import services as club
from club.kernel import throttle
from club.kernel.club_settings import ClubSettings
from club.kernel.errors import RefusalCode, Refused
from club.kernel.numbers import shown
from club.kernel.parsing import whole_number
from club.models import Evening, Registration, RegistrationSource, RegistrationStatus
from games.ratings import reports
from notifications.models import BotConversation, TelegramLinkCode
from notifications.services import notification_enqueue
from tournaments.queries import member_tournament


class Bot:
    def __init__(self, incoming: Incoming) -> None:
        self.incoming = incoming
        self.member = User.objects.filter(telegram_id=incoming.telegram_id).first()
        self._replies = 0

    # --- answering --------------------------------------------------------------------

    def reply(self, text: str, buttons: Buttons | None = None, *, key: str = "") -> None:
        self._replies += 1
        notification_enqueue(
            dedupe_key=key or f"reply:{self.incoming.update_id}:{self._replies}",
            chat_id=self.incoming.chat_id,
            text=text,
            buttons=buttons or [],
        )

    def toast(self, text: str) -> dict[str, Any]:
        return {
            "method": "answerCallbackQuery",
            "callback_query_id": self.incoming.callback_id,
            "text": text[:200],
        }

    # --- dispatch ---------------------------------------------------------------------

    def handle(self) -> dict[str, Any] | None:
        """Dispatch the update; a refusal from any service is the one reply: a toast for a
        button, a message for a command. A banned member gets that refusal for everything,
        with the same message as on the site and in the API."""
        try:
            throttle.refuse_if_over(throttle.BOT_PER_CHAT, str(self.incoming.telegram_id))
            if self.member is not None:
                accounts.refuse_unless_usable(self.member)
            return self._dispatch()
        except Refused as refusal:
            if self.incoming.callback_id:
                return self.toast(refusal.message)
            if refusal.code == RefusalCode.THROTTLED:
                # One word about it a minute, not one per message: the reply is a message too.
                minute = int(timezone.now().timestamp() // 60)
                self.reply(refusal.message, key=f"throttled:{self.incoming.telegram_id}:{minute}")
            else:
                self.reply(refusal.message)
            return None

    def _dispatch(self) -> dict[str, Any] | None:
        if self.incoming.callback_id:
            return self.on_button(self.incoming.data)
        text = self.incoming.text.strip()
        command, _space, argument = text.partition(" ")
        command = command.split("@", 1)[0]
        handlers = {
            "/start": self.on_start,
            "/evening": self.on_evening,
            "/settings": self.on_settings,
            "/online": self.on_online,
            "/say": self.on_say,
            "/tournament": self.on_tournament,
            "/help": self.on_help,
        }
        if command in handlers:
            BotConversation.objects.filter(telegram_id=self.incoming.telegram_id).delete()
            handlers[command](argument.strip())
            return None
        conversation = BotConversation.objects.filter(telegram_id=self.incoming.telegram_id).first()
        if conversation is not None:
            self.on_sign_up_step(conversation, text)
        else:
            self.on_help("")
        return None

    def on_help(self, _argument: str) -> None:
        self.reply(
            _(
                "I am the club's bot.\n/evening — the next evening and your seat\n"
                "/online — your online game: vote, fast, shoot, check\n"
                "/say TEXT — a post in the online game's day thread\n"
                "/tournament — where you play next in your tournament, your standing\n"
                "/settings — publication of your nickname, reminders, reports after games\n"
                "/help — this message"
            )
        )

    def on_start(self, payload: str) -> None:
        evening_id = whole_number(payload[1:], low=1) if payload.startswith("e") else None
        if evening_id is not None:
            if self.member is None:
                self._not_linked()
            else:
                self.evening_card(evening_id)
            return
        if payload:
            self._link(payload)
            return
        if self.member is not None:
            self.reply(_("Hello, %(nick)s!") % {"nick": self.member.nickname})
            self.evening_card(None)
            return
        self._not_linked()

    def _not_linked(self) -> None:
        self.reply(
            _(
                "Hello! I do not know you yet. Two ways in:\n"
                "1. Already a member of the club's site? Open your profile there and press "
                "«Connect Telegram».\n"
                "2. New to the club? Sign up right here: a nickname and your birth date."
            ),
            [[{"text": _("Sign up here"), "callback_data": "join"}]],
        )

    def _link_code(self, code: str) -> TelegramLinkCode | None:
        return (
            TelegramLinkCode.objects.select_related("member")
            .filter(code=code[:64], used_at__isnull=True, expires_at__gt=timezone.now())
            .first()
        )

    def _expired_link(self) -> None:
        self.reply(
            _("This link has expired or was already used. Make a new one on your profile page.")
        )

    def _link(self, code: str) -> None:
        """A deep link from «Connect Telegram»: ask before linking, naming the account, so
        a link someone else made for their own account is not taken unawares."""
        link = self._link_code(code)
        if link is None:
            self._expired_link()
            return
        self.reply(
            _("Link this Telegram account to the club member «%(nick)s»?")
            % {"nick": link.member.nickname},
            [[{"text": _("Yes, link it"), "callback_data": f"lk:{link.code}"}]],
        )

    def on_link_button(self, code: str) -> dict[str, Any]:
        with transaction.atomic():
            link = self._link_code(code)
            if link is None:
                self._expired_link()
                return self.toast(_("This button no longer works."))
            member = accounts.member_telegram_link(
                member=link.member,
                telegram_id=self.incoming.telegram_id,
                username=self.incoming.username,
                language=self.incoming.language,
            )
            TelegramLinkCode.objects.filter(pk=link.pk).update(used_at=timezone.now())
        self.member = member
        with speaking_to(member):  # from now on the member's, which may be their own choice
            self.reply(_("Done! Telegram is linked to %(nick)s.") % {"nick": member.nickname})
            self.evening_card(None)
            return self.toast(_("Telegram is linked."))

    # --- the evening -------------------------------------------------------------------

    def evening_card(self, evening_id: int | None) -> None:
        evening = (
            Evening.objects.filter(pk=evening_id).first()
            if evening_id is not None
            else queries.upcoming_evenings().first()
        )
        if evening is None:
            self.reply(_("No evening is scheduled yet. I will tell you when sign-up opens."))
            return
        self.reply(*evening_card(evening, self.member))

    def on_evening(self, _argument: str) -> None:
        if self.member is None:
            self._not_linked()
            return
        self.evening_card(None)

    def on_button(self, data: str) -> dict[str, Any]:
        action, _colon, argument = data.partition(":")
        if action == "join":
            return self.on_join()
        if action == "lk":
            return self.on_link_button(argument)
        if self.member is None:
            self._not_linked()
            return self.toast(_("First link your account or sign up: /start"))
        if action == "set":
            return self.on_toggle(argument)
        if action == reports.REPORTS_ANSWER:
            return self.on_reports_answer(argument)
        evening_button = buttons.pressed(data)
        if evening_button is not None:
            return self.on_evening_button(*evening_button)
        if action in ONLINE_BUTTONS:
            return self.on_online_button(action, argument)
        return self.toast(_("This button no longer works."))

    # --- the online game ----------------------------------------------------------------

    def _online_game(self) -> int | None:
        from games.models import GameStatus, Ruleset, Seat

        assert self.member is not None
        seat = (
            Seat.objects.filter(
                member=self.member, game__ruleset=Ruleset.ONLINE, game__status=GameStatus.RUNNING
            )
            .order_by("-game__started_at")
            .first()
        )
        return seat.game_id if seat else None

    def on_online(self, _argument: str) -> None:
        if self.member is None:
            self._not_linked()
            return
        game_id = self._online_game()
        if game_id is None:
            self.reply(_("You are not in a running online game."))
            return
        self.reply(*online_card(game_id, self.member))

    def on_say(self, text: str) -> None:
        if self.member is None:
            self._not_linked()
            return
        game_id = self._online_game()
        if game_id is None or not text:
            self.reply(_("Write /say and your post, in a running online game."))
            return
        self.reply(self._online_act(game_id, {"type": "post", "text": text[:4000]}))

    def _online_act(self, game_id: int, event: dict[str, Any]) -> str:
        """The action, answered with what it did and what remains."""
        from games.online import services as online_play

        assert self.member is not None
        return online_play.online_act(game_id=game_id, user=self.member, event=event).answer

    def on_online_button(self, action: str, argument: str) -> dict[str, Any]:
        game, _colon, raw = argument.partition(":")
        game_id = whole_number(game, low=1)
        if game_id is None or not raw:
            return self.toast(_("This button no longer works."))
        number = whole_number(raw)
        target: Any = raw if number is None else number
        kind, field = ONLINE_BUTTONS[action]
        event: dict[str, Any] = {"type": kind}
        if kind == "fast" and raw == "0":
            event = {"type": "unfast"}
        elif field:
            event[field] = target
        return self.toast(self._online_act(game_id, event))

    def on_evening_button(self, action: str, evening_id: int) -> dict[str, Any]:
        assert self.member is not None
        if action == buttons.SIGN_UP:
            result = club.registration_create(
                member=self.member, evening_id=evening_id, source=RegistrationSource.BOT
            )
            if result.seat is not None:
                capacity = result.registration.evening.capacity
                answer = _("You are in: no. %(seat)d of %(capacity)d on the list.") % {
                    "seat": result.seat,
                    "capacity": capacity,
                }
            else:
                answer = _(
                    "The evening is full: you are in the reserve, position %(position)d."
                ) % {"position": result.position}
        elif action == buttons.CANCEL:
            return self.ask_to_leave(evening_id)
        elif action == buttons.LEAVE:
            registration = club.registration_cancel(
                member=self.member, evening_id=evening_id, undo_window=club.UNDO_WINDOW
            )
            answer = _("You gave up your place. You can still take it back.")
            self.reply(*evening_card(registration.evening, self.member))
        elif action == buttons.STAY:
            registration = club.registration_cancel_asked(member=self.member, evening_id=evening_id)
            if registration.leaves_at is not None:  # «Да, не смогу» came first
                return self._leaving(registration)
            answer = _("Good: your place stays yours.")
        elif action == buttons.UNDO:
            club.registration_cancel_undo(member=self.member, evening_id=evening_id)
            answer = _("Taken back: your place is yours, as it was.")
        else:
            club.registration_confirm_attendance(member=self.member, evening_id=evening_id)
            answer = _("Thank you: your attendance is confirmed.")
        return self.toast(answer)

    def ask_to_leave(self, evening_id: int) -> dict[str, Any]:
        """«Не смогу» asks first, as the evening page does: the question names the evening
        and what goes, «Да, не смогу» gives the place up, «Нет, остаюсь» keeps it."""
        assert self.member is not None
        registration = club.registration_cancel_asked(member=self.member, evening_id=evening_id)
        evening = registration.evening
        if registration.leaves_at is not None:
            return self._leaving(registration)
        question = (
            _(
                "Give up your seat? You have 30 seconds to take it back; then it goes to the "
                "first of the reserve."
            )
            if registration.status == RegistrationStatus.CONFIRMED
            else _("Leave the reserve? You have 30 seconds to take it back.")
        )
        when = texts.sentence(texts.evening_when(evening, ClubSettings.load()))
        self.reply(f"{when}.\n{question}", [[buttons.leave(evening_id), buttons.stay(evening_id)]])
        return self.toast(_("Sure you can't make it? Answer in the message below."))

    def _leaving(self, registration: Registration) -> dict[str, Any]:
        """«Не смогу» answered already: the card says when the place goes, with «Вернуть»."""
        self.reply(*evening_card(registration.evening, self.member))
        return self.toast(_("Your place is being given up."))

    # --- settings ----------------------------------------------------------------------

    def on_tournament(self, _argument: str) -> None:
        """Where the member plays next in their tournament and where they stand."""
        if self.member is None:
            self._not_linked()
            return
        mine = member_tournament(self.member)
        if mine is None:
            self.reply(_("You are not in a tournament now."))
            return
        lines = [_("Tournament «%(name)s».") % {"name": mine.tournament.name}]
        if mine.next_game is not None:
            game = mine.next_game
            lines.append(
                _("Next: round %(round)d, table %(table)d, seat %(seat)d.")
                % {"round": game.round.number, "table": game.table, "seat": game.seat}
            )
        elif mine.seated:
            lines.append(_("Your seated games are over."))
        else:
            lines.append(_("The rounds are not seated yet."))
        if mine.row is not None:
            lines.append(
                _("Standing: place %(place)d; points %(points)s; games played %(games)d.")
                % {
                    "place": mine.row.standing.place,
                    "points": shown(mine.row.standing.points, 2),
                    "games": mine.row.standing.sums.games,
                }
            )
        url = settings.SITE_URL + reverse("tournament", args=[mine.tournament.pk])
        self.reply("\n".join([*lines, url]))

    def on_settings(self, _argument: str) -> None:
        if self.member is None:
            self._not_linked()
            return
        self.reply(*settings_card(self.member))

    def on_toggle(self, which: str) -> dict[str, Any]:
        assert self.member is not None
        if which == "consent":
            accounts.member_set_publication_consent(
                member=self.member, consent=not self.member.publication_consent
            )
        elif which == "reminders":
            accounts.member_set_reminders(member=self.member, reminders=not self.member.reminders)
        elif which == "reports":
            accounts.member_set_game_reports(member=self.member, on=not self.member.game_reports)
        else:
            return self.toast(_("This button no longer works."))
        self.reply(*settings_card(self.member))
        return self.toast(_("Settings saved."))

    def on_reports_answer(self, argument: str) -> dict[str, Any]:
        """The answer to the one offer of reports after games (games/ratings/reports.py):
        «yes» switches them on and sends the report of the game the offer came after,
        «no» leaves them off; either way the bot has asked."""
        assert self.member is not None
        answer = reports.offer_read(argument)
        if answer is None:
            return self.toast(_("This button no longer works."))
        yes, game_id = answer
        if yes:
            self.reply(
                _(
                    "Done: after each of your games I will send you your report. "
                    "/settings switches it off."
                )
            )
        else:
            self.reply(_("Fine: no reports. /settings switches them on whenever you like."))
        reports.answer_offer(member=self.member, yes=yes, game_id=game_id)
        return self.toast(_("Reports after games: on.") if yes else _("Reports after games: off."))

    # --- signing up in the bot ---------------------------------------------------------

    def on_join(self) -> dict[str, Any]:
        if self.member is not None:
            return self.toast(_("You are already a member: /evening"))
        BotConversation.objects.update_or_create(
            telegram_id=self.incoming.telegram_id, defaults={"state": "nickname", "data": {}}
        )
        self.reply(_("What is your name at the table? Send your nickname (2–32 letters)."))
        return self.toast(_("Let's sign you up."))

    def on_sign_up_step(self, conversation: BotConversation, text: str) -> None:
        if conversation.state == "nickname":
            try:
                nickname = accounts.nickname_clean(text)
            except Refused as refusal:
                self.reply(refusal.message)
                return
            conversation.state, conversation.data = "birth_date", {"nickname": nickname}
            conversation.save()
            self.reply(_("Your birth date, as DD.MM.YYYY? The club is 21+."))
            return
        try:
            birth_date = datetime.strptime(text, "%d.%m.%Y").date()
        except ValueError:
            self.reply(_("Please send the date as DD.MM.YYYY, for example 07.03.1995."))
            return
        self._finish_sign_up(conversation, birth_date)

    def _finish_sign_up(self, conversation: BotConversation, birth_date: date) -> None:
        try:
            member = accounts.member_sign_up(
                nickname=conversation.data.get("nickname", ""),
                birth_date=birth_date,
                password=None,
                telegram_id=self.incoming.telegram_id,
                telegram_username=self.incoming.username,
                language=self.incoming.language,
            )
        except Refused as refusal:
            self.reply(refusal.message)
            if "nickname" in accounts.refusal_fields(refusal):
                conversation.state, conversation.data = "nickname", {}
                conversation.save()
            return
        conversation.delete()
        self.member = member
        with speaking_to(member):
            self.reply(_("Welcome to the club, %(nick)s!") % {"nick": member.nickname})
            self.evening_card(None)
