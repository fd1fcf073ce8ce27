"""Online games as the club plays them between Sundays (RULES.md §D): the platform runs the
game, the host only moderates.

A host creates a game for ten members; the roles are dealt at once and told privately (the
mafia learn each other and get a chat for the 30 minutes before the start). Every action,
a player's or the host's, is a protocol event appended to the game's log under the game's
row lock and judged by the online engine (games/rules/online.py). The schedule lives on
`OnlineTable.deadline_at`: the sweep (every minute) finds the games whose step is due and
takes it — start day 1, close a phase, start the next — so a missed run only delays it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.services import member_is_of_age, refuse_unless_active
from club.errors import FORBIDDEN, INVALID, NOT_FOUND, Refused
from games import access
from games.models import Game, GameEvent, GameStatus, Ruleset, Seat
from games.online import texts
from games.online.models import MafiaMessage, OnlineTable
from games.rules import events as event_shapes
from games.rules.errors import ProtocolError, RuleViolation
from games.rules.log import effective_events
from games.rules.online import BLACK_ROLES, LINEUP, OnlineGame, OnlineOptions
from games.services import fold, game_analyse_on_commit, next_online_number, rules_language
from notifications.services import notification_enqueue

PLAYERS = sum(LINEUP.values())
MAFIA_CHAT = timedelta(minutes=30)
PLAYER_ACTIONS = {"vote", "fast", "unfast", "post", "revote", "shot", "don_check", "com_check"}
HOST_ACTIONS = {"warning", "modkill", "extend", "day_end", "night_end"}
# The field of each player action that names the player's own seat.
OWN_SEAT = {
    "vote": "voter",
    "fast": "voter",
    "unfast": "voter",
    "revote": "voter",
    "post": "seat",
    "shot": "by",
}


# --- creating a game -------------------------------------------------------------------


def online_game_create(
    *,
    host: User,
    member_ids: list[int],
    starts_at: datetime,
    day_minutes: int = 720,
    night_minutes: int = 240,
    rng: random.Random | None = None,
) -> Game:
    if not access.may_host(host):
        raise Refused(_("Only the club's hosts and admins start games."), "forbidden", FORBIDDEN)
    if len(member_ids) != PLAYERS or len(set(member_ids)) != PLAYERS:
        raise Refused(_("An online game is for ten different members."), "invalid", INVALID)
    access.refuse_host_at_table(host, member_ids)
    if not 10 <= day_minutes <= 7 * 24 * 60 or not 10 <= night_minutes <= 7 * 24 * 60:
        raise Refused(_("A phase lasts from 10 minutes to a week."), "invalid", INVALID)
    if starts_at < timezone.now() - timedelta(minutes=1):
        raise Refused(_("The start is in the past."), "invalid", INVALID)
    members = {m.pk: m for m in User.objects.filter(pk__in=member_ids, is_active=True)}
    if len(members) != PLAYERS:
        raise Refused(_("Some of the invited are not members of the club."), "invalid", INVALID)
    day = timezone.localdate(starts_at)
    for member in members.values():
        if not member.can_sign_up_for_evenings:
            raise Refused(
                _("%(nick)s is suspended and cannot play.") % {"nick": member.nickname},
                "invalid",
                INVALID,
            )
        if not member_is_of_age(member=member, on=day):
            raise Refused(
                _("%(nick)s is under the club's age.") % {"nick": member.nickname},
                "invalid",
                INVALID,
            )
    rng = rng or random.SystemRandom()
    cards = [role for role, count in LINEUP.items() for _ in range(count)]
    rng.shuffle(cards)
    order = list(member_ids)
    rng.shuffle(order)
    with transaction.atomic():
        number = next_online_number()
        game = Game.objects.create(
            evening=None,
            number=number,
            host=host,
            ruleset=Ruleset.ONLINE,
            options=OnlineOptions().to_dict(),
            lineup=dict(LINEUP),
        )
        seats = Seat.objects.bulk_create(
            Seat(game=game, number=n, member=members[m], role=role)
            for n, (m, role) in enumerate(zip(order, cards, strict=True), start=1)
        )
        OnlineTable.objects.create(
            game=game,
            starts_at=starts_at,
            day_minutes=day_minutes,
            night_minutes=night_minutes,
            deadline_at=starts_at,
        )
        mafia = [s for s in seats if s.role in BLACK_ROLES]
        for seat in seats:
            partners = [f"{s.number}. {members[s.member_id].nickname}" for s in mafia if s != seat]
            _tell(
                game,
                seat.member,
                f"deal:{seat.number}",
                texts.online_dealt(
                    number=game.number,
                    seat=seat.number,
                    role=seat.role,
                    starts_at=starts_at,
                    partners=partners if seat.role in BLACK_ROLES else [],
                ),
            )
    return game


def _tell(game: Game, member: User, key: str, text: str) -> None:
    notification_enqueue(dedupe_key=f"online:{game.pk}:{key}:{member.pk}", member=member, text=text)


# --- what a player (or the host) sees --------------------------------------------------


@dataclass(frozen=True)
class Table:
    game: Game
    table: OnlineTable
    seats: list[Seat]
    events: list[dict[str, Any]]
    state: OnlineGame

    def seat_of(self, user: Any) -> Seat | None:
        return access.seat_of(user, self.seats)

    def runs(self, user: Any) -> bool:
        return access.runs(user, self.game, self.seats)


def online_table(game_id: int) -> Table | None:
    game = Game.objects.filter(pk=game_id, ruleset=Ruleset.ONLINE).select_related("host").first()
    if game is None:
        return None
    table = OnlineTable.objects.get(game=game)
    seats = list(Seat.objects.filter(game=game).select_related("member").order_by("number"))
    events = effective_events(list(game.events.order_by("seq").values_list("payload", flat=True)))
    return Table(game, table, seats, events, fold(game, seats, events))  # type: ignore[arg-type]


def may_see_table(found: Table, user: Any) -> bool:
    """The table is its players' and its host's (an admin may take over as host); what is
    published of it, with every member's consent respected, is its analysis."""
    return found.seat_of(user) is not None or found.runs(user)


