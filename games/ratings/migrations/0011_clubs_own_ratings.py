"""Each club's ratings are its own: the ratings' fold, the players' states in it and the
systems' foresight get a club key (the existing rows are the first club's, as every row the
club key migrations filled), and are one per club and system (and member)."""

import club.kernel.tenancy
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('club', '0024_club_id_sequence'),
        ('ratings', '0010_rating_fold'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='ratingstate',
            name='one_state_per_system',
        ),
        migrations.AddField(
            model_name='ratingfold',
            name='club',
            field=models.ForeignKey(default=club.kernel.tenancy.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='rating_folds', to='club.club', verbose_name='club'),
        ),
        migrations.AddField(
            model_name='ratingforecast',
            name='club',
            field=models.ForeignKey(default=club.kernel.tenancy.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='rating_forecasts', to='club.club', verbose_name='club'),
        ),
        migrations.AddField(
            model_name='ratingstate',
            name='club',
            field=models.ForeignKey(default=club.kernel.tenancy.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='rating_states', to='club.club', verbose_name='club'),
        ),
        migrations.AlterField(
            model_name='ratingfold',
            name='system',
            field=models.CharField(max_length=16),
        ),
        migrations.AlterField(
            model_name='ratingforecast',
            name='system',
            field=models.CharField(max_length=16, verbose_name='rating system'),
        ),
        migrations.AddConstraint(
            model_name='ratingfold',
            constraint=models.UniqueConstraint(fields=('club', 'system'), name='one_fold_per_system'),
        ),
        migrations.AddConstraint(
            model_name='ratingforecast',
            constraint=models.UniqueConstraint(fields=('club', 'system'), name='rating_forecast_one_per_system'),
        ),
        migrations.AddConstraint(
            model_name='ratingstate',
            constraint=models.UniqueConstraint(fields=('club', 'system', 'member'), name='one_state_per_system'),
        ),
    ]
