"""The Telegram bot's conversation: one update in, replies out through the outbox.

The same `process_update` serves the webhook and long polling. Nothing is held in memory:
who a Telegram user is comes from the member table, a sign-up in progress from
BotConversation, an evening from its id in the button's callback data, so every button
works again after a restart.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts import services as accounts
from accounts.models import User
from club import queries, throttle
from club import services as club
from club.errors import Refused
from club.models import ClubSettings, Evening, RegistrationSource, RegistrationStatus
from club.parsing import whole_number
from notifications import texts
from notifications.models import BotConversation, TelegramLinkCode, TelegramUpdate
from notifications.services import notification_enqueue

logger = logging.getLogger(__name__)

Buttons = list[list[dict[str, str]]]


@dataclass(frozen=True)
class Incoming:
    update_id: int
    telegram_id: int
    chat_id: int
    username: str
    text: str = ""  # a message's text
    callback_id: str = ""  # a button press
    data: str = ""  # the pressed button's callback data


def parse_update(raw: Any) -> Incoming | None:
    """The parts of an update the bot acts on, or None for anything else."""
    if not isinstance(raw, dict) or type(raw.get("update_id")) is not int:
        return None
    update_id = raw["update_id"]
    if isinstance(message := raw.get("message"), dict):
        sender, chat = message.get("from"), message.get("chat")
        if (
            not isinstance(sender, dict)
            or not isinstance(chat, dict)
            or chat.get("type") != "private"
        ):
            return None
        text = message.get("text")
        if (
            type(sender.get("id")) is not int
            or type(chat.get("id")) is not int
            or not isinstance(text, str)
        ):
            return None
        return Incoming(
            update_id,
            sender["id"],
            chat["id"],
            str(sender.get("username") or "")[:64],
            text=text[:1000],
        )
    if isinstance(callback := raw.get("callback_query"), dict):
        sender = callback.get("from")
        data, callback_id = callback.get("data"), callback.get("id")
        if not isinstance(sender, dict) or type(sender.get("id")) is not int:
            return None
        if not isinstance(data, str) or not isinstance(callback_id, str):
            return None
        return Incoming(
            update_id,
            sender["id"],
            sender["id"],
            str(sender.get("username") or "")[:64],
            callback_id=callback_id,
            data=data[:64],
        )
    return None


def process_update(raw: Any) -> dict[str, Any] | None:
    """Handle one update once. Returns a Bot API call to make at once, if any (the answer
    to a button press), which the webhook puts in its response."""
    incoming = parse_update(raw)
    if incoming is None:
        return None
    try:
        with transaction.atomic():
            TelegramUpdate.objects.create(update_id=incoming.update_id)
    except IntegrityError:
        return None  # a repeat delivery: already handled
    with translation.override("ru"):
        return Bot(incoming).handle()


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
            if refusal.code == "throttled":
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
                "/settings — publication of your nickname, reminders\n/help — this message"
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
            )
            TelegramLinkCode.objects.filter(pk=link.pk).update(used_at=timezone.now())
        self.member = member
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
        evening_id = whole_number(argument, low=1)
        if action in ("su", "cx", "cf") and evening_id is not None:
            return self.on_evening_button(action, evening_id)
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
        from games import online_play

        assert self.member is not None
        online_play.online_act(game_id=game_id, user=self.member, event=event)
        return _("Done.")

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
        if action == "su":
            result = club.registration_create(
                member=self.member, evening_id=evening_id, source=RegistrationSource.BOT
            )
            if result.seat is not None:
                capacity = result.registration.evening.capacity
                answer = _("You are in: seat %(seat)d of %(capacity)d.") % {
                    "seat": result.seat,
                    "capacity": capacity,
                }
            else:
                answer = _(
                    "The evening is full: you are in the reserve, position %(position)d."
                ) % {"position": result.position}
        elif action == "cx":
            club.registration_cancel(member=self.member, evening_id=evening_id)
            answer = _("Your sign-up is cancelled.")
        else:
            club.registration_confirm_attendance(member=self.member, evening_id=evening_id)
            answer = _("Thank you: your attendance is confirmed.")
        return self.toast(answer)

    # --- settings ----------------------------------------------------------------------

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
        else:
            return self.toast(_("This button no longer works."))
        self.reply(*settings_card(self.member))
        return self.toast(_("Settings saved."))

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
            except ValidationError as error:
                self.reply(" ".join(error.messages))
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
            )
        except ValidationError as error:
            self.reply(" ".join(error.messages))
            if "nickname" in error.message_dict:
                conversation.state, conversation.data = "nickname", {}
                conversation.save()
            return
        conversation.delete()
        self.member = member
        self.reply(_("Welcome to the club, %(nick)s!") % {"nick": member.nickname})
        self.evening_card(None)


def evening_card(evening: Evening, member: User | None) -> tuple[str, Buttons]:
    """The evening's message: when, seats, the member's place, and the buttons that fit."""
    club_settings = ClubSettings.load()
    lineup = queries.evening_lineup(evening)
    mine = lineup.by_member.get(member.pk) if member else None
    left = max(evening.capacity - len(lineup.confirmed), 0)
    lines = [
        texts.evening_when(evening, club_settings),
        _("Seats left: %(left)d of %(capacity)d.") % {"left": left, "capacity": evening.capacity},
    ]
    buttons: Buttons = []
    if mine is not None and mine.status == RegistrationStatus.CONFIRMED:
        lines.append(_("You are in: seat %(seat)d.") % {"seat": lineup.seat_of(mine)})
        row = (
            []
            if mine.attendance_confirmed_at
            else [{"text": _("I confirm"), "callback_data": f"cf:{evening.pk}"}]
        )
        buttons.append([*row, {"text": _("I can't make it"), "callback_data": f"cx:{evening.pk}"}])
    elif mine is not None:
        lines.append(
            _("You are in the reserve, position %(position)d.")
            % {"position": lineup.position_of(mine)}
        )
        buttons.append([{"text": _("I can't make it"), "callback_data": f"cx:{evening.pk}"}])
    elif evening.is_open_for_signup():
        buttons.append([{"text": _("OK, I'm playing"), "callback_data": f"su:{evening.pk}"}])
    return "\n".join(lines), buttons


def settings_card(member: User) -> tuple[str, Buttons]:
    def state(on: bool) -> str:
        return _("on") if on else _("off")

    text = "\n".join(
        [
            _("Your settings:"),
            _("Publish my nickname and scores: %(state)s")
            % {"state": state(member.publication_consent)},
            _("Evening reminders: %(state)s") % {"state": state(member.reminders)},
        ]
    )
    buttons = [
        [{"text": _("Publication: switch"), "callback_data": "set:consent"}],
        [{"text": _("Reminders: switch"), "callback_data": "set:reminders"}],
    ]
    return text, buttons


# Callback data "<action>:<game>:<target>" → the online event and the field the target fills.
ONLINE_BUTTONS = {
    "ov": ("vote", "target"),
    "or": ("revote", "target"),
    "of": ("fast", ""),
    "os": ("shot", "target"),
    "od": ("don_check", "target"),
    "oc": ("com_check", "target"),
}


def online_card(game_id: int, member: User) -> tuple[str, Buttons]:
    """The member's online game: where it stands, and the buttons of what they may do."""
    from games import online_play

    found = online_play.online_table(game_id)
    assert found is not None
    view = online_play.online_view(found, member)
    state = found.state
    lines = [
        _("Online game %(number)d · seat %(seat)s · %(role)s")
        % {
            "number": view["number"],
            "seat": view["my_seat"],
            "role": texts.online_role(view["my_role"] or ""),
        },
        (_("Day %(n)d") if state.phase.value == "day" else _("Night %(n)d")) % {"n": state.n},
    ]
    if view["tally"]:
        lines.append(
            _("Votes: %(tally)s")
            % {"tally": ", ".join(f"{k}: {v}" for k, v in view["tally"].items())}
        )
    alive = sorted(state.alive)
    legal = set(view["legal"])
    buttons: Buttons = []

    def row(action: str, targets: list[Any], label: Any = str) -> None:
        for start in range(0, len(targets), 5):
            buttons.append(
                [
                    {"text": label(t), "callback_data": f"{action}:{game_id}:{t}"}
                    for t in targets[start : start + 5]
                ]
            )

    mine = view["my_seat"]
    if mine in state.alive:
        if (
            state.catastrophe is not None
            and "revote" in legal
            and mine not in state.catastrophe.tied
        ):
            if state.catastrophe.question:
                buttons.append(
                    [
                        {"text": _("Hang all"), "callback_data": f"or:{game_id}:hang_all"},
                        {"text": _("Pardon all"), "callback_data": f"or:{game_id}:pardon_all"},
                    ]
                )
            else:
                row("or", list(state.catastrophe.tied), lambda t: f"🗳 {t}")
        elif "vote" in legal:
            row("ov", alive, lambda t: f"🗳 {t}")
            fasting = mine in state.fasted
            buttons.append(
                [
                    {"text": _("PASS"), "callback_data": f"ov:{game_id}:pass"},
                    {
                        "text": _("Withdraw the fast") if fasting else _("Fast"),
                        "callback_data": f"of:{game_id}:{0 if fasting else 1}",
                    },
                ]
            )
        if state.phase.value == "night" and state.open:
            role = view["my_role"]
            if role in ("don", "mafia"):
                row("os", alive, lambda t: f"🔫 {t}")
            if role == "don" and "don" not in state.checked:
                row("od", alive, lambda t: f"🔎 {t}")
            if role == "commissar" and "commissar" not in state.checked:
                row("oc", alive, lambda t: f"🔎 {t}")
    return "\n".join(lines), buttons
