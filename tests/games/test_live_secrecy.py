"""The live table's secrecy (issue 40's proof, docs/live.md «The secrecy test»): whole
games, a club game and an online game, are played event by event, and after EVERY event
every public door of the game is fetched by a visitor and by a member who does not play,
and compared with what the table knows:

- no card (a role's code or name) anywhere before the game ends;
- nothing of a night before the morning: a night's secret (a club night's check, kill or
  heal; an online shot, check, or a catastrophe vote left in advance) changes no door at
  all, so nothing of it (its target, its answer, that it happened) can be read there;
- the nickname of a member who refused publication nowhere, even where a player wrote it
  in a post (in a declined form), even once the game is over.

The doors are one registry, `PUBLIC_DOORS`: a door added to the site for spectators (the
venue's screen, an overlay, a tournament's live page) is one line there, and every game
below then checks it after every event.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.core.cache import cache
from django.test import Client
from django.utils import timezone, translation

from accounts.models import User
from club.lineup import lineup_add_guest
from games.models import Game, Role, Spectators
from games.online import services as online_play
from games.online.sweep import online_sweep
from games.online.texts import online_role
from games.rules.online import BLACK_ROLES
from games.rules.online import ROLES as ONLINE_ROLES
from games.starting import GuestAt, Player, game_create
from live.links import link_make
from live.models import LinkKind, LiveLink
from tests.factories import make_member, set_consent
from tests.games.online.tables import table_of
from tests.games.recording import LINEUP, TOWN_WINS, Table, make_host, record

pytestmark = pytest.mark.django_db(transaction=True)

SHY = "Скрытный"  # a member who refused publication, seated in every game below
SHY_DECLINED = "Скрытного"  # as a post names him
GUEST = "Гостья Загадка"  # a guest at the club game's table
NAMES = (SHY, SHY_DECLINED, GUEST)  # none of them is ever shown


@dataclass(frozen=True)
class Door:
    """A public door of a game: its name and its address (None: the game has none)."""

    name: str
    url: Callable[[Game], str | None]
    # It must show the game (200) to both readers of a public game: a door meant for
    # spectators, so the test is known to read what it shows, not only a refusal.
    shows: bool = False


def _screen(game: Game, path: str) -> str | None:
    """The venue's screen of the game's evening (games/live_evening.py); none online."""
    return f"/evenings/{game.evening_id}/{path}" if game.evening_id is not None else None


# The stream overlays' keys made for the games read below: (scope, game) → (link, key).
_OVERLAY_KEYS: dict[tuple[str, int], tuple[int, str]] = {}


def _overlay(game: Game, scope: str, path: str) -> str | None:
    """A stream overlay of the game (live/overlays.py), through a link to the game or to
    its evening's table; none online."""
    if game.evening_id is None or game.host is None:
        return None
    kept = _OVERLAY_KEYS.get((scope, game.pk))
    if kept is None or not LiveLink.objects.filter(pk=kept[0]).exists():
        if scope == "game":
            link, key = link_make(author=game.host, kind=LinkKind.OVERLAY, game_id=game.pk)
        else:
            link, key = link_make(
                author=game.host,
                kind=LinkKind.OVERLAY,
                evening_id=game.evening_id,
                table=game.table,
            )
        kept = _OVERLAY_KEYS[(scope, game.pk)] = (link.pk, key)
    return f"/live/overlay/{kept[1]}{path}"


# Every door a spectator may knock at for one game. One line per door.
PUBLIC_DOORS: list[Door] = [
    Door("live page", lambda game: f"/games/{game.pk}/live/", shows=True),
    Door("live JSON", lambda game: f"/games/{game.pk}/live.json", shows=True),
    Door("game page", lambda game: f"/games/{game.pk}/"),
    Door("game page, public", lambda game: f"/games/{game.pk}/?public=1"),
    Door("API game", lambda game: f"/api/v1/games/{game.pk}"),
    Door("API protocol", lambda game: f"/api/v1/games/{game.pk}/protocol"),
    Door("API analysis", lambda game: f"/api/v1/games/{game.pk}/analysis"),
    Door("API online game", lambda game: f"/api/v1/online-games/{game.pk}"),
    Door("online table", lambda game: f"/online/{game.pk}/"),
    Door("online table's refresh", lambda game: f"/online/{game.pk}/live/?seq=0&seen=0"),
    Door("host screen's head", lambda game: f"/games/{game.pk}/head/?seq=0"),
    Door("recording page", lambda game: f"/games/{game.pk}/recording/"),
    Door("venue screen", lambda game: _screen(game, "screen/"), shows=True),
    Door("venue screen JSON", lambda game: _screen(game, "screen.json"), shows=True),
    Door("overlay JSON", lambda game: _overlay(game, "game", ".json"), shows=True),
    Door("overlay page", lambda game: _overlay(game, "game", "/full/"), shows=True),
    Door("table overlay JSON", lambda game: _overlay(game, "table", ".json"), shows=True),
]
# Not here: an evening's page and its API list who signed up by nickname to the club's
# members, consent or not (RULES.md §C: a sign-up list is not a publication).

