"""Recording a club game: the engine over the log (`fold`), and the host's taps. Every tap
runs in a transaction that locks the game's row, checks the sequence number and folds the
log through the rules engine before appending to it; the engine is the only judge of what
is allowed. The service returns the game as it judged it (`GameView`), which the doors
render."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from accounts import roles
from accounts.models import User
from club.kernel.clubs import Club
from club.kernel.errors import RefusalCode, Refused
from club.kernel.numbers import signed
from club.kernel.queueing import queue_on_commit
from games import access, reasons
from games.models import Game, GameEvent, Role, Ruleset, Seat
from games.rules import events as event_shapes
from games.rules.club import ClubGame, Prompt
from games.rules.errors import ProtocolError, RuleCode, RuleViolation
from games.rules.event_types import ClubEntry
from games.rules.log import UNDO, effective_events
from games.rules.online import OnlineGame, OnlineOptions
from games.rules.options import ClubOptions
from games.rules.scoring import Scheme
from games.rules.table import Consequence, judged
from games.rules_text import rule_refused, rules_message
from games.timeline import REASONS

Engine = ClubGame | OnlineGame

logger = logging.getLogger(__name__)


def engine_for(game: Game, seats: Sequence[Seat]) -> Engine:
    """A fresh engine state for the game's table, before any event."""
    if game.ruleset == Ruleset.ONLINE:
        table = {seat.number: seat.role for seat in seats}
        return OnlineGame(table, options=OnlineOptions.from_dict(game.options))
    return ClubGame(
        {seat.number: seat.role for seat in seats},
        options=ClubOptions.from_dict(game.options),
        immune=game.immune,
    )


class Unreplayable(Refused):
    """The game's stored record no longer replays through the engine: its seats or its
    log were changed after it was played (a seat deleted in the database, say). Every door
    says so with code `unreplayable` rather than failing; `reason` is the engine's own
    word, for whoever runs the game only (it may name a seat's card)."""

    def __init__(self, game: Game, error: RuleViolation | ProtocolError) -> None:
        super().__init__(
            _(
                "The stored record of this game no longer replays: it was changed after it "
                "was played. Its table and analysis cannot be shown until an admin corrects it."
            ),
            RefusalCode.UNREPLAYABLE,
            game_id=game.pk,
        )
        self.game = game
        self.reason = rules_message(error)


def fold(game: Game, seats: Sequence[Seat], events: Sequence[Mapping[str, object]]) -> Engine:
    """The game's state after its stored `events`: every one was judged when it was
    recorded, so a refusal here means the record changed since (`Unreplayable`)."""
    try:
        state = engine_for(game, seats)
        state.apply_all(events)
    except (ProtocolError, RuleViolation) as error:
        logger.warning("Game %s no longer replays: %s", game.pk, error.english)
        raise Unreplayable(game, error) from error
    return state


@dataclass(frozen=True)
class GameView:
    """A game with its seats, its log and the engine's state after it: what a page, the
    API or a tap's answer renders (games.queries.game_view reads one; recording a tap
    returns the one it judged)."""

    game: Game
    seats: list[Seat]
    log: list[dict[str, Any]]  # every entry, undos included
    events: list[dict[str, Any]]  # the effective protocol events
    state: Engine  # an online game's live table is games/online/table.py's

    @property
    def club_state(self) -> ClubGame:
        """The live table's state (the host's screen shows only club games)."""
        assert isinstance(self.state, ClubGame)
        return self.state

    @property
    def prompt(self) -> Prompt:
        return self.club_state.prompt()

    @property
    def by_number(self) -> dict[int, Seat]:
        return {seat.number: seat for seat in self.seats}


@dataclass(frozen=True)
class Recorded:
    entry: GameEvent
    created: bool  # False: this client event id was recorded before (a retried tap)
    view: GameView  # the game after it, as judged under the lock: the door renders this


@dataclass(frozen=True)
class Recording:
    """A club game locked for a tap (recording_locked), with its seats as read."""

    game: Game
    seats: list[Seat]


