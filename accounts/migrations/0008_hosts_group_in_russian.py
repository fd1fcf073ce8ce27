"""The hosts' group reads in the club's language in the admin: «Ведущие», not "Hosts". A
group's name is data (an admin may rename it again); what makes a host is the group's
permission, accounts.host_games, not its name."""

from django.db import migrations

OLD, NEW = "Hosts", "Ведущие"


def rename_hosts_group(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    if not Group.objects.filter(name=NEW).exists():
        Group.objects.filter(name=OLD).update(name=NEW)


def name_it_back(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    if not Group.objects.filter(name=OLD).exists():
        Group.objects.filter(name=NEW).update(name=OLD)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0007_lookalike_key_in_capitals")]

    operations = [migrations.RunPython(rename_hosts_group, name_it_back)]
