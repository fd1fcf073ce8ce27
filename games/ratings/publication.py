"""How a seated member is named to whoever is looking (RULES.md §C).

A member who refused publication is «Игрок N» (their seat) to everyone but themselves, the
game's host and the admins; the same rule serves the game page, the API, the protocol that
the API publishes and the club group's analysis posts (whose reader is nobody in
particular). The evening's line-up in the same group is no publication and keeps nicknames
(club/announcements.py).
"""

from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts import roles as club_roles
from accounts.languages import speaking
from accounts.models import User
from club import texts
from club.kernel.clubs import Club
from club.kernel.numbers import signed
from games import access
from games.access import Viewer
from games.live_evening import SeatPoints
from games.models import Game, Role, Seat
from games.ratings import stats
from games.ratings.charts import speaker_timeline, speech_timeline
from games.ratings.models import GameAnalysis, PlayerScore
from games.reasons import NOBODY, Naming, seat_names, shown, with_texts
from games.recording import GameView, seats_of
from games.recordings.analysis import (
    TRANSCRIPT_DONE,
    recording_alignment,
)
from games.recordings.audio.alignment import places
from games.recordings.models import Recording
from games.timeline import describe
from notifications.services import chat_post_sync


def visible_nicks(seats: list[Seat], game: Game, viewer: Viewer) -> dict[int, str]:
    """Each seat's name as `viewer` may see it on the game's pages (games/access.py)."""
    running = access.runs(viewer, game, seats)
    return {
        seat.number: access.seat_nickname(seat)
        if access.seat_name_visible(seat, viewer, runs_game=running)
        else _("Player %(seat)d") % {"seat": seat.number}
        for seat in seats
    }


def named_guests(seats: list[Seat], game: Game, viewer: Viewer) -> set[int]:
    """The seats whose player is a guest (club.Guest, linked to no member) and named to
    `viewer`: the pages mark them as guests, so that a guest is not taken for a member of
    a like name. A seat shown as «Игрок N» is not marked: it tells nothing of who sits
    there. Read the seats with `guest__member` at hand."""
    running = access.runs(viewer, game, seats)
    return {
        seat.number
        for seat in seats
        if seat.guest is not None
        and seat.guest.member is None
        and access.seat_name_visible(seat, viewer, runs_game=running)
    }


# What each scoring line is (games/rules/scoring.Scheme's fields), as the site names it.
LINE_LABELS = {
    "win": gettext_lazy("win with the team"),
    "loner_win": gettext_lazy("a loner's own win"),
    "removal": gettext_lazy("removed for fouls"),
    "red_nominates_black": gettext_lazy("nominated a black player"),
    "check_found_black": gettext_lazy("a check found black"),
    "doctor_save": gettext_lazy("saved the shot player"),
    "black_kills_key_red": gettext_lazy("black killed the commissar or the doctor"),
    "winner_survives": gettext_lazy("alive at the end on the winning side"),
    "red_votes_black": gettext_lazy("voted for a black player"),
    "best_move_1": gettext_lazy("best move, one of the named black"),
    "best_move_2": gettext_lazy("best move, two of the named black"),
    "best_move_3": gettext_lazy("best move, three of three black"),
    "bonus": gettext_lazy("extra points from the host"),
    "red_nominates_red": gettext_lazy("nominated a red player"),
    "red_hands_black": gettext_lazy("raised a hand against a black player"),
    "red_hands_red": gettext_lazy("raised a hand against a red player"),
    "red_votes_red": gettext_lazy("voted for a red player"),
    "black_win_alive": gettext_lazy("alive at the end of black's win"),
    "black_missed_shot": gettext_lazy("the mafia's shot missed"),
    "disqualification": gettext_lazy("disqualified"),
}
# What orders equal points (games/rules/scoring.TIE_BREAKERS), as a table's note names it.
TIE_BREAKER_LABELS = {
    "wins": gettext_lazy("wins"),
    "key_role_wins": gettext_lazy("wins as the boss or the commissar"),
    "extra": gettext_lazy("the best move, extra points and penalties"),
    "bonus": gettext_lazy("the host's extra points"),
    "best_move": gettext_lazy("the best move's points"),
    "first_night_kills": gettext_lazy("times killed on night 1"),
    "fewer_games": gettext_lazy("fewer games"),
}


def tie_breakers_named(codes: Sequence[str]) -> str:
    return " → ".join(str(TIE_BREAKER_LABELS.get(code, code)) for code in codes)


# A bonus below zero is the host's penalty.
PENALTY_LABEL = gettext_lazy("penalty from the host")
# A line of a critical day (the town one mistake from losing) says so.
CRITICAL_LABEL = gettext_lazy("critical day")


