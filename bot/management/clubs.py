"""Which clubs a bot command works for: `--club <slug>` (default: the first club), or
`--all` where the command allows it."""

from __future__ import annotations

from django.core.management.base import CommandError, CommandParser

from club.kernel import tenancy
from club.kernel.clubs import Club


def add_club_arguments(parser: CommandParser, *, every: bool) -> None:
    parser.add_argument("--club", default="", help="the club's address (default: the first club)")
    if every:
        parser.add_argument("--all", action="store_true", help="every club, one after another")


def chosen_clubs(*, slug: str, every: bool = False) -> list[Club]:
    if every:
        return list(Club.objects.filter(pk__in=tenancy.club_ids(fresh=True)).order_by("pk"))
    if not slug:
        return [Club.objects.get(pk=tenancy.first_club_id())]
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise CommandError(f"No club at the address {slug!r}.")
    return [club]
