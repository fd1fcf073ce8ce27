"""Load the demo club once: members with printed logins, a host, an admin, an open evening,
a tournament under way."""

import random
from datetime import date, datetime, timedelta

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from accounts import services as accounts
from accounts.models import Membership, Role, User
from club.kernel.clubs import Club
from club.models import Evening, EveningStatus, Registration, RegistrationSource, RegistrationStatus
from club.schedule import next_evening_start, signup_opens_at
from games.online import services as online_play
from games.ratings import analysis
from games.recording import engine_for, game_record_event
from games.rules import simulate
from games.rules.club import ClubGame
from games.rules.simulate import SAMPLE_LINEUP, SAMPLE_OPENING, SAMPLE_TOWN_WINS
from games.starting import game_create
from tournaments import services as tournaments
from tournaments.models import Table, TableJudge

ADMIN = ("admin", "admin-demo")
HOST = ("Ведущий", "host-demo")
MEMBER_PASSWORD = "mafia-demo"
MEMBER_NICKNAMES = [
    "Ворон",
    "Лиса",
    "Барон",
    "Шериф",
    "Мотылёк",
    "Кот Бегемот",
    "Северянка",
    "Доктор Ватсон",
    "Граф",
    "Ласточка",
    "Молчун",
    "Рыжая",
    "Профессор",
    "Тень",
    "Сова",
    "Kapitan",
    "Jazz",
    "Маэстро",
    "Вишня",
    "Lucky",
]
# The first ten members (the online game's players) have Telegram linked: in `make run` the
# bot is in console mode, so what the club tells them is printed in the worker's log
# («Telegram (console) to 700000001: …»). The others have an email address only, so their
# messages come as letters printed to the same console. Ids far from real users' ones.
TELEGRAM_LINKED = 10
DEMO_TELEGRAM_ID = 700_000_001


def demo_email(index: int) -> str:
    return f"member{index + 1}@example.com"


