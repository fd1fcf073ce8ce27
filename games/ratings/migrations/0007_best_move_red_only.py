"""«ФИИМ» and «Автоматический» score a red player's best move only: each gets a new version,
its newest with `best_move_red_only` on (mafiaratings' scoring 19 gives its «legacy» points
to roles 3, the civilians and the sheriff; games/rules/presets.py is the reference). A new
version rather than an edit, as versions are never edited: what a game was scored by stays
known. «Клуб» keeps its lines. The games are scored again by `manage.py rescore` (docs/deploy.md)."""

from django.db import migrations

NOTE = (
    "The best move scores for a red giver only, as mafiaratings' FIIM scoring "
    "(scoring 19: «legacy» for roles 3)."
)


def versions_added(apps, schema_editor):
    ScoringScheme = apps.get_model("ratings", "ScoringScheme")
    for code in ("fiim", "auto"):
        newest = ScoringScheme.objects.filter(preset__code=code).order_by("-version").first()
        if newest is None or newest.points.get("best_move_red_only") is True:
            continue
        ScoringScheme.objects.create(
            preset_id=newest.preset_id,
            version=newest.version + 1,
            points={**newest.points, "best_move_red_only": True},
            note=NOTE,
        )


class Migration(migrations.Migration):
    dependencies = [("ratings", "0006_season_facts")]

    operations = [migrations.RunPython(versions_added, migrations.RunPython.noop)]
