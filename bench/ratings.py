"""Which rating finds the best players: seasons of a club simulated with hidden skills,
folded through each rating system the club may choose (docs/scoring.md «Rating»).

The club: 40 members, each with a hidden skill drawn from a standard normal; 3 games a week,
each at a table of 12–15 drawn at random from the 40, the roles dealt as the club deals
them (games.rules.simulate.random_lineup: a quarter black with the boss, the commissar and
the doctor, a maniac, нагнетатель and kamikaze now and then, civilians for the rest).

A game's result: each loner dealt wins alone with chance 8% + 4% per unit of its skill
(clipped to 1–30%); otherwise red wins with chance logistic(logit(RED_WINS) + SKILL_EFFECT
× (red's mean skill − black's mean skill)). So skill raises the chance that one's team wins,
through the team's mean, as the systems assume.

A game's points, from the scoring lines in a simple way (only `openskill` reads them):
a player's read q = 25% + 10% per unit of skill (clipped to 2–90%) is the chance that a
call of theirs lands on a black player (a quarter of the table is black).
- every winner +1 (a loner's win alone +1.5), as the club's lines;
- every red player makes two calls by day (a nomination or a vote): +0.2 for each on a
  black (`red_nominates_black`); the commissar also checks twice: +0.3 for each black
  found (`check_found_black`); the doctor saves with chance 10% + 5% per unit of skill on
  each of two nights: +0.4 a save (`doctor_save`);
- black kills the commissar or the doctor with chance 30% + 10% per unit of black's mean
  skill: +0.3 to every black player (`black_kills_key_red`);
- the first night's victim (a red player at random) names three seats as their best move
  (ЛХ), each black with chance q: 2 of 3 +0.25, 3 of 3 +0.4 (ФИИМ's lines);
- a removal with chance 4% − 2% per unit of skill (at least 0): −0.5.

Deterministic from its seeds; the figures are averaged over SEEDS clubs. After 10, 30 and 100
games per player (the mean over the 40: 10 games each is about 10 weeks at this pace) it
takes each system's shown rating (`elo_tracks`: the mean of a player's two tracks, each from
1500), and measures the Spearman correlation of the ratings with the hidden skills, and the
share of the true top 5 among the rating's top 5. The best system is the one with the
highest Spearman correlation averaged over the three moments.

Two columns, from the same draws: `points_follow_skill` (the lines above) and
`points_independent` (every points line drawn as for a player of average skill, so the
points say nothing of skill). Weighting OpenSkill by the points can only help in the first;
what holds in both is what the default rests on. Each system's foresight of red wins, the
held-out measure the admins read on their own games (games/rules/forecast.py), is printed
beside it: `log_loss` over each club's games and its `gain` on the base rate alone.

A third column, `black_wins_more`, measures the club's base rate (games/rules/rating.BaseRate,
which every system reads a game against): black wins 55% between equal teams (RED_WINS
0.45), and half the members (the even numbers, whatever their skill) are dealt black more
often (each black card goes to one of them at the table with chance LEAN), so some players
play black far more than others, as a club's regular mafiosi do. Each system runs with the
base rate and without it (`…_no_base`, the systems as they were), and beside the Spearman
it prints `black_lean_gap`: how far above the others the black-leaning members are rated,
in standard deviations of the ratings, at equal skill (the coefficient of a least-squares
fit of the rating on the skill and the leaning; 0 is no bias). OpenSkill's shown rating is
μ − 3σ, and a black player, one of a team of three or four, is learnt about faster than a
red one of ten (a smaller σ): `black_lean_gap_mu` is the same fit on μ alone, the skill the
system believes, without that certainty.

Prints one JSON line. Run: uv run python bench/ratings.py [SEEDS]
"""

from __future__ import annotations

import json
import math
import random
import sys
import time
from collections.abc import Callable, Hashable, Iterable, Sequence
from functools import partial
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.ratings import systems
from games.ratings.systems import OpenSkill
from games.rules import rating
from games.rules.forecast import Forecast, Tally
from games.rules.rating import Played, Rater
from games.rules.roles import CLUB_ROLES, Team
from games.rules.simulate import random_lineup

