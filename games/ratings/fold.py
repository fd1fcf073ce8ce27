"""The ratings across games, kept game by game (docs/scoring.md «Rating»).

Every rated game is folded through each of the four rating systems (games/rules/rating.py,
games/ratings/systems.py), each foreseeing the game before it rates it (games/rules/
forecast.py): the club's system writes each score's rating before and after, and all four
keep their foresight for the admins (RatingForecast).

Two ways to the same numbers:
- `ratings_after_game`, when a game ends: if it is the newest in playing order (its scores'
  `ended_at`, then its id) and the fold stands where the last game left it (RatingFold, and
  each player's RatingState), that game alone is folded, from its players' stored states:
  the work of one game in a fixed number of queries, whatever the club's history.
- `ratings_replay`: every rated game again from the first, and the stored fold written
  anew. It runs after a change to a game the fold has passed (a corrected protocol, a late
  analysis: `scores_change` forgets the fold), a game marked rated or unrated, a rescore by
  a new scheme, the club's choice of another system, and whenever the fold is missing or
  stands elsewhere than the game's end expects.

The fold is deterministic and its state is stored as computed (float8 holds a Python float
exactly), so both ways write the same floats, bit for bit
(tests/games/ratings/test_incremental.py).

What it reads and writes is the club's rows, each a queryset (`_scores`, `_games`,
`_folds`, `_states`), so a club's key can narrow them.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import connection, transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from club.kernel.clubs import Club
from club.kernel.tenancy import current_club_id
from games.models import Game, GameStatus, Seat
from games.ratings import systems
from games.ratings.models import PlayerScore, RatingFold, RatingForecast, RatingState
from games.ratings.systems import OpenSkill, Skill
from games.rules import forecast, rating
from games.rules.forecast import Tally
from games.rules.rating import BLACK, RED, BaseRate, Change, EloTracks, NonZeroSumElo, Played

# Held while ratings are folded or replayed, and while a game's scores change
# (`scores_change`), so that none of them interleave.
RATINGS_LOCK = 7_001_001

# A game's place in playing order: its scores' end, then its id.
type Position = tuple[datetime, int]
type Stored = tuple[float | None, float | None]  # a score's rating before and after
type Rewrite = tuple[int, float | None, float | None]  # a score's id, its new Stored


def ratings_lock() -> None:
    """The ratings' lock of the club in scope, for the rest of the caller's transaction:
    another club's ratings go on beside it."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s, %s)", [RATINGS_LOCK, current_club_id()]
            )


# The club's rows, as the fold reads and writes them: the club in scope's (the scoped
# managers'; a score has no club key of its own, its game's says whose it is).
def _scores() -> QuerySet[PlayerScore]:
    return PlayerScore.objects.filter(game__club_id=current_club_id())


def _games() -> QuerySet[Game]:
    return Game.objects.all()


def _folds() -> QuerySet[RatingFold]:
    return RatingFold.objects.all()


def _states() -> QuerySet[RatingState]:
    return RatingState.objects.all()


def _club_system() -> str:
    return Club.current().rating_system or rating.OPENSKILL_PLAIN


@dataclass(frozen=True)
class Row:
    """One analysed seat as the systems read it, with what is stored of it."""

    played: Played
    ended_at: datetime
    rated: bool  # Game.rated: an unrated game's scores get no rating
    stored: Stored

    @property
    def position(self) -> Position:
        game = self.played.game
        assert isinstance(game, int)
        return (self.ended_at, game)


def rows_in_playing_order(scores: QuerySet[PlayerScore], games: QuerySet[Game]) -> list[Row]:
    """`scores` in the order the games ended, seat by seat; the seats and kinds of their
    games are read from `games`."""
    found = scores.order_by("ended_at", "game_id", "seat").values_list(
        "pk",
        "game_id",
        "member_id",
        "track",
        "game__winner",
        "won",
        "points",
        "ended_at",
        "game__rated",
        "rating_before",
        "rating_after",
    )
    # Everyone at the table, guests too: mafiaratings' K is smaller below ten players.
    finished = games.filter(status=GameStatus.FINISHED)
    seats = dict(
        Seat.objects.filter(game__in=finished)
        .values("game_id")
        .annotate(n=Count("pk"))
        .values_list("game_id", "n")
    )
    # A game at a tournament's table is a tournament game: mafiaratings rates a game
    # with a tournament by the tournament's K (16/12), not the club game's (4/3).
    tournament = set(games.filter(tournament_table__isnull=False).values_list("pk", flat=True))
    return [
        Row(
            rating.Played(
                pk,
                game,
                member,
                track,
                winner,
                won,
                points,
                seats.get(game, 0),
                kind=rating.TOURNAMENT if game in tournament else rating.CLUB,
            ),
            ended_at,
            rated,
            (before, after),
        )
        for pk, game, member, track, winner, won, points, ended_at, rated, before, after in found
    ]


