"""The club's rating system is a setting now (club 0011, OpenSkill by default): the ratings
stored by Elo on tracks are replayed by the club's system, as games.ratings.analysis's
ratings_replay does after a change in admin (this is its fold, on the migration's models)."""

from django.db import migrations
from django.db.models import Count


def replay(apps, system):
    from games.ratings import systems
    from games.rules import rating

    PlayerScore = apps.get_model("ratings", "PlayerScore")
    Seat = apps.get_model("games", "Seat")
    rows = list(
        PlayerScore.objects.order_by("ended_at", "game_id", "seat").values_list(
            "pk", "game_id", "member_id", "track", "game__winner", "won", "points"
        )
    )
    if not rows:
        return
    seats = dict(
        Seat.objects.values("game_id").annotate(n=Count("pk")).values_list("game_id", "n")
    )
    changes = rating.replay(
        (
            rating.Played(pk, game, member, track, winner, won, points, seats.get(game, 0))
            for pk, game, member, track, winner, won, points in rows
        ),
        systems.rater(system),
    )
    scores = []
    for pk, *_rest in rows:
        change = changes.get(pk)
        scores.append(
            PlayerScore(
                pk=pk,
                rating_before=change.before if change else None,
                rating_after=change.after if change else None,
            )
        )
    PlayerScore.objects.bulk_update(scores, ["rating_before", "rating_after"], batch_size=1000)


def by_the_clubs_system(apps, schema_editor):
    ClubSettings = apps.get_model("club", "ClubSettings")
    system = ClubSettings.objects.values_list("rating_system", flat=True).first()
    replay(apps, system or "openskill")


def by_elo_on_tracks(apps, schema_editor):
    replay(apps, "elo_tracks")


class Migration(migrations.Migration):

    dependencies = [
        ("club", "0011_rating_system"),
        ("games", "0010_game_table_guest_seats"),
        ("ratings", "0001_initial"),
    ]

    operations = [migrations.RunPython(by_the_clubs_system, by_elo_on_tracks)]
