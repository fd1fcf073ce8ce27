"""Scoring presets (docs/scoring.md): a version belongs to a preset, a season names its
preset (SeasonPreset). The next migrations fill them in and make the preset required."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0002_ratings_by_the_clubs_system"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ScoringPreset",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("code", models.SlugField(max_length=32, unique=True, verbose_name="code")),
                ("name", models.CharField(max_length=80, verbose_name="name")),
                ("source", models.CharField(blank=True, max_length=300, verbose_name="source")),
            ],
            options={
                "verbose_name": "scoring preset",
                "verbose_name_plural": "scoring presets",
                "ordering": ["pk"],
            },
        ),
        migrations.AddField(
            model_name="scoringscheme",
            name="preset",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="versions",
                to="ratings.scoringpreset",
                verbose_name="preset",
            ),
        ),
        migrations.AlterField(
            model_name="scoringscheme",
            name="version",
            field=models.PositiveIntegerField(verbose_name="version"),
        ),
        migrations.AlterModelOptions(
            name="scoringscheme",
            options={
                "ordering": ["preset", "-version"],
                "verbose_name": "scoring scheme",
                "verbose_name_plural": "scoring schemes",
            },
        ),
        migrations.AddConstraint(
            model_name="scoringscheme",
            constraint=models.UniqueConstraint(
                fields=("preset", "version"), name="one_number_per_version"
            ),
        ),
        migrations.CreateModel(
            name="SeasonPreset",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "since",
                    models.DateField(
                        help_text="Every season that starts on this day or later is scored by the preset, until a later row; a season under way keeps its preset.",
                        unique=True,
                        verbose_name="for the seasons from",
                    ),
                ),
                ("note", models.CharField(blank=True, max_length=300, verbose_name="why")),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="created")),
                (
                    "created_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="created by",
                    ),
                ),
                (
                    "preset",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="ratings.scoringpreset",
                        verbose_name="preset",
                    ),
                ),
            ],
            options={
                "verbose_name": "season's preset",
                "verbose_name_plural": "seasons' presets",
                "ordering": ["-since"],
            },
        ),
    ]