def _base(rater: rating.Rater) -> BaseRate:
    assert isinstance(rater, OpenSkill | EloTracks | NonZeroSumElo)
    return rater.base


class Fold:
    """One system's fold in memory: its rater, whose state is every player's, and its
    foresight of each game before the game is rated."""

    def __init__(self, system: str) -> None:
        self.system = system
        self.rater = systems.rater(system)
        self.tally = Tally()

    def add(self, game: Sequence[Played]) -> dict[Hashable, Change]:
        """Foresee `game`, then rate it (as games/rules/forecast.forecast does)."""
        self.tally.foresee(game, self.rater)
        return self.rater.rate(game)

    @classmethod
    def restored(cls, row: RatingFold, states: Iterable[RatingState]) -> Fold:
        """The fold as `row` and the players' `states` left it (those of the players the
        next game needs are enough: a game changes its own players' states alone)."""
        fold = cls(row.system)
        base = _base(fold.rater)
        base.reds, base.decided = row.reds, row.decided
        fold.tally.base.reds, fold.tally.base.decided = row.foreseen_reds, row.foreseen
        fold.tally.total, fold.tally.base_total = row.loss, row.base_loss
        for state in states:
            fold._load(state)
        return fold

    def _load(self, state: RatingState) -> None:
        player, rater = state.member_id, self.rater
        if isinstance(rater, OpenSkill):
            if state.mu is not None and state.sigma is not None:
                rater.skills[player] = Skill(state.mu, state.sigma)
            return
        tracks = rater.tracks if isinstance(rater, NonZeroSumElo) else _elo(rater).ratings
        for track, value in ((RED, state.red), (BLACK, state.black)):
            if value is not None:
                tracks[(player, track)] = value
        if isinstance(rater, NonZeroSumElo) and state.overall is not None:
            rater.overall[player] = state.overall

    def row(self, last: Position | None, *, shown: bool) -> RatingFold:
        """Where the fold stands, after the game at `last` (None: no game yet)."""
        base = _base(self.rater)
        return RatingFold(
            system=self.system,
            last_ended_at=last[0] if last else None,
            last_game_id=last[1] if last else None,
            shown=shown,
            reds=base.reds,
            decided=base.decided,
            foreseen_reds=self.tally.base.reds,
            foreseen=self.tally.base.decided,
            loss=self.tally.total,
            base_loss=self.tally.base_total,
        )

    def states(self, players: Collection[Hashable] | None = None) -> list[RatingState]:
        """The states of `players` (every player the fold has rated when None)."""
        rater = self.rater
        if isinstance(rater, OpenSkill):
            return [
                RatingState(
                    system=self.system, member_id=_member(player), mu=skill.mu, sigma=skill.sigma
                )
                for player, skill in rater.skills.items()
                if players is None or player in players
            ]
        tracks = rater.tracks if isinstance(rater, NonZeroSumElo) else _elo(rater).ratings
        overall = rater.overall if isinstance(rater, NonZeroSumElo) else {}
        known = {player for player, _track in tracks} | set(overall)
        return [
            RatingState(
                system=self.system,
                member_id=_member(player),
                red=tracks.get((player, RED)),
                black=tracks.get((player, BLACK)),
                overall=overall.get(player),
            )
            for player in known
            if players is None or player in players
        ]


def _member(player: Hashable) -> int:
    assert isinstance(player, int)  # the scores' players are members' ids
    return player


def _elo(rater: rating.Rater) -> EloTracks:
    assert isinstance(rater, EloTracks)
    return rater


def ratings_replay() -> int:
    """Replay every rated analysed game from the first (see the module's docstring), store
    each score's rating by the club's system, the fold and the foresight; returns how many
    scores' ratings changed (another system: nearly all)."""
    with transaction.atomic():
        ratings_lock()
        return _replay(_club_system())


