"""How sure the ratings are (games/rules/forecast.py), and OpenSkill by wins alone as the
default system: a club that has no analysed game yet takes it (nothing is rated again); a
club with games keeps the system its ratings were made by, and its admins read on its own
games whether to change (docs/scoring.md «How sure a rating is»)."""

from typing import Any

from django.db import migrations, models


def plain_openskill_where_nothing_is_rated(apps: Any, schema_editor: Any) -> None:
    if apps.get_model("ratings", "PlayerScore").objects.exists():
        return
    apps.get_model("club", "ClubSettings").objects.filter(rating_system="openskill").update(
        rating_system="openskill_plain"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0007_best_move_red_only"),
        ("club", "0017_openskill_plain"),
    ]

    operations = [
        migrations.CreateModel(
            name="RatingForecast",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "system",
                    models.CharField(max_length=16, unique=True, verbose_name="rating system"),
                ),
                ("games", models.PositiveIntegerField(verbose_name="games foreseen")),
                ("log_loss", models.FloatField(verbose_name="log-loss")),
                (
                    "base_log_loss",
                    models.FloatField(verbose_name="log-loss of the base rate alone"),
                ),
                ("updated_at", models.DateTimeField(verbose_name="updated")),
            ],
            options={
                "verbose_name": "rating forecast",
                "verbose_name_plural": "how sure the ratings are",
                "ordering": ["log_loss"],
            },
        ),
        migrations.RunPython(
            plain_openskill_where_nothing_is_rated, migrations.RunPython.noop, elidable=True
        ),
    ]
