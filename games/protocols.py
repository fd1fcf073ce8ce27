"""The protocol document (PROTOCOL.md) of a game: exported from its log, and imported as a
club game (the admin's) or read for the online room's import."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.validation import login_key
from club.kernel.errors import RefusalCode, Refused
from club.models import (
    Evening,
)
from games import access
from games.models import Game, GameEvent, Ruleset, Seat
from games.recording import Engine, game_analyse_on_commit
from games.rules import protocol
from games.rules.errors import ProtocolError
from games.rules.event_types import ClubEntry, OnlineEvent
from games.rules.log import effective_events
from games.rules.online import OnlineOptions
from games.rules.options import ClubOptions
from games.rules_text import rule_refused, rules_message
from games.starting import lineup_of


def game_protocol(
    game: Game, seats: Sequence[Seat], log: Sequence[Mapping[str, object]]
) -> dict[str, Any]:
    """PROTOCOL.md's document: the options the game was played with and the effective
    events (the undone ones are not exported)."""
    return protocol.export(
        seats=[protocol.Seat(s.number, access.seat_nickname(s), s.role) for s in seats],
        events=effective_events(log),
        options=(
            OnlineOptions.from_dict(game.options)
            if game.ruleset == Ruleset.ONLINE
            else ClubOptions.from_dict(game.options)
        ),
        immune=game.immune,
    )


@dataclass(frozen=True)
class Imported:
    """A protocol document read for import: parsed, replayed without a failure, its nicks
    matched to members, its events as the log stores them."""

    parsed: protocol.Protocol
    state: Engine
    members: dict[str, User]
    events: list[ClubEntry | OnlineEvent]


def protocol_read(document: Any, *, host: User) -> Imported:
    """Every check of an import but the ruleset's own: the document's shape, every event's
    shape and the rules (as a live event's), the members, the host not at the table."""
    try:
        parsed = protocol.parse(document)
    except ProtocolError as error:
        raise rule_refused(error) from error
    state, failure = protocol.replay(parsed)
    if failure is not None:
        raise rule_refused(
            failure.error,
            _("Event %(index)d: %(error)s")
            % {"index": failure.index, "error": rules_message(failure.error)},
        ) from failure.error
    members = _members_by_nick([seat.nick for seat in parsed.seats])
    access.refuse_host_at_table(host, [member.pk for member in members.values()])
    return Imported(parsed, state, members, protocol.normalized_events(parsed))


def protocol_store(
    imported: Imported, *, evening: Evening | None, number: int, host: User, author: User
) -> Game:
    """The game, its seats and its log as the document has them (in the caller's
    transaction); its analysis is queued if it ended."""
    parsed = imported.parsed
    game = Game.objects.create(
        evening=evening,
        number=number,
        host=host,
        ruleset=parsed.ruleset,
        options=parsed.options.to_dict(),
        lineup=lineup_of(seat.role for seat in parsed.seats),
        immune=list(parsed.immune),
        last_seq=len(imported.events),
    )
    Seat.objects.bulk_create(
        Seat(game=game, number=s.seat, member=imported.members[login_key(s.nick)], role=s.role)
        for s in parsed.seats
    )
    GameEvent.objects.bulk_create(
        GameEvent(game=game, seq=n, type=e["type"], payload=e, author=author)
        for n, e in enumerate(imported.events, start=1)
    )
    game.take_outcome(imported.state, timezone.now())
    game.save(update_fields=list(Game.OUTCOME_FIELDS))
    if game.finished:
        game_analyse_on_commit(game.pk)
    return game


def game_import(*, document: Any, evening_id: int, host: User, author: User) -> Game:
    """A club game from a protocol document (admin), numbered after its evening's others.
    (An online protocol is the online room's: games/online/services.online_game_import.)"""
    imported = protocol_read(document, host=host)
    if imported.parsed.ruleset != Ruleset.CLUB:
        raise Refused(
            _("An online game belongs to no evening: leave the evening empty."), RefusalCode.INVALID
        )
    with transaction.atomic():
        evening = Evening.objects.select_for_update().filter(pk=evening_id).first()
        if evening is None:
            raise Refused(_("There is no such evening."), RefusalCode.NOT_FOUND)
        number = Game.objects.filter(evening=evening).count() + 1
        return protocol_store(imported, evening=evening, number=number, host=host, author=author)


def _members_by_nick(nicks: Sequence[str]) -> dict[str, User]:
    """The members a protocol's nicks name (matched as logins are), or Refused naming
    those that name nobody."""
    keys = {login_key(nick) for nick in nicks}
    members = {m.nickname_key: m for m in User.objects.filter(nickname_key__in=keys)}
    missing = [nick for nick in nicks if login_key(nick) not in members]
    if missing:
        raise Refused(
            _("No member has the nickname: %(nicks)s.") % {"nicks": ", ".join(missing)},
            RefusalCode.INVALID,
        )
    return members


def next_online_number() -> int:
    online = Game.objects.filter(ruleset=Ruleset.ONLINE)
    return (online.aggregate(n=Max("number"))["n"] or 0) + 1
