"""A results-only game's page says where it comes from and shows its results, not a
timeline; a guest of the records is never named on it."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from games.models import Game
from history.formats.records import Read, Source
from history.imports import rebuild, services
from tests.factories import make_member
from tests.history.records import game_record

pytestmark = pytest.mark.django_db


def imported_game(organiser: User) -> Game:
    names = ("Ворон", *tuple(f"Старый {n}" for n in range(2, 11)))
    record = game_record("g1", nicknames=names, extra={1: (0.3, "за игру")}, best_move=(1, 2, 6))
    found = services.import_upload(
        author=organiser,
        filename="past.csv",
        data=b"x",
        read=Read(games=[record]),
        source=Source.SPREADSHEET,
    )
    services.import_confirm(history_import_id=found.pk, actor=organiser, choices={})
    rebuild.history_rebuild(history_import_id=found.pk)
    return Game.objects.get()


def test_the_page_says_results_only_and_shows_the_results_in_both_languages() -> None:
    organiser = make_member(nickname="Организатор", role="organiser")
    make_member(nickname="Ворон")
    game = imported_game(organiser)
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert "Игра перенесена из записей клуба: только итоги, без хода игры" in page
    assert "Ворон" in page and "+0,30" in page and "за игру" in page
    assert "ночь 1" in page  # seat 5 killed on night 1
    # The records' unclaimed players are guests: a published page names none of them.
    assert "Старый 2" not in page and "Игрок 2" in page
    client = Client()
    client.cookies["django_language"] = "en"
    english = client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "brought from the club's records: its results only" in english


def test_its_author_gets_the_same_page_not_a_host_screen() -> None:
    organiser = make_member(nickname="Организатор", role="organiser")
    game = imported_game(organiser)
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/games/{game.pk}/")
    assert page.status_code == 200, page.content.decode()[-3000:]
    assert "только итоги" in page.content.decode()


def test_consent_applies_to_an_imported_game_as_to_every_game() -> None:
    organiser = make_member(nickname="Организатор", role="organiser")
    make_member(nickname="Ворон", publication_consent=False)
    game = imported_game(organiser)
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert "Ворон" not in page and "Игрок 1" in page


def test_the_organiser_who_imported_it_is_not_its_host_on_its_page_or_in_the_figures() -> None:
    """Game.host is required, so an imported game holds its importer there; the records
    name no host, so neither the page, a host's statistics nor the club's figures (wins by
    host, how long games take) count the importer as its host."""
    from games.ratings.club_figures import club_figures
    from games.ratings.models import PlayFacts
    from games.ratings.play import play_stats

    organiser = make_member(nickname="Организатор", role="organiser")
    game = imported_game(organiser)
    assert game.host_id == organiser.pk
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert "Организатор" not in page
    assert PlayFacts.objects.filter(game=game).exists()
    assert not PlayFacts.objects.filter(host_id=organiser.pk).exists()
    assert play_stats(organiser.pk).hosting is None
    figures = club_figures(game.ended_at.date() if game.ended_at else game.started_at.date())
    assert figures.by_host == [] and figures.durations == []
