"""Writes on the ratings that are not a game's analysis: a new version of the scoring
scheme, after which every game is scored again (in the worker, after the commit); the
host's extra points, held to the current scheme's bounds."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max

from accounts.models import User
from club.kernel.queueing import queue_on_commit
from games import services as game_services
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


def bonus_scheme() -> Scheme:
    """The scheme whose bounds extra points keep to when they are given: the current one."""
    return ScoringScheme.objects.current().scheme()


def bonus_give(
    *, game_id: int, author: User, seat: int, points: float, reason: str
) -> game_services.Recorded:
    """Extra points (a penalty when negative) from the game's page: an event of the game's
    log like the host screen's, by its host or an admin, within the scheme's bounds and,
    once the game is over, within the club's window; a finished game is analysed again
    after the commit, so the points show."""
    event = {"type": "bonus", "seat": seat, "points": points, "reason": reason}
    return game_services.game_record_event(
        game_id=game_id,
        author=author,
        event=event,
        seq=None,
        client_id=None,
        scheme=bonus_scheme(),
    )
