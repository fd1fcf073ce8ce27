"""Presets in the database (docs/scoring.md): their versions, which preset scores a season,
first-night compensation and the tie-breakers on the season's table, and the what-if
table an admin sees, equal to the season scored again under that preset."""

from dataclasses import astuple, replace
from datetime import date, datetime
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.models import User
from club.kernel.clubs import Club
from games.models import Game
from games.ratings import analysis, stats, whatif
from games.ratings.models import (
    GameAnalysis,
    PlayerScore,
    ScoringPreset,
    ScoringScheme,
    SeasonPreset,
)
from games.ratings.presets import season_scheme
from games.ratings.seasons import Season
from games.rules.presets import PRESETS
from games.rules.scoring import Scheme
from tests.factories import make_member
from tests.games.season import seed_history

pytestmark = pytest.mark.django_db

SEASON = Season(2025, 2)  # April to June 2025
PLAYED = date(2025, 5, 4)
EVENING = datetime(2025, 5, 14, 18, 0)


def preset(code: str) -> ScoringPreset:
    return ScoringPreset.objects.get(code=code)


def season_is(code: str, since: date = SEASON.first_day) -> None:
    SeasonPreset.objects.update_or_create(since=since, defaults={"preset": preset(code)})


def test_each_presets_newest_version_is_as_the_reference_defines_it() -> None:
    for code, reference in PRESETS.items():
        newest = ScoringScheme.objects.current(preset(code))
        assert newest.scheme() == Scheme.from_dict(reference.points), code
        assert newest.preset.name == reference.name
    assert str(ScoringScheme.objects.get(preset__code="fiim", version=1)) == "ФИИМ, версия 1"


def test_the_federation_presets_best_move_for_red_only_is_a_version_of_its_own() -> None:
    """Version 1 stays what games were scored by; the flag came with version 2."""
    for code in ("fiim", "auto"):
        v1, v2 = ScoringScheme.objects.filter(preset__code=code).order_by("version")[:2]
        assert not v1.scheme().best_move_red_only
        assert v2.scheme() == replace(v1.scheme(), best_move_red_only=True)
        assert "red" in v2.note
    assert not ScoringScheme.objects.current(preset("club")).scheme().best_move_red_only


def test_a_season_is_scored_by_the_latest_row_on_or_before_its_first_day() -> None:
    assert season_scheme(SEASON).preset.code == "club"  # no row: «Клуб»
    season_is("fiim", since=date(2025, 4, 1))
    assert season_scheme(SEASON).preset.code == "fiim"
    assert season_scheme(Season(2025, 1)).preset.code == "club"  # before the row
    assert season_scheme(Season(2026, 3)).preset.code == "fiim"  # every later season
    season_is("auto", since=date(2025, 5, 1))  # mid-season: from the next season on
    assert season_scheme(SEASON).preset.code == "fiim"
    assert season_scheme(Season(2025, 3)).preset.code == "auto"
    assert season_scheme(Season(2025, None)).preset.code == "club"  # the year 2025 began before


def test_a_games_analysis_is_scored_by_its_seasons_preset() -> None:
    season_is("fiim")
    history = seed_history(games=4, members=16, seed=4, last_evening=timezone.make_aware(EVENING))
    built = GameAnalysis.objects.filter(game__in=history.games).select_related("scheme__preset")
    assert {a.scheme.preset.code for a in built} == {"fiim"}
    codes = {
        line["code"]
        for lines in PlayerScore.objects.values_list("lines", flat=True)
        for line in lines
    }
    assert codes <= {"win", "loner_win", "removal", "disqualification"}
    killed = PlayerScore.objects.filter(killed_first_night=True)
    for score in killed:
        events = Game.objects.get(pk=score.game_id).events.effective()
        night_one = events[events.index({"type": "night", "n": 1}) :]
        assert any(e.get("target") == score.seat for e in night_one if e["type"] == "kill")


# --- hand-made seasons -------------------------------------------------------------------


def scores(rows: dict[str, list[dict[str, Any]]]) -> dict[str, User]:
    """PlayerScore rows as given, for members named by the keys, on one game of the
    season (the seat numbers tell them apart)."""
    game = seed_history(games=1, members=15, seed=9, last_evening=timezone.make_aware(EVENING))
    PlayerScore.objects.all().delete()
    members = {nick: make_member(nickname=nick) for nick in rows}
    seat = 100
    made = []
    for nick, games in rows.items():
        for fields in games:
            seat += 1
            made.append(
                PlayerScore(
                    game=game.games[0],
                    seat=seat,
                    member=members[nick],
                    role=fields.get("role", "civilian"),
                    team=fields.get("team", "red"),
                    won=fields.get("won", False),
                    points=fields.get("points", 0.0),
                    played_on=PLAYED,
                    ended_at=timezone.make_aware(EVENING),
                    killed_first_night=fields.get("killed", False),
                    bonus_points=fields.get("bonus", 0.0),
                    best_move_points=fields.get("best_move", 0.0),
                    penalty_points=fields.get("penalty", 0.0),
                )
            )
    PlayerScore.objects.bulk_create(made)
    return members


