"""A member's personal report after a game (docs/scoring.md, «The report after a game»).

A member who asked for them (accounts: `game_reports`, off by default) gets, once the game's
analysis is built, a message of their own by their channels (Telegram or email, as they
chose): their seat and role, the result, their points line by line with the host's reasons,
their rating's change by the club's system, and, when the game's recording had been
analysed by then, their speech figures and the fouls the recording suggested that the host
gave. It goes to that member alone and names nobody else: other seats are numbers, and a
reason the host wrote names another player as «место N» (games/reasons.py).

Once per game per member: the outbox's dedupe key is the game's and the member's, so an
analysis built again (an undo and redo of the end, extra points given later, a foul from
the recording, a new scheme) writes nothing more, even if the points changed: the game's
page shows them as they stand. Only a game that first ended within REPORT_WITHIN is
reported, so a member who switches reports on is not sent old games when one is rebuilt.

The bot offers the reports once: after the first game analysed for a member who has not
chosen either way (`game_reports_offered_at`), by Telegram, when it reaches them.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from accounts.languages import speaking_to
from accounts.models import NotifyBy, User
from accounts.services import member_set_game_reports
from club.kernel.clubs import Club
from club.kernel.numbers import shown, signed
from games.models import Game
from games.ratings import stats
from games.ratings.models import PlayerScore
from games.ratings.publication import (
    line_text,
    listed_others,
    signed_points,
    winner_label,
)
from games.reasons import Naming, seat_names
from games.recording import seats_of
from games.recordings.analysis import recording_alignment
from games.recordings.models import FoulSuggestion, Recording, RecordingStatus, SuggestionStatus
from games.rules import rating
from notifications.channels import telegram_reaches
from notifications.models import Notification
from notifications.services import member_notify

# A game is reported while its end is this recent (its analysis is built seconds after it).
REPORT_WITHIN = timedelta(days=1)
# The bot's offer's buttons: "rp:yes:<game>" and "rp:no:<game>" (bot/).
REPORTS_ANSWER = "rp"


def report_key(game_id: int, member_id: int) -> str:
    """The outbox's key of a member's report of a game: one message, whatever follows."""
    return f"game-report:{game_id}:{member_id}"


def game_reports_send(*, game_id: int) -> int:
    """After the game's analysis is built (games/ratings/tasks.game_analyse): each seated
    member who wants a report gets theirs, and each who has never been asked is offered
    them in the bot. Safe to run again: returns how many reports were written now."""
    game = Game.objects.select_related("evening").filter(pk=game_id).first()
    if game is None or game.first_ended_at is None:
        return 0
    if game.first_ended_at < timezone.now() - REPORT_WITHIN:
        return 0
    scores = list(
        PlayerScore.objects.filter(game=game, member__is_active=True).select_related("member")
    )
    written = 0
    for score in scores:
        member = score.member
        if member.game_reports:
            written += game_report_send(game=game, member=member, score=score)
        elif member.game_reports_offered_at is None:
            reports_offer(member=member, game=game)
    return written


def game_report_send(*, game: Game, member: User, score: PlayerScore | None = None) -> int:
    """One member's report of one game, by their channels; 1 when it was written now, 0
    when it had been already (or the member has no score in the game)."""
    score = score or PlayerScore.objects.filter(game=game, member=member).first()
    if score is None:
        return 0
    key = report_key(game.pk, member.pk)
    if Notification.objects.filter(dedupe_key=key).exists():
        return 0  # told already: a rebuilt analysis is not reported again
    with speaking_to(member), transaction.atomic():
        member_notify(
            member=member,
            dedupe_key=key,
            text=report_text(game, score, member),
            subject=_("Your game %(number)d: the report") % {"number": game.number},
        )
    return 1


def report_text(game: Game, score: PlayerScore, member: User) -> str:
    """The report in the active language: the member's own figures, other seats by their
    numbers only."""
    names = stats.role_names()
    seats = seats_of(game)
    # Seats by their numbers, and a reason that names another player (by seat, or in
    # words written before the check) says «место N» instead: the report names nobody but
    # its reader.
    nick: dict[int, str] = {}
    hidden = Naming(seat_names(seats), frozenset({score.seat}))
    role = names.get(score.role, score.role)
    lines = [
        _("Your game %(number)d, %(when)s") % {"number": game.number, "when": _when(game)},
        _("Seat %(seat)d, %(role)s.") % {"seat": score.seat, "role": role},
        _("Winner: %(winner)s. %(result)s")
        % {
            "winner": winner_label(game.winner, names),
            "result": _("You won.") if score.won else _("You lost."),
        },
        "",
        _("Points: %(points)s") % {"points": signed_points(score.points)},
    ]
    lines += ["· " + line_text(line, nick, names, score.team, hidden) for line in score.lines]
    if not score.lines:
        lines.append("· " + _("no line: a game scores nothing by itself"))
    changed = _rating_change(score)
    if changed:
        lines += ["", changed]
    if not game.rated:
        lines += ["", _("This game is not rated: it counts for no rating and no season's table.")]
    lines += _recording_lines(game, score.seat)
    lines += ["", settings.SITE_URL + reverse("game", args=[game.pk])]
    return "\n".join(lines)


def _player(seat: int) -> str:
    return _("Player %(seat)d") % {"seat": seat}


def _when(game: Game) -> str:
    club = Club.current()
    moment = game.evening.starts_at if game.evening else (game.started_at or game.ended_at)
    if moment is None:
        return ""
    return date_format(timezone.localtime(moment, club.zone), "DATE_FORMAT")


def _rating_change(score: PlayerScore) -> str:
    """The rating before and after the game by the club's system (a loner who did not win
    alone is not rated: nothing to say)."""
    before, after = score.rating_before, score.rating_after
    if before is None or after is None:
        return ""
    system = Club.current().rating_system
    digits = stats.rating_digits(system)
    systems = dict(Club._meta.get_field("rating_system").choices or [])
    figures = {
        "system": str(systems.get(system, system)),
        "before": shown(before, digits),
        "after": shown(after, digits),
        "change": signed(after - before, digits),
    }
    if system == rating.ELO_TRACKS and score.track == rating.RED:
        return _("Red rating (%(system)s): %(before)s → %(after)s (%(change)s)") % figures
    if system == rating.ELO_TRACKS:
        return _("Black rating (%(system)s): %(before)s → %(after)s (%(change)s)") % figures
    return _("Rating (%(system)s): %(before)s → %(after)s (%(change)s)") % figures


def _seconds(value: float) -> str:
    return shown(value, 0)


def _recording_lines(game: Game, seat: int) -> list[str]:
    """The member's speech figures and the recording's fouls the host gave them, when the
    game's recording was analysed (games/recordings): numbers only, other seats by number."""
    recording = (
        Recording.objects.current()
        .filter(game=game, status=RecordingStatus.ANALYSED, deleted_at__isnull=True)
        .first()
    )
    if recording is None:
        return []
    alignment = recording_alignment(recording)
    lines: list[str] = []
    speeches = [s for s in alignment.speeches if s.seat == seat] if alignment else []
    if speeches:
        lines += ["", _("Your speeches, as the recording heard them (seconds):")]
        lines += [
            "· "
            + _(
                "day %(day)d: voice %(talk)s of %(limit)d, silence %(silence)s, "
                "past the time %(over)s, after the timer %(after)s"
            )
            % {
                "day": s.day,
                "talk": _seconds(s.talk),
                "limit": s.limit,
                "silence": _seconds(s.silence),
                "over": _seconds(s.over),
                "after": _seconds(s.after),
            }
            for s in speeches
        ]
    talk = _talk(recording, seat)
    if talk:
        lines += ["", talk]
    given = FoulSuggestion.objects.filter(
        recording=recording, seat=seat, status=SuggestionStatus.ACCEPTED
    ).order_by("start")
    fouls = [
        _("%(seconds)s s of talk at night") % {"seconds": _seconds(f.seconds)}
        if f.during is None
        else _("%(seconds)s s of talk in seat %(during)s's speech")
        % {"seconds": _seconds(f.seconds), "during": f.during}
        for f in given
    ]
    if fouls:
        lines += ["", _("Fouls the recording suggested and the host gave:")]
        lines += [f"· {foul}" for foul in fouls]
    return lines