def _recordable(game: Game | None, author: User, seats: Sequence[Seat] | None = None) -> Game:
    """The club game `author` may record taps in, or the refusal saying why not."""
    if game is None:
        raise Refused(_("There is no such game."), RefusalCode.NOT_FOUND)
    if game.ruleset == Ruleset.ONLINE:
        # Its players act for their own seats only (games/online/services.py).
        raise Refused(_("An online game is played through its own table."), RefusalCode.INVALID)
    if not access.runs(author, game, seats):
        raise Refused(_("Only the game's host records it."), RefusalCode.FORBIDDEN)
    return game


def refuse_unless_recorder(*, game_id: int, author: User) -> Game:
    """The same check as recording a tap, for a door that records none (the log's head);
    the game as it read it."""
    return _recordable(Game.objects.filter(pk=game_id).first(), author)


def seats_of(game: Game) -> list[Seat]:
    """A game's seats by number, with their members (a guest's too) and those members'
    memberships of the game's club: asking each one's consent or standing after reads no
    row per seat (accounts.roles.read_memberships)."""
    seats = list(
        Seat.objects.filter(game=game).select_related("member", "guest__member").order_by("number")
    )
    members = [seat.member or (seat.guest.member if seat.guest else None) for seat in seats]
    roles.read_memberships(members, game.club_id)
    return seats


def recording_locked(*, game_id: int, author: User) -> Recording:
    """The club game `author` may record taps in, locked until the caller's transaction
    ends, with its seats; or the refusal saying why not. A door makes this check before it
    reads a tap's body, in the transaction it then records the tap in (game_record_tap):
    the game's row is read once per tap."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    seats = seats_of(game) if game is not None else []
    return Recording(_recordable(game, author, seats), seats)


# Recorded after the end within the club's `bonus_window_days` only: what the host judges
# of a finished game (a foul heard later on the recording is the recording's to suggest).
AFTER_THE_GAME = ("bonus", "best_move")


def refuse_after_the_window(game: Game, kind: str, now: datetime) -> None:
    """Extra points and the best move of a finished game are taken within the club's
    window from its first end (an undo and a new end do not move it)."""
    if kind not in AFTER_THE_GAME:
        return
    club = Club.current()
    closes = bonus_window_closes(game, club)
    if closes is not None and now > closes:
        raise Refused(
            _(
                "Extra points and the best move are recorded up to %(days)d days after the "
                "game ended: the window closed on %(when)s."
            )
            % {
                "days": club.bonus_window_days,
                "when": date_format(timezone.localtime(closes, club.zone), "DATETIME_FORMAT"),
            },
            RefusalCode.FORBIDDEN,
            closed=closes.isoformat(),
        )


def _refuse_undo(
    game: Game, standing: list[dict[str, Any]], *, confirmed: bool, now: datetime
) -> None:
    """An undo of a finished game's last entry: what the host gave after the end within
    its window only, without reopening the game; anything else reopens it. Each is asked
    first (`confirmed` False), saying which it is."""
    if not standing:
        # The phone's engine says the same offline (games/rules/table.py).
        raise Refused(_("There is nothing to undo."), RuleCode.NOTHING_TO_UNDO)
    if not game.finished:
        return
    last = standing[-1]
    refuse_after_the_window(game, str(last.get("type")), now)
    if confirmed:
        return
    if last.get("type") in AFTER_THE_GAME:
        raise Refused(
            _("This takes back %(what)s. Undo?") % {"what": _taken_back(last)},
            RefusalCode.CONFIRM,
            removes=[],
            winner=None,
            reopens=False,
        )
    # One tap would reopen the game and withdraw its analysis.
    raise Refused(
        _(
            "This reopens the finished game: its result and analysis are "
            "withdrawn until it ends again. Undo?"
        ),
        RefusalCode.CONFIRM,
        removes=[],
        winner=None,
        reopens=True,
    )


def _taken_back(event: Mapping[str, Any]) -> str:
    """What an undo of a host's after-the-end entry takes back, as the question names it."""
    if event.get("type") == "best_move":
        return _("the best move named by seat %(seat)s") % {"seat": event.get("by")}
    points = float(event.get("points", 0))
    return _("%(points)s to seat %(seat)s") % {"points": signed(points), "seat": event.get("seat")}


