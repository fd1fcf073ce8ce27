"""The platform's rating across clubs (#41, item 7): one rating per player over the games
that (a) their club marked rated (Game.rated) and (b) a league accepts, that is, the game's
club has joined (accepted) a league that accepts rated games. A member has one account, so
their games in every such club fold into one rating.

It is the clubs' own engine: the scores the analysis stored (games.ratings PlayerScore),
folded in the order the games ended by games/rules/rating.replay with the rater of
games/ratings/systems.py, under one system for the whole platform (SYSTEM). Each club's own
season and rating are untouched: they are games/ratings/analysis.py's, per club.

The cost: a rebuild replays every counted game (a full fold, as the clubs' replay was
before games/ratings/fold.py made it incremental): the issue measured 1.7 s per 10,000
games for that replay (not measured again for this one), plus one query for the scores and
one for the table sizes, then one DELETE and one INSERT of the players' rows. It runs in the
worker after a counted game ends or changes (`platform_rating_queue`), and after a league
or a club's membership changes; a game of a club in no accepting league queues nothing.
The rows are folded in (ended_at, game, seat) order, so an incremental fold (keep the
rater's state and fold only games that ended after the last one folded) needs only the
rater's state stored; a late correction of an old game would still need the full fold.
"""

from __future__ import annotations

from django.db import connection, transaction
from django.db.models import Count

from club.kernel.queueing import queue_on_commit
from games.models import Game, GameStatus, Seat
from games.ratings import systems
from games.ratings.models import PlayerScore
from games.rules import rating
from leagues.models import JoinStatus, LeagueMembership, PlatformRating

# The platform's one system: the clubs' default (docs/scoring.md «How sure a rating is»).
SYSTEM = rating.OPENSKILL_PLAIN
# Held while the rating is rebuilt, so that two rebuilds never interleave their writes.
_LOCK = 7_001_041


def counted_club_ids() -> set[int]:
    """The clubs whose rated games count: members (accepted) of a league that accepts them."""
    return set(
        LeagueMembership.objects.filter(
            status=JoinStatus.ACCEPTED, league__accepts_rated_games=True
        ).values_list("club_id", flat=True)
    )


def game_counts(game_id: int) -> bool:
    """Whether a game's club is one whose rated games count (its rated flag aside: a game
    just marked unrated must leave the rating too)."""
    club_id = Game.all_clubs.filter(pk=game_id).values_list("club_id", flat=True).first()
    return club_id is not None and club_id in counted_club_ids()


def platform_rating_queue() -> None:
    """Rebuild the rating in the worker after the commit (a league's change)."""
    queue_on_commit("leagues.tasks.platform_rating_rebuild")


def _played(club_ids: set[int]) -> list[rating.Played]:
    """Every counted seat as the rater reads it, in the order the games ended."""
    games = Game.all_clubs.filter(club_id__in=club_ids, rated=True, status=GameStatus.FINISHED)
    rows = (
        PlayerScore.all_clubs.filter(game__in=games)
        .order_by("ended_at", "game_id", "seat")
        .values_list("pk", "game_id", "member_id", "track", "game__winner", "won", "points")
    )
    seats = dict(
        Seat.objects.filter(game__in=games)
        .values("game_id")
        .annotate(n=Count("pk"))
        .values_list("game_id", "n")
    )
    tournament = set(games.filter(tournament_table__isnull=False).values_list("pk", flat=True))
    return [
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
        )
        for pk, game, member, track, winner, won, points in rows
    ]


def platform_rating_rebuild() -> int:
    """Fold every counted game again and store each player's rating, games and clubs;
    returns how many players have a rating."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_LOCK])
        club_ids = counted_club_ids()
        played = _played(club_ids) if club_ids else []
        changes = rating.replay(played, systems.rater(SYSTEM))
        club_of = dict(
            Game.all_clubs.filter(pk__in={row.game for row in played}).values_list("pk", "club_id")
        )
        latest: dict[int, float] = {}
        games: dict[int, int] = {}
        clubs: dict[int, set[int]] = {}
        for row in played:
            player, game = row.player, row.game
            assert isinstance(player, int) and isinstance(game, int)  # the ids read above
            clubs.setdefault(player, set()).add(club_of[game])
            change = changes.get(row.key)
            if change is None:
                continue  # a row the system does not rate
            latest[player] = change.after
            games[player] = games.get(player, 0) + 1
        PlatformRating.objects.all().delete()
        PlatformRating.objects.bulk_create(
            PlatformRating(
                member_id=member,
                rating=value,
                games=games[member],
                club_ids=sorted(clubs[member]),
            )
            for member, value in latest.items()
        )
    return len(latest)
