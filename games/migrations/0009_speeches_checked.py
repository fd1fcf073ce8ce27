"""The engine now checks speeches (in turn, once each, never overlapping: games/rules/
options.speeches_checked). A game recorded before the check keeps its speeches as they
were recorded: its options say so, so its log folds as it did."""

from django.db import migrations


def recorded_before_the_check(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    games = list(Game.objects.filter(ruleset="club").only("pk", "options"))
    for game in games:
        game.options = {**(game.options or {}), "speeches_checked": False}
    Game.objects.bulk_update(games, ["options"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("games", "0008_role_choice_labels")]

    operations = [migrations.RunPython(recorded_before_the_check, migrations.RunPython.noop)]
