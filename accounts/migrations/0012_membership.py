"""A membership per member and club (accounts.models.Membership). Every member of the
single club becomes a member of the first club with their standing and their consent as
they were; its staff (is_staff) become club admins, its hosts (the permission
accounts.host_games, through the «Ведущие» group or given alone) hosts. The User's own
fields stay (backwards, this migration writes the first club's standing and consent back
to them), but no club decision reads them any more."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


HOST_PERMISSION = ("accounts", "host_games")


def first_memberships(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    Club = apps.get_model("club", "Club")
    Membership = apps.get_model("accounts", "Membership")
    Permission = apps.get_model("auth", "Permission")
    if not User.objects.exists():
        return
    club = Club.objects.order_by("pk").first()
    if club is None:
        club = Club.objects.create(slug="club")
    app_label, codename = HOST_PERMISSION
    host_permission = Permission.objects.filter(
        content_type__app_label=app_label, codename=codename
    ).first()
    hosts: set[int] = set()
    if host_permission is not None:
        hosts |= set(
            User.objects.filter(groups__permissions=host_permission).values_list("pk", flat=True)
        )
        hosts |= set(
            User.objects.filter(user_permissions=host_permission).values_list("pk", flat=True)
        )
    rows = []
    for user in User.objects.order_by("pk").iterator():
        if user.is_staff or user.is_superuser:
            role = "admin"
        elif user.pk in hosts:
            role = "host"
        else:
            role = "member"
        rows.append(
            Membership(
                user_id=user.pk,
                club_id=club.pk,
                role=role,
                status=user.status,
                status_reason=user.status_reason,
                status_changed_at=user.status_changed_at,
                publication_consent=user.publication_consent,
                joined_at=user.date_joined,
            )
        )
    Membership.objects.bulk_create(rows, batch_size=1000)


def standing_back_to_users(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    Club = apps.get_model("club", "Club")
    Membership = apps.get_model("accounts", "Membership")
    # The id only: run backwards, this state's Club may have columns a later club
    # migration added and has already taken away.
    club_id = Club.objects.order_by("pk").values_list("pk", flat=True).first()
    if club_id is None:
        return
    for membership in Membership.objects.filter(club_id=club_id).iterator():
        User.objects.filter(pk=membership.user_id).update(
            status=membership.status,
            status_reason=membership.status_reason,
            status_changed_at=membership.status_changed_at,
            publication_consent=membership.publication_consent,
        )


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0011_user_language'),
        ('club', '0022_club_key'),
        ('auth', '0012_alter_user_first_name_max_length'),
    ]

    operations = [
        migrations.CreateModel(
            name='Membership',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('role', models.CharField(choices=[('member', 'Member'), ('host', 'Host'), ('organiser', 'Organiser'), ('admin', 'Club admin')], default='member', max_length=16, verbose_name='role')),
                ('status', models.CharField(choices=[('active', 'Active'), ('suspended', 'Suspended'), ('banned', 'Banned')], default='active', max_length=16, verbose_name='membership status')),
                ('status_reason', models.CharField(blank=True, default='', max_length=255, verbose_name='reason')),
                ('status_changed_at', models.DateTimeField(blank=True, null=True, verbose_name='status changed')),
                ('publication_consent', models.BooleanField(default=True, help_text="When off, the club's published analyses and leaderboards show the member anonymously.", verbose_name='publish my nickname and scores')),
                ('joined_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='joined the club')),
                ('left_at', models.DateTimeField(blank=True, null=True, verbose_name='left the club')),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='memberships', to='club.club', verbose_name='club')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='memberships', to=settings.AUTH_USER_MODEL, verbose_name='member')),
            ],
            options={
                'verbose_name': 'membership',
                'verbose_name_plural': 'memberships',
                'ordering': ['club_id', 'joined_at'],
                'indexes': [models.Index(fields=['club', 'role'], name='accounts_membership_role')],
                'constraints': [models.UniqueConstraint(fields=('user', 'club'), name='accounts_membership_one_per_club')],
            },
        ),
        migrations.RunPython(first_memberships, standing_back_to_users),
    ]