def online_view(found: Table, user: Any) -> dict[str, Any]:
    """The game as this user may see it: the public thread and tally; their own role, the
    mafia's partners and chat, and their own checks' answers."""
    state, mine = found.state, found.seat_of(user)
    prompt = state.prompt()
    over = found.game.finished
    host = found.runs(user)
    nick = {s.number: s.member.nickname for s in found.seats}
    black = mine is not None and mine.role in BLACK_ROLES
    view: dict[str, Any] = {
        "game_id": found.game.pk,
        "number": found.game.number,
        "status": found.game.status,
        "winner": found.game.winner or None,
        "phase": state.phase.value,
        "n": state.n,
        "open": state.open,
        "outcome": state.outcome,
        "starts_at": found.table.starts_at,
        "deadline_at": found.table.deadline_at,
        "seats": [
            {
                "seat": s.number,
                "nick": nick[s.number],
                "alive": s.number in state.alive,
                "warnings": state.warnings.get(s.number, 0),
                # Roles are closed until the end, except one's own, the mafia's to each other
                # and all of them to the host.
                "role": s.role
                if over or host or (mine and (s == mine or (black and s.role in BLACK_ROLES)))
                else None,
            }
            for s in found.seats
        ],
        "votes": {str(v): t for v, t in state.votes.items()},
        "tally": {str(k): v for k, v in state.tally().items()},
        "fasted": sorted(state.fasted),
        "catastrophe": prompt["catastrophe"],
        "eliminated": [e.as_dict(over) for e in state.eliminated],
        "thread": [
            {
                "seat": e["seat"],
                "nick": nick.get(e["seat"], ""),
                "text": e.get("text", ""),
                "at": e.get("at"),
            }
            for e in found.events
            if e.get("type") == "post"
        ],
        "my_seat": mine.number if mine else None,
        "my_role": mine.role if mine else None,
        "my_checks": [
            c.as_dict() for c in state.checks if (mine and c.by == mine.number) or over or host
        ],
        "host": host,
        "legal": prompt["legal"] if (mine or host) and not over else [],
    }
    if black or host:
        view["mafia_chat"] = [
            {"seat": m.seat, "nick": nick.get(m.seat, ""), "text": m.text, "at": m.created_at}
            for m in MafiaMessage.objects.filter(game=found.game)
        ]
    return view


# --- acting --------------------------------------------------------------------------------