# A team's win names the team, not the card the player held.
WIN_LABELS = {
    "red": gettext_lazy("win of the red team (town)"),
    "black": gettext_lazy("win of the black team (mafia)"),
}


def line_text(
    line: dict[str, Any],
    nick: Mapping[int, str],
    role_names: Mapping[str, str],
    team: str = "",
    hidden: Naming | None = None,
) -> str:
    """A score line in words: "win of the black team (mafia) — +1.00" (the dash keeps a
    line's seat numbers apart from its points). `hidden`: the names a host's reason may not
    show this reader (hidden_names)."""
    return f"{line_label(line, nick, role_names, team, hidden)} — {signed_points(line['points'])}"


def line_label(
    line: dict[str, Any],
    nick: Mapping[int, str],
    role_names: Mapping[str, str],
    team: str = "",
    hidden: Naming | None = None,
) -> str:
    """What a score line is for, without its points: "win of the black team (mafia)"."""
    label = str(LINE_LABELS.get(line["code"], line["code"]))
    if line["code"] == "win" and team in WIN_LABELS:
        label = str(WIN_LABELS[team])
    elif "role" in line:
        label += f" ({role_names.get(line['role'], line['role'])})"
    if "target" in line:
        label += f": {_seat_named(line['target'], nick)}"
    if "targets" in line:
        label += ": " + ", ".join(_seat_named(seat, nick) for seat in line["targets"])
    if line["code"] == "bonus":
        label = str(PENALTY_LABEL if line["points"] < 0 else label)
        label += f": «{unnamed(line.get('reason', ''), hidden or NOBODY)}»"
    if line.get("critical"):
        label += f", {CRITICAL_LABEL}"
    return label


def unnamed_reason(event: Mapping[str, Any], hidden: Naming) -> Mapping[str, Any]:
    """An event whose written words (a reason) name the seats as this reader may read
    them (games/reasons.py)."""
    return with_texts(event, lambda text: unnamed(text, hidden))


def _seat_named(seat: int, nick: Mapping[int, str]) -> str:
    """A seat with its name in brackets; the seat alone where no name is given (the
    personal report names nobody but its reader: games/ratings/reports.py)."""
    name = nick.get(seat, "")
    return f"{seat} ({name})" if name else str(seat)


def hidden_names(seats: list[Seat], nick: Mapping[int, str]) -> Naming:
    """What a host's reason may call each seat for the reader whom `nick` names the seats
    to (it says «Игрок N» for those whose name the reader may not see): a reference or a
    hidden player's nickname, in any form, says «место N» (games/reasons.py)."""
    names = seat_names(seats)
    return Naming(names, frozenset(seat for seat, name in names.items() if nick.get(seat) == name))


def unnamed(text: str, hidden: Naming) -> str:
    """A host's reason as this reader reads it (games.reasons.shown)."""
    return shown(text, hidden)


def signed_points(points: float) -> str:
    """Points with their sign, in the reader's number format (+0,20 in Russian), as the
    tables print them."""
    return signed(points)


WINNERS = {"red": gettext_lazy("the red (town)"), "black": gettext_lazy("the black (mafia)")}


def winner_label(winner: str, role_names: Mapping[str, str]) -> str:
    return str(WINNERS[winner]) if winner in WINNERS else role_names.get(winner, winner)


def game_post_text(game_id: int) -> str | None:
    """The club group's post about an analysed game, in the club's language, naming the
    seats as the public sees them; None when the game has no analysis."""
    game = Game.objects.select_related("evening").filter(pk=game_id).first()
    if game is None or not GameAnalysis.objects.filter(game=game).exists():
        return None
    seats = seats_of(game)
    points = dict(PlayerScore.objects.filter(game=game).values_list("seat", "points"))
    club = Club.current()
    with speaking(settings.LANGUAGE_CODE):
        role_names = {role.code: role.name for role in Role.objects.all()}
        nick = visible_nicks(seats, game, None)
        lines = [
            _("Game %(number)d analysis: %(when)s")
            % {
                "number": game.number,
                "when": texts.evening_when(game.evening, club) if game.evening else _("online"),
            },
            _("Winner: %(winner)s") % {"winner": winner_label(game.winner, role_names)},
            "",
        ]
        lines += [
            f"{seat.number}. {nick[seat.number]} · {role_names.get(seat.role, seat.role)}"
            f" · {signed_points(points.get(seat.number, 0))}"
            for seat in seats
        ]
        lines += ["", settings.SITE_URL + reverse("game", args=[game.pk])]
    return "\n".join(lines)


def game_post_sync(*, game_id: int) -> int | None:
    """Post the game's analysis to the club's group, or edit the post to what it should
    say now (a member switched publication off, the protocol was corrected)."""
    club = Club.current()
    text = game_post_text(game_id)
    if club.telegram_group_chat_id is None or text is None:
        return None
    return chat_post_sync(
        dedupe_key=f"analysis:{game_id}", chat_id=club.telegram_group_chat_id, text=text
    )


