"""The club's page types, by who opens them, and the club they are opened in: the demo
club and a running game of its host's. The browser tests open them in Chromium
(tests/e2e/test_csp.py, test_pages_on_a_phone.py); the consent test reads them with
Django's client (tests/games/test_consent.py)."""

from __future__ import annotations

import io
from typing import Any

from django.core.management import call_command

from accounts.models import User
from club.models import Evening, EveningStatus
from games.models import Game, GameStatus, Ruleset
from tests.games.recording import evening_with_players, record, start_game
from tournaments.models import Tournament


def demo_club() -> dict[str, Any]:
    call_command("demo_data", stdout=io.StringIO())
    host = User.objects.get(nickname="Ведущий")
    evening, players = evening_with_players(12)
    running = start_game(host, evening, players)
    record(running, host, {"type": "day", "n": 1})
    return {
        "host": host,
        "admin": User.objects.get(nickname="admin"),
        "member": User.objects.get(nickname="Ворон"),
        "running": running,
        "evening": evening,
        "open_evening": Evening.objects.filter(status=EveningStatus.SCHEDULED).latest("pk"),
        # Last week's game (the tournament's are today's).
        "finished": Game.objects.get(
            status=GameStatus.FINISHED, ruleset=Ruleset.CLUB, tournament_table__isnull=True
        ),
        "online": Game.objects.get(ruleset=Ruleset.ONLINE),
        "tournament": Tournament.objects.get(),
    }


def pages(club: dict[str, Any]) -> dict[str, list[str]]:
    """The page types, by who opens them."""
    finished, online = club["finished"], club["online"]
    return {
        "visitor": [
            "/",
            f"/evenings/{club['open_evening'].pk}/",
            "/accounts/login/",
            "/accounts/signup/",
            "/accounts/password/reset/",
            "/leaderboard/",
            f"/players/{club['member'].pk}/",
            f"/games/{finished.pk}/",
            "/api/v1/docs",
            "/tg/",
            "/tournaments/",
            f"/tournaments/{club['tournament'].pk}/",
        ],
        "member": [
            "/evenings/mine/",
            "/accounts/profile/",
            "/accounts/settings/",
            "/online/",
            f"/online/{online.pk}/",
            # A player's own: «where I play», their row in the standings.
            f"/tournaments/{club['tournament'].pk}/#me",
        ],
        "host": [
            f"/games/{club['running'].pk}/",
            # The finished game's page, with its best move, extra points and their form.
            f"/games/{finished.pk}/?public=1",
            f"/games/{club['running'].pk}/recording/",
            f"/evenings/{club['evening'].pk}/games/new/",
            "/online/new/",
        ],
        "admin": [
            "/admin/",
            "/admin/games/game/",
            f"/admin/games/game/{finished.pk}/change/",
            "/admin/games/game/import/",
            "/admin/accounts/user/",
            f"/admin/club/evening/{club['evening'].pk}/change/",
            "/admin/club/club/1/change/",
            "/admin/notifications/notification/",
            "/leaderboard/?preset=fiim",  # the what-if beside the official table
            "/admin/ratings/seasonpreset/add/",
            f"/admin/tournaments/tournament/{club['tournament'].pk}/change/",
            "/admin/tournaments/tournament/add/",
        ],
    }
