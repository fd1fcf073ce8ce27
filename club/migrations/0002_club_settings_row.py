from django.db import migrations


def create_settings_row(apps, schema_editor):
    # The row with the model's defaults, so a fresh database is usable at once.
    apps.get_model("club", "ClubSettings").objects.get_or_create(pk=1)


class Migration(migrations.Migration):
    dependencies = [("club", "0001_initial")]

    operations = [migrations.RunPython(create_settings_row, migrations.RunPython.noop)]
