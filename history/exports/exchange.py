"""The field's game exchange JSON, as mafiaratings documents it (its game_sample.js and
the game.js of its docs; the facts read there, this code our own), so that a tournament
can be sent to the federation's rating.

What the format says and how our log maps to it:
- players are listed in seat order (seat 1 first) and named by number 1 …; each has
  `name`, `role` (`civ`, `sheriff`, `maf`, `don`), `warnings` (fouls), `death`
  {`round`, `type`}, `nominating` and `voting` (by day round), `shooting` (by night, from
  night 1), `sheriff` / `don` (the night the commissar / the boss checked them), `legacy`
  (the best move of the first killed);
- rounds count from 0: day 0 is the first day (our day 1), night 1 the first shooting
  night (our night 1, after the first day); so our day n is round n − 1, our night n round n;
- `winner` is `civ` or `maf`; a loner's win (which the format does not know) is written as
  the loner's role code, and so is a role outside the classic four other than by its team
  (a red role is `civ`, a black one `maf`), so nothing is silently made up.
"""

from __future__ import annotations

from datetime import tzinfo
from typing import Any

from history.exports.reading import ExportedGame

CLASSIC = {"civilian": "civ", "commissar": "sheriff", "mafia": "maf", "boss": "don"}
RED = {"civilian", "commissar", "doctor", "kamikaze"}
BLACK = {"mafia", "boss", "swindler"}
WINNER = {"red": "civ", "black": "maf"}
# The engine's reasons → the format's death types.
DEATH = {
    "killed": "night",
    "kamikaze": "night",
    "swindler": "night",
    "voted": "day",
    "car_crash": "day",
    "fouls": "warnings",
    "warnings": "warnings",
    "disqualified": "kickOut",
    "modkill": "kickOut",
}


def role_code(role: str) -> str:
    if role in CLASSIC:
        return CLASSIC[role]
    if role in RED:
        return "civ"
    if role in BLACK:
        return "maf"
    return role


def _round(phase: str, n: int) -> int:
    return n if phase == "night" else n - 1


def _put(rounds: list[Any], index: int, value: Any) -> None:
    """A by-round array: null where nothing was recorded."""
    while len(rounds) <= index:
        rounds.append(None)
    rounds[index] = value


class _Walk:
    """The effective events walked once, in order, phase by phase (as games/timeline.py
    reads a log): who nominated whom, who voted for whom, whom the black shot, whom each
    check found."""

    def __init__(self, game: ExportedGame) -> None:
        self.players: dict[int, dict[str, Any]] = {}
        self.roles = {seat.seat: seat.role for seat in game.seats}
        self.phase, self.n = "day", 1
        self.game = game

    def player(self, seat: int) -> dict[str, Any]:
        return self.players.setdefault(seat, {})

    def walk(self) -> None:
        for event in self.game.events:
            kind = event.get("type")
            if kind in ("day", "night"):
                self.phase, self.n = str(kind), int(event.get("n", self.n))
            elif kind == "nominate":
                self._append("nominating", int(event["by"]), int(event["target"]))
            elif kind in ("votes", "hands") and isinstance(event.get("voters"), dict):
                for voter, target in event["voters"].items():
                    self._append("voting", int(voter), int(target))
            elif kind == "kill":
                self._shot(event)
            elif kind == "check":
                by_role = self.roles.get(int(event["by"]), "")
                field = "don" if by_role == "boss" else "sheriff"
                self.player(int(event["target"]))[field] = _round("night", self.n)
            elif kind in ("shot",):  # the online ruleset: each mafioso's own shot
                target = event.get("target")
                if target is not None:
                    _put(
                        self.player(int(event["by"])).setdefault("shooting", []),
                        self.n - 1,
                        int(target),
                    )

    def _append(self, field: str, seat: int, target: int) -> None:
        """A day's nominations and votes: one per round, a runoff's as a list."""
        index = _round("day", self.n)
        rounds = self.player(seat).setdefault(field, [])
        while len(rounds) <= index:
            rounds.append(None)
        held = rounds[index]
        if held is None:
            rounds[index] = target
        elif isinstance(held, list):
            held.append(target)
        else:
            rounds[index] = [held, target]

    def _shot(self, event: dict[str, Any]) -> None:
        """The black's shot at night n: each black player still at the table shot it."""
        if event.get("by") != "mafia":
            return
        left = {gone["seat"] for gone in self.game.eliminated if _before(gone, self.n)}
        for seat, role in self.roles.items():
            if role in BLACK - {"swindler"} and seat not in left:
                _put(self.player(seat).setdefault("shooting", []), self.n - 1, int(event["target"]))


def _before(gone: dict[str, Any], night: int) -> bool:
    """Whether a seat left before the shots of `night`."""
    return int(gone["n"]) < night or (gone["phase"] == "day" and int(gone["n"]) == night)


def game_document(game: ExportedGame, *, club_name: str, zone: tzinfo) -> dict[str, Any]:
    walk = _Walk(game)
    walk.walk()
    players = []
    gone = {int(e["seat"]): e for e in game.eliminated}
    for seat in game.seats:
        player: dict[str, Any] = {"name": seat.nick, "role": role_code(seat.role)}
        if seat.fouls:
            player["warnings"] = seat.fouls
        if seat.seat in gone:
            death = gone[seat.seat]
            player["death"] = {
                "round": _round(str(death["phase"]), int(death["n"])),
                "type": DEATH.get(str(death["reason"]), str(death["reason"])),
            }
        elif seat.left:  # a results-only game: how, not when
            player["death"] = {"type": DEATH.get(seat.left, seat.left)}
        if game.best_move_by == seat.seat and game.best_move:
            player["legacy"] = list(game.best_move)
        player.update(walk.players.get(seat.seat, {}))
        players.append(player)
    return {
        "id": str(game.game_id),
        "clubName": club_name,
        # In the club's zone, which the document names: a reader takes the date from it.
        "timezone": str(zone),
        "startTime": game.started_at.astimezone(zone).isoformat(),
        "endTime": game.ended_at.astimezone(zone).isoformat(),
        # The evening's date, which this platform's export adds (as the table and the
        # number): a game begun after midnight belongs to the evening before.
        "date": game.played_on.isoformat(),
        "language": "ru",
        "table": game.table,
        "number": game.number,
        "winner": WINNER.get(game.winner, game.winner),
        "players": players,
    }
