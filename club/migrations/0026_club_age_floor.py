import django.core.validators
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0025_registration_awaiting_approval"),
    ]

    operations = [
        migrations.AlterField(
            model_name="club",
            name="min_age",
            field=models.PositiveSmallIntegerField(
                default=21,
                help_text="21 by default; a club may admit members from 18.",
                validators=[
                    django.core.validators.MinValueValidator(18),
                    django.core.validators.MaxValueValidator(99),
                ],
                verbose_name="minimum age",
            ),
        ),
    ]
