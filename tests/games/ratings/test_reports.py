"""The personal report after a game (games/ratings/reports.py, #28): only to a member who
asked, once per game whatever rebuilds its analysis, by each of their channels, in their
language, naming nobody else; and the bot's offer, made once."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.utils import timezone
from pytest_django import Settings

from accounts.models import NotifyBy, User
from club.models import RegistrationSource
from club.services import registration_create
from games.models import Game
from games.ratings import reports, tasks
from games.ratings.models import PlayerScore
from games.recordings.models import FoulSuggestion, Recording, RecordingStatus, SuggestionStatus
from notifications.mail import letter
from notifications.models import Notification, NotificationChannel
from notifications.sender import notification_deliver
from tests.bot.test_webhook import SECRET, button
from tests.factories import make_evening, set_consent
from tests.fake_telegram import FakeTelegram
from tests.games.ratings.scored import BONUS, COMMISSAR, named, played
from tests.games.recording import TOWN_WINS, Table, record, record_unscreened, start_game

pytestmark = pytest.mark.django_db


def next_evening(table: Table, players: list[User]) -> Game:
    """The same players' next game, on another evening (the first eliminated's immunity is
    the same evening's only): the town's win, no best move."""
    host = table[0]
    evening = make_evening(
        starts_at=timezone.now() + timedelta(hours=1), opens_at=timezone.now() - timedelta(days=1)
    )
    for player in players:
        registration_create(member=player, evening_id=evening.pk, source=RegistrationSource.WEB)
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS)
    return game


def wants(member: User, *, notify_by: NotifyBy = NotifyBy.AUTO, language: str = "ru") -> User:
    member.game_reports = True
    member.language = language
    member.notify_by = notify_by
    member.save()
    return member


def report_rows(game: Game, member: User) -> list[Notification]:
    key = reports.report_key(game.pk, member.pk)
    return list(
        Notification.objects.filter(dedupe_key__startswith=key, member=member).order_by("pk")
    )


def test_reports_off_by_default_nothing_is_sent(table: Table) -> None:
    game, players = played(table, BONUS)
    tasks.game_analyse(game.pk)
    assert not players[COMMISSAR - 1].game_reports
    assert not Notification.objects.filter(dedupe_key__startswith="game-report:").exists()


def test_on_one_message_per_channel_with_role_result_lines_and_rating(table: Table) -> None:
    game, players = played(table, BONUS)
    member = players[COMMISSAR - 1]
    member.telegram_id = 7001
    wants(member, notify_by=NotifyBy.BOTH)
    tasks.game_analyse(game.pk)
    rows = report_rows(game, member)
    assert [row.channel for row in rows] == [
        NotificationChannel.TELEGRAM,
        NotificationChannel.EMAIL,
    ]
    assert rows[0].text == rows[1].text
    assert rows[1].subject == f"Ваша игра {game.number}: отчёт"
    text = rows[0].text
    score = PlayerScore.objects.get(game=game, seat=COMMISSAR)
    assert f"Ваша игра {game.number}," in text
    assert "Место 4, Комиссар." in text
    assert "Победа: красные (город). Вы выиграли." in text
    assert f"Очки: +{score.points:.2f}".replace(".", ",") in text
    assert "· победа красных (города) — +1,00" in text
    assert "· проверка нашла чёрного: 2 — +0,30" in text
    # The host's reason, with the other player it names said as their seat.
    assert "· дополнительные баллы от ведущего: «вёл город, место 2 молчала» — +0,30" in text
    # The club's system: OpenSkill, a newcomer's 0.0 rising with the win.
    assert score.rating_after is not None and score.rating_after > 0
    assert "Рейтинг (OpenSkill, по победам): 0,0 → " in text
    assert text.rstrip().endswith(f"/games/{game.pk}/")
    # Nobody else is named: not the other players, not the reader's own nickname either.
    for other in players:
        assert other.nickname not in text
    # Only the member who asked gets one.
    assert Notification.objects.filter(dedupe_key__startswith="game-report:").count() == 2


def test_the_best_move_is_its_givers_line_with_the_seats(table: Table) -> None:
    game, players = played(table)
    giver = wants(players[5])  # seat 6, shot on night 1: named 1, 2 (black) and 9
    tasks.game_analyse(game.pk)
    (row,) = report_rows(game, giver)
    assert "· лучший ход, два из названных чёрные: 1, 2, 9 — +0,25" in row.text
    assert "Вы выиграли." in row.text


def test_a_rebuilt_analysis_sends_nothing_more_even_when_the_points_change(
    table: Table,
) -> None:
    host = table[0]
    game, players = played(table)
    member = wants(players[COMMISSAR - 1])
    tasks.game_analyse(game.pk)
    (first,) = report_rows(game, member)
    before = PlayerScore.objects.get(game=game, seat=COMMISSAR).points
    record_unscreened(game, host, BONUS)  # extra points after the end: the analysis is built again
    tasks.game_analyse(game.pk)
    tasks.game_analyse(game.pk)
    assert PlayerScore.objects.get(game=game, seat=COMMISSAR).points == pytest.approx(before + 0.3)
    assert report_rows(game, member) == [first]
    assert "вёл город" not in first.text  # as it was sent; the game's page has the new points


def test_an_old_game_rebuilt_is_not_reported_to_a_member_who_switched_on_later(
    table: Table,
) -> None:
    game, players = played(table)
    tasks.game_analyse(game.pk)
    member = wants(players[COMMISSAR - 1])
    with time_machine.travel(timezone.now() + reports.REPORT_WITHIN + timedelta(hours=1)):
        tasks.game_analyse(game.pk)
    assert report_rows(game, member) == []


def test_an_opted_out_player_is_never_named_in_anothers_report(table: Table) -> None:
    hidden_bonus = {**BONUS, "reason": "ЛИСА сдала себя на первой проверке"}
    game, players = played(table, hidden_bonus)
    shy = players[1]  # seat 2, Лиса: black, checked and nominated by the commissar
    set_consent(shy, consent=False)
    member = wants(players[COMMISSAR - 1])
    tasks.game_analyse(game.pk)
    (row,) = report_rows(game, member)
    assert "лиса" not in row.text.casefold()
    assert "«место 2 сдала себя на первой проверке»" in row.text
    assert "· проверка нашла чёрного: 2 — +0,30" in row.text
    # The shy member's own report names them to nobody but themselves: not even by name.
    wants(shy)
    tasks.game_analyse(game.pk)
    (own,) = report_rows(game, shy)
    assert "Место 2, Мафия." in own.text and "Вы проиграли." in own.text


def test_the_report_speaks_the_members_language(table: Table) -> None:
    game, players = played(table, BONUS)
    member = wants(players[COMMISSAR - 1], language="en")
    tasks.game_analyse(game.pk)
    (row,) = report_rows(game, member)
    assert f"Your game {game.number}," in row.text
    assert "Seat 4, Commissar." in row.text
    assert "Winner: the red (town). You won." in row.text
    assert "· win of the red team (town) — +1.00" in row.text
    assert "· extra points from the host: «вёл город, seat 2 молчала» — +0.30" in row.text
    assert "Rating (OpenSkill, by wins): 0.0 → " in row.text


def test_a_report_by_email_is_one_language_throughout(table: Table) -> None:
    """#28's walk: an English report came in a letter with a Russian subject, greeting
    and footer. The letter wraps the text in the language it is written in."""
    game, players = played(table, BONUS)
    member = wants(players[COMMISSAR - 1], notify_by=NotifyBy.EMAIL, language="en")
    tasks.game_analyse(game.pk)
    (row,) = report_rows(game, member)
    assert (row.channel, row.language) == (NotificationChannel.EMAIL, "en")
    sent = letter(row, member)
    assert sent.subject.endswith(f": Your game {game.number}: the report")
    assert sent.body.startswith(f"Hello, {member.nickname}!")
    assert "How the club tells you of your evenings" in sent.body
    assert "Здравствуйте" not in sent.body


def test_the_recording_adds_the_members_speech_figures_and_the_fouls_given(
    table: Table,
) -> None:
    host, evening, players = table
    named(players)
    game = start_game(host, evening, players)
    began = timezone.now() - timedelta(hours=1)

    def at(second: float) -> str:
        return (began + timedelta(seconds=second)).isoformat()

    # Day 1 opens with four timed speeches, in the seats' order; seat 4's is the last.
    speeches = [
        {"type": "speech", "seat": seat, "start": at(start), "end": at(start + 35), "limit": 30}
        for seat, start in ((1, 0), (2, 36), (3, 72), (COMMISSAR, 110))
    ]
    record(game, host, TOWN_WINS[0], *speeches, *TOWN_WINS[1:])
    recording = Recording.objects.create(
        game=game,
        original_name="game.m4a",
        size=1,
        started_at=began,
        status=RecordingStatus.ANALYSED,
        duration=200.0,
        voiced=[[111.0, 143.0], [150.0, 152.0]],
        speakers={
            "seats": {
                str(COMMISSAR): {"own": 32.0, "others": {"5": 6.0}, "night": 2.0, "aside": 1.0}
            },
            "stretches": [],
            "unknown": 0.0,
        },
    )
    FoulSuggestion.objects.create(
        recording=recording, seat=COMMISSAR, during=5, start=50, end=56, seconds=6,
        status=SuggestionStatus.ACCEPTED,
    )  # fmt: skip
    FoulSuggestion.objects.create(
        recording=recording, seat=COMMISSAR, during=None, start=90, end=92, seconds=2,
        status=SuggestionStatus.DISMISSED,
    )  # fmt: skip
    member = wants(players[COMMISSAR - 1])
    tasks.game_analyse(game.pk)
    (row,) = report_rows(game, member)
    assert "Ваши речи по записи (в секундах):" in row.text
    assert "· день 1: голос 32 из 30, тишина 3, сверх времени 3, после таймера 2" in row.text, (
        row.text
    )
    assert "в своих речах 32; в чужих 6 (место 5: 6); ночью 2; между речами 1." in row.text
    assert (
        "Фолы, которые подсказала запись и выдал ведущий:\n· 6 с разговора во время речи игрока 5"
        in (row.text)
    )
    assert "2 с разговора ночью" not in row.text  # dismissed: not given


# --- the bot's one offer ------------------------------------------------------------------


@pytest.fixture
def webhook(settings: Settings) -> None:
    settings.TELEGRAM_WEBHOOK_SECRET = SECRET


def press(data: str, telegram_id: int) -> dict[str, Any]:
    response = Client().post(
        "/telegram/webhook/",
        button(data, user_id=telegram_id),
        content_type="application/json",
        headers={"x-telegram-bot-api-secret-token": SECRET},
    )
    answer: dict[str, Any] = response.json()
    return answer


@pytest.mark.usefixtures("webhook")
def test_the_bot_offers_the_reports_once_and_yes_sends_this_games_report(
    table: Table, fake_telegram: FakeTelegram
) -> None:
    game, players = played(table)
    member = players[COMMISSAR - 1]
    member.telegram_id = 7004
    member.save()
    never_linked = players[4]  # no Telegram: the bot cannot ask
    tasks.game_analyse(game.pk)
    offer = Notification.objects.get(dedupe_key=f"game-reports-offer:{member.pk}")
    assert offer.channel == NotificationChannel.TELEGRAM and offer.mailable is False
    assert f"Разбор вашей игры {game.number} готов." in offer.text
    assert not Notification.objects.filter(dedupe_key=f"game-reports-offer:{never_linked.pk}")
    member.refresh_from_db()
    assert member.game_reports_offered_at is not None and not member.game_reports
    # The fake Bot API gets the question with its two buttons.
    notification_deliver(offer.pk)
    (sent,) = [call for call in fake_telegram.calls if call.method == "sendMessage"]
    markup = sent.params["reply_markup"]
    keyboard = (json.loads(markup) if isinstance(markup, str) else markup)["inline_keyboard"]
    assert [b["callback_data"] for b in keyboard[0]] == [f"rp:yes:{game.pk}", f"rp:no:{game.pk}"]
    assert [b["text"] for b in keyboard[0]] == ["Да, присылать", "Нет, спасибо"]
    # Built again, the analysis asks nothing more.
    tasks.game_analyse(game.pk)
    assert Notification.objects.filter(dedupe_key__startswith="game-reports-offer:").count() == 1

    assert press(f"rp:yes:{game.pk}", 7004)["text"] == "Отчёты после игр включены."
    member = User.objects.get(pk=member.pk)
    assert member.game_reports
    (report,) = report_rows(game, member)
    assert "Место 4, Комиссар." in report.text
    # A second press, or a second game, never asks again; the next game is reported.
    press(f"rp:yes:{game.pk}", 7004)
    assert len(report_rows(game, member)) == 1
    next_game = next_evening(table, players)
    tasks.game_analyse(next_game.pk)
    assert len(report_rows(next_game, member)) == 1
    assert Notification.objects.filter(dedupe_key__startswith="game-reports-offer:").count() == 1


@pytest.mark.usefixtures("webhook")
def test_no_thanks_is_final_and_the_settings_card_switches_them(
    table: Table, fake_telegram: FakeTelegram
) -> None:
    game, players = played(table)
    member = players[COMMISSAR - 1]
    member.telegram_id = 7005
    member.save()
    tasks.game_analyse(game.pk)
    assert press(f"rp:no:{game.pk}", 7005)["text"] == "Отчёты после игр выключены."
    member.refresh_from_db()
    assert not member.game_reports and member.game_reports_offered_at is not None
    assert report_rows(game, member) == []
    next_game = next_evening(table, players)
    tasks.game_analyse(next_game.pk)
    assert Notification.objects.filter(dedupe_key__startswith="game-reports-offer:").count() == 1
    assert report_rows(next_game, member) == []
    # /settings: the card says it and its button switches it.
    assert press("set:reports", 7005)["text"] == "Настройки сохранены."
    assert User.objects.get(pk=member.pk).game_reports
    card = Notification.objects.filter(chat_id=7005).latest("pk")
    assert "Отчёт после каждой игры: вкл" in card.text
    assert press("rp:maybe:1", 7005)["text"] == "Эта кнопка больше не работает."


def test_a_member_who_chose_email_only_is_not_asked_in_the_bot(table: Table) -> None:
    game, players = played(table)
    member = players[COMMISSAR - 1]
    member.telegram_id = 7006
    member.notify_by = NotifyBy.EMAIL
    member.save()
    tasks.game_analyse(game.pk)
    assert not Notification.objects.filter(dedupe_key__startswith="game-reports-offer:").exists()
    member.refresh_from_db()
    assert member.game_reports_offered_at is None


# --- the site's settings ---------------------------------------------------------------


def test_the_settings_page_switches_reports(member_client: Client, member: User) -> None:
    page = member_client.get("/accounts/settings/").content.decode()
    assert 'name="game_reports"' in page and "Присылать мне отчёт после каждой игры" in page
    member_client.post(
        "/accounts/settings/",
        {"publication_consent": "on", "game_reports": "on", "game_reports_shown": "on"},
    )
    member.refresh_from_db()
    assert member.game_reports
    assert member.game_reports_offered_at is not None  # chosen: the bot will not ask
    # An older page without the switch keeps the choice; this one switches it off.
    member_client.post("/accounts/settings/", {"publication_consent": "on"})
    member.refresh_from_db()
    assert member.game_reports
    member_client.post(
        "/accounts/settings/", {"publication_consent": "on", "game_reports_shown": "on"}
    )
    member.refresh_from_db()
    assert not member.game_reports