def _replay(system: str) -> int:
    rows = rows_in_playing_order(_scores(), _games())
    folds = {name: Fold(name) for name in rating.SYSTEMS}
    ended = {row.played.game: row.ended_at for row in rows}
    changes: dict[Hashable, Change] = {}
    last: Position | None = None
    # An unrated game is in no fold: its rows get no rating (None, None).
    for game in rating.games_of(row.played for row in rows if row.rated):
        for name, fold in folds.items():
            found = fold.add(game)
            if name == system:
                changes.update(found)
        game_id = game[0].game
        assert isinstance(game_id, int)
        last = (ended[game_id], game_id)
    changed = _changed(rows, changes)
    _write_ratings(changed)
    _states().delete()
    RatingState.objects.bulk_create(
        (state for fold in folds.values() for state in fold.states()), batch_size=2000
    )
    _folds().delete()
    RatingFold.objects.bulk_create(
        fold.row(last, shown=name == system) for name, fold in folds.items()
    )
    _forecasts_write(folds)
    return len(changed)


@dataclass(frozen=True)
class Folded:
    """What a game's end did to the ratings."""

    incremental: bool  # the game alone was folded (False: every game was replayed)
    changed: int  # the scores whose stored rating changed


def ratings_after_game(game_id: int) -> Folded:
    """The ratings after the analysis of `game_id` (its end, or a change of it): that game
    folded alone when it is the newest and the fold stands just before it, else every game
    replayed (see the module's docstring)."""
    with transaction.atomic():
        ratings_lock()
        system = _club_system()
        rows = rows_in_playing_order(_scores().filter(game_id=game_id), _games().filter(pk=game_id))
        stored = {row.system: row for row in _folds()}
        usable, head = _head(stored, system)
        if not rows or not usable or (head is not None and rows[0].position <= head):
            return Folded(incremental=False, changed=_replay(system))
        if not rows[0].rated:
            # Scores with no rating, and the fold as it was.
            changed = _changed(rows, {})
            _write_ratings(changed)
            return Folded(incremental=True, changed=len(changed))
        if _previous(rows[0].position) != head:
            # A rated game the fold has not seen (its analysis came late, its end was lost)
            # or no longer holds (deleted) stands between: replayed.
            return Folded(incremental=False, changed=_replay(system))
        return Folded(incremental=True, changed=_fold_one(rows, stored, system))


def _head(stored: Mapping[str, RatingFold], system: str) -> tuple[bool, Position | None]:
    """Whether the stored fold can be folded on, and where it stands (None: before any
    game). It cannot with a system missing, the systems at different games, or the
    scores' ratings not the club's system's (another was chosen since)."""
    unusable = (False, None)
    if set(stored) != set(rating.SYSTEMS) or not stored[system].shown:
        return unusable
    if any(row.shown for name, row in stored.items() if name != system):
        return unusable
    heads = {(row.last_ended_at, row.last_game_id) for row in stored.values()}
    if len(heads) != 1:
        return unusable
    ended_at, game_id = heads.pop()
    if ended_at is None and game_id is None:
        return (True, None)
    if ended_at is None or game_id is None:
        return unusable
    return (True, (ended_at, game_id))


def _previous(position: Position) -> Position | None:
    """The rated analysed game just before `position` in playing order."""
    ended_at, game_id = position
    found = (
        _scores()
        .filter(game__rated=True, ended_at__lte=ended_at)
        .filter(Q(ended_at__lt=ended_at) | Q(game_id__lt=game_id))
        .order_by("-ended_at", "-game_id")
        .values_list("ended_at", "game_id")
        .first()
    )
    return (found[0], found[1]) if found else None


