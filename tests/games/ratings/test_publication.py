"""The club group's post about each analysed game, and its edits when consent changes."""

import pytest
from django.test import Client
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.models import User
from accounts.services import member_set_publication_consent
from club.announcements import evening_lineup_sync
from club.kernel.clubs import Club
from games.models import Game
from games.ratings import analysis, publication, tasks
from notifications.models import Notification, NotificationStatus
from notifications.sender import notification_deliver
from tests.checks import present
from tests.factories import set_consent
from tests.fake_telegram import FakeTelegram
from tests.games.recording import TOWN_WINS, Table, record, start_game

pytestmark = pytest.mark.django_db
GROUP = -100123


@pytest.fixture
def group() -> int:
    club = Club.current()
    club.telegram_group_chat_id = GROUP
    club.save()
    return GROUP


def analysed(table: Table) -> tuple[Game, list[User]]:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS)
    analysis.game_analysis_build(game_id=game.pk)
    analysis.ratings_replay()
    return game, players


def test_the_group_gets_the_analysis_with_nicks_roles_points_and_a_link(
    table: Table, group: int
) -> None:
    game, players = analysed(table)
    post_id = present(publication.game_post_sync(game_id=game.pk))
    post = Notification.objects.get(pk=post_id)
    assert (post.chat_id, post.dedupe_key) == (GROUP, f"analysis:{game.pk}")
    assert f"4. {players[3].nickname} · Комиссар · +2,00" in post.text  # as the pages print it
    assert "Победа: красные (город)" in post.text
    assert post.text.endswith(f"/games/{game.pk}/")
    # The same analysis posted again is the same post.
    assert publication.game_post_sync(game_id=game.pk) is None
    assert Notification.objects.filter(chat_id=GROUP).count() == 1


def test_no_group_set_means_no_post(table: Table) -> None:
    game, _players = analysed(table)
    assert publication.game_post_sync(game_id=game.pk) is None
    assert not Notification.objects.filter(dedupe_key__startswith="analysis:").exists()


def test_a_member_who_refused_publication_is_their_seat_in_the_post(
    table: Table, group: int
) -> None:
    game, players = analysed(table)
    set_consent(players[3], consent=False)
    post = Notification.objects.get(pk=present(publication.game_post_sync(game_id=game.pk)))
    assert players[3].nickname not in post.text
    assert "4. Игрок 4 · Комиссар" in post.text


def test_switching_off_edits_the_sent_post_and_switching_on_edits_it_back(
    table: Table, group: int, fake_telegram: FakeTelegram
) -> None:
    game, players = analysed(table)
    post = Notification.objects.get(pk=present(publication.game_post_sync(game_id=game.pk)))
    assert notification_deliver(post.pk).status == NotificationStatus.SENT
    post.refresh_from_db()
    shy = players[3]

    member_set_publication_consent(member=shy, consent=False)
    tasks.member_posts_sync(shy.pk)  # as the worker runs it after the commit
    edit = Notification.objects.get(edit_of=post)
    assert shy.nickname not in edit.text and "Игрок 4" in edit.text
    assert notification_deliver(edit.pk).status == NotificationStatus.SENT
    (call,) = fake_telegram.edited()
    assert call.params["message_id"] == post.message_id
    assert call.params["chat_id"] == GROUP
    assert "Игрок 4" in call.params["text"]
    assert len(fake_telegram.sent()) == 1  # edited, not posted again

    member_set_publication_consent(member=shy, consent=True)
    tasks.member_posts_sync(shy.pk)
    latest = present(Notification.objects.filter(edit_of=post).order_by("-pk").first())
    assert latest.pk != edit.pk and shy.nickname in latest.text


def test_a_post_not_yet_sent_is_rewritten_in_place(table: Table, group: int) -> None:
    game, players = analysed(table)
    post_id = present(publication.game_post_sync(game_id=game.pk))
    member_set_publication_consent(member=players[3], consent=False)
    tasks.member_posts_sync(players[3].pk)
    post = Notification.objects.get(pk=post_id)
    assert players[3].nickname not in post.text
    assert not Notification.objects.filter(edit_of=post).exists()


def test_an_edit_waits_for_its_post_to_be_sent(
    table: Table, group: int, fake_telegram: FakeTelegram
) -> None:
    game, players = analysed(table)
    post = Notification.objects.get(pk=present(publication.game_post_sync(game_id=game.pk)))
    Notification.objects.filter(pk=post.pk).update(status=NotificationStatus.SENDING)
    member_set_publication_consent(member=players[3], consent=False)
    tasks.member_posts_sync(players[3].pk)
    edit = Notification.objects.get(edit_of=post)
    outcome = notification_deliver(edit.pk)
    assert outcome.status == NotificationStatus.PENDING and outcome.retry_in
    assert not fake_telegram.edited()


def test_consent_switched_in_a_transaction_asks_the_worker_after_the_commit(
    table: Table,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    queued: list[tuple[str, tuple[object, ...]]],
) -> None:
    member = table[2][0]
    asked = [("games.ratings.tasks.member_posts_sync", (member.pk,))]
    with django_capture_on_commit_callbacks(execute=True):
        member_set_publication_consent(member=member, consent=False)
        assert queued == []
    assert queued == asked
    with django_capture_on_commit_callbacks(execute=True):
        member_set_publication_consent(member=member, consent=False)  # no change: no task
    assert queued == asked


def test_the_groups_line_up_names_a_member_who_refused_publication_the_analysis_does_not(
    table: Table, group: int, fake_telegram: FakeTelegram
) -> None:
    """RULES.md §C: the evening's line-up is a roster, not a published result. The club's
    group reads it with every nickname, one who refused publication too, while the game's
    analysis post in the same group says «Игрок N» for them; switching publication off
    edits the analysis posts and leaves the line-up as it is."""
    _host, evening, players = table
    shy = players[3]
    User.objects.filter(pk=shy.pk).update(nickname="Тень")
    lineup = present(evening_lineup_sync(evening_id=evening.pk))
    assert notification_deliver(lineup).status == NotificationStatus.SENT

    shy.refresh_from_db()
    member_set_publication_consent(member=shy, consent=False)
    tasks.member_posts_sync(shy.pk)  # as the worker runs it after the commit
    assert not Notification.objects.filter(edit_of_id=lineup).exists()
    assert evening_lineup_sync(evening_id=evening.pk) is None  # nothing to change in it

    game, _players = analysed(table)
    post = present(publication.game_post_sync(game_id=game.pk))
    assert notification_deliver(post).status == NotificationStatus.SENT

    in_group = [call.params["text"] for call in fake_telegram.sent()]
    assert [call.params["chat_id"] for call in fake_telegram.sent()] == [GROUP, GROUP]
    roster, results = in_group
    assert roster.startswith("Состав вечера") and "\n4. Тень\n" in roster
    assert results.startswith("Разбор игры") and "Тень" not in results
    assert "\n4. Игрок 4 · Комиссар" in results


def test_the_settings_page_tells_the_member_the_line_up_keeps_their_nickname(
    table: Table,
) -> None:
    _host, _evening, players = table
    client = Client()
    client.force_login(players[0])
    page = client.get("/accounts/settings/").content.decode()
    assert "вы будете «Игроком N»" in page
    assert "Состав вечера — на сайте и в группе клуба — это список записавшихся" in page
