"""The first club was made with pk 1 (the settings row's, by 0002 and 0021), which on
PostgreSQL does not move the table's id sequence: the next club created took id 1 again and
failed on the primary key. The sequence goes on from the highest id."""

from django.db import migrations


def sequence_past_the_rows(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return  # SQLite takes the next id from the rows themselves
    table = apps.get_model("club", "Club")._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT MAX(id) FROM {connection.ops.quote_name(table)}")  # noqa: S608
        (highest,) = cursor.fetchone()
        cursor.execute("SELECT setval(pg_get_serial_sequence(%s, 'id'), %s)", [table, highest or 1])


class Migration(migrations.Migration):
    dependencies = [("club", "0023_club_visitors")]

    operations = [migrations.RunPython(sequence_past_the_rows, migrations.RunPython.noop)]
