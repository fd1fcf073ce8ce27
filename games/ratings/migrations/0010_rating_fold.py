"""The ratings' fold, kept between games (games/ratings/fold.py): where each rating system
stands after the last game it folded, and each player's state in it, so that a game's end
folds that game alone. Nothing is filled here: the first game's end after the upgrade
finds no fold, replays every game as before and writes it."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0009_club_key'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='RatingFold',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('system', models.CharField(max_length=16, unique=True)),
                ('last_ended_at', models.DateTimeField(blank=True, null=True)),
                ('last_game_id', models.BigIntegerField(blank=True, null=True)),
                ('shown', models.BooleanField(default=False)),
                ('reds', models.PositiveIntegerField(default=0)),
                ('decided', models.PositiveIntegerField(default=0)),
                ('foreseen_reds', models.PositiveIntegerField(default=0)),
                ('foreseen', models.PositiveIntegerField(default=0)),
                ('loss', models.FloatField(default=0.0)),
                ('base_loss', models.FloatField(default=0.0)),
            ],
        ),
        migrations.CreateModel(
            name='RatingState',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('system', models.CharField(max_length=16)),
                ('mu', models.FloatField(blank=True, null=True)),
                ('sigma', models.FloatField(blank=True, null=True)),
                ('red', models.FloatField(blank=True, null=True)),
                ('black', models.FloatField(blank=True, null=True)),
                ('overall', models.FloatField(blank=True, null=True)),
                ('member', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('system', 'member'), name='one_state_per_system')],
            },
        ),
    ]
