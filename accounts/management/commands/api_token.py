from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext

from accounts.models import User
from accounts.services import api_token_create


class Command(BaseCommand):
    help = "Make a personal API token for each named member; prints `NICK TOKEN` per line."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("nicknames", nargs="+", metavar="NICK")
        parser.add_argument(
            "--name", default="", help="a label for the tokens (default: «командная строка»)"
        )

    def handle(self, *args: object, nicknames: list[str], name: str, **options: object) -> None:
        # The label is what the member reads beside the key in their profile and the admin:
        # in the club's language.
        with translation.override(settings.LANGUAGE_CODE):
            name = name or gettext("command line")
        members: list[User] = []
        missing: list[str] = []
        for nick in nicknames:
            member = User.objects.by_nickname(nick)
            if member is None:
                missing.append(nick)
            else:
                members.append(member)
        if missing:
            # All or nothing: a typo in one name makes no token for the others either.
            raise CommandError("No member with nickname: " + ", ".join(missing))
        with transaction.atomic():
            issued = [api_token_create(member=member, name=name) for member in members]
        for member, token in zip(members, issued, strict=True):
            self.stdout.write(f"{member.nickname} {token.key}")
