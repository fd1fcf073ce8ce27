"""The look-alike key is now the skeleton of the nickname in capitals (accounts.lookalikes):
«BOPOH» looks like «Ворон» in capitals, which the skeleton as written missed. Every
member's key is taken again; where two now share one, the earliest keeps it and the
others are marked `lookalike_kept`, as 0006 did."""

from collections import defaultdict

from django.db import migrations

from accounts.lookalikes import lookalike_key


def keys_in_capitals(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    by_key = defaultdict(list)
    for member in User.objects.order_by("date_joined", "pk").only("pk", "nickname"):
        member.nickname_skeleton = lookalike_key(member.nickname)
        by_key[member.nickname_skeleton].append(member)
    members = []
    for holder, *kept in by_key.values():
        holder.lookalike_kept = False
        for member in kept:
            member.lookalike_kept = True
        members += [holder, *kept]
    # The holders first: the unique constraint sees no two unkept members with one key.
    User.objects.filter(pk__in=[m.pk for m in members]).update(lookalike_kept=True)
    User.objects.bulk_update(members, ["nickname_skeleton", "lookalike_kept"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0006_nickname_skeleton")]

    operations = [migrations.RunPython(keys_in_capitals, migrations.RunPython.noop)]