def bonus_window_closes(game: Game, club: Club | None = None) -> datetime | None:
    """Until when a finished game takes extra points (None while it runs)."""
    ended = game.first_ended_at or game.ended_at
    if not game.finished or ended is None:
        return None
    return ended + timedelta(days=(club or Club.current()).bonus_window_days)


def refuse_out_of_bounds(event: ClubEntry, scheme: Scheme) -> None:
    """A bonus within the scoring scheme's bounds (`bonus_min`, `bonus_max`); the engine
    judges the rest (a number, not zero, in hundredths, a reason)."""
    if event["type"] != "bonus":
        return
    points = event.get("points")
    number = isinstance(points, int | float) and not isinstance(points, bool)
    if number and not scheme.bonus_allowed(points):
        raise Refused(
            _("Extra points are from %(min)s to %(max)s.")
            % {"min": f"{scheme.bonus_min:+g}", "max": f"{scheme.bonus_max:+g}"},
            RefusalCode.INVALID,
            bonus_min=scheme.bonus_min,
            bonus_max=scheme.bonus_max,
        )


def game_record_event(
    *,
    game_id: int,
    author: User,
    event: object,
    seq: int | None,
    client_id: str | None,
    now: datetime | None = None,
    confirmed: bool = True,
    scheme: Scheme | None = None,
) -> Recorded:
    """Append one tap to the game's log: a protocol event the engine accepts, or an undo.

    `seq` is the number the entry will get (the last seen plus one): a phone that has not
    seen the latest entry is refused rather than writing over it. The same `client_id`
    twice returns the first entry. With `confirmed` False, an event that would remove a
    player or end the game is refused with code "confirm" (the host's screen asks first).
    Extra points keep to `scheme`'s bounds (the scheme that scores the game, which the
    ratings room keeps: games.ratings.services.bonus_scheme; None: the defaults), and on
    a finished game they and the best move keep to the club's window.
    """
    with transaction.atomic():
        recording = recording_locked(game_id=game_id, author=author)
        return game_record_tap(
            recording,
            author=author,
            event=event,
            seq=seq,
            client_id=client_id,
            now=now,
            confirmed=confirmed,
            scheme=scheme,
        )


def game_record_tap(
    recording: Recording,
    *,
    author: User,
    event: object,
    seq: int | None,
    client_id: str | None,
    now: datetime | None = None,
    confirmed: bool = True,
    scheme: Scheme | None = None,
) -> Recorded:
    """game_record_event on a game the caller's transaction locked and checked
    (recording_locked). Returns the entry and the game after it as judged: its log
    read once and folded once."""
    now = now or timezone.now()
    if client_id is not None and (not isinstance(client_id, str) or not 1 <= len(client_id) <= 64):
        raise Refused(_("The client event id is 1 to 64 characters."), RefusalCode.INVALID)
    game, seats = recording.game, recording.seats
    try:
        shaped = event_shapes.normalize(event)
    except ProtocolError as error:
        raise rule_refused(error) from error
    if client_id is not None:
        earlier = GameEvent.objects.filter(game=game, client_id=client_id).first()
        if earlier is not None:
            log = game.events.payloads()
            standing = effective_events(log)
            view = GameView(game, seats, log, standing, fold(game, seats, standing))
            return Recorded(earlier, created=False, view=view)
    refuse_out_of_bounds(shaped, scheme or Scheme())
    refuse_after_the_window(game, shaped["type"], now)
    if seq is not None and seq != game.last_seq + 1:
        raise Refused(
            _(
                "The game has changed on another device (event %(last)d is the latest). "
                "Reload to see it."
            )
            % {"last": game.last_seq},
            RefusalCode.STALE,
            seq=game.last_seq,
        )
    # A reason names players by seat ({seat:N}), never by nickname (games/reasons.py).
    reasons.refuse_named_event(shaped, reasons.seat_names(seats))
    log = game.events.payloads()
    standing = effective_events(log)
    if shaped["type"] == UNDO:
        _refuse_undo(game, standing, confirmed=confirmed, now=now)
        state = fold(game, seats, standing[:-1])
    else:
        shaped.setdefault("at", now.isoformat())
        state = fold(game, seats, standing)
        assert isinstance(state, ClubGame)  # an online game was refused above
        try:
            outcome = judged(state, shaped)
        except (RuleViolation, ProtocolError) as error:
            raise rule_refused(error) from error
        if not confirmed and outcome is not None:
            raise Refused(_confirm_message(outcome), RefusalCode.CONFIRM, **outcome)
    stored = _as_stored(shaped)
    after = standing[:-1] if shaped["type"] == UNDO else [*standing, stored]
    # The game after the entry, as judged: _append takes its outcome into `game`.
    view = GameView(game, seats, [*log, stored], after, state)
    entry = _append(game, shaped, author=author, client_id=client_id, view=view, now=now)
    return Recorded(entry, created=True, view=view)


