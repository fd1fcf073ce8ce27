"""Seven models leave games for the rooms they belong to (online, recordings, ratings): only
Django's state changes here, after the new apps have taken them over; no table moves."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0006_game_first_ended_at'),
        ('online', '0001_initial'),
        ('recordings', '0001_initial'),
        ('ratings', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='gameanalysis',
                    name='game',
                ),
                migrations.RemoveField(
                    model_name='gameanalysis',
                    name='scheme',
                ),
                migrations.RemoveField(
                    model_name='mafiamessage',
                    name='game',
                ),
                migrations.RemoveIndex(
                    model_name='onlinetable',
                    name='games_onlin_deadlin_88f729_idx',
                ),
                migrations.RemoveIndex(
                    model_name='playerscore',
                    name='games_playe_member__ee7b66_idx',
                ),
                migrations.RemoveIndex(
                    model_name='playerscore',
                    name='games_playe_played__473fb0_idx',
                ),
                migrations.RemoveIndex(
                    model_name='playerscore',
                    name='games_playe_ended_a_436cf7_idx',
                ),
                migrations.RemoveConstraint(
                    model_name='playerscore',
                    name='one_score_per_seat',
                ),
                migrations.RemoveIndex(
                    model_name='recording',
                    name='games_recor_deleted_250d4a_idx',
                ),
                migrations.RemoveField(
                    model_name='recordingdeletion',
                    name='by',
                ),
                migrations.RemoveField(
                    model_name='recordingdeletion',
                    name='game',
                ),
                migrations.RemoveField(
                    model_name='scoringscheme',
                    name='created_by',
                ),
                migrations.DeleteModel(
                    name='GameAnalysis',
                ),
                migrations.DeleteModel(
                    name='MafiaMessage',
                ),
                migrations.RemoveField(
                    model_name='onlinetable',
                    name='game',
                ),
                migrations.RemoveField(
                    model_name='playerscore',
                    name='game',
                ),
                migrations.RemoveField(
                    model_name='playerscore',
                    name='member',
                ),
                migrations.RemoveField(
                    model_name='recording',
                    name='game',
                ),
                migrations.RemoveField(
                    model_name='recording',
                    name='uploaded_by',
                ),
                migrations.DeleteModel(
                    name='RecordingDeletion',
                ),
                migrations.DeleteModel(
                    name='ScoringScheme',
                ),
                migrations.DeleteModel(
                    name='OnlineTable',
                ),
                migrations.DeleteModel(
                    name='PlayerScore',
                ),
                migrations.DeleteModel(
                    name='Recording',
                ),
            ],
            database_operations=[],
        ),
    ]
