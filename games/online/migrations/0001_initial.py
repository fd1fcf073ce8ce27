"""The online models, moved here from games: the tables stay where they were (db_table), so
only Django's state moves, and the content types follow (admin history and permissions
keep pointing at the same rows)."""

import django.db.models.deletion
from django.db import migrations, models

MOVED = ['mafiamessage', 'onlinetable']


def content_types_follow(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="games", model__in=MOVED).update(app_label="online")


def content_types_back(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="online", model__in=MOVED).update(app_label="games")



class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('games', '0006_game_first_ended_at'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='MafiaMessage',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('seat', models.PositiveSmallIntegerField(verbose_name='seat')),
                        ('text', models.CharField(max_length=2000, verbose_name='text')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='time')),
                        ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='mafia_chat', to='games.game')),
                    ],
                    options={
                        'verbose_name': 'mafia chat message',
                        'verbose_name_plural': 'mafia chat',
                        'db_table': 'games_mafiamessage',
                        'ordering': ['created_at', 'pk'],
                    },
                ),
                migrations.CreateModel(
                    name='OnlineTable',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('starts_at', models.DateTimeField(verbose_name='starts')),
                        ('day_minutes', models.PositiveIntegerField(default=720, verbose_name='day, minutes')),
                        ('night_minutes', models.PositiveIntegerField(default=240, verbose_name='night, minutes')),
                        ('catastrophe_minutes', models.PositiveIntegerField(default=60, verbose_name='catastrophe round, minutes')),
                        ('fast_night_minutes', models.PositiveIntegerField(default=5, verbose_name='fast night comes in, minutes')),
                        ('deadline_at', models.DateTimeField(blank=True, null=True, verbose_name='next step')),
                        ('game', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='online', to='games.game', verbose_name='game')),
                    ],
                    options={
                        'verbose_name': 'online game',
                        'verbose_name_plural': 'online games',
                        'db_table': 'games_onlinetable',
                        'indexes': [models.Index(fields=['deadline_at'], name='games_onlin_deadlin_88f729_idx')],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_follow, content_types_back),
    ]
