"""The recordings models, moved here from games: the tables stay where they were (db_table), so
only Django's state moves, and the content types follow (admin history and permissions
keep pointing at the same rows)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MOVED = ['recording', 'recordingdeletion']


def content_types_follow(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="games", model__in=MOVED).update(app_label="recordings")


def content_types_back(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="recordings", model__in=MOVED).update(app_label="games")



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
                    name='RecordingDeletion',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('recording_id', models.BigIntegerField(verbose_name='recording')),
                        ('file_name', models.CharField(blank=True, max_length=300, verbose_name='file')),
                        ('size', models.BigIntegerField(verbose_name='size, bytes')),
                        ('due_at', models.DateTimeField(null=True, verbose_name='due')),
                        ('deleted_at', models.DateTimeField(verbose_name='deleted')),
                        ('reason', models.CharField(max_length=32, verbose_name='reason')),
                        ('by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='by')),
                        ('game', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='games.game', verbose_name='game')),
                    ],
                    options={
                        'verbose_name': 'recording deletion',
                        'verbose_name_plural': 'recording deletions',
                        'db_table': 'games_recordingdeletion',
                        'ordering': ['-deleted_at'],
                    },
                ),
                migrations.CreateModel(
                    name='Recording',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('original_name', models.CharField(max_length=200, verbose_name='file name')),
                        ('size', models.BigIntegerField(verbose_name='size, bytes')),
                        ('received', models.BigIntegerField(default=0, verbose_name='received, bytes')),
                        ('file', models.FileField(blank=True, upload_to='recordings/', verbose_name='file')),
                        ('started_at', models.DateTimeField(verbose_name='recording started')),
                        ('status', models.CharField(choices=[('uploading', 'Uploading'), ('queued', 'Waiting for analysis'), ('processing', 'Being analysed'), ('analysed', 'Analysed'), ('failed', 'Could not be analysed'), ('deleted', 'Deleted')], default='uploading', max_length=12, verbose_name='status')),
                        ('progress', models.PositiveSmallIntegerField(default=0, verbose_name='analysis progress, %')),
                        ('error', models.CharField(blank=True, max_length=300, verbose_name='error')),
                        ('duration', models.FloatField(blank=True, null=True, verbose_name='length, s')),
                        ('voiced', models.JSONField(blank=True, null=True, verbose_name='voiced intervals')),
                        ('transcript', models.JSONField(blank=True, null=True, verbose_name='transcript')),
                        ('transcript_note', models.CharField(blank=True, max_length=200, verbose_name='transcription')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                        ('uploaded_at', models.DateTimeField(blank=True, null=True, verbose_name='uploaded')),
                        ('analysed_at', models.DateTimeField(blank=True, null=True, verbose_name='analysed')),
                        ('deleted_at', models.DateTimeField(blank=True, null=True, verbose_name='deleted')),
                        ('game', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='recording', to='games.game', verbose_name='game')),
                        ('uploaded_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='uploaded by')),
                    ],
                    options={
                        'verbose_name': 'recording',
                        'verbose_name_plural': 'recordings',
                        'db_table': 'games_recording',
                        'indexes': [models.Index(fields=['deleted_at'], name='games_recor_deleted_250d4a_idx')],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_follow, content_types_back),
    ]
