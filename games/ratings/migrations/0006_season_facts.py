"""What a season's table sums besides the points, on every stored score: whether the seat
was shot dead on night 1 (each analysed game replayed by the engine, as the analysis does)
and the points of the lines the tie-breakers count (read off the stored lines)."""

from collections import defaultdict

from django.db import migrations, models

BONUS = {"bonus"}
BEST_MOVE = {"best_move_1", "best_move_2", "best_move_3"}
PENALTY = {"removal", "disqualification"}


def _killed_first_night(game, seats, payloads):
    from games.rules.club import ClubGame
    from games.rules.log import effective_events
    from games.rules.online import OnlineGame, OnlineOptions
    from games.rules.options import ClubOptions
    from games.rules.scoring import killed_first_night

    table = {number: role for number, role in seats}
    if game.ruleset == "online":
        state = OnlineGame(table, options=OnlineOptions.from_dict(game.options))
    else:
        state = ClubGame(
            table, options=ClubOptions.from_dict(game.options), immune=game.immune
        )
    state.apply_all(effective_events(payloads))
    return killed_first_night(state.eliminated)


def facts_filled(apps, schema_editor):
    from games.rules.errors import ProtocolError, RuleViolation

    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    GameEvent = apps.get_model("games", "GameEvent")
    PlayerScore = apps.get_model("ratings", "PlayerScore")
    scores = list(PlayerScore.objects.all())
    if not scores:
        return
    by_game = defaultdict(list)
    for row in scores:
        by_game[row.game_id].append(row)
        points = {"bonus": 0.0, "best_move": 0.0, "penalty": 0.0}
        for line in row.lines:
            code = line.get("code")
            kind = "bonus" if code in BONUS else "best_move" if code in BEST_MOVE else None
            kind = kind or ("penalty" if code in PENALTY else None)
            if kind:
                points[kind] += line.get("points", 0.0)
        row.bonus_points = round(points["bonus"], 2)
        row.best_move_points = round(points["best_move"], 2)
        row.penalty_points = round(points["penalty"], 2)
    for game in Game.objects.filter(pk__in=by_game):
        seats = Seat.objects.filter(game=game).order_by("number").values_list("number", "role")
        payloads = list(
            GameEvent.objects.filter(game=game).order_by("seq").values_list("payload", flat=True)
        )
        try:
            killed = _killed_first_night(game, list(seats), payloads)
        except (ProtocolError, RuleViolation):
            continue  # a protocol the engine no longer reads: its next analysis says so
        for row in by_game[game.pk]:
            row.killed_first_night = row.seat in killed
    PlayerScore.objects.bulk_update(
        scores,
        ["killed_first_night", "bonus_points", "best_move_points", "penalty_points"],
        batch_size=1000,
    )


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0005_scoring_scheme_preset_required'),
    ]

    operations = [
        migrations.AddField(
            model_name='playerscore',
            name='best_move_points',
            field=models.FloatField(default=0.0, verbose_name='best move points'),
        ),
        migrations.AddField(
            model_name='playerscore',
            name='bonus_points',
            field=models.FloatField(default=0.0, verbose_name='extra points'),
        ),
        migrations.AddField(
            model_name='playerscore',
            name='killed_first_night',
            field=models.BooleanField(default=False, verbose_name='killed on night 1'),
        ),
        migrations.AddField(
            model_name='playerscore',
            name='penalty_points',
            field=models.FloatField(default=0.0, verbose_name='penalty points'),
        ),
        migrations.RunPython(facts_filled, migrations.RunPython.noop),
    ]
