"""The rating systems (games/rules/rating.py, games/ratings/systems.py), against numbers
worked by hand."""

import pytest

from games.ratings import systems
from games.rules import rating
from games.rules.rating import Played


def test_a_red_win_against_a_stronger_black_team_worked_by_hand() -> None:
    # Red's mean 1500, black's 1600: red's expected score is 1 / (1 + 10^(100/400)) = 0.3599,
    # so a red win moves every red player by 20 × (1 − 0.3599) = +12.80 and black by −12.80.
    changes = rating.match({"a": 1600, "b": 1500, "c": 1400}, {"x": 1550, "y": 1650}, "red")
    assert rating.expected(1500, 1600) == pytest.approx(0.35993, abs=1e-5)
    assert {p: round(c.after, 2) for p, c in changes.items()} == {
        "a": 1612.80,
        "b": 1512.80,
        "c": 1412.80,
        "x": 1537.20,
        "y": 1637.20,
    }


def test_a_loners_win_is_a_draw_between_red_and_black() -> None:
    changes = rating.match({"a": 1500}, {"x": 1600}, "maniac")
    # 20 × (0.5 − 0.3599) = +2.80 to red: the weaker side gains from a draw.
    assert round(changes["a"].after - 1500, 2) == 2.80
    assert round(changes["x"].after - 1600, 2) == -2.80


def test_the_replay_keeps_a_players_tracks_apart_and_skips_loners() -> None:
    rows = [
        # Game 1: p plays red and wins; q black; m is the maniac.
        Played(1, "g1", "p", "red", "red"),
        Played(2, "g1", "q", "black", "red"),
        Played(3, "g1", "m", "", "red"),
        # Game 2: p plays black now, starting from 1500 on that track, and wins.
        Played(4, "g2", "p", "black", "black"),
        Played(5, "g2", "q", "red", "black"),
    ]
    changes = rating.replay(rows)
    assert changes[1] == rating.Change(1500, 1510)
    assert changes[2] == rating.Change(1500, 1490)
    assert 3 not in changes
    # Game 2 is read against the club's base rate after game 1's red win, (1 + 1) / (1 + 2)
    # = ⅔ (before the base rate it was ½, and ±10): between equal tracks red's expected
    # score is ⅔, so black's win moves by 20 × ⅔ = 13.33.
    assert changes[4].before == 1500  # black track, untouched by game 1
    assert changes[4].after == pytest.approx(1500 + 40 / 3)
    assert changes[5].before == 1500  # q's red track, untouched by game 1
    assert changes[5].after == pytest.approx(1500 - 40 / 3)


# --- the club's base rate ---------------------------------------------------------------


def test_the_base_rate_worked_by_hand_for_elo() -> None:
    rows = [
        # Game 1: a (red) against b (black), both 1500: the base is ½ (no game yet, one win
        # and one loss added), E = ½; red wins: a 1510, b 1490.
        Played(1, "g1", "a", "red", "red"),
        Played(2, "g1", "b", "black", "red"),
        # Game 2: the same, red wins again. Elo's own chance 1 / (1 + 10^(−20/400)) =
        # 0.52876; the base (1 + 1) / (1 + 2) = ⅔; together in log-odds
        # logistic(ln 2 + logit(0.52876)) = 0.69174 (the forecast's figure,
        # test_forecast.py). a gains 20 × (1 − 0.69174) = 6.165, not Elo's 9.425.
        Played(3, "g2", "a", "red", "red"),
        Played(4, "g2", "b", "black", "red"),
        # Game 3: c (red) against d (black), new, equal: E is the base alone, (2 + 1) /
        # (2 + 2) = ¾. Black wins: c −20 × ¾ = −15, d +15 (Elo alone: ±10).
        Played(5, "g3", "c", "red", "black"),
        Played(6, "g3", "d", "black", "black"),
    ]
    assert rating.with_base(rating.expected(1510, 1490), 2 / 3) == pytest.approx(0.69174, abs=1e-5)
    changes = rating.replay(rows, rating.EloTracks())
    assert changes[1] == rating.Change(1500, 1510)
    assert changes[3].before == 1510
    assert changes[3].after == pytest.approx(1516.165, abs=1e-3)
    assert changes[4].after == pytest.approx(1483.835, abs=1e-3)
    assert changes[5].after == pytest.approx(1485.0)
    assert changes[6].after == pytest.approx(1515.0)
    # Without it (as the systems were): E is Elo's alone.
    plain = rating.replay(rows, rating.EloTracks(base_rate=False))
    assert plain[3].after == pytest.approx(1519.425, abs=1e-3)
    assert plain[5].after == pytest.approx(1490.0) and plain[6].after == pytest.approx(1510.0)


