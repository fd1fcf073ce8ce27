"""Two clubs with a full set of rows each, for the isolation matrix (tests/isolation/):
evenings with registrations and a guest, a finished and a running club game with events,
an online game, a recording with a suggested foul, a tournament seated into rounds and
tables, notifications, live links of every kind, a season preset, API tokens; and the
club's people by role. Every text a club's rows show is one of its planted secrets
(`Club.secrets`): a page, an API answer or a bot reply of the other club that holds one
has leaked it."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta

import time_machine
from django.utils import timezone

from accounts import roles
from accounts.models import ApiToken, Role, User
from accounts.services import api_token_create
from bot.linking import telegram_link_code_create
from club.kernel import tenancy
from club.kernel.clubs import Club
from club.lineup import lineup_add_guest
from club.models import Evening, Guest, Registration
from games.models import Game, GameStatus
from games.online import services as online_play
from games.online.sweep import online_sweep
from games.ratings.models import ScoringPreset, SeasonPreset
from games.ratings.seasons import QUARTER, season_of
from games.recordings.models import FoulSuggestion, Recording
from games.rules.simulate import SAMPLE_TOWN_WINS
from history.formats.records import Read, Source
from history.imports import services as history_services
from history.imports.claims import claim_request
from leagues.models import League, LeagueMembership
from live.links import link_make
from live.models import LinkKind, LiveLink
from notifications.models import Notification, NotificationChannel
from tests.factories import make_evening, make_member, sign_up_many
from tests.games.recording import LINEUP, OPENING, record, start_game
from tests.history.records import game_record
from tournaments import services as tournaments
from tournaments.models import Table, Tournament

# Who looks: the club's people by role, and a visitor.
ROLES = ("organiser", "host", "admin", "member")
WHO = (*ROLES, "anonymous")

_telegram_ids = itertools.count(5_410_000)


@dataclass
class World:
    """One club's rows and people, and the texts only this club's pages may show."""

    club: Club
    prefix: str  # the address the club's pages answer at: "" (the first club) or "/c/<slug>"
    people: dict[str, User]
    tokens: dict[str, str]  # role → an API key of theirs
    # A door's path parameter (by its name) → this club's objects of that kind.
    ids: dict[str, list[int | str]] = field(default_factory=dict)
    secrets: list[str] = field(default_factory=list)
    live_keys: dict[str, str] = field(default_factory=dict)  # what the key opens → the key
    telegram_ids: dict[str, int] = field(default_factory=dict)
    evening: Evening | None = None
    finished: Game | None = None
    running: Game | None = None
    online: Game | None = None
    tournament: Tournament | None = None

    def secret(self, what: str) -> str:
        """A text planted in one of the club's rows: ASCII (a JSON answer escapes other
        letters), unlike anything the site says itself."""
        text = f"Qz{self.club.slug.capitalize()}{what}"
        self.secrets.append(text)
        return text

    def public_face(self) -> list[str]:
        """The club's name and venue: what the platform's own pages (the clubs, a league,
        the rating across clubs) show of every club, by design."""
        return [self.club.name, self.club.venue]

    def leaked(self, body: bytes) -> list[str]:
        text = body.decode(errors="replace")
        return [secret for secret in self.secrets if secret in text]


def _person(world: World, role: str) -> User:
    telegram_id = next(_telegram_ids)
    member = make_member(
        nickname=world.secret(f"Nick{role.capitalize()}"),
        telegram_id=telegram_id,
        role=Role(role),  # the membership of the club in scope
        is_staff=role in ("organiser", "admin"),
    )
    roles.sync_staff(member)
    world.telegram_ids[role] = telegram_id
    return User.objects.get(pk=member.pk)  # no stale permission cache


def _players(world: World, evening: Evening, count: int, tag: str) -> list[User]:
    names = (world.secret(f"Player{tag}{n}") for n in range(count))
    signed = sign_up_many(evening, count)
    for result, name in zip(signed, names, strict=True):
        result.member.nickname = name
        result.member.save(update_fields=["nickname", "nickname_key", "nickname_skeleton"])
    return [result.member for result in signed]


def build(club: Club, prefix: str) -> World:
    """The club's rows, made in its scope as its own doors would make them."""
    world = World(club=club, prefix=prefix, people={}, tokens={})
    with tenancy.club_scope(club):
        club.name = world.secret("ClubName")
        club.venue = world.secret("Venue")
        if club.pk != tenancy.first_club_id():  # the first club's bot is the server's
            club.telegram_bot_token = f"{club.pk}777:isolation-{club.slug}"
            club.telegram_bot_username = f"{club.slug}_isolation_bot"
            club.telegram_webhook_secret = f"isolation-{club.slug}-secret"
        club.save()
        Club.forget_cached()
        for role in ROLES:
            world.people[role] = _person(world, role)
        host, admin = world.people["host"], world.people["admin"]
        for role, member in world.people.items():
            world.tokens[role] = api_token_create(member=member, name=world.secret("Token")).key
        _evenings_and_games(world, host, admin)
        _online(world, host)
        _tournament(world, admin)
        _links(world, host, admin)
        _rest(world, admin)
        _league(world, admin)
        _history(world, admin)
        world.ids["member_id"] = [world.people["member"].pk]
        world.ids["token_id"] = list(
            ApiToken.objects.filter(user=world.people["member"]).values_list("pk", flat=True)
        )
    return world


