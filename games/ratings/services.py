"""Writes on the ratings that are not a game's analysis: a new version of a scoring preset,
and which preset scores which seasons, after either of which every game is scored again (in
the worker, after the commit); the host's extra points, held to the scheme's bounds."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from accounts.models import User
from club.kernel.errors import RefusalCode, Refused
from club.kernel.queueing import queue_on_commit
from club.kernel.tenancy import each_club
from games import access
from games.models import Game
from games.ratings import fold
from games.ratings.models import ScoringPreset, ScoringScheme, SeasonPreset
from games.ratings.presets import game_scheme
from games.recording import Recorded, game_record_event
from games.rules.scoring import Scheme


def scheme_version_create(
    *, scheme: Scheme, note: str, by: User, preset: ScoringPreset | None = None
) -> ScoringScheme:
    """The next version of a preset's points («Клуб»'s when not given); versions are never
    changed, so the games scored by an earlier one can always be told apart."""
    with transaction.atomic():
        preset = preset or ScoringPreset.objects.club()
        # The preset's lock: two admins saving at once get two numbers, not one.
        ScoringPreset.objects.select_for_update().get(pk=preset.pk)
        latest = ScoringScheme.objects.filter(preset=preset).aggregate(v=Max("version"))["v"]
        version = ScoringScheme.objects.create(
            preset=preset,
            version=(latest or 0) + 1,
            points=scheme.to_dict(),
            note=note[:300],
            created_by=by,
        )
        # A preset is the platform's: every club's games it scores, each club in a task.
        for _club in each_club():
            queue_on_commit("games.ratings.tasks.games_rescore")
    return version


def season_preset_save(row: SeasonPreset, *, by: User) -> SeasonPreset:
    """A season's preset chosen (or changed): the games of the seasons it covers are
    scored again, and the ratings replayed, after the commit."""
    with transaction.atomic():
        if row._state.adding:
            row.created_by = by
        row.save()
        queue_on_commit("games.ratings.tasks.games_rescore")
    return row


def season_preset_delete(row: SeasonPreset) -> None:
    """The seasons it covered go back to the row before it (or «Клуб»): scored again."""
    with transaction.atomic():
        row.delete()
        queue_on_commit("games.ratings.tasks.games_rescore")


def game_rated_set(*, game_id: int, rated: bool, by: User | None) -> Game:
    """Mark a game rated or unrated (a practice game: its scores show, but it counts for no
    rating and no season's table), by its host or an admin; a change replays the ratings
    after the commit (the season tables read the flag as they are shown)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise Refused(_("There is no such game."), RefusalCode.NOT_FOUND)
        if not access.runs(by, game):
            raise Refused(
                _("Only the game's host or an admin may mark it rated or unrated."),
                RefusalCode.FORBIDDEN,
            )
        if game.rated != rated:
            game.rated = rated
            game.save(update_fields=["rated"])
            game_rated_changed()
    return game


def game_rated_changed() -> None:
    """A game's `rated` changed in this transaction: the ratings (and the systems'
    foresight) are replayed after the commit. The kept fold is forgotten at once, so that
    a game that ends before that replay replays too, rather than fold on from a fold that
    still counts the game as it was."""
    fold.forget()
    queue_on_commit("games.ratings.tasks.ratings_replay")


def bonus_scheme(game: Game) -> Scheme:
    """The scheme whose bounds extra points keep to when they are given to `game`: the one
    that scores it (its tournament's preset at a tournament's table, else its season's;
    games/ratings/presets.game_scheme), so the bounds applied are those its analysis keeps."""
    return game_scheme(game).scheme()


def bonus_give(*, game_id: int, author: User, seat: int, points: float, reason: str) -> Recorded:
    """Extra points (a penalty when negative) from the game's page: an event of the game's
    log like the host screen's, by its host or an admin, within the scheme's bounds and,
    once the game is over, within the club's window; a finished game is analysed again
    after the commit, so the points show."""
    event = {"type": "bonus", "seat": seat, "points": points, "reason": reason}
    game = Game.objects.select_related("evening").filter(pk=game_id).first()
    return game_record_event(
        game_id=game_id,
        author=author,
        event=event,
        seq=None,
        client_id=None,
        # No such game: the service refuses it, with its own message.
        scheme=bonus_scheme(game) if game is not None else None,
    )
