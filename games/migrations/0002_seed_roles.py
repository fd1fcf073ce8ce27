from django.db import migrations

# RULES.md §B, as the engine's catalogue (games/rules/roles.py) defines them.
ROLES = [
    ("civilian", "Мирный", "Civilian", "red", None, "none", "team", ""),
    ("kamikaze", "Камикадзе", "Kamikaze", "red", None, "none", "team", ""),
    ("commissar", "Комиссар", "Commissar", "red", 50, "check", "team", ""),
    ("doctor", "Доктор", "Doctor", "red", 60, "heal", "team", ""),
    ("boss", "Босс", "Boss", "black", 10, "check", "commissar", "mafia"),
    ("mafia", "Мафия", "Mafia", "black", 20, "kill", "team", "mafia"),
    ("swindler", "Жулик", "Swindler", "black", 25, "kill", "team", ""),
    ("maniac", "Маньяк", "Maniac", "loner", 30, "kill", "team", ""),
    ("instigator", "Нагнетатель", "Instigator", "loner", 40, "other", "team", ""),
]


def seed(apps, schema_editor):
    Role = apps.get_model("games", "Role")
    for code, ru, en, team, order, action, check, shoots_as in ROLES:
        Role.objects.update_or_create(
            code=code,
            defaults={
                "name_ru": ru,
                "name_en": en,
                "team": team,
                "night_order": order,
                "action": action,
                "check_kind": check,
                "shoots_as": shoots_as,
            },
        )


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
