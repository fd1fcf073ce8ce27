"""The analysis runs in the worker, after the commit that ended (or corrected) a game.

Tasks take ids and re-read everything: each is safe to run twice or late. Other rooms ask
for them by name after their commits (club/kernel/queueing.py): "games.ratings.tasks.game_analyse"
when a game ends, "games.ratings.tasks.member_posts_sync" when a member's consent changes,
"games.ratings.tasks.ratings_replay" when the club chooses another rating system or a game
is marked rated or unrated. Each of them asks in turn for the leagues' rating across clubs
("leagues.tasks.platform_rating_rebuild"), which does nothing for a club in no league.

A game's end costs the ratings the work of that game alone when it is the newest; anything
else replays every game (games/ratings/fold.py).
"""

from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from club.kernel.queueing import publish
from club.kernel.tenancy import each_club_of
from games import live
from games.models import Game, GameSource, GameStatus
from games.online.spectators import online_snapshot_write
from games.ratings import analysis, fold, publication, reports
from games.ratings.models import PlayerScore

# After a scheme change, the group posts of games this recent are edited to the new scores;
# older posts stay as they were posted (their pages show the new scores).
REPOST_WITHIN = timedelta(days=30)
# A game whose analysis task was lost (a broker down at its commit, a worker killed): built
# by the catch-up once this has passed since it ended.
ANALYSIS_GRACE = timedelta(minutes=2)


@shared_task(ignore_result=True, acks_late=True)
def game_analyse(game_id: int) -> None:
    analysis.game_analysis_build(game_id=game_id)
    # The live table shows the finished game's scores (games/live.py).
    scores = publication.published_points
    if live.snapshot_write(game_id, scores) is None:
        online_snapshot_write(game_id, scores)  # an online game's

    # The ratings and the systems' foresight: this game folded on, or every game replayed.
    fold.ratings_after_game(game_id)
    # The rating across clubs, if the game's club is in a league that accepts it.
    publish("leagues.tasks.platform_rating_rebuild", game_id)
    # A game brought from the club's records (history/imports/) was played long ago: no
    # post to the group and no report to its players, whoever analyses it (this task from
    # the catch-up sweep, or the import's own rebuild).
    if Game.objects.filter(pk=game_id, source=GameSource.LIVE).exists():
        publication.game_post_sync(game_id=game_id)
        # After the ratings, which the reports tell; once per game and member (reports.py).
        reports.game_reports_send(game_id=game_id)


@shared_task(ignore_result=True, acks_late=True)
def games_rescore() -> None:
    """Every game of the club in scope scored again by the current scheme (an admin saved a
    new version of a preset, which every club queues for itself; or a season's or a
    tournament's preset of this club)."""
    # Its replay keeps the foresight too (the points weigh `openskill`'s).
    changed = set(analysis.analyses_rebuild())
    publish("leagues.tasks.platform_rating_rebuild")
    recent = PlayerScore.objects.filter(ended_at__gte=timezone.now() - REPOST_WITHIN)
    for game_id in sorted(set(recent.values_list("game_id", flat=True)) & changed):
        publication.game_post_sync(game_id=game_id)


@shared_task(ignore_result=True, acks_late=True)
def ratings_replay() -> None:
    """Every game's rating again: by the rating system the club has just chosen, or
    without a game just marked unrated (or with it, marked rated again); and the systems'
    foresight, which reads the same games."""
    fold.ratings_replay()
    # A game rated or unrated moves the rating across clubs too (leagues/tasks.py).
    publish("leagues.tasks.platform_rating_rebuild")


@shared_task(ignore_result=True, acks_late=True)
def member_posts_sync(member_id: int) -> None:
    """A member switched publication off (or on): every group post with them in it is
    edited to name them as the pages now do, in every club they played in, each post by
    its club's bot and rules."""
    scores = PlayerScore.objects.filter(member_id=member_id)
    for _club in each_club_of(Game.all_clubs.filter(pk__in=scores.values("game_id"))):
        games = Game.objects.filter(pk__in=scores.values("game_id")).values_list("pk", flat=True)
        for game_id in sorted(games):
            publication.game_post_sync(game_id=game_id)


@shared_task(ignore_result=True)
def analyses_catch_up() -> None:
    """Every few minutes: analyse the finished games that have no analysis yet, in each
    club that has one, each queued in its club (one query finds them across the clubs)."""
    missing = Game.all_clubs.filter(
        status=GameStatus.FINISHED,
        analysis__isnull=True,
        ended_at__lt=timezone.now() - ANALYSIS_GRACE,
    )
    for _club in each_club_of(missing):
        ids = Game.objects.filter(pk__in=missing.values("pk")).values_list("pk", flat=True)
        for game_id in list(ids.order_by("ended_at", "pk")[:100]):
            game_analyse.delay(game_id)