PLAYERS = 40
GAMES_A_WEEK = 3
SEATS = (12, 15)
CHECKPOINTS = (10, 30, 100)  # games per player
SEEDS = 100
TOP = 5
RED_WINS = 0.55  # red's share of wins between teams of equal skill
BLACK_HEAVY_RED_WINS = 0.45  # the third column's: black wins 55% between equals
LEAN = 0.5  # the third column: the chance a black card goes to a black-leaning member
SKILL_EFFECT = 1.0  # log-odds of a red win per unit of mean skill difference
SYSTEMS = rating.SYSTEMS
# What the club's choices are measured against (not a choice itself): OpenSkill with the
# package's summed teams instead of the mean.
VARIANTS = ("openskill_summed",)


def clip(value: float, low: float, high: float) -> float:
    return min(high, max(low, value))


def logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def read(skill: float) -> float:
    """The chance that a player's call (a nomination, a vote, a check, a ЛХ seat) is black."""
    return clip(0.25 + 0.10 * skill, 0.02, 0.90)


def hits(rng: random.Random, tries: int, chance: float) -> int:
    return sum(rng.random() < chance for _ in range(tries))


def leaning(player: int) -> bool:
    """The third column's black-leaning members: the even numbers (skills are drawn
    independently of the numbers)."""
    return player % 2 == 0


def play(
    rng: random.Random,
    skills: Sequence[float],
    number: int,
    *,
    points_follow_skill: bool,
    red_wins: float = RED_WINS,
    lean: bool = False,
) -> list[Played]:
    """One game at the club's table: its rows, as the replay reads them. Unless
    `points_follow_skill`, the points' lines are drawn as for a player of average skill
    (the same draws, so the two columns differ by the assumption only). `lean`: each black
    card goes to a black-leaning member at the table with chance LEAN."""
    table = rng.sample(range(PLAYERS), rng.randint(*SEATS))
    dealt = random_lineup(rng, len(table))
    if lean:
        for seat, code in dealt.items():
            if CLUB_ROLES[code].team != Team.BLACK or rng.random() >= LEAN:
                continue
            # A leaning member not yet holding a black card takes this one.
            free = [
                n
                for n, player in enumerate(table, start=1)
                if leaning(player) and CLUB_ROLES[dealt[n]].team != Team.BLACK
            ]
            if free:
                other = rng.choice(free) - 1
                table[seat - 1], table[other] = table[other], table[seat - 1]
    seats = {player: CLUB_ROLES[dealt[n]] for n, player in enumerate(table, start=1)}
    red = [p for p, role in seats.items() if role.team == Team.RED]
    black = [p for p, role in seats.items() if role.team == Team.BLACK]
    winner = ""
    for player, role in seats.items():
        if role.team == Team.LONER and rng.random() < clip(0.08 + 0.04 * skills[player], 0.01, 0.3):
            winner = role.code
            break
    if not winner:
        gap = float(np.mean([skills[p] for p in red]) - np.mean([skills[p] for p in black]))
        chance = logistic(math.log(red_wins / (1 - red_wins)) + SKILL_EFFECT * gap)
        winner = rating.RED if rng.random() < chance else rating.BLACK

    talent = list(skills) if points_follow_skill else [0.0] * len(skills)
    points = dict.fromkeys(seats, 0.0)
    for player, role in seats.items():
        if role.code == winner:
            points[player] += 1.5
        elif role.team.value == winner:
            points[player] += 1.0
    for player in red:
        q = read(talent[player])
        points[player] += 0.2 * hits(rng, 2, q)
        if seats[player].code == "commissar":
            points[player] += 0.3 * hits(rng, 2, q)
        if seats[player].code == "doctor":
            points[player] += 0.4 * hits(rng, 2, clip(0.10 + 0.05 * talent[player], 0.0, 0.5))
    black_skill = float(np.mean([talent[p] for p in black]))
    if rng.random() < clip(0.30 + 0.10 * black_skill, 0.05, 0.9):
        for player in black:
            points[player] += 0.3
    victim = rng.choice(red)
    named = hits(rng, 3, read(talent[victim]))
    points[victim] += {2: 0.25, 3: 0.4}.get(named, 0.0)
    for player in seats:
        if rng.random() < clip(0.04 - 0.02 * talent[player], 0.0, 1.0):
            points[player] -= 0.5

    return [
        Played(
            key=(number, player),
            game=number,
            player=player,
            track=role.team.value if role.team != Team.LONER else "",
            winner=winner,
            won=role.code == winner or role.team.value == winner,
            points=round(points[player], 2),
            seats=len(table),
        )
        for player, role in seats.items()
    ]