def board(**kwargs: Any) -> stats.Leaderboard:
    return stats.leaderboard(SEASON, kwargs.pop("sort", "points"), None, **kwargs)


def killed_lost(n: int) -> list[dict[str, Any]]:
    return [{"killed": True}] * n


def test_first_night_compensation_at_its_boundaries_on_fiims_table() -> None:
    scores(
        {
            "A1": killed_lost(1),  # N=1, K=1: round(0.4)=0, mafiaratings gives the cap
            "B2": [*killed_lost(1), {}],  # N=2, K=1: 0.4
            "C3": [{}, {}, {}],  # N=3, K=0: nothing
            "D4": [{"killed": True, "won": True}, {}, {}, {}],  # K=1 but the game was won
            "E5": [*killed_lost(2), {}, {}, {}],  # N=5, K=2: 0.4 for each lost game
            "F2": [{"killed": True, "team": "black", "role": "mafia"}, {}],  # black: not K
            "G0": [],
        }
    )
    assert {row.nick: row.ci for row in board().rows} == {
        "A1": None,
        "B2": None,
        "C3": None,
        "D4": None,
        "E5": None,
        "F2": None,
    }  # «Клуб» has no compensation
    season_is("fiim")
    rows = {row.nick: row for row in board().rows}
    assert {nick: row.ci for nick, row in rows.items()} == {
        "A1": 0.4,
        "B2": 0.4,
        "C3": 0.0,
        "D4": 0.0,
        "E5": 0.8,
        "F2": 0.0,
    }
    assert rows["E5"].points == 0.8 and rows["E5"].average == 0.16  # in the points
    assert [row.nick for row in board().rows][:3] == ["E5", "A1", "B2"]
    assert all(row.ci is None for row in board(only=stats.BoardFilter(team="red")).rows)
    page = Client().get(f"/leaderboard/?season={SEASON.key}").content.decode()
    assert '<th class="num"><a' in page and ">Ci</a>" in page
    assert 'id="ci-legend"' in page and "не больше 0,4" in page  # what Ci is, under the table
    # The player's own season line says the same as the table, and how it was reached.
    members = {row.nick: row.member_id for row in board().rows}
    e5 = stats.member_compensation(members["E5"], SEASON)
    assert e5 is not None and (e5.total, e5.kills, e5.games, e5.losses) == (0.8, 2, 5, 2)
    assert stats.member_compensation(members["C3"], SEASON) == stats.Compensation(0.0, 0, 3, 0)


TIED: dict[str, list[dict[str, Any]]] = {
    # Each has 2.0 points.
    "P": [{"won": True, "points": 1.0}, {"won": True, "points": 1.0}, {}],
    "Q": [{"won": True, "points": 1.4, "best_move": 0.4}, {"points": 0.6}],
    "R": [{"won": True, "points": 1.0, "role": "commissar"}, {"won": True, "points": 1.0}, {}, {}],
    "S": [
        {"won": True, "points": 1.0, "role": "boss", "team": "black"},
        {"won": True, "points": 1.0, "killed": True},  # killed on night 1, yet the town won
        {},
        {},
    ],
    "T": [{"won": True, "points": 1.2, "bonus": 0.2}, {"points": 0.8}, {}],
}


@pytest.mark.parametrize(
    ("code", "order"),
    [
        ("club", ["P", "R", "S", "Q", "T"]),  # wins, then fewer games, then the name
        ("fiim", ["Q", "T", "S", "R", "P"]),  # extra, wins, boss/commissar wins, night-1 kills
        ("auto", ["T", "S", "R", "Q", "P"]),  # bonus, boss/commissar wins, kills, best move
    ],
)
def test_equal_points_are_ordered_by_the_presets_tie_breakers(code: str, order: list[str]) -> None:
    scores(TIED)
    season_is(code)
    rows = board().rows
    assert {row.points for row in rows} == {2.0}
    assert [row.nick for row in rows] == order
    assert [row.rank for row in rows] == [1, 2, 3, 4, 5]
    by_games = [row.nick for row in board(sort="games").rows]
    assert by_games[:2] == [n for n in order if n in ("R", "S")]  # the same order within ties