def _talk(recording: Recording, seat: int) -> str:
    """Who spoke when (audio/speakers.py), for the member's seat: their voice outside their
    own speeches."""
    found = (recording.speakers or {}).get("seats", {}).get(str(seat))
    if not found:
        return ""
    others: dict[str, float] = found.get("others", {})
    whose = ", ".join(
        _("seat %(seat)s: %(seconds)s") % {"seat": owner, "seconds": _seconds(seconds)}
        for owner, seconds in listed_others(others)
    )
    return _(
        "Your voice, as the recording told it apart (seconds): in your speeches %(own)s; in "
        "others' %(others)s%(whose)s; at night %(night)s; between speeches %(aside)s."
    ) % {
        "own": _seconds(found.get("own", 0)),
        "others": _seconds(sum(others.values())),
        "whose": f" ({whose})" if whose else "",
        "night": _seconds(found.get("night", 0)),
        "aside": _seconds(found.get("aside", 0)),
    }


def reports_offer(*, member: User, game: Game) -> bool:
    """Ask once, in the bot, whether the member wants a report after each game: only by
    Telegram (the bot's question, with its two buttons), when it reaches the member and
    they did not choose email only. Recorded, so it is never asked again; True when asked
    now."""
    if not telegram_reaches(member) or member.notify_by == NotifyBy.EMAIL:
        return False
    with transaction.atomic():
        asked = User.objects.filter(
            pk=member.pk, game_reports=False, game_reports_offered_at__isnull=True
        ).update(game_reports_offered_at=timezone.now())
        if not asked:
            return False
        with speaking_to(member):
            text = _(
                "Your game %(number)d has been analysed. Would you like a short report of "
                "your own after each game: your role, the result, your points with their "
                "reasons, your rating's change and your speech figures? Only you get it, and "
                "it names no other player. I ask once; /settings switches it any time."
            ) % {"number": game.number}
            buttons = [
                [
                    {"text": _("Yes, send them"), "callback_data": offer_data(True, game.pk)},
                    {"text": _("No, thanks"), "callback_data": offer_data(False, game.pk)},
                ]
            ]
        member_notify(
            member=member,
            dedupe_key=f"game-reports-offer:{member.pk}",
            text=text,
            buttons=buttons,
            email=False,
        )
    return True


def offer_data(yes: bool, game_id: int) -> str:
    return f"{REPORTS_ANSWER}:{'yes' if yes else 'no'}:{game_id}"


def offer_read(argument: str) -> tuple[bool, int] | None:
    """The answer a button carries ("yes:<game>" after "rp:"), or None if it is not one."""
    answer, _colon, game = argument.partition(":")
    if answer not in ("yes", "no") or not game.isdigit():
        return None
    return answer == "yes", int(game)


def answer_offer(*, member: User, yes: bool, game_id: int) -> bool:
    """The member's answer to the offer: reports on (and the report of the game the offer
    came after, if it is theirs and recent) or off. True when that report was written."""
    member_set_game_reports(member=member, on=yes)
    if not yes:
        return False
    game = Game.objects.select_related("evening").filter(pk=game_id).first()
    if game is None or game.first_ended_at is None:
        return False
    if game.first_ended_at < timezone.now() - REPORT_WITHIN:
        return False
    return bool(game_report_send(game=game, member=member))
