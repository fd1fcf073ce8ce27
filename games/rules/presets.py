"""The scoring presets a club chooses from, as data (docs/scoring.md has each as a table
with its source): «Клуб», the club's own lines; «ФИИМ», the federation's rating as
mafiaratings keeps it; «Автоматический», lines read off the protocol in Polemica's spirit.

Each preset is a scheme (games/rules/scoring.Scheme, only what differs from its defaults)
with its tie-breakers. The database keeps them as versions (games/ratings/models.py); the
migrations that made each version copied these values, so editing this module changes no
stored version: it is the reference the tests hold each preset's newest version to (a
change here is a new version, made by a migration: ratings/migrations/0007 added the best
move's `best_move_red_only`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

CLUB, FIIM, AUTO = "club", "fiim", "auto"

# The club's lines that neither federation preset keeps: each 0, so it never shows.
_CLUB_EXTRAS = {
    "red_nominates_black": 0.0,
    "check_found_black": 0.0,
    "doctor_save": 0.0,
    "black_kills_key_red": 0.0,
    "winner_survives": 0.0,
    "red_votes_black": 0.0,
}


@dataclass(frozen=True)
class Preset:
    code: str
    name: str  # as the club says it; the site translates the three known ones
    source: str
    points: dict[str, Any]


PRESETS: dict[str, Preset] = {
    CLUB: Preset(CLUB, "Клуб", "The club's lines (docs/scoring.md).", {}),
    FIIM: Preset(
        FIIM,
        "ФИИМ",
        "FIIM's rating as mafiaratings keeps it: szotin/mafiaratings, db/alter151.sql "
        "(scoring 19, version 3) and include/scoring.php.",
        {
            **_CLUB_EXTRAS,
            "win": 1.0,
            "loner_win": 1.0,
            "removal": -0.5,
            "disqualification": -0.5,
            "best_move_1": 0.0,
            "best_move_2": 0.25,
            "best_move_3": 0.4,
            "best_move_loners_black": False,
            # scoring 19's «legacy» policy has "roles": 3 (civilians and the sheriff).
            "best_move_red_only": True,
            "first_night_compensation": 0.4,
            # mafiaratings' default order «(epg)wsk» (include/scoring.php).
            "tie_breakers": ["extra", "wins", "key_role_wins", "first_night_kills"],
        },
    ),
    AUTO: Preset(
        AUTO,
        "Автоматический",
        "In Polemica's spirit: the critical day as Vyasma-Mafia/polemica-library's "
        "getCriticDay reads it, the tie-breakers of its RatingUtils.compare; the points "
        "are the club's.",
        {
            **_CLUB_EXTRAS,
            "win": 1.0,
            "loner_win": 1.0,
            "removal": -0.5,
            "disqualification": -0.5,
            "red_nominates_black": 0.1,
            "red_nominates_red": -0.1,
            "red_hands_black": 0.2,
            "red_hands_red": -0.2,
            "red_votes_black": 0.2,
            "red_votes_red": -0.2,
            "critical_day_factor": 2.0,
            "black_win_alive": 0.3,
            "black_missed_shot": -0.3,
            "best_move_1": 0.0,
            "best_move_2": 0.25,
            "best_move_3": 0.4,
            "best_move_loners_black": False,
            "best_move_red_only": True,  # the best move as FIIM scores it
            "tie_breakers": ["bonus", "key_role_wins", "first_night_kills", "best_move"],
        },
    ),
}