class Command(BaseCommand):
    help = "Load the demo data (once) and print the demo logins."

    def handle(self, *args: object, **options: object) -> None:
        if settings.PRODUCTION:
            raise CommandError("Demo data is for a development site, not production.")
        if User.objects.by_nickname(ADMIN[0]) is not None:
            self.stdout.write("Demo data is already loaded.")
        else:
            self._load()
            self.stdout.write(self.style.SUCCESS("Demo data loaded."))
        self._print_logins()

    @transaction.atomic
    def _load(self) -> None:
        club = Club.current()
        admin = User.objects.create_superuser(ADMIN[0], ADMIN[1], birth_date=date(1980, 5, 17))
        host = User.objects.create_user(
            HOST[0], HOST[1], birth_date=date(1988, 9, 3), email="host@example.com"
        )
        accounts.member_set_role(member=admin, role=Role.ADMIN, club=club)
        accounts.member_set_role(member=host, role=Role.HOST, club=club)
        members = [
            User.objects.create_user(
                nickname,
                MEMBER_PASSWORD,
                birth_date=date(1982 + index, 1 + index % 12, 1 + (index * 3) % 28),
                email=demo_email(index),
                telegram_id=DEMO_TELEGRAM_ID + index if index < TELEGRAM_LINKED else None,
            )
            for index, nickname in enumerate(MEMBER_NICKNAMES)
        ]
        # Members of the club; one has refused publication, to show anonymous rendering.
        Membership.objects.bulk_create(
            Membership(user=member, club=club, publication_consent=index != 4)
            for index, member in enumerate(members)
        )
        now = timezone.now()
        # Last week's evening at the club's own day and hour (Sunday 18:00), over by now.
        played = next_evening_start(club, now - timedelta(days=7))
        if played > now - timedelta(hours=4):
            played -= timedelta(days=7)
        self._played_evening(host, members, played)
        # An online game among ten of the members, starting in two minutes: the worker's
        # sweep opens day 1 (30-minute days, 15-minute nights).
        online_play.online_game_create(
            host=User.objects.get(pk=host.pk),
            member_ids=[m.pk for m in members[:10]],
            starts_at=now + timedelta(minutes=2),
            day_minutes=30,
            night_minutes=15,
        )
        self._tournament(admin, User.objects.get(pk=host.pk), members, now)
        starts_at = next_evening_start(club, now + timedelta(hours=1))
        Evening.objects.create(
            starts_at=starts_at,
            venue=club.venue,
            capacity=club.seats_per_evening,
            opens_at=min(signup_opens_at(club, starts_at), now),
            scheduled_for=starts_at.astimezone(club.zone).date(),
        )

    def _played_evening(self, host: User, members: list[User], starts_at: datetime) -> None:
        """Last week's evening, with one game played to the end, to show a finished game."""
        evening = Evening.objects.create(
            starts_at=starts_at,
            venue=Club.current().venue,
            capacity=15,
            opens_at=starts_at - timedelta(days=6),
            status=EveningStatus.FINISHED,
        )
        players = members[:12]
        Registration.objects.bulk_create(
            Registration(
                member=member,
                evening=evening,
                status=RegistrationStatus.ATTENDED,
                source=RegistrationSource.WEB,
                arrival=arrival,
            )
            for arrival, member in enumerate(players, start=1)
        )
        cards = zip(players, SAMPLE_LINEUP, strict=True)
        game = game_create(
            host=host,
            evening_id=evening.pk,
            seats={n: (m.pk, role) for n, (m, role) in enumerate(cards, 1)},
        )
        # Seat 6, shot on night 1, names the best move in the morning (two of three black);
        # after the end the host gives the commissar extra points with a reason.
        morning = len(SAMPLE_OPENING)
        played = [
            *SAMPLE_TOWN_WINS[:morning],
            {"type": "best_move", "by": 6, "targets": [2, 3, 9]},
            *SAMPLE_TOWN_WINS[morning:],
            {"type": "bonus", "seat": 4, "points": 0.3, "reason": "вёл город от первой проверки"},
        ]
        for seq, event in enumerate(played, start=1):
            game_record_event(game_id=game.pk, author=host, event=event, seq=seq, client_id=None)
        # The worker builds it too once it starts (the same analysis: nothing changes);
        # built here, the demo's game page shows it at once.
        analysis.game_analysis_build(game_id=game.pk)
        analysis.ratings_replay()

    def _tournament(self, admin: User, host: User, members: list[User], now: datetime) -> None:
        """A tournament under way today: the twenty members at two tables of ten over four
        rounds and a final, the host and the admin judging; round 1 played (simulated
        games), so the standings and «where I play» have something to show."""
        plan = tournaments.TournamentPlan(
            name="Кубок клуба",
            starts_at=now - timedelta(hours=1),
            ends_on=timezone.localtime(now).date(),
            venue=Club.current().venue,
            preset="fiim",
            tables=2,
            rounds=4,
            capacity=20,
            final_players=10,
            final_rounds=1,
            final_weight=1.5,
        )
        tournament = tournaments.tournament_create(plan=plan, actor=admin, now=now)
        Registration.objects.bulk_create(
            Registration(
                member=member,
                evening=tournament.evening,
                status=RegistrationStatus.CONFIRMED,
                source=RegistrationSource.WEB,
                arrival=arrival,
            )
            for arrival, member in enumerate(members, start=1)
        )
        TableJudge.objects.bulk_create(
            [
                TableJudge(tournament=tournament, table=1, judge=host),
                TableJudge(tournament=tournament, table=2, judge=admin),
            ]
        )
        tournaments.tournament_seat(tournament_id=tournament.pk, actor=admin, effort=300)
        for seed, table in enumerate(
            Table.objects.filter(round__tournament=tournament, round__number=1)
        ):
            judge = host if table.judge_id == host.pk else admin
            game = tournaments.table_game_start(table_id=table.pk, host=judge)
            seats = {seat.number: seat.role for seat in game.seats.all()}
            engine = engine_for(game, list(game.seats.all()))
            assert isinstance(engine, ClubGame)
            played = simulate.play(random.Random(seed), seats, options=engine.options)
            for seq, event in enumerate(played.events, start=1):
                game_record_event(
                    game_id=game.pk, author=judge, event=event, seq=seq, client_id=None
                )
            analysis.game_analysis_build(game_id=game.pk)
        # Round 1 is played: the worker's sweep tells round 2's players where they sit.
        tournament.round_set.filter(number=1).update(announced_at=now)

    def _print_logins(self) -> None:
        lines = [
            "Demo logins (nickname / password):",
            f"  admin:   {ADMIN[0]} / {ADMIN[1]}   (Django admin at /admin/)",
            f"  host:    {HOST[0]} / {HOST[1]}",
            f"  members: {', '.join(MEMBER_NICKNAMES[:3])}, … (20 in all) / {MEMBER_PASSWORD}",
            f"  the first {TELEGRAM_LINKED} have Telegram linked (the bot's messages to them are"
            " printed here); the others are told by email (printed here too)",
        ]
        self.stdout.write("\n".join(lines))
