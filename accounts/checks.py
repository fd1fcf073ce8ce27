"""`manage.py check --database default` (and every `migrate`) names the members whose
nicknames look alike, as the admin's member list does: what deployers see."""

from collections.abc import Sequence
from typing import Any

from django.apps import AppConfig
from django.core.checks import CheckMessage, Tags, Warning, register
from django.db import DatabaseError

from accounts.lookalikes import lookalikes_report
from accounts.models import User


@register(Tags.database)
def lookalike_nicknames(
    app_configs: Sequence[AppConfig] | None, databases: Sequence[str] | None = None, **kwargs: Any
) -> list[CheckMessage]:
    if not databases:
        return []
    try:
        groups = User.objects.lookalike_groups()
    except DatabaseError:
        return []  # before `migrate` made the column: the check runs again after it
    if not groups:
        return []
    return [
        Warning(
            f"Members' nicknames look alike: {lookalikes_report(groups)}.",
            hint="Rename one of a pair where they could be taken for each other "
            "(admin: Members, filter «look-alike nickname»).",
            id="accounts.W001",
        )
    ]
