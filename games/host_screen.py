"""The host's table screen, the Django side: what its page carries, the engine it runs on
the phone, and the answer to a tap.

The screen is drawn in the browser (static/games/host/) from `games.rules.table`'s JSON,
which the server sends after every tap and the phone computes itself, with the same
module under Pyodide, while the venue's network is down. So the page carries everything
a reload without network needs: the table, its options, the log and the words.
"""

from __future__ import annotations

import ast
import io
import zipfile
from datetime import timedelta
from functools import cache
from pathlib import Path
from typing import Any, TypedDict, cast

from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext

from club.kernel.clubs import Club
from games.models import Game
from games.ratings import stats
from games.ratings.publication import named_guests, visible_nicks
from games.ratings.services import bonus_scheme
from games.recording import GameView, bonus_window_closes
from games.rules.event_types import ClubEntry
from games.rules.table import HostTable, host_table

RULES_DIR = Path(__file__).resolve().parent / "rules"


class BonusBounds(TypedDict):
    """The points the host may give (games.rules.scoring.Scheme's bounds, the current
    scheme's): the screen offers only these."""

    min: float
    max: float


class BonusWindow(TypedDict):
    """How long after the game's end the host may still give extra points and record the
    best move (the club's `bonus_window_days`; games.recording refuses them after it): the
    screen offers them only while it is open."""

    days: int
    # When it closes (ISO), counted from the game's first end; null while the game has
    # never ended (it ends on the screen: the window is then `days` from that moment).
    closes: str | None


class HostPage(TypedDict):
    """What the host's page carries: the screen starts from it and restores from it."""

    game: int
    number: int
    tableNo: int | None  # the game's table when its evening has two, else None
    round: int | None  # a tournament's game: its round (tournaments.models.Table), else None
    tapUrl: str
    headUrl: str  # the log's head, polled while the game runs (a second phone follows)
    engineUrl: str
    workerUrl: str
    pyodideUrl: str
    seq: int
    log: list[ClubEntry]  # every entry, undos included
    seats: dict[str, str]  # seat → role code, the engine's input
    options: dict[str, Any] | None
    immune: list[int]
    nicks: dict[str, str]
    # The seats of guests named on the screen (publication.named_guests): marked «гость».
    guests: list[int]
    roleNames: dict[str, str]
    table: HostTable
    messages: dict[str, str]  # the engine's refusal templates in the page's language
    # The club's time zone (IANA, "Europe/Moscow"): every time the host reads is the club's.
    zone: str
    bonus: BonusBounds
    bonusWindow: BonusWindow


class TapRecorded(TypedDict):
    """The answer to a tap the server recorded (or had recorded: `created` is false)."""

    seq: int
    entry: ClubEntry
    created: bool
    table: HostTable


def page_data(view: GameView, viewer: Any) -> HostPage:
    """The JSON the host's page starts from (and restores from while offline)."""
    game = view.game
    nicks = visible_nicks(view.seats, game, viewer)
    scheme = bonus_scheme(game)
    return {
        "game": game.pk,
        "number": game.number,
        "tableNo": game.table if game.evening is not None and game.evening.tables > 1 else None,
        "round": _tournament_round(game),
        "tapUrl": reverse("game_tap", args=[game.pk]),
        "headUrl": reverse("game_head", args=[game.pk]),
        "engineUrl": reverse("game_engine"),
        "workerUrl": reverse("game_engine_worker"),
        "pyodideUrl": static("vendor/pyodide/"),
        "seq": game.last_seq,
        # Every entry was shaped by events.normalize before it was stored (services).
        "log": cast("list[ClubEntry]", view.log),
        "seats": {str(seat.number): seat.role for seat in view.seats},
        "options": game.options or None,
        "immune": list(game.immune),
        "nicks": {str(number): nick for number, nick in nicks.items()},
        "guests": sorted(named_guests(view.seats, game, viewer)),
        "roleNames": stats.role_names(),
        "table": table_of(view),
        "messages": engine_messages(),
        "zone": Club.current().timezone,
        "bonus": {"min": scheme.bonus_min, "max": scheme.bonus_max},
        "bonusWindow": bonus_window(game),
    }


def bonus_window(game: Game) -> BonusWindow:
    """The window for extra points after the end, as games.recording keeps it."""
    club = Club.current()
    closes = bonus_window_closes(game, club)  # None while the game runs
    if closes is None and game.first_ended_at is not None:
        # Reopened by an undo: should it end again, the window still counts from its
        # first end (refuse_after_the_window).
        closes = game.first_ended_at + timedelta(days=club.bonus_window_days)
    return {"days": club.bonus_window_days, "closes": closes.isoformat() if closes else None}


def table_of(view: GameView) -> HostTable:
    return host_table(view.club_state, view.events)


def engine_messages() -> dict[str, str]:
    """Every refusal template of the engines (and the words put into them), in the active
    language: the phone words the refusals of its own engine with these while offline."""
    return {template: gettext(template) for template in _engine_templates()}


@cache
def _engine_templates() -> tuple[str, ...]:
    """The literal first arguments of gettext_noop(...) in games/rules, read from the
    source (the same strings makemessages collects)."""
    found: list[str] = []
    for path in sorted(RULES_DIR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "gettext_noop"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.append(node.args[0].value)
    return tuple(dict.fromkeys(found))


@cache
def engine_zip() -> bytes:
    """games/rules as a zip for Pyodide: the pure engine, with an empty `games` package
    above it so its imports read as they do on the server."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("games/__init__.py", "")
        for path in sorted(RULES_DIR.rglob("*.py")):  # the engines' packages too
            archive.write(path, f"games/rules/{path.relative_to(RULES_DIR).as_posix()}")
    return buffer.getvalue()


def _tournament_round(game: Game) -> int | None:
    """A tournament's game names its round on the screen. Read through the reverse relation
    (games stand below tournaments and import nothing of them): absent, it raises an
    AttributeError, which getattr turns into None."""
    seat = getattr(game, "tournament_table", None)
    return getattr(getattr(seat, "round", None), "number", None)