def _fold_one(rows: Sequence[Row], stored: Mapping[str, RatingFold], system: str) -> int:
    """Fold the one game of `rows` on from the stored fold; returns the scores changed."""
    game = [row.played for row in rows]
    players = {_member(row.played.player) for row in rows}
    states = list(_states().filter(member_id__in=players))
    folds = {
        name: Fold.restored(stored[name], (state for state in states if state.system == name))
        for name in rating.SYSTEMS
    }
    changes: dict[Hashable, Change] = {}
    for name, fold in folds.items():
        found = fold.add(game)
        if name == system:
            changes = found
    changed = _changed(rows, changes)
    _write_ratings(changed)
    RatingState.objects.bulk_create(
        [state for fold in folds.values() for state in fold.states(players)],
        update_conflicts=True,
        unique_fields=["club", "system", "member"],
        update_fields=["mu", "sigma", "red", "black", "overall"],
    )
    RatingFold.objects.bulk_create(
        [fold.row(rows[0].position, shown=name == system) for name, fold in folds.items()],
        update_conflicts=True,
        unique_fields=["club", "system"],
        update_fields=[
            "last_ended_at",
            "last_game_id",
            "shown",
            "reds",
            "decided",
            "foreseen_reds",
            "foreseen",
            "loss",
            "base_loss",
        ],
    )
    _forecasts_write(folds)
    return len(changed)


def scores_change(game_id: int, ended_at: datetime | None) -> None:
    """A game's scores are about to be replaced (by scores that end at `ended_at`) or
    withdrawn (None), in the caller's transaction, which holds the ratings' lock from here
    to its commit: if the fold has passed the game, by its old scores or its new ones, the
    fold is forgotten, and the next game's end replays every game. A game that ends after
    the fold's last keeps it (the game's end folds it on)."""
    ratings_lock()
    heads = [
        (row.last_ended_at, row.last_game_id)
        for row in _folds()
        if row.last_ended_at is not None and row.last_game_id is not None
    ]
    if not heads:
        return
    old = _scores().filter(game_id=game_id).values_list("ended_at", flat=True).first()
    places = [(when, game_id) for when in (old, ended_at) if when is not None]
    if any(place <= head for place in places for head in heads):
        forget()


def forget() -> None:
    """Forget the kept fold (in the caller's transaction, which holds the ratings' lock to
    its commit): the next game's end replays every game."""
    ratings_lock()
    _folds().delete()


def _changed(rows: Iterable[Row], changes: Mapping[Hashable, Change]) -> list[Rewrite]:
    """The scores whose rating differs from what is stored (exactly: the fold gives the
    same floats for the same games)."""
    changed: list[Rewrite] = []
    for row in rows:
        pk = row.played.key
        assert isinstance(pk, int)
        change = changes.get(pk)
        new: Stored = (change.before, change.after) if change else (None, None)
        if new != row.stored:
            changed.append((pk, *new))
    return changed


def _write_ratings(changed: list[Rewrite]) -> None:
    if not changed:
        return
    if connection.vendor == "postgresql":
        # One statement for any number of rows (a whole replay after a scheme change).
        table = PlayerScore._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} AS s SET rating_before = v.before, rating_after = v.after"  # noqa: S608
                " FROM unnest(%s::bigint[], %s::float8[], %s::float8[]) AS v(id, before, after)"
                " WHERE s.id = v.id",
                [[c[0] for c in changed], [c[1] for c in changed], [c[2] for c in changed]],
            )
        return
    PlayerScore.objects.bulk_update(
        [PlayerScore(pk=pk, rating_before=b, rating_after=a) for pk, b, a in changed],
        ["rating_before", "rating_after"],
        batch_size=500,
    )


def _forecasts_write(folds: Mapping[str, Fold]) -> None:
    now = timezone.now()
    found = {name: fold.tally.result() for name, fold in folds.items()}
    RatingForecast.objects.bulk_create(
        [
            RatingForecast(
                system=name,
                games=result.games,
                log_loss=result.log_loss,
                base_log_loss=result.base_log_loss,
                updated_at=now,
            )
            for name, result in found.items()
        ],
        update_conflicts=True,
        unique_fields=["club", "system"],
        update_fields=["games", "log_loss", "base_log_loss", "updated_at"],
    )


def forecasts_update() -> list[RatingForecast]:
    """How well each rating system foresees the club's games, each before it is rated
    (games/rules/forecast.py), from every game (the fold keeps them as the games end; this
    serves a page asked before any has); returns the rows in system order."""
    played = [row.played for row in rows_in_playing_order(_scores(), _games()) if row.rated]
    now = timezone.now()
    kept = []
    for system in rating.SYSTEMS:
        found = forecast.forecast(played, systems.rater(system))
        row, _created = RatingForecast.objects.update_or_create(
            system=system,
            defaults={
                "games": found.games,
                "log_loss": found.log_loss,
                "base_log_loss": found.base_log_loss,
                "updated_at": now,
            },
        )
        kept.append(row)
    return kept