def test_the_base_rate_counts_only_games_between_two_rated_sides() -> None:
    base = rating.BaseRate()
    assert base.red == 0.5
    base.record("red")
    base.record("maniac")  # a loner's win is neither side's
    assert base.red == pytest.approx(2 / 3)
    base.record("black")
    assert base.red == pytest.approx(0.5) and base.decided == 2
    # A game with a side of guests only (no rated black) does not move it.
    elo = rating.EloTracks()
    rating.replay([Played(1, "g", "a", "red", "red")], elo)
    assert elo.base.decided == 0


def test_the_base_rate_offsets_openskills_red_team_worked_by_hand() -> None:
    # Game 1: two against two, all new, red wins (as the worked example below: ±1.70114).
    # Game 2: two more against two more, all new: the teams are equal, but the base is now
    # ⅔, so red plays c × logit(⅔) = 10.2066 × ln 2 = 7.0747 above its mean and its chance
    # is ⅔. Black wins: each black player's μ rises by (1 − ⅓) × 34.7257 / 10.2066 =
    # 2.26819 and each red player's falls by ⅔ × 3.40229 = 2.26819 (without the base rate:
    # ½ × 3.40229 = 1.70114, as in game 1).
    rows = [
        *(Played(n, "g1", p, t, "red") for n, p, t in ((1, "a", "red"), (2, "b", "red"))),
        *(Played(n, "g1", p, t, "red") for n, p, t in ((3, "c", "black"), (4, "d", "black"))),
        *(Played(n, "g2", p, t, "black") for n, p, t in ((5, "e", "red"), (6, "f", "red"))),
        *(Played(n, "g2", p, t, "black") for n, p, t in ((7, "g", "black"), (8, "h", "black"))),
    ]
    fold = systems.OpenSkill(weighted=False)
    rating.replay(rows, fold)
    new = [systems.Skill()] * 2
    assert systems.red_offset(new, new, 2 / 3) == pytest.approx(7.0747, abs=1e-4)
    assert fold.skills["a"].mu == pytest.approx(25 + 1.70114, abs=1e-5)
    assert fold.skills["e"].mu == pytest.approx(25 - 2.26819, abs=1e-5)
    assert fold.skills["g"].mu == pytest.approx(25 + 2.26819, abs=1e-5)
    plain = systems.OpenSkill(weighted=False, base_rate=False)
    rating.replay(rows, plain)
    assert plain.skills["g"].mu == pytest.approx(25 + 1.70114, abs=1e-5)
    # The offset is the game's: the chance it gives is the base rate, between equals.
    assert systems.OpenSkill().red_chance(rows[4:]) == pytest.approx(0.5)


# --- mafiaratings' non-zero-sum Elo ---------------------------------------------------


def test_non_zero_sum_elo_worked_by_hand_on_mafiaratings_own_example() -> None:
    # mafiaratings' rating page: mafia 784 + 664 + 608, civilians 711 … 506 (sum 4000):
    # E(red) = 1 / (1 + 10^((685.33 − 571.43) / 400)) = 0.3417. A club game of ten or more
    # players: Kw = 4, Kl = 3.
    red = dict(zip("abcdefg", [711.0, 628, 557, 554, 525, 519, 506], strict=True))
    black = {"x": 784.0, "y": 664.0, "z": 608.0}
    assert rating.expected(4000 / 7, 2056 / 3) == pytest.approx(0.34171, abs=1e-5)
    assert rating.nonzero_sum_k(rating.CLUB, 10) == (4.0, 3.0)
    won = rating.nonzero_sum_match(red, black, "red", 4, 3)
    # Red wins: red +4 × (1 − 0.3417) = +2.633 each, black −3 × (1 − 0.3417) = −1.975 each.
    assert round(won["a"], 3) == round(won["g"], 3) == 2.633
    assert round(won["x"], 3) == round(won["z"], 3) == -1.975
    lost = rating.nonzero_sum_match(red, black, "black", 4, 3)
    # Black wins: black +4 × 0.3417 = +1.367, red −3 × 0.3417 = −1.025: the sum is not 0.
    assert round(lost["x"], 3) == 1.367 and round(lost["a"], 3) == -1.025
    # A loner's win: both sides lost, each by Kl × its own chance.
    alone = rating.nonzero_sum_match(red, black, "maniac", 4, 3)
    assert round(alone["a"], 3) == -1.025 and round(alone["x"], 3) == -1.975