# --- the what-if -------------------------------------------------------------------------


def standing(row: stats.Standing) -> tuple[Any, ...]:
    return (row.rank, row.member_id, row.points, row.average, row.games, row.wins, row.ci)


@pytest.mark.parametrize("code", ["fiim", "auto"])
def test_the_what_if_equals_the_season_scored_again_under_that_preset(
    admin_member: User, code: str
) -> None:
    seed_history(games=30, members=20, seed=5, last_evening=timezone.make_aware(EVENING))
    chosen = preset(code)
    boards = {
        name: stats.leaderboard(SEASON, "points", admin_member, only, chosen)
        for name, only in (("all", stats.BoardFilter()), ("red", stats.BoardFilter(team="red")))
    }
    rescored = sorted(
        map(astuple, whatif.season_rescored(SEASON, ScoringScheme.objects.current(chosen)))
    )
    assert all(b.whatif and b.scheme and b.scheme.preset == chosen for b in boards.values())
    club = stats.leaderboard(SEASON, "points", admin_member)
    official_before = {row.member_id: (row.rank, row.points) for row in club.rows}

    season_is(code)
    analysis.analyses_rebuild()
    assert not stats.leaderboard(SEASON, "points", admin_member).whatif
    for name, only in (("all", stats.BoardFilter()), ("red", stats.BoardFilter(team="red"))):
        official = stats.leaderboard(SEASON, "points", admin_member, only)
        assert list(map(standing, official.rows)) == list(map(standing, boards[name].rows))
    stored = PlayerScore.objects.filter(whatif.in_season(SEASON)).values_list(
        "member_id",
        "role",
        "team",
        "won",
        "points",
        "bonus_points",
        "best_move_points",
        "penalty_points",
        "killed_first_night",
    )
    assert sorted(stored) == rescored
    assert all(
        (row.official_rank, row.official_points) == official_before[row.member_id]
        for row in boards["all"].rows
    )
    if code == "auto":  # the game's hands and votes were scored, not only the wins
        lines = {
            line["code"]
            for row in PlayerScore.objects.values_list("lines", flat=True)
            for line in row
        }
        assert {"red_hands_black", "red_nominates_red", "black_win_alive"} <= lines


def test_only_an_admin_sees_the_what_if_beside_the_official_table(admin_client_: Client) -> None:
    seed_history(games=6, members=16, seed=6, last_evening=timezone.make_aware(EVENING))
    url = f"/leaderboard/?season={SEASON.key}&preset=fiim"
    page = admin_client_.get(url).content.decode()
    assert "Что если" in page and "Официальное место" in page
    assert 'value="fiim" selected' in page and "&amp;preset=fiim&amp;sort=" in page
    visitor = Client().get(url).content.decode()
    assert "Что если" not in visitor and "Официальное место" not in visitor
    same = admin_client_.get(f"/leaderboard/?season={SEASON.key}&preset=club").content.decode()
    assert "Официальное место" not in same  # the season's own preset: the official table
    assert 'value="club"' not in same and 'value="fiim"' in same  # not offered as a what-if


def whatif_queries(client: Client, games: int, seed: int) -> int:
    season = Season(2024 - seed, 2)
    evening = datetime(season.first_day.year, 5, 14, 18, 0)
    seed_history(games=games, members=20, seed=seed, last_evening=timezone.make_aware(evening))
    Club.forget_cached()
    Club.current()
    with CaptureQueriesContext(connection) as captured:
        assert client.get(f"/leaderboard/?season={season.key}&preset=auto").status_code == 200
    return len(captured)


def test_the_what_if_runs_a_fixed_number_of_queries(admin_client_: Client) -> None:
    assert whatif_queries(admin_client_, 3, 1) == whatif_queries(admin_client_, 30, 2)


def test_the_api_names_the_seasons_preset_and_its_compensation() -> None:
    scores({"A1": killed_lost(1)})
    season_is("fiim")
    answer = Client().get(f"/api/v1/leaderboard?season={SEASON.key}").json()
    assert answer["preset"] == "fiim"
    assert [(row["nick"], row["ci"], row["points"]) for row in answer["rows"]] == [("A1", 0.4, 0.4)]


# --- admin -------------------------------------------------------------------------------


def test_an_admin_chooses_a_seasons_preset_and_the_games_are_scored_again(
    admin_client_: Client,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    queued: list[tuple[str, tuple[object, ...]]],
) -> None:
    fiim = preset("fiim")
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client_.post(
            "/admin/ratings/seasonpreset/add/",
            {"since": "2025-04-01", "preset": fiim.pk, "note": "The federation's season"},
        )
    assert response.status_code == 302
    row = SeasonPreset.objects.get()
    assert (row.preset, row.created_by is not None) == (fiim, True)
    assert queued == [("games.ratings.tasks.games_rescore", ())]
    with django_capture_on_commit_callbacks(execute=True):
        admin_client_.post(f"/admin/ratings/seasonpreset/{row.pk}/delete/", {"post": "yes"})
    assert not SeasonPreset.objects.exists() and len(queued) == 2


