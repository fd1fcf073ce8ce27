"""The versions stored so far are «Клуб»'s, and «ФИИМ» and «Автоматический» get their
version 1; no season names a preset yet, so every season stays «Клуб»'s. The presets'
points are copied here as they were on the day (games/rules/presets.py is the reference the
tests hold them to). Its own migration: PostgreSQL alters no table with its updates pending."""

from django.db import migrations

_CLUB_EXTRAS = {
    "red_nominates_black": 0.0,
    "check_found_black": 0.0,
    "doctor_save": 0.0,
    "black_kills_key_red": 0.0,
    "winner_survives": 0.0,
    "red_votes_black": 0.0,
}
PRESETS = [
    ("club", "Клуб", "The club's lines (docs/scoring.md).", None),
    (
        "fiim",
        "ФИИМ",
        "FIIM's rating as mafiaratings keeps it: szotin/mafiaratings, db/alter151.sql "
        "(scoring 19, version 3) and include/scoring.php.",
        {
            **_CLUB_EXTRAS,
            "win": 1.0,
            "loner_win": 1.0,
            "removal": -0.5,
            "disqualification": -0.5,
            "best_move_1": 0.0,
            "best_move_2": 0.25,
            "best_move_3": 0.4,
            "best_move_loners_black": False,
            "first_night_compensation": 0.4,
            "tie_breakers": ["extra", "wins", "key_role_wins", "first_night_kills"],
        },
    ),
    (
        "auto",
        "Автоматический",
        "In Polemica's spirit: the critical day as Vyasma-Mafia/polemica-library's "
        "getCriticDay reads it, the tie-breakers of its RatingUtils.compare; the points "
        "are the club's.",
        {
            **_CLUB_EXTRAS,
            "win": 1.0,
            "loner_win": 1.0,
            "removal": -0.5,
            "disqualification": -0.5,
            "red_nominates_black": 0.1,
            "red_nominates_red": -0.1,
            "red_hands_black": 0.2,
            "red_hands_red": -0.2,
            "red_votes_black": 0.2,
            "red_votes_red": -0.2,
            "critical_day_factor": 2.0,
            "black_win_alive": 0.3,
            "black_missed_shot": -0.3,
            "best_move_1": 0.0,
            "best_move_2": 0.25,
            "best_move_3": 0.4,
            "best_move_loners_black": False,
            "tie_breakers": ["bonus", "key_role_wins", "first_night_kills", "best_move"],
        },
    ),
]


def presets_made(apps, schema_editor):
    ScoringPreset = apps.get_model("ratings", "ScoringPreset")
    ScoringScheme = apps.get_model("ratings", "ScoringScheme")
    for code, name, source, points in PRESETS:
        preset, _created = ScoringPreset.objects.get_or_create(
            code=code, defaults={"name": name, "source": source}
        )
        if code == "club":
            ScoringScheme.objects.filter(preset__isnull=True).update(preset=preset)
            if not ScoringScheme.objects.filter(preset=preset).exists():
                ScoringScheme.objects.create(
                    preset=preset,
                    version=1,
                    points={},
                    note="The documented defaults (docs/scoring.md).",
                )
        else:
            ScoringScheme.objects.get_or_create(
                preset=preset,
                version=1,
                defaults={"points": points, "note": source},
            )


def presets_gone(apps, schema_editor):
    ScoringScheme = apps.get_model("ratings", "ScoringScheme")
    ScoringScheme.objects.exclude(preset__code="club").delete()



class Migration(migrations.Migration):
    dependencies = [("ratings", "0003_scoring_presets")]

    operations = [migrations.RunPython(presets_made, presets_gone)]