def _evenings_and_games(world: World, host: User, admin: User) -> None:
    soon = timezone.now() + timedelta(hours=1)
    evening = make_evening(venue=world.secret("EveningVenue"), starts_at=soon)
    players = _players(world, evening, 12, "E")
    guest = lineup_add_guest(
        evening_id=evening.pk, name=world.secret("Guest"), actor=host, of_age=True
    ).registration
    finished = start_game(host, evening, players, LINEUP)
    record(finished, host, *SAMPLE_TOWN_WINS)
    assert finished.status == GameStatus.FINISHED
    # A second evening's table is running, a note of its host's in the log.
    later = make_evening(venue=world.secret("LaterVenue"), starts_at=soon + timedelta(minutes=5))
    later_players = _players(world, later, 12, "L")
    running = start_game(host, later, later_players, LINEUP)
    record(running, host, *OPENING)
    record(running, host, {"type": "foul", "seat": 2, "note": world.secret("Note")})
    assert running.status != GameStatus.FINISHED
    recording = Recording.objects.create(
        game=finished,
        uploaded_by=host,
        original_name=world.secret("Recording.wav"),
        size=1000,
        started_at=finished.started_at or timezone.now(),
    )
    suggestion = FoulSuggestion.objects.create(
        recording=recording, seat=3, start=1.0, end=2.0, seconds=1.0
    )
    world.evening, world.finished, world.running = evening, finished, running
    world.ids["evening_id"] = [evening.pk, later.pk]
    world.ids["game_id"] = [finished.pk, running.pk]
    # A season's key (the exports of history/): the one of the finished game, and its year.
    played = timezone.localdate(evening.starts_at, world.club.zone)
    world.ids["season"] = [season_of(played, QUARTER).key, str(played.year)]
    first = Registration.objects.filter(evening=evening, member__isnull=False).first()
    assert first is not None
    world.ids["registration_id"] = [first.pk, guest.pk]
    world.ids["recording_id"] = [recording.pk]
    world.ids["suggestion_id"] = [suggestion.pk]


def _online(world: World, host: User) -> None:
    members = [
        make_member(nickname=world.secret(f"Online{n}"), telegram_id=next(_telegram_ids))
        for n in range(10)
    ]
    starts = timezone.now() + timedelta(minutes=1)
    online = online_play.online_game_create(
        host=host, member_ids=[m.pk for m in members], starts_at=starts
    )
    with time_machine.travel(starts + timedelta(seconds=1)):
        online_sweep()
    world.online = online
    world.ids["game_id"].append(online.pk)


def _tournament(world: World, admin: User) -> None:
    start = timezone.now() + timedelta(days=2)
    plan = tournaments.TournamentPlan(
        name=world.secret("Cup"),
        starts_at=start,
        ends_on=timezone.localtime(start).date(),
        venue=world.secret("CupVenue"),
        preset="fiim",
        tables=1,
        rounds=2,
        final_players=0,
    )
    tournament = tournaments.tournament_create(plan=plan, actor=admin)
    from club.models import RegistrationSource
    from club.services import registration_create

    for n in range(10):
        member = make_member(nickname=world.secret(f"Entrant{n}"))
        registration_create(
            member=member, evening_id=tournament.evening_id, source=RegistrationSource.API
        )
    tournaments.tournament_seat(tournament_id=tournament.pk, actor=admin, effort=50)
    world.tournament = tournament
    world.ids["tournament_id"] = [tournament.pk]
    world.ids["table_id"] = list(
        Table.objects.filter(round__tournament=tournament).values_list("pk", flat=True)[:1]
    )
    world.ids["number"] = [1]