def test_a_presets_new_version_starts_from_that_presets_points(admin_client_: Client) -> None:
    fiim = preset("fiim")
    page = admin_client_.get(f"/admin/ratings/scoringscheme/add/?preset={fiim.pk}").content.decode()
    assert 'name="first_night_compensation" value="0.4"' in page
    assert 'value="extra, wins, key_role_wins, first_night_kills"' in page
    fields = Scheme.from_dict(PRESETS["fiim"].points).to_dict()
    fields["tie_breakers"] = "wins, luck"
    add = f"/admin/ratings/scoringscheme/add/?preset={fiim.pk}"
    refused = admin_client_.post(add, {"preset": fiim.pk, "note": "x", **fields})
    assert refused.status_code == 200 and "errornote" in refused.content.decode()
    fields["tie_breakers"] = "wins, extra"
    # Another preset named in the post changes nothing: the points are the page's preset's.
    club = preset("club")
    admin_client_.post(add, {"preset": club.pk, "note": "x", **fields})
    latest = ScoringScheme.objects.current(fiim)
    assert (latest.version, latest.scheme().tie_breakers) == (3, ("wins", "extra"))
    assert ScoringScheme.objects.current().preset.code == "club"  # «Клуб» untouched
    assert ScoringScheme.objects.filter(preset=club).count() == 1


def test_a_new_version_is_added_from_its_presets_page(admin_client_: Client) -> None:
    """Without a preset the add page asks which first: a form whose preset could be
    changed kept «Клуб»'s points under «ФИИМ»'s name."""
    chooser = admin_client_.get("/admin/ratings/scoringscheme/add/").content.decode()
    fiim = preset("fiim")
    assert f'href="?preset={fiim.pk}"' in chooser and 'name="win"' not in chooser
    page = admin_client_.get(f"/admin/ratings/scoringpreset/{fiim.pk}/change/").content.decode()
    assert f"/admin/ratings/scoringscheme/add/?preset={fiim.pk}" in page
    assert "ФИИМ, версия 1" in page


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("migration_rows")
def test_the_migration_fills_in_what_the_season_sums_on_stored_scores() -> None:
    from django.db.migrations.executor import MigrationExecutor

    seed_history(games=8, members=16, seed=7)
    facts = ("pk", "killed_first_night", "bonus_points", "best_move_points", "penalty_points")
    expected = sorted(PlayerScore.objects.values_list(*facts))
    assert any(row[1] for row in expected) and any(row[4] for row in expected)

    def migrate(targets: list[tuple[str, str]]) -> None:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(targets)

    # The columns are gone (and the apps built on the ratings with them: tournaments), then
    # everything is migrated forward again, as later tests in this process expect.
    migrate([("ratings", "0005_scoring_scheme_preset_required")])
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    assert sorted(PlayerScore.objects.values_list(*facts)) == expected


def test_extra_points_keep_to_the_bounds_of_the_games_seasons_preset(admin_member: User) -> None:
    from games.ratings import services

    game = seed_history(games=1, members=13, seed=4, last_evening=timezone.now()).games[0]
    fiim = preset("fiim")
    narrow = Scheme.from_dict({**PRESETS["fiim"].points, "bonus_min": -0.3, "bonus_max": 0.5})
    services.scheme_version_create(scheme=narrow, note="narrower", by=admin_member, preset=fiim)
    assert services.bonus_scheme(game).bonus_max == 1.0  # today's season is «Клуб»'s
    season_is("fiim", since=stats.current_season().first_day)
    bounds = services.bonus_scheme(game)
    assert (bounds.bonus_min, bounds.bonus_max) == (-0.3, 0.5)


def test_a_preset_that_scores_alike_still_names_itself_on_the_analysis() -> None:
    history = seed_history(games=2, members=16, seed=3, last_evening=timezone.make_aware(EVENING))
    alike = ScoringPreset.objects.create(code="alike", name="Как клуб")
    ScoringScheme.objects.create(preset=alike, version=1, points={})
    season_is("alike")
    assert sorted(analysis.analyses_rebuild()) == sorted(game.pk for game in history.games)
    built = GameAnalysis.objects.filter(game__in=history.games).select_related("scheme__preset")
    assert {a.scheme.preset.code for a in built} == {"alike"}