# A door's words that change with every fetch, not with the game: the form's CSRF token and
# the page's CSP nonce.
VOLATILE = re.compile(r'(csrfmiddlewaretoken" value="|nonce="|"X-CSRFToken": ")[^"]*')
SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>", re.S)
JSON_SCRIPT = re.compile(r'<script id="([\w-]+)" type="application/json">(.*?)</script>', re.S)
TAG = re.compile(r"<[^>]+>")
MAIN = re.compile(r"<main\b.*?</main>", re.S)
# The live page's dictionary of words (every role's name among them, in the reader's
# language): the same for every game, so it is checked to stay the same, not for names.
CATALOGUES = {"live-words", "screen-words", "overlay-words"}


@dataclass
class Read:
    """One door as one reader found it: the status, the text (JSON re-read with its
    letters as they are), the data it carries (a JSON body and a page's JSON scripts) and
    a page's visible words."""

    status: int
    text: str
    data: list[Any]
    words: str
    catalogues: dict[str, str]


def _read(client: Client, url: str) -> Read:
    answer = client.get(url)
    assert answer.status_code < 500, (url, answer.status_code)
    raw = answer.content.decode()
    if answer.get("Content-Type", "").startswith("application/json") and raw:
        body = json.loads(raw)
        return Read(answer.status_code, json.dumps(body, ensure_ascii=False), [body], "", {})
    text = VOLATILE.sub(r"\1", raw)
    data, catalogues = [], {}
    for name, inner in JSON_SCRIPT.findall(text):
        if name in CATALOGUES:
            catalogues[name] = inner
        else:
            data.append(json.loads(inner))
    main = MAIN.search(text)
    visible = html.unescape(TAG.sub(" ", SCRIPT.sub(" ", main.group(0) if main else text)))
    shown = text
    for name in catalogues:
        shown = re.sub(rf'<script id="{name}".*?</script>', "", shown, flags=re.S)
    return Read(answer.status_code, html.unescape(shown), data, visible, catalogues)


