"""The ratings across games (docs/scoring.md «Rating»): the club picks one of three systems
in its settings, and the replay folds every game through it.

- `elo_tracks`: Elo on a red track and a black track. As mafiaratings keeps it, a player has
  one rating for the games they play red and another for the games they play black, since
  the two sides are different crafts. A game is a match between the red team (the mean of
  its players' red ratings) and the black team (the mean of its players' black ratings);
  every player of a side moves by the same amount, K × (score − expected). A loner (maniac,
  нагнетатель) is in neither match; a game a loner wins is a draw between red and black,
  who both failed.
- `elo_nonzero_sum`: mafiaratings' own Elo (include/game_ratings.php in szotin/mafiaratings):
  the chance E of each side is read off the track ratings as above, but every winner gains
  Kw × (1 − E) and every loser loses Kl × E, with Kw > Kl, so a rating grows with the games
  played; the one rating shown is the sum of what a player earned on both tracks.
- `openskill`: the Weng-Lin model of the openskill package, weighted by game points. It
  needs that package, which the phone's engine (this module's other reader) does not have,
  so it lives in games/ratings/systems.py and plugs into `replay` as a `Rater`.

Every system reads a game against the club's base rate (`BaseRate`): red's share of the
decided games before it, with one win and one loss added. The systems' own chance is that of
equal sides; red and black do not win equally often between equals (a club's black may win
55%), and without the base rate every black win would read as the black players' skill, and
every red loss as the red players' lack of it. Elo's expected score becomes
E = logistic(logit(base) + logit(Elo's)), so a table of equals is expected to win at the
base rate; OpenSkill's offset is in games/ratings/systems.py. The first game's base is ½,
which changes nothing.

Pure Python: the caller gives the games in the order they were played.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

INITIAL = 1500.0
K = 20.0  # the step of a club that plays three games a week: a season moves a rating ~100
RED, BLACK = "red", "black"
# The key of a system's one rating where it keeps no tracks (pages and the API use it).
OVERALL = "overall"

ELO_TRACKS, ELO_NONZERO_SUM = "elo_tracks", "elo_nonzero_sum"
# OpenSkill weighted by game points (`openskill`, the name it had when it was the only one)
# and by wins alone (`openskill_plain`, the default: docs/scoring.md «How sure a rating is»).
OPENSKILL, OPENSKILL_PLAIN = "openskill", "openskill_plain"
SYSTEMS = (ELO_TRACKS, ELO_NONZERO_SUM, OPENSKILL, OPENSKILL_PLAIN)

# mafiaratings' kinds of game and their K: (winners' Kw, losers' Kl) for a table of ten
# players or more; a smaller table moves half as much (include/game_ratings.php).
CLUB, TOURNAMENT, ELITE = "club", "tournament", "elite"
NONZERO_SUM_K: dict[str, tuple[float, float]] = {
    CLUB: (4.0, 3.0),
    TOURNAMENT: (16.0, 12.0),
    ELITE: (64.0, 48.0),  # a tournament mafiaratings marks elite
}
NONZERO_SUM_FULL_TABLE = 10
NONZERO_SUM_INITIAL = 0.0


def shown(system: str) -> tuple[str, ...]:
    """The ratings a system shows a player: one per track, or one in all."""
    return (RED, BLACK) if system == ELO_TRACKS else (OVERALL,)


def logit(p: float) -> float:
    return math.log(p / (1.0 - p))


def logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


def with_base(chance: float, base: float) -> float:
    """Red's chance between sides the system judges at `chance` (as if equal sides won
    equally often), when red wins `base` of the games between equals: they add in
    log-odds. A base of ½ leaves the chance as it is."""
    if base == 0.5 or chance <= 0.0 or chance >= 1.0:
        return chance
    return logistic(logit(base) + logit(chance))


class BaseRate:
    """The club's base rate as the games go by: red's share of the decided games so far
    (a game won by red or by black, both sides rated), with one win and one loss added, so
    the first game's is ½ (games/rules/forecast.py reads the same)."""

    def __init__(self) -> None:
        self.reds = self.decided = 0

    @property
    def red(self) -> float:
        return (self.reds + 1) / (self.decided + 2)

    def record(self, winner: str) -> None:
        """After a game between two rated sides: a red or a black win counts."""
        if winner in (RED, BLACK):
            self.decided += 1
            self.reds += winner == RED


