"""The club's face from its settings: the name in the header and the title, the logo as the
header's mark, the tab's icon, the home-screen icon and the manifest's icons."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.contrib import admin
from django.core.files.uploadedfile import SimpleUploadedFile, UploadedFile
from django.forms import ModelForm
from django.forms.models import model_to_dict
from django.test import Client, RequestFactory
from django.utils.datastructures import MultiValueDict
from PIL import Image
from pytest_django import Settings

from club.kernel.clubs import Club

pytestmark = pytest.mark.django_db


def png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (180, 20, 30)).save(out, format="PNG")
    return out.getvalue()


def pixel(picture: Image.Image, x: int, y: int) -> tuple[int, ...]:
    """The colour channels of a picture with several (PNG's RGB or RGBA)."""
    channels = picture.getpixel((x, y))
    assert isinstance(channels, tuple)
    return channels


def admin_form(files: dict[str, UploadedFile[bytes]], **changes: object) -> ModelForm[Club]:
    """The club settings' form as the admin shows it, bound to the row with `changes`."""
    row = Club.current()
    model_admin = admin.site._registry[Club]
    request = RequestFactory().get("/")
    form_class = model_admin.get_form(request, row)
    data = {k: v for k, v in model_to_dict(row).items() if v is not None and k != "logo"}
    data.update(changes)
    return form_class(data, MultiValueDict({k: [v] for k, v in files.items()}), instance=row)


def test_without_a_name_or_logo_the_club_is_the_mafia_club_with_its_hat(client: Client) -> None:
    page = client.get("/").content.decode()
    assert '<span translate="no">Клуб «Мафия»</span>' in page
    assert 'href="/static/club/logo.svg" type="image/svg+xml"' in page
    assert 'rel="apple-touch-icon" href="/static/club/icon-180.png"' in page
    manifest = client.get("/manifest.webmanifest").json()
    assert manifest["name"] == "Клуб «Мафия»"
    assert [icon["src"] for icon in manifest["icons"]] == [
        "/static/club/icon-192.png",
        "/static/club/icon-512.png",
    ]


def test_the_clubs_name_and_logo_make_its_face(
    client: Client, tmp_path: Path, settings: Settings
) -> None:
    settings.MEDIA_ROOT = tmp_path
    form = admin_form(
        {"logo": SimpleUploadedFile("hat.png", png(300, 200), "image/png")}, name="Чёрная роза"
    )
    assert form.is_valid(), form.errors
    form.save()
    Club.forget_cached()

    page = client.get("/").content.decode()
    assert "<title>Чёрная роза</title>" in page and ">Чёрная роза</span>" in page
    assert "logo.svg" not in page  # the club's own mark, not the hat
    mark = next(line for line in page.splitlines() if 'class="site-brand"' in line)
    icon = mark.split('<img src="', 1)[1].split('"', 1)[0]
    assert icon.startswith("/club/icon-96.png?v=")
    answer = client.get(icon)
    assert answer["Content-Type"] == "image/png" and "max-age" in answer["Cache-Control"]
    picture = Image.open(io.BytesIO(answer.content))
    assert picture.size == (96, 96)  # the 3:2 logo kept whole on a clear square
    assert pixel(picture, 48, 48)[:3] == (180, 20, 30) and pixel(picture, 0, 0)[3] == 0
    manifest = client.get("/manifest.webmanifest").json()
    assert manifest["name"] == "Чёрная роза"
    assert manifest["icons"][0]["src"].startswith("/club/icon-192.png?v=")


@pytest.mark.parametrize(
    ("name", "content", "error"),
    [
        ("logo.png", b"not a picture at all", "Загрузите правильное изображение"),
        ("logo.gif", png(10, 10), "gif"),
        ("logo.png", png(10, 10) + b"\0" * (1024 * 1024), "не больше 1 МБ"),
    ],
)
def test_a_logo_that_is_not_a_small_picture_is_refused(
    name: str, content: bytes, error: str, settings: Settings, tmp_path: Path
) -> None:
    settings.MEDIA_ROOT = tmp_path
    form = admin_form({"logo": SimpleUploadedFile(name, content, "image/png")})
    assert not form.is_valid()
    assert error in str(form.errors["logo"])
    assert not Club.objects.get().logo


def test_only_the_pages_icon_sizes_are_served(client: Client) -> None:
    assert client.get("/club/icon-33.png").status_code == 404
    # Without a logo the size's static hat is served instead.
    answer = client.get("/club/icon-192.png")
    assert answer.status_code == 302 and answer["Location"] == "/static/club/icon-192.png"


def test_the_admin_names_the_club(admin_client_: Client) -> None:
    Club.objects.update(name="Чёрная роза")
    Club.forget_cached()
    page = admin_client_.get("/admin/").content.decode()
    assert "Чёрная роза: администрирование" in page
