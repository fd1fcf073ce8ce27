"""What the cache keeps for a club is that club's: a key that holds club-specific data names
the club (a game's or an evening's id is the platform's, unique already)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from PIL import Image
from pytest_django import Settings

from club.identity import logo_icon_png
from club.kernel import throttle
from club.kernel.clubs import Club
from club.kernel.errors import Refused
from club.kernel.tenancy import club_scope

pytestmark = pytest.mark.django_db


def png(colour: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 40), colour).save(out, format="PNG")
    return out.getvalue()


def centre(icon: bytes | None) -> tuple[int, ...]:
    assert icon is not None
    channels = Image.open(io.BytesIO(icon)).getpixel((16, 16))
    assert isinstance(channels, tuple)
    return channels[:3]


def test_two_clubs_whose_logos_came_to_one_name_each_get_their_own_icon(
    settings: Settings, tmp_path: Path
) -> None:
    settings.MEDIA_ROOT = tmp_path
    first = Club.current()
    east = Club.objects.create(slug="east", name="East")
    # The first club's logo, its icon drawn and kept; then its file is gone and the other
    # club's upload is stored under the name that became free.
    name = default_storage.save("club/logo.png", ContentFile(png((200, 0, 0))))
    Club.objects.filter(pk=first.pk).update(logo=name)
    Club.forget_cached()
    with club_scope(first):
        assert centre(logo_icon_png(32)) == (200, 0, 0)
    default_storage.delete(name)
    assert default_storage.save(name, ContentFile(png((0, 0, 200)))) == name
    Club.objects.filter(pk=east.pk).update(logo=name)
    Club.forget_cached()
    with club_scope(east):
        assert centre(logo_icon_png(32)) == (0, 0, 200)


def test_a_chats_bot_messages_are_counted_per_clubs_bot() -> None:
    first = Club.current()
    east = Club.objects.create(slug="east", name="East")
    chat = "424242"
    with club_scope(first):
        for _ in range(30):
            throttle.refuse_if_over(throttle.BOT_PER_CHAT, chat)
        with pytest.raises(Refused):
            throttle.refuse_if_over(throttle.BOT_PER_CHAT, chat)
    with club_scope(east):  # the other club's bot: a door of its own
        throttle.refuse_if_over(throttle.BOT_PER_CHAT, chat)
    # An account's login failures are the platform's: one count across the clubs.
    with club_scope(first):
        for _ in range(10):
            throttle.count(throttle.LOGIN_PER_ACCOUNT, "player")
    with club_scope(east):
        assert throttle.waiting(throttle.LOGIN_PER_ACCOUNT, "player") > 0
