from django.db import migrations


def scheme_v1(apps, schema_editor) -> None:
    """Version 1: the defaults of games/rules/scoring.Scheme (docs/scoring.md), stored as an
    empty mapping so that they read as "the documented defaults"."""
    ScoringScheme = apps.get_model("games", "ScoringScheme")
    ScoringScheme.objects.get_or_create(
        version=1, defaults={"points": {}, "note": "The documented defaults (docs/scoring.md)."}
    )


class Migration(migrations.Migration):
    dependencies = [("games", "0003_analysis_and_recordings")]

    operations = [migrations.RunPython(scheme_v1, migrations.RunPython.noop)]
