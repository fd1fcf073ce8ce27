"""Score every analysed game again by the current schemes (after an upgrade that changes
how a line is read, e.g. a black seat checked twice now scores once): what an admin's new
scheme version does, run by hand."""

from typing import Any

from django.core.management.base import BaseCommand

from games.ratings import tasks


class Command(BaseCommand):
    help = "Score every analysed game again by the current scoring schemes."

    def handle(self, *args: Any, **options: Any) -> None:
        tasks.games_rescore()
        self.stdout.write("Every analysed game is scored again.")