def test_non_zero_sum_k_by_the_kind_of_game_and_the_tables_size() -> None:
    assert rating.nonzero_sum_k(rating.TOURNAMENT, 12) == (16.0, 12.0)
    assert rating.nonzero_sum_k(rating.ELITE, 10) == (64.0, 48.0)
    assert rating.nonzero_sum_k(rating.CLUB, 9) == (2.0, 1.5)  # under ten: half
    assert rating.nonzero_sum_k(rating.TOURNAMENT, 8) == (8.0, 6.0)
    assert rating.nonzero_sum_k("nonsense", 12) == (4.0, 3.0)  # an unknown kind: a club game


def test_the_non_zero_sum_replay_sums_both_tracks_and_reads_chances_off_each() -> None:
    rows = [
        # Game 1, ten seats: p red wins against q black, all from 0: E = ½, +2 and −1.5.
        Played(1, "g1", "p", "red", "red", seats=10),
        Played(2, "g1", "q", "black", "red", seats=10),
        Played(3, "g1", "m", "", "red", seats=10),
        # Game 2: p plays black (track 0) against r red (track 0), though p's one rating is
        # 2 by now. Equal tracks, but the base rate after game 1's red win is ⅔ (one win
        # and one loss added), so red's chance E = ⅔ (before the base rate: ½, +2 and
        # −1.5). p wins: +4 × (1 − ⅓) = +2.667, to 4.667 in all; r loses 3 × ⅔ = 2.
        Played(4, "g2", "p", "black", "black", seats=10),
        Played(5, "g2", "r", "red", "black", seats=10),
    ]
    changes = rating.replay(rows, rating.NonZeroSumElo())
    assert changes[1] == rating.Change(0, 2)
    assert changes[2] == rating.Change(0, -1.5)
    assert changes[3] == rating.Change(0, 0)  # a loner keeps its rating
    assert changes[4].before == 2 and changes[4].after == pytest.approx(2 + 8 / 3)
    assert changes[5].before == 0 and changes[5].after == pytest.approx(-2)
    plain = rating.replay(rows, rating.NonZeroSumElo(base_rate=False))
    assert plain[4] == rating.Change(2, 4) and plain[5] == rating.Change(0, -1.5)


def test_a_small_table_moves_the_non_zero_sum_rating_half_as_much() -> None:
    rows = [Played(1, "g", "p", "red", "red"), Played(2, "g", "q", "black", "red")]
    changes = rating.replay(rows, rating.NonZeroSumElo())  # two rows, no seat count: 2 < 10
    assert changes[1] == rating.Change(0, 1)
    assert changes[2] == rating.Change(0, -0.75)


# --- OpenSkill --------------------------------------------------------------------------


def two_against_two(points: tuple[float, float, float, float]) -> list[Played]:
    a, b, x, y = points
    return [
        Played(1, "g", "a", "red", "red", True, a),
        Played(2, "g", "b", "red", "red", True, b),
        Played(3, "g", "x", "black", "red", False, x),
        Played(4, "g", "y", "black", "red", False, y),
    ]


def test_openskill_worked_by_hand_two_against_two() -> None:
    # Everyone at mu 25, sigma 25/3; tau 25/300 first: sigma² = 69.4514. A team plays as its
    # mean: sigma_t² = 69.4514 / 2 = 34.7257; c = √(2 × (34.7257 + (25/6)²)) = 10.2066; each
    # side's chance ½. The winners' Ω = ½ × 34.7257 / 10.2066 = 1.70114, and a player's
    # share of its team's mean, ½ × 69.4514 / 34.7257 = 1: mu 25 + 1.70114. Δ = ¼ × 34.7257
    # / 10.2066² × γ (√34.7257 / 10.2066 = 0.57736) = 0.048116; sigma × √(1 − ½ × Δ) =
    # 8.33375 × 0.98790 = 8.23290. The losers lose as much. Ordinal: mu − 3 sigma.
    changes = rating.replay(two_against_two((1.0, 1.0, 0.0, 0.0)), systems.OpenSkill())
    won = systems.Skill(25 + 1.70114, 8.23290).ordinal
    lost = systems.Skill(25 - 1.70114, 8.23290).ordinal
    assert won == pytest.approx(2.0025, abs=1e-4) and lost == pytest.approx(-1.3998, abs=1e-4)
    assert changes[1].before == 0.0  # a newcomer: 25 − 3 × 25/3
    assert changes[1].after == pytest.approx(won, abs=1e-4)
    assert changes[2].after == pytest.approx(won, abs=1e-4)
    assert changes[3].after == pytest.approx(lost, abs=1e-4)