def _append(
    game: Game,
    shaped: ClubEntry,
    *,
    author: User,
    client_id: str | None,
    view: GameView,
    now: datetime,
) -> GameEvent:
    """The judged entry written under the game's row lock, and the game's outcome taken
    from the state after it (an end, or an undo after one, is analysed after the commit);
    the live table's snapshot is made from `view`, the game as judged, after the commit."""
    try:
        with transaction.atomic():
            entry = GameEvent.objects.create(
                game=game,
                seq=game.last_seq + 1,
                type=str(shaped["type"]),
                payload=shaped,
                author=author,
                client_id=client_id,
            )
    except IntegrityError as error:  # the row lock makes this a backstop only
        raise Refused(_("The game has changed: reload."), RefusalCode.STALE) from error
    game.last_seq = entry.seq
    was_finished = game.finished
    game.take_outcome(view.state, now)
    game.save(update_fields=["last_seq", *Game.OUTCOME_FIELDS])
    live_on_commit(game.pk, view)  # first: the analysis writes it again with the scores
    if game.finished or was_finished:  # the end, or an undo after it
        game_analyse_on_commit(game.pk)
    return entry


def _as_stored(payload: Mapping[str, Any]) -> dict[str, Any]:
    """An entry's payload as the log reads it back (the JSON column's round trip)."""
    stored: dict[str, Any] = json.loads(json.dumps(payload))
    return stored


def _confirm_message(outcome: Consequence) -> str:
    parts = []
    if outcome.get("waiting"):
        codes = [item["role"] for item in outcome.get("waiting", [])]
        names = {role.code: role.name for role in Role.objects.filter(code__in=codes)}
        roles = ", ".join(names.get(code, code) for code in codes)
        parts.append(_("Not acted tonight: %(roles)s.") % {"roles": roles})
    for seat in outcome["removes"]:
        why = REASONS.get(outcome["reasons"].get(str(seat), ""), "")
        parts.append(_("Seat %(seat)s leaves the table: %(why)s.") % {"seat": seat, "why": why})
    if outcome["winner"]:
        parts.append(_("This ends the game."))
    return " ".join([*parts, _("Record it?")])


def live_on_commit(game_id: int, view: GameView | None = None) -> None:
    """The live table's public snapshot is written again once this commits (games/live.py;
    imported here, not at the top: it reads the game through games.queries, which folds it
    through this module): from `view` when the caller has the game as it judged it, else
    read."""
    from games import live

    live.snapshot_on_commit(game_id, view)


def game_analyse_on_commit(game_id: int) -> None:
    """Build the game's analysis in the worker once this transaction commits."""
    queue_on_commit("games.ratings.tasks.game_analyse", game_id)