def online_act(*, game_id: int, user: User, event: Mapping[str, Any]) -> Table:
    """A player's or the host's action, as a protocol event judged by the engine."""
    refuse_unless_active(user)
    if not isinstance(event, Mapping) or not isinstance(event.get("type"), str):
        raise Refused(_("An action is an object with a type."), "invalid", INVALID)
    kind = event["type"]
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id, ruleset=Ruleset.ONLINE).first()
        if game is None:
            raise Refused(_("There is no such game."), "not_found", NOT_FOUND)
        found = online_table(game.pk)
        assert found is not None
        shaped = dict(event)
        if kind in PLAYER_ACTIONS:
            seat = found.seat_of(user)
            if seat is None:
                raise Refused(_("Only the game's players act in it."), "forbidden", FORBIDDEN)
            if kind in OWN_SEAT:
                shaped[OWN_SEAT[kind]] = seat.number  # a player acts for their own seat only
            if kind in ("don_check", "com_check"):
                needed = "don" if kind == "don_check" else "commissar"
                if seat.role != needed:
                    raise Refused(_("That check is not yours to make."), "forbidden", FORBIDDEN)
        elif kind in HOST_ACTIONS:
            if not found.runs(user):
                raise Refused(_("Only the game's host moderates it."), "forbidden", FORBIDDEN)
        else:
            raise Refused(_("That is not an action of the online game."), "invalid", INVALID)
        was_open, out_before = found.state.open, len(found.state.eliminated)
        _append(found, shaped, user)
        _after(
            found,
            kind,
            shaped,
            # The day resolved by this vote or fast: everyone has fasted.
            resolved=kind in ("day_end", "night_end")
            or (was_open and not found.state.open and kind in ("fast", "vote")),
            removed=[e.seat for e in found.state.eliminated[out_before:]]
            if kind in ("warning", "modkill")
            else [],
        )
    return found


def online_mafia_say(*, game_id: int, user: User, text: str) -> None:
    refuse_unless_active(user)
    found = online_table(game_id)
    if found is None:
        raise Refused(_("There is no such game."), "not_found", NOT_FOUND)
    seat = found.seat_of(user)
    if seat is None or seat.role not in BLACK_ROLES:
        raise Refused(_("The chat is the mafia's."), "forbidden", FORBIDDEN)
    now = timezone.now()
    if not found.table.starts_at - MAFIA_CHAT <= now < found.table.starts_at:
        raise Refused(
            _("The mafia's chat is open for the 30 minutes before the start."), "invalid", INVALID
        )
    text = (text or "").strip()
    if not 1 <= len(text) <= 2000 or "\x00" in text:
        raise Refused(_("A message is 1 to 2000 characters."), "invalid", INVALID)
    MafiaMessage.objects.create(game=found.game, seat=seat.number, text=text)


def _append(found: Table, event: dict[str, Any], author: User | None) -> None:
    """Judge the event on the current state and append it (the caller holds the lock)."""
    game = found.game
    try:
        shaped = event_shapes.normalize(event, Ruleset.ONLINE)
    except ProtocolError as error:
        raise Refused(error.message(rules_language()), "invalid", INVALID) from error
    shaped.setdefault("at", timezone.now().isoformat())
    state = found.state
    try:
        state.apply(shaped)
    except (RuleViolation, ProtocolError) as error:
        raise Refused(error.message(rules_language()), "invalid", INVALID) from error
    GameEvent.objects.create(
        game=game, seq=game.last_seq + 1, type=shaped["type"], payload=shaped, author=author
    )
    game.last_seq += 1
    was_finished = game.finished
    game.take_outcome(state, timezone.now())
    if game.finished and not was_finished:
        game_analyse_on_commit(game.pk)
    game.save(update_fields=["last_seq", *Game.OUTCOME_FIELDS])
    found.events.append(shaped)


def _after(
    found: Table, kind: str, event: Mapping[str, Any], *, resolved: bool, removed: list[int]
) -> None:
    """What follows an action: a private answer, a new deadline, the next phase."""
    state, table, now = found.state, found.table, timezone.now()
    if kind in ("don_check", "com_check"):
        check = state.checks[-1]
        checker = next(s for s in found.seats if s.number == check.by)
        _tell(
            found.game,
            checker.member,
            f"check:{state.n}:{kind}",
            texts.online_check(night=state.n, target=check.target, result=check.result),
        )
    if removed:
        nick = {s.number: s.member.nickname for s in found.seats}
        names = [f"{seat}. {nick[seat]}" for seat in removed]
        _everyone(
            found,
            f"removed:{found.game.pk}:{found.game.last_seq}",
            texts.online_removed(names=names),
        )
    if kind == "extend" and table.deadline_at:
        table.deadline_at += timedelta(minutes=int(event["minutes"]))
        table.save(update_fields=["deadline_at"])
    elif resolved:  # closed by the host, or by everyone's fast
        _followed(found, now)
    elif state.finished:  # the host removed the last of a side
        table.deadline_at = None
        table.save(update_fields=["deadline_at"])
        _announce_end(found)


