from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

# The languages the site spoke when this migration was written (settings.LANGUAGES).
LANGUAGES = [("ru", "Russian"), ("en", "English")]


def language_from_reports(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """A member who switched reports on in English reads the club in English: the one
    language the club knew of a member until now becomes their language (an automatic
    one, so Telegram or the Mini App may still change it)."""
    User = apps.get_model("accounts", "User")
    for code, _name in LANGUAGES:
        User.objects.filter(game_reports_language=code).update(language=code)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0010_user_game_reports"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="language",
            field=models.CharField(
                choices=LANGUAGES,
                default="ru",
                help_text="Messages, reminders and letters to the member are written in it.",
                max_length=8,
                verbose_name="language",
            ),
        ),
        migrations.AddField(
            model_name="user",
            name="language_chosen",
            field=models.BooleanField(
                default=False,
                help_text=(
                    "Chosen on the site or set here: Telegram's and the Mini App's language no "
                    "longer change it."
                ),
                verbose_name="language chosen by the member",
            ),
        ),
        migrations.RunPython(language_from_reports, migrations.RunPython.noop, elidable=True),
        migrations.RemoveField(model_name="user", name="game_reports_language"),
    ]