@dataclass(frozen=True)
class Change:
    before: float
    after: float


def expected(rating: float, opponent: float) -> float:
    """The chance Elo gives `rating` against `opponent`."""
    return 1.0 / (1.0 + float(10.0 ** ((opponent - rating) / 400.0)))


def _mean(ratings: Mapping[Any, float]) -> float:
    return sum(ratings.values()) / len(ratings)


def match(
    red: Mapping[Hashable, float],
    black: Mapping[Hashable, float],
    winner: str,
    k: float = K,
    base: float = 0.5,
) -> dict[Hashable, Change]:
    """One game of `elo_tracks`: `red`/`black` map each player of the side to their rating
    on its track; `winner` is "red", "black" or anything else (a loner's win: a draw);
    `base`: red's share of wins between equals (`BaseRate`), in the expected score."""
    if not red or not black:
        return {}
    red_expected = with_base(expected(_mean(red), _mean(black)), base)
    red_score = {RED: 1.0, BLACK: 0.0}.get(winner, 0.5)
    red_step = k * (red_score - red_expected)
    changes: dict[Hashable, Change] = {}
    for player, rating in red.items():
        changes[player] = Change(rating, rating + red_step)
    for player, rating in black.items():
        changes[player] = Change(rating, rating - red_step)  # a zero-sum match
    return changes


def nonzero_sum_k(kind: str, players: int) -> tuple[float, float]:
    """(Kw, Kl) of `elo_nonzero_sum` for a game of `kind` with `players` at the table."""
    k_win, k_loss = NONZERO_SUM_K.get(kind, NONZERO_SUM_K[CLUB])
    if players < NONZERO_SUM_FULL_TABLE:
        return k_win / 2, k_loss / 2
    return k_win, k_loss


def nonzero_sum_match[P: Hashable](
    red: Mapping[P, float],
    black: Mapping[P, float],
    winner: str,
    k_win: float,
    k_loss: float,
    base: float = 0.5,
) -> dict[P, float]:
    """One game of `elo_nonzero_sum`: what each player earns. `red`/`black` map each player
    to their rating on the side's track, which gives red's chance E as in `match` (with the
    base rate); a winner earns Kw × (1 − E of their side), a loser −Kl × (E of their side).
    A loner's win (`winner` neither "red" nor "black") is a loss for both sides."""
    if not red or not black:
        return {}
    red_chance = with_base(expected(_mean(red), _mean(black)), base)
    earned: dict[P, float] = {}
    for side, chance in ((red, red_chance), (black, 1.0 - red_chance)):
        won = winner == (RED if side is red else BLACK)
        step = k_win * (1.0 - chance) if won else -k_loss * chance
        earned.update(dict.fromkeys(side, step))
    return earned


@dataclass(frozen=True)
class Played:
    """One player in one game, as the replay reads it."""

    key: Hashable  # what the caller calls this row (its id)
    game: Hashable
    player: Hashable
    track: str  # "red", "black", or "" for a loner
    winner: str  # the game's winner
    won: bool = False  # this player won (a loner: its own win)
    points: float = 0.0  # the game's points (what `openskill` weighs a player's share by)
    seats: int = 0  # players at the table (guests too); 0: the rows of the game
    kind: str = CLUB  # the kind of game, for `elo_nonzero_sum`'s K


class Rater(Protocol):
    """A rating system as the replay folds it: it keeps every player's state and rates one
    game at a time, returning each row's shown rating before and after (by `Played.key`),
    and says before a game how likely red is to win it."""

    def rate(self, game: Sequence[Played]) -> dict[Hashable, Change]: ...

    def red_chance(self, game: Sequence[Played]) -> float | None:
        """Red's chance to win `game` by the ratings before it, as if the two sides won
        equally often (games/rules/forecast.py adds the club's base rate, as the systems'
        updates do); None when a side has no rated player."""
        ...


def _sides(game: Sequence[Played]) -> dict[str, list[Played]]:
    sides: dict[str, list[Played]] = {RED: [], BLACK: []}
    for row in game:
        if row.track in sides:
            sides[row.track].append(row)
    return sides


def _red_chance(ratings: Mapping[str, Mapping[Hashable, float]]) -> float | None:
    """Red's expected score from its track ratings against black's (None: a side unrated)."""
    red, black = ratings[RED], ratings[BLACK]
    return expected(_mean(red), _mean(black)) if red and black else None