def member_score_lines(
    member_id: int, game_ids: Sequence[int], viewer: Viewer, role_names: Mapping[str, str]
) -> dict[int, list[dict[str, Any]]]:
    """A member's lines in these games, as their player's page opens each score to them
    (two queries): the other seats named as the game's page names them to this viewer, and
    a host's reason with the name of a player this viewer may not see saying «Игрок N»."""
    scores = PlayerScore.objects.filter(member_id=member_id, game_id__in=game_ids)
    rows = list(scores.values_list("game_id", "team", "lines"))
    seats: dict[int, list[Seat]] = {}
    for seat in (
        Seat.objects.filter(game_id__in=[game_id for game_id, _team, lines in rows if lines])
        .select_related("game", "member", "guest__member")
        .order_by("number")
    ):
        seats.setdefault(seat.game_id, []).append(seat)
    _read_memberships(seats)
    found = {}
    for game_id, team, lines in rows:
        at_table = seats.get(game_id, [])
        nick = visible_nicks(at_table, at_table[0].game, viewer) if at_table else {}
        hidden = hidden_names(at_table, nick)
        found[game_id] = [
            {
                "code": line["code"],
                "label": line_label(line, nick, role_names, team, hidden),
                "shown": signed_points(line["points"]),
            }
            for line in lines
        ]
    return found


def _read_memberships(seats: Mapping[int, Sequence[Seat]]) -> None:
    """The seated members' memberships of their games' clubs, one query per club (a player
    visits few), so naming each seat asks no row."""
    by_club: dict[int | None, list[User | None]] = {}
    for at_table in seats.values():
        members = by_club.setdefault(at_table[0].game.club_id, [])
        members += [seat.member or (seat.guest.member if seat.guest else None) for seat in at_table]
    for club_id, members in by_club.items():
        club_roles.read_memberships(members, club_id)


def published_points(game: Game) -> dict[int, float] | None:
    """Each seat's points as the game's page publishes them (by seat: the names are the
    reader's question), once the analysis is built; None before (games/live.py's scores)."""
    built = stats.game_analysis(game)
    if built is None:
        return None
    return {seat: score.points for seat, score in built.scores.items()}


def published_points_of(game_ids: Sequence[int]) -> dict[int, dict[int, SeatPoints]]:
    """published_points of many games in one query, with each seat's win: the venue's
    screen's standings (games/live_evening.py). A game not analysed yet has no scores."""
    found: dict[int, dict[int, SeatPoints]] = {}
    rows = PlayerScore.objects.filter(game_id__in=list(game_ids)).values_list(
        "game_id", "seat", "points", "won"
    )
    for game_id, seat, points, won in rows:
        found.setdefault(game_id, {})[seat] = SeatPoints(points, won)
    return found


def published_analysis(
    view: GameView, viewer: Viewer, role_names: Mapping[str, str] | None = None
) -> dict[str, Any] | None:
    """The game's analysis as the page and the API publish it to this viewer: each seat's
    points with its lines in words, and the timeline by day and night. A page that has
    read the role catalogue already passes its names."""
    built = stats.game_analysis(view.game)
    if built is None:
        return None
    nick = visible_nicks(view.seats, view.game, viewer)
    hidden = hidden_names(view.seats, nick)
    names = role_names if role_names is not None else stats.role_names()
    viewer_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
    rows = [
        {
            "seat": seat.number,
            "nick": nick[seat.number],
            # Linked to the member only where their name is shown to this viewer.
            "member_id": seat.member_id
            if seat.member is not None and access.may_see_name(seat.member, viewer)
            else None,
            "role": score.role,
            "role_name": names.get(score.role, score.role),
            "team": score.team,
            "won": score.won,
            "points": score.points,
            "lines": [
                {
                    "code": line["code"],
                    "points": line["points"],
                    "text": f"{label} {signed_points(line['points'])}",
                    # The page's disclosure sets the points apart from what they are for.
                    "label": label,
                    "shown": signed_points(line["points"]),
                }
                for line in score.lines
                if (label := line_label(line, nick, names, score.team, hidden))
            ],
            # The viewer's own row: its lines open by themselves.
            "own": seat.member_id is not None and seat.member_id == viewer_id,
            "rating_before": score.rating_before,
            "rating_after": score.rating_after,
        }
        for seat in view.seats
        if (score := built.scores.get(seat.number)) is not None
    ]
    sections = [
        {
            "phase": section["phase"],
            "n": section["n"],
            "title": _section_title(section),
            "events": [
                describe(unnamed_reason(event, hidden), nick, names) for event in section["events"]
            ],
        }
        for section in built.analysis.sections
    ]
    recording = Recording.objects.current().filter(game=view.game).first()
    running = access.runs(viewer, view.game, view.seats)
    # A member who refused publication is «Игрок N», and their voice's figures are left out.
    voiced_seats = {
        seat.number
        for seat in view.seats
        if access.seat_name_visible(seat, viewer, runs_game=running)
    }
    audio = _audio(recording, view, nick, voiced_seats) if recording is not None else None
    return {
        "built": built.analysis,
        "rows": rows,
        "sections": sections,
        "audio": audio,
        "rating_digits": stats.rating_digits(Club.current().rating_system),
    }


