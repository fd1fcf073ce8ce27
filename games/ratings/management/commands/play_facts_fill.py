"""Keep the facts of play (docs/statistics.md) of every game analysed before they were
kept, in every club: once after the upgrade that brings them, run by hand or by the
deployment. Games that have them are left alone, so running it twice does nothing."""

from typing import Any

from django.core.management.base import BaseCommand

from club.kernel.tenancy import each_club
from games.ratings import analysis


class Command(BaseCommand):
    help = "Write the facts of play of every analysed game that has none, in every club."

    def handle(self, *args: Any, **options: Any) -> None:
        filled = 0
        for _club_id in each_club():  # each inside its own scope
            filled += analysis.play_facts_fill()
        self.stdout.write(f"Facts of play written for {filled} games.")
