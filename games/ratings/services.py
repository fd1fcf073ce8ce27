"""Writes on the ratings that are not a game's analysis: a new version of the scoring
scheme, after which every game is scored again (in the worker, after the commit)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max

from accounts.models import User
from club.kernel.queueing import queue_on_commit
from games.ratings.models import ScoringScheme
from games.rules.scoring import Scheme


def scheme_version_create(*, scheme: Scheme, note: str, by: User) -> ScoringScheme:
    """The next version of the points; versions are never changed, so the games scored by
    an earlier one can always be told apart."""
    with transaction.atomic():
        # The versions' lock: two admins saving at once get two numbers, not one.
        latest = ScoringScheme.objects.select_for_update().aggregate(v=Max("version"))["v"]
        version = ScoringScheme.objects.create(
            version=(latest or 0) + 1, points=scheme.to_dict(), note=note[:300], created_by=by
        )
        queue_on_commit("games.ratings.tasks.games_rescore")
    return version
