"""The rating system the club chose, as the replay folds it (docs/scoring.md «Rating»).

The two Elo systems are pure Python beside the rules (games/rules/rating.py); OpenSkill is
here because it stands on the `openskill` package, which the phone's engine does not carry.
No Django here either: the bench (bench/ratings.py) folds simulated seasons through it.

OpenSkill, as the club plays it:

- A game is red against black, ranked by who won (red 1, black 2, or the other way round).
  A loner (maniac, нагнетатель) who wins alone is a team of its own ranked first, red and
  black tied behind it; a loner who does not win is in no match and keeps its rating, as
  under Elo (the card deals a loner a long chance, which a rating should not charge). A
  guest loner's win leaves red and black level (no rated winner to rank above them).
- A team is rated at its players' mean, not the package's sum: mafia's sides are ten
  against three by design, and summed skills make red the near-certain winner of every
  game (a red win then moves a rating by a hundredth of a point, a black win by two).
  The package gets every player's mu and sigma divided by the team's size, which is the
  exact Weng-Lin update for a team whose performance is its mean (see `_rate`).
- Under `openskill` (not `openskill_plain`, the default, which rates by wins alone), game
  points weigh a player's share of the team's update, as Polemica's community does:
  within a team, the player with the most points gets weight 2, the fewest weight 1, the
  rest between (the package's own bounds); a winner's gain is multiplied by the weight and a
  loser's loss divided by it, so good play gains more in a win and loses less in a defeat.
  A team whose players scored alike weighs everyone 1; a game with a team of one (a
  loner's win) is rated without weights, since the package weighs a lone player 2.
- The rating shown is the package's ordinal, mu − 3·sigma: 0 for a newcomer (25 − 3 × 25/3),
  rising as the games both raise mu and narrow sigma.
- The club's base rate (games/rules/rating.BaseRate: red's share of the decided games so
  far) is an offset of red's performance: the model's chance that red beats black is
  logistic((mu_red − mu_black) / c), so red's team plays at c × logit(base) above its mean,
  and between equal teams red is expected to win at the base rate, not at ½ (as Elo's
  expected score is shifted in log-odds). A black win where black wins more often then
  teaches less about the black players. Only a game of red against black is offset (a
  loner's win alone ranks a third team, whose performance has no base rate); the offset
  is the game's, not a player's: it leaves no trace in their skill.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from games.rules import rating
from games.rules.rating import BLACK, RED, Change, Played, Rater

MU = 25.0
SIGMA = MU / 3
BETA = MU / 6
TAU = MU / 300  # the package's defaults
Z = 3.0  # the ordinal: mu − Z·sigma


@dataclass(frozen=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        return self.mu - Z * self.sigma


# tau=0: the dynamics are added here, on the unscaled sigma, before a game (see `_rate`).
# The package scales each team's weights to its bounds, 1 to 2: `weights` gives them so.
_MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=0.0)


def weights(points: Sequence[float]) -> list[float]:
    """A team's players' weights from their game points: 1 for the fewest, 2 for the most."""
    low, high = min(points), max(points)
    if high - low < 1e-9:
        return [1.0] * len(points)
    return [1.0 + (p - low) / (high - low) for p in points]


def _rate(
    teams: Sequence[Sequence[Skill]],
    ranks: Sequence[int],
    team_weights: Sequence[Sequence[float]] | None = None,
    *,
    summed: bool = False,
    offsets: Sequence[float] | None = None,
) -> list[list[Skill]]:
    """The teams' skills after one game (lower rank: better), by the package's
    Plackett-Luce model. Unless `summed`, each team plays as its mean: the package sums a
    team's mu and sigma², so a player enters as (mu/n, sigma/n), and the package's change
    of that entry, times n, is the player's change under a mean (the update of a player
    scales by their coefficient in the team's performance). `offsets`: added to each team's
    performance (the base rate's), spread over its entries and taken off again after."""
    with_tau = [[Skill(s.mu, (s.sigma**2 + TAU**2) ** 0.5) for s in team] for team in teams]
    scale = [1.0 if summed else float(len(team)) for team in with_tau]
    shift = [
        (offset / len(team) if team else 0.0)
        for team, offset in zip(with_tau, offsets or [0.0] * len(with_tau), strict=True)
    ]
    entries = [
        [_MODEL.rating(mu=s.mu / n + d, sigma=s.sigma / n) for s in team]
        for team, n, d in zip(with_tau, scale, shift, strict=True)
    ]
    rated = _MODEL.rate(
        entries,
        ranks=[float(rank) for rank in ranks],
        weights=[list(w) for w in team_weights] if team_weights is not None else None,
    )
    return [
        [Skill((entry.mu - d) * n, entry.sigma * n) for entry in team]
        for team, n, d in zip(rated, scale, shift, strict=True)
    ]


class OpenSkill:
    """`openskill` as a `Rater` for games/rules/rating.replay. `weighted=False` is
    `openskill_plain`; `summed=True` and `base_rate=False` are the bench's variants (what
    the club's choices are measured against)."""

    def __init__(
        self, *, weighted: bool = True, summed: bool = False, base_rate: bool = True
    ) -> None:
        self.weighted = weighted
        self.summed = summed
        self.base_rate = base_rate
        self.base = rating.BaseRate()
        self.skills: dict[Hashable, Skill] = {}

    def rate(self, game: Sequence[Played]) -> dict[Hashable, Change]:
        teams, ranks = match(game)
        before = {row.key: self.skills.get(row.player, Skill()) for row in game}
        if teams:
            weighted = self.weighted and all(len(team) > 1 for team in teams)
            table = [[before[row.key] for row in team] for team in teams]
            offsets = None
            if len(teams) == 2 and self.base_rate:  # red against black
                offsets = [red_offset(table[0], table[1], self.base.red, summed=self.summed)]
                offsets.append(0.0)
            after = _rate(
                table,
                ranks,
                [weights([row.points for row in team]) for team in teams] if weighted else None,
                summed=self.summed,
                offsets=offsets,
            )
            if len(teams) == 2:
                self.base.record(game[0].winner)
            for team, skills in zip(teams, after, strict=True):
                for row, skill in zip(team, skills, strict=True):
                    self.skills[row.player] = skill
        rated = {row.key for team in teams for row in team}
        return {
            row.key: Change(
                before[row.key].ordinal,
                self.skills[row.player].ordinal if row.key in rated else before[row.key].ordinal,
            )
            for row in game
        }

    def red_chance(self, game: Sequence[Played]) -> float | None:
        """Red's chance to perform better than black by the model the ratings are updated
        with (Plackett-Luce: the logistic of the gap of the teams' performances over c,
        where c² sums each team's variance and β² per team); None when a side is unrated."""
        red = [self.skills.get(row.player, Skill()) for row in game if row.track == RED]
        black = [self.skills.get(row.player, Skill()) for row in game if row.track == BLACK]
        if not red or not black:
            return None
        (red_mu, red_var), (black_mu, black_var) = (
            _performance(team, summed=self.summed) for team in (red, black)
        )
        gap = (red_mu - black_mu) / math.sqrt(red_var + black_var + 2 * BETA**2)
        return 1.0 / (1.0 + math.exp(-gap))


def red_offset(
    red: Sequence[Skill], black: Sequence[Skill], base: float, *, summed: bool = False
) -> float:
    """How far above its mean red's team performs when red wins `base` of the games between
    equals: c × logit(base), so that the model's chance between equal teams,
    logistic(offset / c), is the base rate."""
    if base == 0.5:
        return 0.0
    (_red_mu, red_var), (_black_mu, black_var) = (
        _performance(team, summed=summed) for team in (red, black)
    )
    return math.sqrt(red_var + black_var + 2 * BETA**2) * rating.logit(base)


def _performance(team: Sequence[Skill], *, summed: bool) -> tuple[float, float]:
    """A team's performance, its mean (the package's sum when `summed`) and its variance,
    with the dynamics' τ² added to each σ² as `_rate` adds it before a game."""
    n = 1.0 if summed else float(len(team))
    return sum(s.mu for s in team) / n, sum(s.sigma**2 + TAU**2 for s in team) / n**2


def match(game: Sequence[Played]) -> tuple[list[list[Played]], list[int]]:
    """The teams of a game and their ranks (1 first): red and black by who won, or a loner's
    win alone ahead of both (a guest's: red and black level, as Elo's draw); none when a
    side has no rated player (guests only)."""
    red = [row for row in game if row.track == RED]
    black = [row for row in game if row.track == BLACK]
    loners = [row for row in game if not row.track and row.won]
    if not red or not black:
        return [], []
    if loners:
        return [loners, red, black], [1, 2, 2]
    ranks = {RED: [1, 2], BLACK: [2, 1]}.get(game[0].winner, [1, 1])
    return [red, black], ranks


def rater(system: str, *, base_rate: bool = True) -> Rater:
    """A fresh fold of `system` (one of games.rules.rating.SYSTEMS); `base_rate=False`: as
    if red and black won equally often between equals (the bench's comparison)."""
    if system in (rating.OPENSKILL, rating.OPENSKILL_PLAIN):
        return OpenSkill(weighted=system == rating.OPENSKILL, base_rate=base_rate)
    return rating.elo_rater(system, base_rate=base_rate)
