"""One evening of the club at one start (a cancelled one frees its start).

A database that already holds two evenings at one start (the admin's «Добавить вечер» once
offered the evening that existed) cannot take the constraint: the migration stops first and
names them, so an admin cancels or moves all but one of each and migrates again. Nothing is
deleted or cancelled here: which of two evenings is the club's is the club's to say.
"""

from django.db import migrations, models
from django.db.models import Count


class DuplicateEvenings(Exception):
    """Evenings not cancelled share a start: resolve them before the constraint."""


def refuse_duplicate_evenings(apps, schema_editor):
    Evening = apps.get_model("club", "Evening")
    live = Evening.objects.exclude(status="cancelled")
    shared = (
        live.values("starts_at")
        .annotate(count=Count("id"))
        .filter(count__gt=1)
        .order_by("starts_at")
        .values_list("starts_at", flat=True)
    )
    lines = [
        f"  {starts_at.isoformat()}: evenings "
        + ", ".join(
            f"{pk} ({status})"
            for pk, status in live.filter(starts_at=starts_at)
            .order_by("pk")
            .values_list("pk", "status")
        )
        for starts_at in shared
    ]
    if lines:
        raise DuplicateEvenings(
            "Evenings that are not cancelled share a start, and the club now holds one "
            "evening per start. In the admin (/admin/club/evening/<id>/change/), cancel or "
            "move all but one of each, then migrate again:\n" + "\n".join(lines)
        )


class Migration(migrations.Migration):
    dependencies = [("club", "0015_registration_left_at")]

    operations = [
        migrations.RunPython(refuse_duplicate_evenings, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="evening",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status", "cancelled"), _negated=True),
                fields=("starts_at",),
                name="evening_one_per_start",
                violation_error_message="Another evening starts at this moment.",
            ),
        ),
    ]
