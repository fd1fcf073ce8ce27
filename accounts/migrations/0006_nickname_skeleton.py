"""What each nickname looks like (its TR39 skeleton, accounts.lookalikes), unique among
members, so that «Вoрон» (Latin o) and «Bopoн» cannot join beside «Ворон».

Members whose nicknames already look alike are kept as they are, unlike the letter-case
clashes of 0005 (which stop the migration): a look-alike pair can be legitimate (two
people whose names differ in one alphabet), and stopping a deployment over it would help
nobody. In each look-alike group the earliest member holds the skeleton under the unique
constraint; the others are marked `lookalike_kept`, which the constraint skips, and the
admin's member list shows every group until an admin renames one of them or leaves them.
"""

from collections import defaultdict

from django.db import migrations, models

import accounts.models
from accounts.lookalikes import lookalike_key


def fill_skeletons(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    by_skeleton = defaultdict(list)
    for member in User.objects.order_by("date_joined", "pk").only("pk", "nickname"):
        member.nickname_skeleton = lookalike_key(member.nickname)
        by_skeleton[member.nickname_skeleton].append(member)
    for _holder, *kept in by_skeleton.values():
        for member in kept:
            member.lookalike_kept = True
    members = [member for group in by_skeleton.values() for member in group]
    User.objects.bulk_update(members, ["nickname_skeleton", "lookalike_kept"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0005_nickname_key")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="lookalike_kept",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.AddField(
            model_name="user",
            name="nickname_skeleton",
            field=accounts.models.NicknameSkeletonField(
                db_index=True, default="", editable=False, max_length=255
            ),
            preserve_default=False,
        ),
        migrations.RunPython(fill_skeletons, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.UniqueConstraint(
                condition=models.Q(("lookalike_kept", False)),
                fields=("nickname_skeleton",),
                name="accounts_user_nickname_skeleton_unique",
                violation_error_message="This nickname looks like a member's nickname.",
            ),
        ),
    ]
