"""Every message in its reader's language (accounts/languages.py, #37 item 10): a member who
reads Russian and one who reads English receive each kind of message the club sends, on
both channels: Telegram through the fake Bot API server over HTTP, email through Django's
mail outbox. Each kind is composed for each member in their own language, also when one
call tells many members (an organiser's message, a cancelled evening, the reminders the
sweep writes, an online game's steps), and a letter wraps it in the same language."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from typing import Any

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.utils import timezone
from pytest_django import Settings

from accounts.languages import speaking_to
from accounts.models import Membership, NotifyBy, Role, User
from bot.linking import telegram_link_code_create
from club import lineup, scheduling
from club import services as club
from club.announcements import evening_announce_signup
from club.kernel.clubs import Club
from club.models import Evening, Registration, RegistrationSource, RemovalReason
from games.ratings import tasks as ratings_tasks
from notifications.models import Notification, NotificationStatus
from notifications.sender import notification_deliver
from tests.bot.test_webhook import SECRET, button, message, post
from tests.factories import make_evening, make_member
from tests.fake_telegram import FakeTelegram
from tests.games.online.test_online_play import Player, online_game
from tests.games.ratings.scored import played
from tests.games.recording import evening_with_players, make_host

pytestmark = pytest.mark.django_db

RU_ID, EN_ID = 5101, 5102
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


@dataclass
class Pair:
    ru: User
    en: User

    def both(self) -> list[User]:
        return [self.ru, self.en]


@dataclass
class Received:
    """What one member received: each Telegram message (its text with its buttons' labels)
    and each letter (its subject and body)."""

    telegram: list[str] = field(default_factory=list)
    letters: list[str] = field(default_factory=list)


@pytest.fixture
def pair(fake_telegram: FakeTelegram, settings: Settings) -> Pair:
    """Two members told by both channels, one in each language; names and the venue in
    Latin letters, so that any Cyrillic in an English message is the club's own words."""
    settings.TELEGRAM_WEBHOOK_SECRET = SECRET
    club_settings = Club.current()
    club_settings.name = "Night Club"
    club_settings.save()

    def member(nickname: str, telegram_id: int, language: str) -> User:
        return make_member(
            nickname=nickname,
            telegram_id=telegram_id,
            email=f"{nickname.lower()}@example.org",
            notify_by=NotifyBy.BOTH,
            language=language,
        )

    return Pair(member("Fox", RU_ID, "ru"), member("Wolf", EN_ID, "en"))


def send_all() -> None:
    """Send every row written so far (the per-chat pace, tested on its own, is waved through
    by dating the sent rows back)."""
    for pk in Notification.objects.filter(status=NotificationStatus.PENDING).values_list(
        "pk", flat=True
    ):
        notification_deliver(pk)
        Notification.objects.filter(status=NotificationStatus.SENT).update(
            sent_at=timezone.now() - timedelta(minutes=5)
        )
    assert not Notification.objects.filter(status=NotificationStatus.PENDING).exists()


def deliver(fake: FakeTelegram, pair: Pair) -> dict[str, Received]:
    """Send every row written so far and sort what reached each member by language."""
    calls, letters = len(fake.sent()), len(mail.outbox)
    send_all()
    received = {"ru": Received(), "en": Received()}
    chats = {RU_ID: "ru", EN_ID: "en"}
    for call in fake.sent()[calls:]:
        if call.params["chat_id"] in chats:
            received[chats[call.params["chat_id"]]].telegram.append(_shown(call.params))
    addresses = {pair.ru.email: "ru", pair.en.email: "en"}
    for letter in mail.outbox[letters:]:
        (address,) = letter.to
        if address in addresses:
            received[addresses[address]].letters.append(f"{letter.subject}\n{letter.body}")
    return received


def _shown(params: dict[str, Any]) -> str:
    markup = params.get("reply_markup") or {}
    if isinstance(markup, str):
        markup = json.loads(markup)
    labels = [b["text"] for row in markup.get("inline_keyboard", []) for b in row]
    return "\n".join([params["text"], *labels])


def assert_speaks(text: str, language: str, *, names: tuple[str, ...] = ()) -> None:
    """Russian: the club's words are Cyrillic. English: none of them is (a member's name
    or the organiser's own words aside)."""
    for name in names:
        text = text.replace(name, "")
    if language == "ru":
        assert CYRILLIC.search(text), f"not Russian: {text!r}"
    else:
        assert not CYRILLIC.search(text) and re.search("[a-z]{3}", text), f"not English: {text!r}"


# --- the kinds of message ----------------------------------------------------------------


def soon(hours: float = 72) -> datetime:
    return timezone.now() + timedelta(hours=hours)


def _seat(pair: Pair) -> None:
    evening = make_evening(capacity=5)
    for member in pair.both():
        club.registration_create(
            member=member, evening_id=evening.pk, source=RegistrationSource.WEB
        )


def _filled(capacity: int = 1, **fields: Any) -> Evening:
    evening = make_evening(capacity=capacity, **fields)
    for _ in range(capacity):
        club.registration_create(
            member=make_member(), evening_id=evening.pk, source=RegistrationSource.WEB
        )
    return evening


def _reserve(pair: Pair) -> None:
    evening = _filled()
    for member in pair.both():
        club.registration_create(
            member=member, evening_id=evening.pk, source=RegistrationSource.WEB
        )


def _signed_up(pair: Pair, **fields: Any) -> Evening:
    """An evening both members are seated at, their sign-ups' messages already sent."""
    evening = make_evening(**{"capacity": 5, **fields})
    for member in pair.both():
        club.registration_create(
            member=member, evening_id=evening.pk, source=RegistrationSource.WEB
        )
    Notification.objects.filter(status=NotificationStatus.PENDING).update(
        status=NotificationStatus.SENT
    )
    return evening


def _in_reserve(pair: Pair, ahead: int = 0) -> Evening:
    """A full evening of one seat with the members waiting behind `ahead` others."""
    evening = _filled()
    for member in [*(make_member() for _ in range(ahead)), *pair.both()]:
        club.registration_create(
            member=member, evening_id=evening.pk, source=RegistrationSource.WEB
        )
    Notification.objects.filter(status=NotificationStatus.PENDING).update(
        status=NotificationStatus.SENT
    )
    return evening


def _promoted(pair: Pair) -> None:
    evening = _in_reserve(pair)
    club.evening_set_capacity(evening_id=evening.pk, capacity=3)


def _moved_up(pair: Pair) -> None:
    evening = _in_reserve(pair, ahead=3)  # positions 4 and 5; told within the first three
    ahead = Registration.objects.filter(evening=evening, status="reserve").order_by("arrival")
    for registration in list(ahead)[:2]:
        assert registration.member is not None
        club.registration_cancel(member=registration.member, evening_id=evening.pk)


def _cancelled(pair: Pair) -> None:
    evening = _signed_up(pair)
    for member in pair.both():
        club.registration_cancel(member=member, evening_id=evening.pk)


def _removal(reason: RemovalReason) -> Callable[[Pair], None]:
    def remove(pair: Pair) -> None:
        evening = _signed_up(pair, starts_at=soon(1))  # the door is open
        organiser = make_member(is_staff=True, is_superuser=True)
        for registration in Registration.objects.filter(evening=evening):
            lineup.lineup_remove(registration_id=registration.pk, reason=reason, actor=organiser)

    return remove


def _withdrawn(pair: Pair) -> None:
    """An admin cancels their sign-ups (the admin's action): the club did it."""
    evening = _signed_up(pair)
    for registration in Registration.objects.filter(evening=evening):
        club.registration_withdraw(registration_id=registration.pk)


def _second_table(pair: Pair) -> None:
    """The organiser opens a second table: the reserve moves up, nobody having left."""
    table = Club.current().min_players
    evening = make_evening(capacity=table)
    people = [*(make_member() for _ in range(table)), *pair.both()]
    people += [make_member() for _ in range(table - 2)]
    for member in people:
        club.registration_create(
            member=member, evening_id=evening.pk, source=RegistrationSource.WEB
        )
    Notification.objects.filter(status=NotificationStatus.PENDING).update(
        status=NotificationStatus.SENT
    )
    organiser = make_member(is_staff=True, is_superuser=True)
    promoted = lineup.evening_open_second_table(evening_id=evening.pk, actor=organiser)
    assert set(pair.both()) <= {registration.member for registration in promoted}


def _released(pair: Pair) -> None:
    settings_row = Club.current()
    settings_row.release_unconfirmed_seats = True
    settings_row.save()
    evening = _signed_up(pair, starts_at=soon(2), capacity=2)  # within the 3 hours' deadline
    for _ in range(2):  # the reserve that takes the seats
        club.registration_create(
            member=make_member(), evening_id=evening.pk, source=RegistrationSource.WEB
        )
    assert club.evening_release_unconfirmed(evening_id=evening.pk) == 2


def _reminded(pair: Pair) -> None:
    """The sweep Celery's beat runs every minute, on the evening's day: no request, no
    page, nobody's language active but the club's."""
    zone = Club.current().zone
    day = timezone.localtime(soon(72), zone).date()
    evening = _signed_up(pair, starts_at=datetime.combine(day, time(19, 0), tzinfo=zone))
    with time_machine.travel(datetime.combine(day, time(11, 0), tzinfo=zone), tick=False):
        assert evening.pk in scheduling.schedule_sweep().reminded


def _organisers_message(pair: Pair) -> None:
    evening = _signed_up(pair)
    organiser = make_member(is_staff=True, is_superuser=True)
    lineup.evening_message(evening_id=evening.pk, text="Start at 18:30", actor=organiser)


def _evening_cancelled(pair: Pair) -> None:
    club.evening_cancel(evening_id=_signed_up(pair).pk)


def _evening_moved(pair: Pair) -> None:
    club.evening_move(evening_id=_signed_up(pair).pk, starts_at=soon(96))


def _mark_no_shows(pair: Pair) -> None:
    """The club's admins are asked to mark who came, once the evening is over."""
    Membership.objects.exclude(user__in=pair.both()).update(role=Role.MEMBER)
    Membership.objects.filter(user__in=pair.both()).update(role=Role.ADMIN)
    evening = make_evening(starts_at=soon(-8), opens_at=soon(-100))
    assert evening.pk in scheduling.schedule_sweep().finished


def _tournament_round(pair: Pair) -> None:
    from tests.tournaments.test_tournaments import EFFORT, admin, api, small
    from tournaments import services as tournaments
    from tournaments.models import Tournament

    organiser = admin()
    tournament, _others = small(organiser, players=8)
    Tournament.objects.filter(pk=tournament.pk).update(name="December Cup")  # the club's words
    for member in pair.both():
        assert api(member, "post", f"/tournaments/{tournament.pk}/registration").status_code == 201
    tournaments.tournament_seat(tournament_id=tournament.pk, actor=organiser, effort=EFFORT)
    first = tournament.round_set.get(number=1)
    assert tournaments.round_announce(round_id=first.pk, actor=organiser) == 10


def _online_game(pair: Pair) -> None:
    """The deal (Telegram and a letter), then day 1 (Telegram only), each to all ten."""
    from games.online.sweep import online_sweep

    others = [make_member(nickname=f"Bat{n}", telegram_id=7100 + n) for n in range(8)]
    _host, _players, _seats, _game_id, starts = online_game(
        [Player(member) for member in [*pair.both(), *others]]
    )
    with time_machine.travel(starts + timedelta(seconds=5), tick=False):
        online_sweep()


def latin_names_back(pair: Pair, **fields: Any) -> None:
    """The game's scenario names its players (in Russian): the two get theirs back."""
    for member, nickname in zip(pair.both(), ("Fox", "Wolf"), strict=True):
        member.refresh_from_db()
        member.nickname = nickname
        for name, value in fields.items():
            setattr(member, name, value)
        member.save()


def _game_analysed(pair: Pair) -> None:
    """A game's analysis: the report to a member who asked for them, and the bot's one
    offer of them to a member who was never asked."""
    host = make_host()
    evening, players = evening_with_players()
    players[10:] = [player for player in pair.both()]
    for member in pair.both():
        club.registration_create(
            member=member, evening_id=evening.pk, source=RegistrationSource.WEB
        )
    Notification.objects.filter(status=NotificationStatus.PENDING).update(
        status=NotificationStatus.SENT
    )
    game, _players = played((host, evening, players))
    latin_names_back(pair, game_reports=True)
    ratings_tasks.game_analyse(game.pk)


def _reports_offered(pair: Pair) -> None:
    host = make_host()
    evening, players = evening_with_players()
    players[10:] = [player for player in pair.both()]
    for member in pair.both():
        club.registration_create(
            member=member, evening_id=evening.pk, source=RegistrationSource.WEB
        )
    Notification.objects.filter(status=NotificationStatus.PENDING).update(
        status=NotificationStatus.SENT
    )
    game, _players = played((host, evening, players))
    latin_names_back(pair)
    ratings_tasks.game_analyse(game.pk)


@dataclass(frozen=True)
class Kind:
    trigger: Callable[[Pair], None]
    ru: str  # in the Russian member's Telegram message
    en: str  # in the English member's
    by_email: bool = True  # a letter too (the member is told by both channels)


KINDS = {
    "seat": Kind(_seat, "Вы в игре! № 1 в списке из 5.", "You are in! No. 2 of 5 on the list."),
    "reserve": Kind(_reserve, "вы в резерве, позиция 1", "you are in the reserve, position 2"),
    "promoted": Kind(_promoted, "Освободилось место — вы в игре!", "A seat has freed up"),
    "moved up the reserve": Kind(_moved_up, "Вы продвинулись в резерве", "You have moved up"),
    "cancelled": Kind(_cancelled, "Запись отменена.", "Your sign-up is cancelled."),
    "removed as not come": Kind(
        _removal(RemovalReason.NO_SHOW), "Организатор отметил неявку", "marked you as not come"
    ),
    "removed at the member's call": Kind(
        _removal(RemovalReason.BY_PHONE),
        "Как вы просили по телефону, организатор отменил вашу запись: ваше место перейдёт",
        "As you asked by phone, the organiser has cancelled your sign-up: your seat goes",
    ),
    "removed by the club": Kind(
        _withdrawn,
        "Клуб отменил вашу запись: место больше не за вами",
        "The club has cancelled your sign-up: your seat is no longer yours",
    ),
    "promoted to a second table": Kind(
        _second_table, "Открылся второй стол — вы в игре!", "A second table has opened"
    ),
    "released unconfirmed": Kind(_released, "Вы не подтвердили участие", "did not confirm"),
    "reminder": Kind(_reminded, "Сегодня вечер игры!", "Today is the evening!"),
    "organiser's message": Kind(
        _organisers_message, "От организатора вечера", "From the evening's organiser"
    ),
    "evening cancelled": Kind(_evening_cancelled, "Вечер отменён", "The evening is cancelled"),
    "evening moved": Kind(_evening_moved, "Вечер перенесён", "The evening has moved"),
    "mark the no-shows": Kind(_mark_no_shows, "Отметьте в админке", "Please mark who came"),
    "tournament round": Kind(_tournament_round, "вы играете за столом", "you play at table"),
    "online game": Kind(_online_game, "Начался день 1", "Day 1 has begun"),
    "game report": Kind(_game_analysed, "Ваша игра", "Your game"),
    "reports offered": Kind(
        _reports_offered, "Разбор вашей игры", "has been analysed", by_email=False
    ),
}


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_of_message_reaches_each_member_in_their_language(
    kind: str, pair: Pair, fake_telegram: FakeTelegram
) -> None:
    expected = KINDS[kind]
    expected.trigger(pair)
    received = deliver(fake_telegram, pair)
    names = ("Fox", "Wolf", "Start at 18:30")
    for language, member in (("ru", pair.ru), ("en", pair.en)):
        got = received[language]
        assert got.telegram, f"{kind}: nothing in Telegram for {member}"
        assert any(getattr(expected, language) in text for text in got.telegram), got.telegram
        for text in got.telegram:
            assert_speaks(text, language, names=names)
        if expected.by_email:
            assert got.letters, f"{kind}: no letter to {member}"
        for letter in got.letters:
            assert_speaks(letter, language, names=names)


def test_a_password_reset_letter_is_in_the_members_language_not_the_pages(pair: Pair) -> None:
    for member, page in ((pair.ru, "en"), (pair.en, "ru")):
        browser = Client()
        browser.cookies["django_language"] = page
        response = browser.post("/accounts/password/reset/", {"email": member.email})
        assert response.status_code == 302
    (ru, en) = mail.outbox[-2:]
    assert ru.subject.startswith("Night Club: Сброс пароля") and "кто-то запросил" in ru.body
    assert en.subject.startswith("Night Club: Password reset") and "reset the password" in en.body
    assert_speaks(f"{ru.subject}\n{ru.body}", "ru", names=("Fox",))
    assert_speaks(f"{en.subject}\n{en.body}", "en", names=("Wolf",))


def test_the_bots_replies_speak_the_members_language(
    pair: Pair, fake_telegram: FakeTelegram
) -> None:
    evening = make_evening(capacity=5)
    answers = {}
    for member in pair.both():
        assert member.telegram_id is not None
        post(message("/help", user_id=member.telegram_id))
        post(message("/start", user_id=member.telegram_id))
        toast = post(button(f"su:{evening.pk}", user_id=member.telegram_id)).json()
        answers[member.language] = toast["text"]
    assert answers == {
        "ru": "Вы в игре: № 1 в списке из 5.",
        "en": "You are in: no. 2 of 5 on the list.",
    }
    received = deliver(fake_telegram, pair)
    assert any("I am the club's bot." in text for text in received["en"].telegram)
    assert any("Я бот клуба" in text for text in received["ru"].telegram)
    for language in ("ru", "en"):
        assert len(received[language].telegram) >= 4  # help, hello, the card, the seat
        for text in received[language].telegram:
            assert_speaks(text, language, names=("Fox", "Wolf"))


def with_language(update: dict[str, Any], code: str) -> dict[str, Any]:
    for part in ("message", "callback_query"):
        if part in update:
            update[part]["from"]["language_code"] = code
    return update


@pytest.mark.parametrize(("code", "language"), [("en", "en"), ("en-GB", "en"), ("de", "ru")])
def test_a_stranger_hears_the_bot_in_their_telegrams_language_or_the_clubs(
    code: str, language: str, fake_telegram: FakeTelegram, settings: Settings
) -> None:
    settings.TELEGRAM_WEBHOOK_SECRET = SECRET
    post(with_language(message("/start", user_id=9301), code))
    send_all()
    (call,) = fake_telegram.sent()
    assert_speaks(_shown(call.params), language)


def test_linking_in_the_bot_learns_telegrams_language_unless_the_member_chose(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    settings.TELEGRAM_WEBHOOK_SECRET = SECRET
    learnt = make_member(nickname="Lynx")
    chose = make_member(nickname="Hare", language="ru", language_chosen=True)
    for user_id, member in ((9401, learnt), (9402, chose)):
        code = telegram_link_code_create(member=member)
        post(with_language(message(f"/start {code}", user_id=user_id), "en"))
        answer = post(with_language(button(f"lk:{code}", user_id=user_id), "en")).json()
        member.refresh_from_db()
        assert member.telegram_id == user_id
        assert_speaks(answer["text"], member.language)
        send_all()
        done = [c for c in fake_telegram.sent() if c.params["chat_id"] == user_id][-2]
        assert_speaks(done.params["text"], member.language, names=(member.nickname,))
    assert (learnt.language, learnt.language_chosen) == ("en", False)
    assert (chose.language, chose.language_chosen) == ("ru", True)


def test_a_group_post_stays_in_the_clubs_language(pair: Pair, fake_telegram: FakeTelegram) -> None:
    """A post to the club's group has no one reader: it is in the club's language, also
    when it is written while a member's message is being composed."""
    settings_row = Club.current()
    settings_row.telegram_group_chat_id = -100500
    settings_row.save()
    evening = make_evening()
    with speaking_to(pair.en):
        evening_announce_signup(evening_id=evening.pk)
    deliver(fake_telegram, pair)
    (group_post,) = [c for c in fake_telegram.sent() if c.params["chat_id"] == -100500]
    assert _shown(group_post.params).startswith("Запись открыта!")