def _strings(value: Any) -> Iterator[str]:
    """Every string value of JSON data but a leaving's reason (a reason's code may be a
    role's: «taken by the kamikaze»)."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if key != "reason":
                yield from _strings(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _strings(inner)
    elif isinstance(value, str):
        yield value


@dataclass
class Spectating:
    """The readers and what they saw last: a visitor and a member who does not play."""

    game: Game
    readers: dict[str, Client]
    role_codes: set[str]
    role_names: set[str]
    seen: dict[tuple[str, str], Read]
    catalogues: dict[str, str]

    def look(self, after: str, *, secret: bool = False) -> None:
        """Every door, by every reader, after the event `after`: the checks of the module's
        docstring. A `secret` event (a night's) must have changed no door at all."""
        self.game.refresh_from_db()
        over = self.game.finished
        for door in PUBLIC_DOORS:
            url = door.url(self.game)
            if url is None:
                continue
            for reader, client in self.readers.items():
                where = f"{door.name} ({url}) read by {reader} after {after}"
                read = _read(client, url)
                assert read.status == 200 or not door.shows, where
                hidden = [name for name in NAMES if name in read.text]
                assert not hidden, f"{where}: {hidden}"
                for name, inner in read.catalogues.items():
                    assert self.catalogues.setdefault(name, inner) == inner, where
                if not over:
                    codes = set(_strings(read.data)) & self.role_codes
                    assert not codes, f"{where}: the card {codes}"
                    names = {n for n in self.role_names if re.search(rf"\b{n}\b", read.words)}
                    assert not names, f"{where}: the card {names}"
                before = self.seen.get((door.name, reader))
                if secret and before is not None:
                    assert read.status == before.status, where
                    assert read.text == before.text, f"{where}: the night shows"
                self.seen[(door.name, reader)] = read


def _spectators(game: Game, member: User, role_codes: set[str], role_names: set[str]) -> Any:
    game.spectators = Spectators.PUBLIC
    game.save(update_fields=["spectators"])
    reading = Client()
    reading.force_login(member)
    return Spectating(
        game, {"a visitor": Client(), "a member": reading}, role_codes, role_names, {}, {}
    )


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()


def _club_role_names() -> set[str]:
    rows = Role.objects.values_list("name_ru", "name_en")
    return {name for row in rows for name in row if name}


def _online_role_names() -> set[str]:
    names = set()
    for language in ("ru", "en"):
        with translation.override(language):
            names |= {online_role(role) for role in ONLINE_ROLES}
    return names


# --- a club game ---------------------------------------------------------------------------

# A club night's taps: the host's secret until the morning.
CLUB_NIGHT = {"check", "kill", "shot", "heal"}


def test_a_club_game_shows_no_card_no_night_and_no_hidden_name_at_any_door(table: Table) -> None:
    host, evening, players = table
    shy = players[5]  # seat 6: killed on night 1
    shy.nickname = SHY
    shy.save(update_fields=["nickname"])
    set_consent(shy, consent=False)
    # Seat 12 a guest: no member, so no consent; «Игрок 12» to the public.
    added = lineup_add_guest(evening_id=evening.pk, name=GUEST, actor=host, of_age=True)
    assert added.registration.guest is not None
    seated: list[Player] = [p.pk for p in players[:11]]
    seated.append(GuestAt(added.registration.guest.pk))
    game = game_create(
        host=host,
        evening_id=evening.pk,
        seats={n: pair for n, pair in enumerate(zip(seated, LINEUP, strict=True), 1)},
    )
    codes = set(Role.objects.values_list("code", flat=True)) | set(LINEUP)
    seen = _spectators(game, make_member(), codes, _club_role_names())
    seen.look("the start")
    for event in TOWN_WINS:
        record(game, host, event)
        seen.look(json.dumps(event), secret=event["type"] in CLUB_NIGHT)
    assert game.finished
    # The end opens the cards: the doors are still read without the hidden name.
    final = _read(Client(), f"/games/{game.pk}/live.json").data[0]
    assert final["over"] and [seat["role"] for seat in final["seats"]] == LINEUP
    assert final["seats"][5]["nick"] is None and final["seats"][11]["nick"] is None


# --- an online game ------------------------------------------------------------------------


@dataclass
class Online:
    game: Game
    host: User
    seats: dict[int, tuple[str, User]]  # seat: its role and its player
    starts: datetime

    def seat(self, role: str, skip: int = 0) -> int:
        return [n for n, (r, _m) in sorted(self.seats.items()) if r == role][skip]

    def player(self, seat: int) -> User:
        return self.seats[seat][1]


def _online_game(shy: User) -> Online:
    host = make_host()
    players = [shy, *(make_member() for _ in range(9))]
    starts = timezone.now() + timedelta(minutes=40)
    game = online_play.online_game_create(
        host=host,
        member_ids=[p.pk for p in players],
        starts_at=starts,
        day_minutes=60,
        night_minutes=30,
    )
    seats = {s.number: (s.role, s.player) for s in table_of(game.pk).seats}
    return Online(game, host, seats, starts)


@contextmanager
def _clock(start: datetime) -> Iterator[Callable[[timedelta], None]]:
    with time_machine.travel(start, tick=False) as traveller:
        yield lambda delta: traveller.move_to(start + delta)


def test_an_online_game_shows_no_card_no_night_and_no_hidden_name_at_any_door(
    db: None,
) -> None:
    shy = make_member(nickname=SHY, publication_consent=False)
    online = _online_game(shy)
    game, host = online.game, online.host
    codes = set(ONLINE_ROLES)
    seen = _spectators(game, make_member(), codes, _online_role_names())
    seen.look("the deal")

    def act(who: User | int, secret: bool = False, **event: Any) -> None:
        user = who if isinstance(who, User) else online.player(who)
        online_play.online_act(game_id=game.pk, user=user, event=event)
        seen.look(json.dumps(event, ensure_ascii=False), secret=secret)

    def sweep(what: str) -> None:
        assert online_sweep() == 1, what
        seen.look(what)

    shy_seat = next(n for n, (_r, m) in online.seats.items() if m == shy)
    don, mafia, mafia2 = online.seat("don"), online.seat("mafia"), online.seat("mafia", 1)
    commissar = online.seat("commissar")
    red = [n for n, (r, _m) in sorted(online.seats.items()) if r not in BLACK_ROLES]
    town = [n for n in red if n not in (commissar, shy_seat)]
    with _clock(online.starts + timedelta(seconds=1)) as move:
        sweep("day 1 begins")
        # Day 1: posts naming the hidden player, a shot left in advance (the mafia's
        # secret), votes, and nobody on anyone twice: the vote hangs one civilian.
        act(town[0], type="post", text=f"{SHY_DECLINED} я бы проверил первым.")
        act(town[1], type="post", text=f"Согласен насчёт {SHY_DECLINED}, и {SHY} молчит.")
        act(don, secret=True, type="shot", target=town[2])  # by day: for the coming night
        act(shy_seat, type="post", text="Я за место 3.")
        hanged = town[3]
        for voter in sorted(online.seats):
            if voter != hanged:
                act(voter, type="vote", target=hanged)
        act(hanged, type="vote", target="pass")
        act(host, type="day_end")  # the night follows at once
        # Night 1: the mafia agree, the checks are made: none of it shows until the morning.
        act(hanged, type="post", text="Последнее слово: ищите среди молчащих.")
        for shooter in (mafia, mafia2):
            act(shooter, secret=True, type="shot", target=town[2])
        act(commissar, secret=True, type="com_check", target=don)
        act(don, secret=True, type="don_check", target=commissar)
        move(timedelta(minutes=31))
        sweep("the morning: day 2")
        after_night = seen.seen[("live JSON", "a visitor")].data[0]
        assert after_night["left"][-1] == {
            "seat": town[2],
            "phase": "night",
            "n": 1,
            "reason": "killed",
        }
        # Day 2: a «hang all» left in advance (not told), a warning, a fast withdrawn, a tie
        # of two at eight alive: the catastrophe asks «hang all or pardon all?», and the
        # town pardons. Night 2 follows at once.
        act(town[4], secret=True, type="revote", target="hang_all")
        act(host, type="warning", seat=town[0], reason="«честно»")
        act(town[1], type="fast")
        act(town[1], type="unfast")
        tied = (town[0], town[1])
        alive = [n for n in sorted(online.seats) if n not in (town[2], town[3])]
        others = [n for n in alive if n not in tied]
        for index, voter in enumerate(others):
            act(voter, type="vote", target=tied[index % 2])
        for voter in tied:
            act(voter, type="vote", target="pass")
        act(host, type="day_end")
        round_ = seen.seen[("live JSON", "a visitor")].data[0]["catastrophe"]
        assert round_ == {"tied": sorted(tied), "question": True}
        act(tied[0], type="post", text="Я мирный, поверьте.")
        act(tied[1], type="post", text=f"И я. Спросите {SHY_DECLINED}.")
        for voter in others:
            if voter != town[4]:
                act(voter, type="revote", target="pardon_all")
        assert seen.seen[("live JSON", "a visitor")].data[0]["phase"] == "night"
        # Night 2: the host removes the mafia: the town wins and the cards open.
        act(host, type="modkill", seat=don, reason="inactive")
        act(host, type="modkill", seat=mafia)
        act(host, type="modkill", seat=mafia2)
    game.refresh_from_db()
    assert game.finished and game.winner == "red"
    final = seen.seen[("live JSON", "a visitor")].data[0]
    assert final["over"] and all(seat["role"] for seat in final["seats"])
    thread = [line["text"] for line in final["thread"] if line["text"]]
    assert f"{{seat:{shy_seat}}} я бы проверил первым." in thread
    outcomes = [line["detail"] for line in final["thread"] if line["kind"] == "outcome"]
    assert outcomes[:3] == ["voted", "killed", "pardon_all"], outcomes
