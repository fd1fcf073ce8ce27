"""A case-folded nickname key (every script, not only ASCII) for uniqueness and logins.

Members whose nicknames already differ only in letter case (possible on SQLite, whose
LOWER() folds ASCII only) are reported and the migration stops: one of each pair must be
renamed first, since the key cannot be unique otherwise and quietly renaming a member would
change a public name behind their back.
"""

from collections import defaultdict

from django.db import migrations

import accounts.models
from accounts.validation import login_key


class NicknameClash(Exception):
    pass


def fill_keys(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    by_key = defaultdict(list)
    for member in User.objects.order_by("pk").only("pk", "nickname"):
        by_key[login_key(member.nickname)].append(member)
    clashes = [members for members in by_key.values() if len(members) > 1]
    if clashes:
        report = "; ".join(
            " and ".join(f"«{m.nickname}» (id {m.pk})" for m in members) for members in clashes
        )
        raise NicknameClash(
            "These members' nicknames differ only in letter case: "
            f"{report}. Rename all but one of each (Django admin, or manage.py shell), then "
            "run migrate again."
        )
    for key, (member,) in by_key.items():
        User.objects.filter(pk=member.pk).update(nickname_key=key)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0004_used_signature")]

    operations = [
        migrations.RemoveConstraint(model_name="user", name="accounts_user_nickname_ci_unique"),
        migrations.AddField(
            model_name="user",
            name="nickname_key",
            field=accounts.models.NicknameKeyField(editable=False, max_length=64, null=True),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="user",
            name="nickname_key",
            field=accounts.models.NicknameKeyField(editable=False, max_length=64, unique=True),
        ),
    ]