def test_openskill_weighs_a_players_share_by_their_game_points() -> None:
    # a scored 1.4 and b 1.0: a weighs 2, b 1; a's gain doubles (mu +3.40229) and sigma
    # narrows by √(1 − ½ × 0.048116 × 2). Of the losers x (0.3) weighs 2 and y (0) 1: x's
    # loss is halved (mu −0.85057) and sigma narrows by √(1 − ½ × 0.048116 / 2).
    fold = systems.OpenSkill()
    rating.replay(two_against_two((1.4, 1.0, 0.3, 0.0)), fold)
    assert fold.skills["a"].mu == pytest.approx(28.40230, abs=1e-4)
    assert fold.skills["a"].sigma == pytest.approx(8.13079, abs=1e-4)
    assert fold.skills["b"].mu == pytest.approx(26.70115, abs=1e-4)
    assert fold.skills["x"].mu == pytest.approx(24.14943, abs=1e-4)
    assert fold.skills["x"].sigma == pytest.approx(8.28348, abs=1e-4)
    assert fold.skills["y"].mu == pytest.approx(23.29885, abs=1e-4)
    assert systems.weights([1.4, 1.0, 1.2]) == pytest.approx([2.0, 1.0, 1.5])
    assert systems.weights([0.3, 0.3]) == [1.0, 1.0]


def table(winner: str, loner_won: bool) -> list[Played]:
    rows = [Played(n, "g", f"r{n}", "red", winner, winner == "red") for n in range(1, 11)]
    rows += [Played(n, "g", f"b{n}", "black", winner, winner == "black") for n in range(11, 14)]
    return [*rows, Played(14, "g", "m", "", winner, loner_won)]


def test_openskill_rates_a_team_at_its_mean_not_the_packages_sum() -> None:
    # Ten red against three black, all new. Summed, red is the near-certain winner (mu 250
    # against 75): a red win is worth almost nothing, a black win hundreds of times more. At
    # the mean the sides are even.
    mean = rating.replay(table("red", False), systems.OpenSkill())
    summed = rating.replay(table("red", False), systems.OpenSkill(summed=True))
    assert mean[1].after > 0.3 and summed[1].after < 0.05
    assert mean[11].after < 0 and mean[14] == rating.Change(0.0, 0.0)  # a losing loner
    black_won = rating.replay(table("black", False), systems.OpenSkill(summed=True))
    assert black_won[11].after > 100 * summed[1].after


def test_a_loner_who_wins_alone_is_a_team_ranked_above_red_and_black() -> None:
    changes = rating.replay(table("maniac", True), systems.OpenSkill())
    assert changes[14].after > 0  # the maniac's team of one won
    assert changes[1].after < 0 and changes[11].after < 0  # red and black both lost


def test_a_guest_loners_win_leaves_red_and_black_level() -> None:
    # The maniac was a guest (no row): nobody rated won, so neither side beats the other.
    rows = [row for row in table("maniac", True) if row.track]
    teams, ranks = systems.match(rows)
    assert [len(team) for team in teams] == [10, 3] and ranks == [1, 1]
    fold = systems.OpenSkill()
    rating.replay(rows, fold)
    assert fold.skills["r1"].mu == fold.skills["b11"].mu == 25.0  # a draw between equals
    assert fold.skills["r1"].sigma < systems.SIGMA  # though the game was seen


def test_the_system_the_club_chooses_gives_its_fold() -> None:
    assert isinstance(systems.rater(rating.ELO_TRACKS), rating.EloTracks)
    assert isinstance(systems.rater(rating.ELO_NONZERO_SUM), rating.NonZeroSumElo)
    weighted, plain = systems.rater(rating.OPENSKILL), systems.rater(rating.OPENSKILL_PLAIN)
    assert isinstance(weighted, systems.OpenSkill) and weighted.weighted
    assert isinstance(plain, systems.OpenSkill) and not plain.weighted
    assert rating.shown(rating.ELO_TRACKS) == ("red", "black")
    assert rating.shown(rating.OPENSKILL) == ("overall",)