def shown(rater: Rater, player: Hashable) -> float:
    """The one number a system ranks a player by."""
    if isinstance(rater, rating.EloTracks):
        tracks = rating.shown(rating.ELO_TRACKS)
        return sum(rater.ratings.get((player, t), rating.INITIAL) for t in tracks) / 2
    if isinstance(rater, rating.NonZeroSumElo):
        return rater.overall.get(player, rating.NONZERO_SUM_INITIAL)
    assert isinstance(rater, OpenSkill)
    skill = rater.skills.get(player)
    return skill.ordinal if skill is not None else 0.0


def believed(rater: Rater, player: Hashable) -> float:
    """OpenSkill's μ (the skill it believes, without its certainty); another system's shown
    rating."""
    if isinstance(rater, OpenSkill):
        skill = rater.skills.get(player)
        return skill.mu if skill is not None else systems.MU
    return shown(rater, player)


def ranks(values: Sequence[float]) -> np.ndarray:
    """Ranks from 1, ties sharing their mean rank (as Spearman's correlation needs)."""
    array = np.asarray(values, dtype=float)
    order = np.argsort(array, kind="stable")
    result = np.empty(len(array))
    sorted_values = array[order]
    start = 0
    while start < len(array):
        end = start
        while end + 1 < len(array) and sorted_values[end + 1] == sorted_values[start]:
            end += 1
        result[order[start : end + 1]] = (start + end) / 2 + 1
        start = end + 1
    return result


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    ra, rb = ranks(a), ranks(b)
    if ra.std() == 0 or rb.std() == 0:
        return 0.0
    return float(np.corrcoef(ra, rb)[0, 1])


def top_share(ratings: Sequence[float], skills: Sequence[float]) -> float:
    best = set(np.argsort(skills)[-TOP:].tolist())
    # Ties at the cut are broken by the player's number, never by the skill they hide.
    chosen = sorted(range(len(ratings)), key=lambda p: (-ratings[p], p))[:TOP]
    return len(best & set(chosen)) / TOP


def raters() -> dict[str, Callable[[], Rater]]:
    return {
        **{name: partial(systems.rater, name) for name in SYSTEMS},
        "openskill_summed": lambda: OpenSkill(summed=True),
    }


def base_rate_raters() -> dict[str, Callable[[], Rater]]:
    """Each system with the club's base rate (as the club runs it) and without."""
    return {
        **{name: partial(systems.rater, name) for name in SYSTEMS},
        **{f"{name}_no_base": partial(systems.rater, name, base_rate=False) for name in SYSTEMS},
    }


def lean_gap(ratings: Sequence[float], skills: Sequence[float]) -> float:
    """How far above the others the black-leaning members are rated, in standard deviations
    of the ratings, at equal skill: least squares of the rating on (1, skill, leaning)."""
    values = np.asarray(ratings, dtype=float)
    if values.std() == 0:
        return 0.0
    z = (values - values.mean()) / values.std()
    design = np.column_stack(
        [np.ones(PLAYERS), np.asarray(skills), [float(leaning(p)) for p in range(PLAYERS)]]
    )
    coefficients, *_rest = np.linalg.lstsq(design, z, rcond=None)
    return float(coefficients[2])


# Per system: (Spearman, top-5 share, the black-leaning gap of the shown rating and of
# OpenSkill's μ) at each checkpoint, and its foresight of red wins.
type Run = tuple[dict[str, dict[int, tuple[float, float, float, float]]], dict[str, Forecast]]


