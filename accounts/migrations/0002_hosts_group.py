from django.contrib.auth.management import create_permissions
from django.db import migrations

HOSTS_GROUP = "Hosts"


def create_hosts_group(apps, schema_editor):
    # Permissions are normally made after all migrations; make them now to attach one.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    hosts, _created = Group.objects.get_or_create(name=HOSTS_GROUP)
    hosts.permissions.add(
        Permission.objects.get(content_type__app_label="accounts", codename="host_games")
    )


def remove_hosts_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=HOSTS_GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_hosts_group, remove_hosts_group)]
