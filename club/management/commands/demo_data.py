"""Load the demo club once: members with printed logins, a host, an admin, an open evening."""

from datetime import date, timedelta

from django.conf import settings
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from club.models import ClubSettings, Evening
from club.schedule import next_evening_start, signup_opens_at

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


class Command(BaseCommand):
    help = "Load the demo data (once) and print the demo logins."

    def handle(self, *args: object, **options: object) -> None:
        if settings.PRODUCTION:
            raise CommandError("Demo data is for a development site, not production.")
        if User.objects.filter(nickname__iexact=ADMIN[0]).exists():
            self.stdout.write("Demo data is already loaded.")
        else:
            self._load()
            self.stdout.write(self.style.SUCCESS("Demo data loaded."))
        self._print_logins()

    @transaction.atomic
    def _load(self) -> None:
        club = ClubSettings.load()
        User.objects.create_superuser(ADMIN[0], ADMIN[1], birth_date=date(1980, 5, 17))
        host = User.objects.create_user(
            HOST[0], HOST[1], birth_date=date(1988, 9, 3), email="host@example.com"
        )
        host.groups.add(Group.objects.get(name="Hosts"))
        for index, nickname in enumerate(MEMBER_NICKNAMES):
            User.objects.create_user(
                nickname,
                MEMBER_PASSWORD,
                birth_date=date(1982 + index, 1 + index % 12, 1 + (index * 3) % 28),
                # One member has refused publication, to show anonymous rendering.
                publication_consent=index != 4,
            )
        now = timezone.now()
        starts_at = next_evening_start(club, now + timedelta(hours=1))
        Evening.objects.create(
            starts_at=starts_at,
            venue=club.venue,
            capacity=club.seats_per_evening,
            opens_at=min(signup_opens_at(club, starts_at), now),
            scheduled_for=starts_at.astimezone(club.zone).date(),
        )

    def _print_logins(self) -> None:
        lines = [
            "Demo logins (nickname / password):",
            f"  admin:   {ADMIN[0]} / {ADMIN[1]}   (Django admin at /admin/)",
            f"  host:    {HOST[0]} / {HOST[1]}",
            f"  members: {', '.join(MEMBER_NICKNAMES[:3])}, … (20 in all) / {MEMBER_PASSWORD}",
        ]
        self.stdout.write("\n".join(lines))
