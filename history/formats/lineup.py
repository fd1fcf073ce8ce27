"""What every reader checks of a game before it gives it to the import, whatever the file:
the table's size, the seats, the roles' line-up, the winner and the best move. A game that
fails is left out whole, with the reason; nothing of it is read.

The limits: a table of 10 to 15 players. The club's own rules seat 12 to 15 (ClubOptions),
but a club's past and the field's exchange hold the classic table of ten, so the import
takes ten; 9 and 16 are refused, as issue #42 names them. Fouls 0 to 4: the club's rules
remove a player at the third foul, the field's rules (and the exchange) at the fourth, and a
past game may have been played under either."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from django.utils.translation import gettext as _

from games.rules.club import BEST_MOVE_SEATS
from games.rules.options import ClubOptions
from games.rules.roles import CLUB_ROLES, Team
from history.formats.records import SeatRecord

MIN_PLAYERS = 10
MAX_PLAYERS = ClubOptions().max_players  # 15
MAX_SEAT = MAX_PLAYERS
MAX_FOULS = 4
# A nickname as long as the protocol allows (games/rules/protocol.py NICK_MAX).
MAX_NICKNAME = 64


def team_of(code: str) -> Team | None:
    """The team of a catalogue role; None for a role the club added (its team is the
    club's, which the reader does not know)."""
    role = CLUB_ROLES.get(code)
    return role.team if role else None


def lineup_problem(seats: Sequence[SeatRecord]) -> str | None:
    """Why this table cannot have been played, or None."""
    count = len(seats)
    if count < MIN_PLAYERS or count > MAX_PLAYERS:
        return _("%(count)s players at the table: a game has %(low)s to %(high)s.") % {
            "count": count,
            "low": MIN_PLAYERS,
            "high": MAX_PLAYERS,
        }
    teams = [team_of(seat.role) for seat in seats]
    if None in teams:
        return None  # a role of the club's own making: its team is not known here
    black = teams.count(Team.BLACK)
    red = teams.count(Team.RED)
    if black == 0:
        return _("No black player at the table.")
    if black >= red:
        return _(
            "%(black)s black and %(red)s red players: black would have won before the first day."
        ) % {"black": black, "red": red}
    return None


def winner_problem(winner: str, seats: Sequence[SeatRecord]) -> str | None:
    if winner in ("red", "black"):
        return None
    if team_of(winner) is not Team.LONER and winner in CLUB_ROLES:
        return _("The winner «%(winner)s» is neither a side nor a loner.") % {"winner": winner}
    if all(seat.role != winner for seat in seats):
        return _("The winner «%(winner)s» is not at the table.") % {"winner": winner}
    return None


def best_move_problem(
    best_move: Sequence[int], by: int | None, seats: Sequence[SeatRecord]
) -> str | None:
    at_table = {seat.seat for seat in seats}
    if len(best_move) > BEST_MOVE_SEATS:
        return _("A best move names at most %(most)s seats.") % {"most": BEST_MOVE_SEATS}
    if len(set(best_move)) != len(best_move):
        return _("A best move names a seat twice.")
    outside = [seat for seat in best_move if seat not in at_table]
    if outside:
        return _("The best move names seat %(seat)s, which is not at the table.") % {
            "seat": outside[0]
        }
    if by is not None and by not in at_table:
        return _("The best move's author, seat %(seat)s, is not at the table.") % {"seat": by}
    return None


def seats_problem(seats: Sequence[SeatRecord]) -> str | None:
    """A seat twice or outside the table's numbers (the readers check each as they read it;
    this is the game's own last word, for a reader that builds seats from a list)."""
    twice = [seat for seat, n in Counter(s.seat for s in seats).items() if n > 1]
    if twice:
        return _("Seat %(seat)s is taken twice.") % {"seat": min(twice)}
    outside = [s.seat for s in seats if not 1 <= s.seat <= MAX_SEAT]
    if outside:
        return _("Seat %(seat)s: seats are numbered 1 to %(high)s.") % {
            "seat": outside[0],
            "high": MAX_SEAT,
        }
    return None


def game_problem(
    seats: Sequence[SeatRecord],
    *,
    winner: str,
    best_move: Sequence[int] = (),
    best_move_by: int | None = None,
) -> str | None:
    """The first reason the game is refused, or None: it may be imported."""
    return (
        seats_problem(seats)
        or lineup_problem(seats)
        or winner_problem(winner, seats)
        or best_move_problem(best_move, best_move_by, seats)
    )
