"""A member's consent to publication is per club only (accounts.Membership, which 0012
filled from this field): the account-wide copy goes, so nothing reads or edits a stale one.
The account's own status stays: the platform's (banned there, closed in every club). Run
backwards, the field comes back with the first club's consent."""

from django.db import migrations, models


def consent_back_to_users(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    Club = apps.get_model("club", "Club")
    Membership = apps.get_model("accounts", "Membership")
    # The id only: run backwards, this state's Club may have columns a later club
    # migration added and has already taken away.
    club_id = Club.objects.order_by("pk").values_list("pk", flat=True).first()
    refused = Membership.objects.filter(club_id=club_id, publication_consent=False)
    User.objects.filter(pk__in=refused.values("user_id")).update(publication_consent=False)


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0013_telegram_block_per_bot'),
    ]

    operations = [
        # Backwards this runs last, once the field below is back (with its default, yes).
        migrations.RunPython(migrations.RunPython.noop, consent_back_to_users),
        migrations.RemoveField(model_name='user', name='publication_consent'),
        migrations.AlterField(
            model_name='user',
            name='status',
            field=models.CharField(
                choices=[('active', 'Active'), ('suspended', 'Suspended'), ('banned', 'Banned')],
                default='active',
                max_length=16,
                verbose_name='account status',
            ),
        ),
    ]
