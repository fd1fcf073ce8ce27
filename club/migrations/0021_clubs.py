"""The club's settings row becomes the first club of a platform of clubs (issue #41): the
model is renamed, its one-row constraint goes, and it gains an address (slug), a city, its
own bot and its email sender. The row keeps pk 1, which every club row's key points at."""

from django.db import migrations, models


def first_club(apps, schema_editor):
    Club = apps.get_model("club", "Club")
    club, _created = Club.objects.get_or_create(pk=1)
    if not club.slug:
        club.slug = "club"
        club.save(update_fields=["slug"])
    # 0024 moves PostgreSQL's id sequence past this row's given pk.


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0020_season_tournament_games"),
        # The ratings' data migrations read the row by its old name.
        ("ratings", "0008_rating_forecasts"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="clubsettings", name="club_settings_single_row"),
        migrations.RenameModel(old_name="ClubSettings", new_name="Club"),
        migrations.AlterModelOptions(
            name="club",
            options={"ordering": ["pk"], "verbose_name": "club", "verbose_name_plural": "clubs"},
        ),
        migrations.AddField(
            model_name="club",
            name="slug",
            # Without an index until it is filled and unique (a slug's index and the unique
            # one's would both be named *_like).
            field=models.CharField(default="", max_length=40, verbose_name="address"),
            preserve_default=False,
        ),
        migrations.RunPython(first_club, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="club",
            name="slug",
            field=models.SlugField(
                help_text="The club's part of the site's addresses: /c/<address>/. The first club's pages also answer without it.",
                max_length=40,
                unique=True,
                verbose_name="address",
            ),
        ),
        migrations.AddField(
            model_name="club",
            name="city",
            field=models.CharField(blank=True, max_length=64, verbose_name="city"),
        ),
        migrations.AddField(
            model_name="club",
            name="telegram_bot_token",
            field=models.CharField(
                blank=True,
                help_text="The club's own bot, from @BotFather. Empty for the first club: the server's TELEGRAM_BOT_TOKEN.",
                max_length=128,
                verbose_name="Telegram bot token",
            ),
        ),
        migrations.AddField(
            model_name="club",
            name="telegram_bot_username",
            field=models.CharField(
                blank=True, editable=False, max_length=64, verbose_name="Telegram bot username"
            ),
        ),
        migrations.AddField(
            model_name="club",
            name="telegram_webhook_secret",
            field=models.CharField(
                blank=True, editable=False, max_length=64, verbose_name="webhook secret"
            ),
        ),
        migrations.AddField(
            model_name="club",
            name="email_sender",
            field=models.CharField(
                blank=True,
                help_text="The From of the club's letters, e.g. «Клуб <club@example.org>». Empty: the server's DEFAULT_FROM_EMAIL with the club's name.",
                max_length=254,
                verbose_name="email sender",
            ),
        ),
        migrations.AddConstraint(
            model_name="club",
            constraint=models.UniqueConstraint(
                condition=~models.Q(telegram_bot_token=""),
                fields=("telegram_bot_token",),
                name="club_one_club_per_bot",
                violation_error_message="Another club uses this bot.",
            ),
        ),
    ]
