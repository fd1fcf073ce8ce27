"""One event of a club game, from either door that records one: the host screen's tap
(`POST /games/<id>/tap/`, games/views.py) and the API (`POST /api/v1/games/{id}/events`,
games/api.py). One reading of the body, one call of the service, one refusal: the doors
differ only in where the event sits in the body and in what a success answers.

The body: the tap's `{"seq", "client_id", "event": {...}, "confirmed"}`, or the API's
event with `seq`, `client_id` (and `confirmed`) beside its own fields. A refusal is the one
error body, `{"detail", "code", ...details}`; a stale one also carries the log as it stands
(`seq`, `log`, `table`), so a phone shows what the other device recorded.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from club.kernel import parsing
from club.kernel.errors import RefusalCode, Refused
from games import host_screen
from games.queries import game_view
from games.ratings.services import bonus_scheme
from games.recording import Recorded, game_record_tap, recording_locked

NOT_A_TAP = gettext_lazy("That did not look like a tap on this screen; try again.")
# The fields of a body that are the door's, not the event's.
ENVELOPE = ("seq", "client_id", "confirmed")


@dataclass(frozen=True)
class Tap:
    event: dict[str, object]  # as it came: events.normalize shapes it (games/recording.py)
    seq: int | None
    client_id: str | None
    confirmed: bool


def _json(raw: bytes) -> object:
    try:
        return parsing.loads(raw)
    except parsing.UnstorableText as unstorable:
        raise Refused(unstorable.message, RefusalCode.INVALID) from unstorable
    except parsing.Unreadable as unreadable:
        raise Refused(unreadable.message, RefusalCode.UNREADABLE) from unreadable
    except (ValueError, UnicodeDecodeError) as error:
        raise Refused(_("The request body is not valid JSON."), RefusalCode.UNREADABLE) from error


def tap_read(body: object, *, nested: bool, confirmed_unless_said: bool) -> Tap:
    """The event and its envelope, or a refusal: `nested`, the event is under "event"
    (the tap); else its fields sit beside the envelope's (the API). `confirmed_unless_said`:
    the API's caller means what it sends; the host's screen asks first and says so."""
    if not isinstance(body, dict):
        raise Refused(NOT_A_TAP, RefusalCode.INVALID)
    event = body.get("event") if nested else {k: v for k, v in body.items() if k not in ENVELOPE}
    seq, client_id = body.get("seq"), body.get("client_id")
    confirmed = body.get("confirmed", confirmed_unless_said)
    if (
        not isinstance(event, dict)
        or (seq is not None and type(seq) is not int)
        or (client_id is not None and not isinstance(client_id, str))
        or not isinstance(confirmed, bool)
    ):
        raise Refused(NOT_A_TAP, RefusalCode.INVALID)
    return Tap(event=event, seq=seq, client_id=client_id, confirmed=confirmed)


def tap_record(
    *, game_id: int, author: User, raw: bytes, nested: bool, confirmed_unless_said: bool
) -> Recorded:
    """Who may record is checked before a byte of the body is read (its size was checked
    by the body limit middleware, club/kernel/bodies.py); then the body, then the service,
    in the one transaction whose lock of the game's row the check took. The answer carries
    the game as the service judged it (Recorded.view): the door renders it, reading nothing
    again."""
    try:
        with transaction.atomic():
            recording = recording_locked(game_id=game_id, author=author)
            tap = tap_read(_json(raw), nested=nested, confirmed_unless_said=confirmed_unless_said)
            return game_record_tap(
                recording,
                author=author,
                event=tap.event,
                seq=tap.seq,
                client_id=tap.client_id,
                confirmed=tap.confirmed,
                # Extra points keep to the bounds of the scheme that scores the game.
                scheme=bonus_scheme(recording.game) if tap.event.get("type") == "bonus" else None,
            )
    except Refused as refusal:
        if refusal.code != RefusalCode.STALE:
            raise
        raise _with_the_log(refusal, game_id) from refusal


def _with_the_log(refusal: Refused, game_id: int) -> Refused:
    """A stale tap's refusal with the log as it stands: the phone redraws from it."""
    view = game_view(game_id)
    if view is None:
        return refusal
    standing = {"seq": view.game.last_seq, "log": view.log, "table": host_screen.table_of(view)}
    return Refused(refusal.message, refusal.code, **{**refusal.details, **standing})