def _audio(
    recording: Recording, view: GameView, nick: dict[int, str], shown: set[int]
) -> dict[str, Any] | None:
    """What the sound showed, in numbers only (the sound itself is never published), for
    the seats whose voice may be published (`shown`)."""
    alignment = recording_alignment(recording, view.events)
    if alignment is None or not alignment.speeches:  # no speech logged: no figure means a thing
        return None
    speeches = [
        s.as_dict() | {"nick": nick.get(s.seat, str(s.seat))}
        for s in alignment.speeches
        if s.seat in shown
    ]
    labels = {seat: f"{seat}. {name}" for seat, name in nick.items() if seat in shown}
    return {
        "speeches": speeches,
        "by_seat": [
            {"seat": seat, "nick": nick.get(seat, str(seat)), **totals}
            for seat, totals in alignment.by_seat().items()
            if seat in shown
        ],
        "outside": alignment.outside,
        "unheard": alignment.unheard,
        "timeline": speech_timeline(
            [s for s in alignment.speeches if s.seat in shown], recording.voiced or [], labels
        ),
        "speakers": _speakers(recording, view, labels),
        "transcription": str(TRANSCRIPTION.get(recording.transcript_note, "")),
    }


# Talk in another's speech shorter than this is not listed by whose speech it was (it would
# read «место 7: 0 с»); it stays in the seat's sum.
LISTED_SECONDS = 0.5


def listed_others(others: dict[str, float]) -> list[tuple[int, float]]:
    """A seat's talk in others' speeches worth naming, as (whose seat, seconds), by seat."""
    return sorted(
        (int(owner), seconds) for owner, seconds in others.items() if seconds >= LISTED_SECONDS
    )


def _speakers(
    recording: Recording, view: GameView, labels: dict[int, str]
) -> dict[str, Any] | None:
    """Who spoke when (audio/speakers.py), for the seats in `labels` only: each one's talk
    in their own speeches, in others' (whose), at night and aside, and the picture."""
    found = recording.speakers
    if not recording.voices_told or found is None or recording.duration is None:
        return None

    def name(seat: int) -> str:
        return labels.get(seat, _("Player %(seat)d") % {"seat": seat})

    seats = [
        {
            "seat": int(seat),
            "nick": labels[int(seat)],
            "own": talk["own"],
            "others": [
                {
                    "seat": owner,
                    "nick": name(owner),
                    "seconds": seconds,
                    # Analyses before two voices were told apart have no "over".
                    "over": talk.get("over", {}).get(str(owner), 0.0),
                }
                for owner, seconds in listed_others(talk["others"])
            ],
            "in_others": round(sum(talk["others"].values()), 1),
            "night": talk["night"],
            "aside": talk["aside"],
        }
        for seat, talk in found["seats"].items()
        if int(seat) in labels
    ]
    if not seats:  # every voice told belongs to a player who refused publication
        return None
    windows, nights = places(view.events, recording.started_at, recording.duration)
    stretches = [s for s in found["stretches"] if s["seat"] in labels]
    overlaid = [s for s in found["stretches"] if s.get("over")]
    return {
        "seats": seats,
        "unknown": found["unknown"],
        # Two voices at once (every seat's, the speaker's and the other's, published or not:
        # seconds say nobody's name), and how much of it the second voice went unnamed.
        "two_voices": round(sum(s["end"] - s["start"] for s in overlaid), 1),
        "unnamed_over": round(sum(s["end"] - s["start"] for s in overlaid if s["seat"] is None), 1),
        "picture": speaker_timeline(stretches, windows, nights, labels, recording.duration),
    }


# Said to readers only when there is a transcript: why there is none (no model configured,
# faster-whisper not installed) is the operator's business, not the members' (docs/deploy.md).
TRANSCRIPTION = {
    TRANSCRIPT_DONE: gettext_lazy("by faster-whisper, kept until the recording is deleted"),
}


def _section_title(section: dict[str, Any]) -> str:
    if section["phase"] == "day":
        return _("Day %(n)s") % {"n": section["n"]}
    if section["phase"] == "night":
        return _("Night %(n)s") % {"n": section["n"]}
    return _("Before day 1")
