from django.db import migrations, models


def first_end_is_the_end(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Game.objects.filter(ended_at__isnull=False).update(first_ended_at=models.F("ended_at"))


class Migration(migrations.Migration):
    dependencies = [("games", "0005_online_games")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="first_ended_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="first ended"),
        ),
        migrations.RunPython(first_end_is_the_end, migrations.RunPython.noop),
    ]
