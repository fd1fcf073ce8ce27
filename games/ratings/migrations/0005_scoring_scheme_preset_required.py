"""Every version belongs to a preset now (0004 gave the stored ones to «Клуб»)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("ratings", "0004_scoring_presets_data")]

    operations = [
        migrations.AlterField(
            model_name="scoringscheme",
            name="preset",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="versions",
                to="ratings.scoringpreset",
                verbose_name="preset",
            ),
        ),
    ]
