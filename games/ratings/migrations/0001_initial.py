"""The ratings models, moved here from games: the tables stay where they were (db_table), so
only Django's state moves, and the content types follow (admin history and permissions
keep pointing at the same rows)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MOVED = ['scoringscheme', 'gameanalysis', 'playerscore']


def content_types_follow(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="games", model__in=MOVED).update(app_label="ratings")


def content_types_back(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="ratings", model__in=MOVED).update(app_label="games")



class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('games', '0006_game_first_ended_at'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='ScoringScheme',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('version', models.PositiveIntegerField(unique=True, verbose_name='version')),
                        ('points', models.JSONField(blank=True, default=dict, verbose_name='points')),
                        ('note', models.CharField(blank=True, max_length=300, verbose_name='what changed and why')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='created by')),
                    ],
                    options={
                        'verbose_name': 'scoring scheme',
                        'verbose_name_plural': 'scoring schemes',
                        'db_table': 'games_scoringscheme',
                        'ordering': ['-version'],
                    },
                ),
                migrations.CreateModel(
                    name='GameAnalysis',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('digest', models.CharField(max_length=64, verbose_name='digest')),
                        ('sections', models.JSONField(default=list, verbose_name='timeline')),
                        ('built_at', models.DateTimeField(verbose_name='built')),
                        ('game', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='analysis', to='games.game', verbose_name='game')),
                        ('scheme', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='ratings.scoringscheme', verbose_name='scheme')),
                    ],
                    options={
                        'verbose_name': 'game analysis',
                        'verbose_name_plural': 'game analyses',
                        'db_table': 'games_gameanalysis',
                    },
                ),
                migrations.CreateModel(
                    name='PlayerScore',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('seat', models.PositiveSmallIntegerField(verbose_name='seat')),
                        ('role', models.CharField(max_length=32, verbose_name='role')),
                        ('team', models.CharField(max_length=8, verbose_name='team')),
                        ('won', models.BooleanField(verbose_name='won')),
                        ('points', models.FloatField(verbose_name='points')),
                        ('lines', models.JSONField(default=list, verbose_name='lines')),
                        ('played_on', models.DateField(verbose_name='played on')),
                        ('ended_at', models.DateTimeField(verbose_name='ended')),
                        ('track', models.CharField(blank=True, max_length=8, verbose_name='rating track')),
                        ('rating_before', models.FloatField(blank=True, null=True, verbose_name='rating before')),
                        ('rating_after', models.FloatField(blank=True, null=True, verbose_name='rating after')),
                        ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='scores', to='games.game')),
                        ('member', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='scores', to=settings.AUTH_USER_MODEL, verbose_name='member')),
                    ],
                    options={
                        'verbose_name': 'player score',
                        'verbose_name_plural': 'player scores',
                        'db_table': 'games_playerscore',
                        'ordering': ['ended_at', 'game_id', 'seat'],
                        'indexes': [models.Index(fields=['member', 'ended_at'], name='games_playe_member__ee7b66_idx'), models.Index(fields=['played_on'], name='games_playe_played__473fb0_idx'), models.Index(fields=['ended_at', 'game', 'seat'], name='games_playe_ended_a_436cf7_idx')],
                        'constraints': [models.UniqueConstraint(fields=('game', 'seat'), name='one_score_per_seat')],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_follow, content_types_back),
    ]