def club(
    seed: int,
    *,
    points_follow_skill: bool,
    black_heavy: bool = False,
) -> Run:
    """One simulated club, folded through every system (`black_heavy`: the third column's
    club, each system with and without the base rate)."""
    rng = random.Random(seed)
    skills = [rng.gauss(0.0, 1.0) for _ in range(PLAYERS)]
    makers = base_rate_raters() if black_heavy else raters()
    folds = {name: make() for name, make in makers.items()}
    tallies = {name: Tally() for name in folds}
    found: dict[str, dict[int, tuple[float, float, float, float]]] = {name: {} for name in folds}
    seats = games = 0
    for checkpoint in CHECKPOINTS:
        while seats < checkpoint * PLAYERS:
            rows = play(
                rng,
                skills,
                games,
                points_follow_skill=points_follow_skill,
                red_wins=BLACK_HEAVY_RED_WINS if black_heavy else RED_WINS,
                lean=black_heavy,
            )
            games += 1
            seats += len(rows)
            for name, fold in folds.items():
                tallies[name].foresee(rows, fold)
                fold.rate(rows)
        for name, fold in folds.items():
            shown_ratings = [shown(fold, p) for p in range(PLAYERS)]
            found[name][checkpoint] = (
                spearman(shown_ratings, skills),
                top_share(shown_ratings, skills),
                lean_gap(shown_ratings, skills),
                lean_gap([believed(fold, p) for p in range(PLAYERS)], skills),
            )
    return found, {name: tally.result() for name, tally in tallies.items()}


def summary(runs: Sequence[Run], name: str, *, lean: bool = False) -> dict[str, object]:
    def mean(values: Iterable[float]) -> float:
        return round(float(np.mean(list(values))), 3)

    return {
        "spearman": {str(c): mean(run[0][name][c][0] for run in runs) for c in CHECKPOINTS},
        "spearman_sd": {
            str(c): round(float(np.std([run[0][name][c][0] for run in runs])), 3)
            for c in CHECKPOINTS
        },
        "top5": {str(c): mean(run[0][name][c][1] for run in runs) for c in CHECKPOINTS},
        # Only the third column's clubs have black-leaning members.
        **({"black_lean_gap": lean_gaps(runs, name, 2)} if lean else {}),
        **({"black_lean_gap_mu": lean_gaps(runs, name, 3)} if lean and "openskill" in name else {}),
        # The held-out measure the admin reads on the club's own games (games/rules/
        # forecast.py): the mean log-loss of «red wins» and how much the ratings gain on the
        # base rate alone, over each club's 100 games per player.
        "log_loss": round(float(np.mean([run[1][name].log_loss for run in runs])), 4),
        "gain": round(float(np.mean([run[1][name].gain for run in runs])), 4),
    }


def column(seeds: int, *, points_follow_skill: bool) -> dict[str, object]:
    runs = [club(20261300 + seed, points_follow_skill=points_follow_skill) for seed in range(seeds)]
    systems = {name: summary(runs, name) for name in SYSTEMS}
    return {
        "systems": systems,
        "variants": {name: summary(runs, name) for name in VARIANTS},
        "best": max(
            SYSTEMS,
            key=lambda name: sum(runs_spearman(systems[name])),
        ),
    }


def lean_gaps(runs: Sequence[Run], name: str, which: int) -> dict[str, float]:
    return {
        str(c): round(float(np.mean([run[0][name][c][which] for run in runs])), 3)
        for c in CHECKPOINTS
    }


def black_heavy_column(seeds: int) -> dict[str, object]:
    runs = [
        club(20261300 + seed, points_follow_skill=True, black_heavy=True) for seed in range(seeds)
    ]
    return {name: summary(runs, name, lean=True) for name in base_rate_raters()}


def runs_spearman(figures: dict[str, object]) -> list[float]:
    spearman_at = figures["spearman"]
    assert isinstance(spearman_at, dict)
    return list(spearman_at.values())


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else SEEDS
    started = time.perf_counter()
    weeks = {str(c): round(c * PLAYERS / (sum(SEATS) / 2) / GAMES_A_WEEK, 1) for c in CHECKPOINTS}
    print(
        json.dumps(
            {
                "players": PLAYERS,
                "seeds": seeds,
                "weeks": weeks,
                # The two columns: points that follow skill (the scoring lines reward what
                # skill does) and points drawn as for an average player (they say nothing).
                "points_follow_skill": column(seeds, points_follow_skill=True),
                "points_independent": column(seeds, points_follow_skill=False),
                # Black wins 55% between equals, and half the members play black more
                # often: each system with the club's base rate and without.
                "black_wins_more": black_heavy_column(seeds),
                "seconds": round(time.perf_counter() - started, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