def _links(world: World, host: User, admin: User) -> None:
    assert world.running is not None and world.evening is not None
    assert world.tournament is not None
    made = {
        "producer": link_make(
            author=host, kind=LinkKind.PRODUCER, game_id=world.running.pk,
            label=world.secret("ProducerLabel"),
        ),
        "overlay-game": link_make(
            author=host, kind=LinkKind.OVERLAY, game_id=world.running.pk,
            label=world.secret("OverlayLabel"),
        ),
        "overlay-table": link_make(
            author=host, kind=LinkKind.OVERLAY, evening_id=world.running.evening_id, table=1,
            label=world.secret("TableLabel"),
        ),
        "overlay-tournament": link_make(
            author=admin, kind=LinkKind.OVERLAY, tournament_id=world.tournament.pk,
            label=world.secret("CupLabel"),
        ),
    }  # fmt: skip
    world.live_keys = {what: key for what, (_link, key) in made.items()}
    world.ids["key"] = list(world.live_keys.values())
    world.ids["link_id"] = [link.pk for link, _key in made.values()]
    world.ids["size"] = ["full"]


def _rest(world: World, admin: User) -> None:
    member = world.people["member"]
    Notification.objects.create(
        dedupe_key=world.secret("Dedupe"),
        member=member,
        chat_id=world.telegram_ids["member"],
        channel=NotificationChannel.TELEGRAM,
        text=world.secret("Notice"),
    )
    SeasonPreset.objects.create(
        since=date(2026, 1, 1),
        preset=ScoringPreset.objects.order_by("pk")[0],
        note=world.secret("SeasonNote"),
        created_by=admin,
    )
    # A code the member's «link my account» button carries (bot «lk:<code>»).
    world.ids["code"] = [telegram_link_code_create(member=member)]
    world.ids["uidb64"], world.ids["token"] = ["MQ"], ["set-password"]


def _league(world: World, admin: User) -> None:
    """A league of the platform's that invited the club, the club not answered yet: the
    other club's admin must not answer for it."""
    league = League.objects.create(name=f"League {world.club.slug}", slug=f"l-{world.club.slug}")
    invitation = LeagueMembership.objects.create(league=league, club=world.club, invited_by=admin)
    world.ids["slug"] = [league.slug]
    world.ids["membership_id"] = [invitation.pk]
    world.ids["club_id"] = [world.club.pk]


def _history(world: World, admin: User) -> None:
    """An import of the club's past, confirmed (its unclaimed players, a member's claim on
    one), and a second file still in preview: the other club's organiser may see, confirm,
    undo or decide none of it."""
    names = tuple(world.secret(f"Old{n}") for n in range(1, 11))
    played = date(2024, 3, 2)
    done = history_services.import_upload(
        author=admin,
        filename=world.secret("History.csv"),
        data=world.club.slug.encode() + b"-done",
        read=Read(games=[game_record("g1", nicknames=names, played_on=played)]),
        source=Source.SPREADSHEET,
    )
    history_services.import_confirm(history_import_id=done.pk, actor=admin, choices={})
    preview = history_services.import_upload(
        author=admin,
        filename=world.secret("Preview.csv"),
        data=world.club.slug.encode() + b"-preview",
        read=Read(games=[game_record("g2", nicknames=names, played_on=played, number=2)]),
        source=Source.SPREADSHEET,
    )
    guest = Guest.objects.filter(from_history=True).order_by("pk").first()
    assert guest is not None
    claim = claim_request(guest_id=guest.pk, member=world.people["member"])
    world.ids["history_import_id"] = [done.pk, preview.pk]
    world.ids["guest_id"] = [guest.pk]
    world.ids["claim_id"] = [claim.pk]


def live_link_rows(world: World) -> Iterator[LiveLink]:
    return iter(LiveLink.all_clubs.filter(club=world.club))