class EloTracks:
    """`elo_tracks`: loners' rows get no change (they have no track). `base_rate=False`:
    as if red and black won equally often between equals (the bench's comparison)."""

    def __init__(self, k: float = K, *, base_rate: bool = True) -> None:
        self.k = k
        self.ratings: dict[tuple[Hashable, str], float] = {}
        self.base = BaseRate()
        self.base_rate = base_rate

    def _ratings(self, game: Sequence[Played]) -> dict[str, dict[Hashable, float]]:
        return {
            track: {row.player: self.ratings.get((row.player, track), INITIAL) for row in rows}
            for track, rows in _sides(game).items()
        }

    def red_chance(self, game: Sequence[Played]) -> float | None:
        return _red_chance(self._ratings(game))

    def rate(self, game: Sequence[Played]) -> dict[Hashable, Change]:
        sides = _sides(game)
        ratings = self._ratings(game)
        base = self.base.red if self.base_rate else 0.5
        by_player = match(ratings[RED], ratings[BLACK], game[0].winner, self.k, base)
        if ratings[RED] and ratings[BLACK]:
            self.base.record(game[0].winner)
        changes: dict[Hashable, Change] = {}
        for track, rows in sides.items():
            for row in rows:
                if (change := by_player.get(row.player)) is not None:
                    self.ratings[(row.player, track)] = change.after
                    changes[row.key] = change
        return changes


class NonZeroSumElo:
    """`elo_nonzero_sum`: each player's rating on each track (for the chances) and their one
    rating, the sum of all they earned (shown). Everyone starts at 0, as on mafiaratings; a
    loner's row keeps the rating it had."""

    def __init__(self, *, base_rate: bool = True) -> None:
        self.tracks: dict[tuple[Hashable, str], float] = {}
        self.overall: dict[Hashable, float] = {}
        self.base = BaseRate()
        self.base_rate = base_rate

    def _ratings(self, game: Sequence[Played]) -> dict[str, dict[Hashable, float]]:
        return {
            track: {
                row.player: self.tracks.get((row.player, track), NONZERO_SUM_INITIAL)
                for row in rows
            }
            for track, rows in _sides(game).items()
        }

    def red_chance(self, game: Sequence[Played]) -> float | None:
        return _red_chance(self._ratings(game))

    def rate(self, game: Sequence[Played]) -> dict[Hashable, Change]:
        sides = _sides(game)
        ratings = self._ratings(game)
        k_win, k_loss = nonzero_sum_k(game[0].kind, game[0].seats or len(game))
        base = self.base.red if self.base_rate else 0.5
        earned = nonzero_sum_match(
            ratings[RED], ratings[BLACK], game[0].winner, k_win, k_loss, base
        )
        if ratings[RED] and ratings[BLACK]:
            self.base.record(game[0].winner)
        changes: dict[Hashable, Change] = {}
        for row in game:
            before = self.overall.get(row.player, NONZERO_SUM_INITIAL)
            step = earned.get(row.player, 0.0) if row.track in sides else 0.0
            if row.track in sides:
                key = (row.player, row.track)
                self.tracks[key] = self.tracks.get(key, NONZERO_SUM_INITIAL) + step
            self.overall[row.player] = before + step
            changes[row.key] = Change(before, before + step)
        return changes


def games_of(rows: Iterable[Played]) -> Iterator[list[Played]]:
    """The rows of each game together, in the order given (rows of one game adjacent)."""
    game: list[Played] = []
    for row in rows:
        if game and row.game != game[0].game:
            yield game
            game = []
        game.append(row)
    if game:
        yield game


def replay(rows: Iterable[Played], rater: Rater | None = None) -> dict[Hashable, Change]:
    """Every row's rating before and after, from the rows of all games in playing order
    (rows of one game together), by `rater` (today's `elo_tracks` when not given). A row a
    system does not rate (a loner's, under `elo_tracks`) is not in the answer."""
    rater = rater or EloTracks()
    changes: dict[Hashable, Change] = {}
    for game in games_of(rows):
        changes.update(rater.rate(game))
    return changes


def elo_rater(system: str, *, base_rate: bool = True) -> Rater:
    """The rater of one of the two Elo systems (`openskill`'s is games/ratings/systems.py)."""
    if system == ELO_NONZERO_SUM:
        return NonZeroSumElo(base_rate=base_rate)
    return EloTracks(base_rate=base_rate)