def _followed(found: Table, now: datetime) -> None:
    """After a phase closed: schedule or take the next step, and tell the players."""
    state, table = found.state, found.table
    _announce_outcome(found)
    if state.finished:
        table.deadline_at = None
        _announce_end(found)
    elif state.open:  # a catastrophe round began
        table.deadline_at = now + timedelta(minutes=table.catastrophe_minutes)
    elif state.outcome == "fast":
        table.deadline_at = now + timedelta(minutes=table.fast_night_minutes)
    else:
        table.deadline_at = now
        table.save(update_fields=["deadline_at"])
        _step(found, now)
        return
    table.save(update_fields=["deadline_at"])


def online_sweep(now: datetime | None = None) -> int:
    """Take every due step of every running online game; returns how many were taken."""
    now = now or timezone.now()
    due = OnlineTable.objects.filter(
        deadline_at__lte=now, game__status=GameStatus.RUNNING
    ).values_list("game_id", flat=True)
    taken = 0
    for game_id in list(due):
        with transaction.atomic():
            game = Game.objects.select_for_update().filter(pk=game_id).first()
            found = online_table(game_id) if game else None
            if found is None or found.table.deadline_at is None or found.table.deadline_at > now:
                continue  # another sweep took it
            _step(found, now)
            taken += 1
    return taken


def _step(found: Table, now: datetime) -> None:
    state, table = found.state, found.table
    if state.phase.value == "setup":
        _append(found, {"type": "day", "n": 1}, None)
        table.deadline_at = now + timedelta(minutes=table.day_minutes)
        table.save(update_fields=["deadline_at"])
        _announce_phase(found)
        return
    if state.open:  # the deadline closes the phase
        _append(found, {"type": "day_end" if state.phase.value == "day" else "night_end"}, None)
        _followed(found, now)
        return
    if state.phase.value == "day":
        _append(found, {"type": "night", "n": state.n}, None)
        table.deadline_at = now + timedelta(minutes=table.night_minutes)
    else:
        _append(found, {"type": "day", "n": state.n + 1}, None)
        table.deadline_at = now + timedelta(minutes=table.day_minutes)
    table.save(update_fields=["deadline_at"])
    if found.state.finished:
        _announce_end(found)
    else:
        _announce_phase(found)


# --- telling the players ------------------------------------------------------------------


def _everyone(found: Table, key: str, text: str) -> None:
    for seat in found.seats:
        _tell(found.game, seat.member, key, text)


def _announce_phase(found: Table) -> None:
    state = found.state
    key = f"phase:{state.phase.value}:{state.n}"
    until = found.table.deadline_at
    _everyone(found, key, texts.online_phase(phase=state.phase.value, n=state.n, until=until))
    if state.phase.value == "night":
        for seat in found.seats:
            if seat.number in state.alive and seat.role in ("don", "mafia", "commissar"):
                _tell(
                    found.game,
                    seat.member,
                    f"turn:{state.n}",
                    texts.online_night_turn(role=seat.role, n=state.n),
                )


def _announce_outcome(found: Table) -> None:
    state = found.state
    nick = {s.number: s.member.nickname for s in found.seats}
    out = [
        e
        for e in state.eliminated
        if (e.phase, e.n) == (state.phase.value, state.n) and e.reason in ("voted", "killed")
    ]
    text = texts.online_outcome(
        phase=state.phase.value,
        n=state.n,
        outcome=state.outcome or "",
        out=[f"{e.seat}. {nick[e.seat]}" for e in out],
        tied=[f"{s}. {nick[s]}" for s in (state.catastrophe.tied if state.catastrophe else [])],
    )
    _everyone(found, f"outcome:{state.phase.value}:{state.n}:{found.game.last_seq}", text)


def _announce_end(found: Table) -> None:
    _everyone(
        found, "end", texts.online_end(number=found.game.number, winner=found.state.winner or "")
    )
