"""An online game's table, read once: the game, its schedule, its seats, its effective
events and the engine's fold over them; and `TableView`, the table as one viewer may see it
(games/access.py decides what), which the page, the bot and the API all render."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TypedDict, cast

from django.utils.translation import gettext as _

from club.kernel.errors import RefusalCode, Refused
from games import access
from games.access import Viewer
from games.models import Game, Ruleset, Seat
from games.online.models import MafiaMessage, OnlineTable
from games.online.texts import check_answer, online_role
from games.recording import fold
from games.rules.event_types import OnlineEvent
from games.rules.online import MAX_VOTES_A_DAY, OnlineGame
from games.rules.online.state import CatastropheDict, CheckDict, Choice, EliminationDict


@dataclass(frozen=True)
class Table:
    game: Game
    table: OnlineTable
    seats: list[Seat]
    events: list[OnlineEvent]  # as the log stores them: each normalized and judged
    state: OnlineGame

    def seat_of(self, viewer: Viewer) -> Seat | None:
        return access.seat_of(viewer, self.seats)

    def runs(self, viewer: Viewer) -> bool:
        return access.runs(viewer, self.game, self.seats)

    def seen_by(self, viewer: Viewer) -> bool:
        return access.sees_table(viewer, self.game, self.seats)

    def nick(self, seat: int) -> str:
        return next((s.player.nickname for s in self.seats if s.number == seat), "")


def online_table(game_id: int) -> Table | None:
    """Four queries whatever the game's length: the game, its schedule, its seats, its log."""
    game = Game.objects.filter(pk=game_id, ruleset=Ruleset.ONLINE).select_related("host").first()
    if game is None:
        return None
    table = OnlineTable.objects.get(game=game)
    seats = list(Seat.objects.filter(game=game).select_related("member").order_by("number"))
    events = game.events.effective()
    state = fold(game, seats, events)
    assert isinstance(state, OnlineGame)
    # Every event was normalized (games/rules/events.py) and judged when it was appended,
    # and the fold above has just judged them again: they are the online ruleset's events.
    return Table(game, table, seats, cast(list[OnlineEvent], events), state)


def online_table_seen(game_id: int, viewer: Viewer) -> Table:
    """The table for a viewer at it, or the refusal every door gives (page, API)."""
    found = online_table(game_id)
    if found is None:
        raise Refused(_("There is no such game."), RefusalCode.NOT_FOUND)
    access.refuse_unless_sees_table(viewer, found.game, found.seats)
    return found


class CheckView(CheckDict):
    """A check the viewer may read, with its answer in words."""

    answer: str


class ShotView(TypedDict):
    """A mafioso's own shot: a seat, or None (no shot)."""

    target: int | None


@dataclass(frozen=True)
class SeatLine:
    seat: int
    nick: str
    alive: bool
    warnings: int
    role: str | None  # None where the viewer may not see it
    role_name: str


@dataclass(frozen=True)
class Line:
    """A post in the thread, or a message of the mafia's chat."""

    seat: int
    nick: str
    text: str
    at: str | datetime | None  # ISO text in the log (None: not stamped), a datetime in the chat


@dataclass(frozen=True)
class StoryLine:
    """A line of the game's story (games/rules/online/state.Story) as the thread shows it: the
    seats with their nicknames, a post's text and the moment it was written."""

    position: int  # its place in the story, from 0: the page's id of the line
    index: int
    kind: str
    phase: str
    n: int
    seat: int | None
    nick: str
    target: Choice | None  # a vote's choice
    target_nick: str
    seats: list[tuple[int, str]]
    detail: str
    text: str
    at: datetime | None


@dataclass(frozen=True)
class Ballot:
    """The day's tally for one choice: a seat (or PASS) and who voted for it, publicly."""

    target: Choice
    nick: str
    voters: list[tuple[int, str]]


@dataclass(frozen=True)
class TableView:
    game_id: int
    number: int
    status: str
    winner: str | None
    phase: str
    n: int
    open: bool
    outcome: str | None
    starts_at: datetime
    deadline_at: datetime | None
    seats: list[SeatLine]
    votes: dict[str, Choice]  # voter's seat → a seat or "pass"
    tally: dict[str, int]
    fasted: list[int]
    catastrophe: CatastropheDict | None
    eliminated: list[EliminationDict]
    thread: list[Line]
    my_seat: int | None
    my_role: str | None
    my_checks: list[CheckView]
    host: bool
    legal: list[str]  # what the engine takes now (the host's moderation included)
    my_actions: list[str]  # what the viewer, as a player, may do now (the engine's answer)
    mafia_chat: list[Line] | None  # None where the viewer may not read it
    story: list[StoryLine]  # the game as its thread tells it (public)
    ballots: list[Ballot]  # the day's tally with its voters, the most voted first
    silent: list[int]  # living players who have not voted today
    my_vote: Choice | None  # the viewer's vote today (a seat or "pass"), and how many they cast
    my_votes_cast: int
    my_next_vote_final: bool  # the viewer has voted once: the next vote is the one change
    my_vote_final: bool  # the viewer's change is spent
    fast_night_at: datetime | None  # everyone fasted: when the fast night comes
    my_shot: ShotView | None  # a mafioso's own shot tonight (or left for it), if any

    @property
    def my_role_name(self) -> str:
        return online_role(self.my_role) if self.my_role else ""

    @property
    def alive(self) -> list[SeatLine]:
        return [seat for seat in self.seats if seat.alive]

    @property
    def my_seat_alive(self) -> bool:
        return any(seat.seat == self.my_seat and seat.alive for seat in self.seats)


def table_view(found: Table, viewer: Viewer) -> TableView:
    """The game as this viewer may see it: the public thread and tally; their own role, the
    mafia's partners and chat, and their own checks' answers; all of it to the host."""
    state, mine, game = found.state, found.seat_of(viewer), found.game
    prompt = state.prompt()
    over = game.finished
    host = found.runs(viewer)
    nick = {s.number: s.player.nickname for s in found.seats}
    cast = state.vote_count.get(mine.number, 0) if mine else 0
    return TableView(
        game_id=game.pk,
        number=game.number,
        status=game.status,
        winner=game.winner or None,
        phase=state.phase.value,
        n=state.n,
        open=state.open,
        outcome=state.outcome,
        starts_at=found.table.starts_at,
        deadline_at=found.table.deadline_at,
        seats=_seat_lines(found, mine, over=over, host=host),
        votes={str(voter): target for voter, target in state.votes.items()},
        tally={str(key): count for key, count in state.tally().items()},
        fasted=sorted(state.fasted),
        catastrophe=prompt["catastrophe"],
        eliminated=[e.as_dict(over) for e in state.eliminated],
        thread=_thread(found.events, nick),
        my_seat=mine.number if mine else None,
        my_role=mine.role if mine else None,
        my_checks=_own_checks(state, mine, over=over, host=host),
        host=host,
        legal=prompt["legal"] if (mine or host) and not over else [],
        my_actions=list(state.actions_for(mine.number)) if mine else [],
        mafia_chat=_mafia_chat(game, mine, nick, host=host),
        story=_story(found, nick),
        ballots=_ballots(state, nick),
        silent=_silent(state),
        my_vote=state.votes.get(mine.number) if mine else None,
        my_votes_cast=cast,
        my_next_vote_final=cast == MAX_VOTES_A_DAY - 1,
        my_vote_final=cast >= MAX_VOTES_A_DAY,
        fast_night_at=_fast_night_at(found),
        my_shot=_own_shot(state, mine.number) if mine else None,
    )


def _name(nick: dict[int, str], seat: Choice | None) -> str:
    """A seat's nickname; "" for what is not a seat (PASS, a vote's word, nobody)."""
    return nick.get(seat, "") if isinstance(seat, int) else ""


def _moment(event: OnlineEvent) -> datetime | None:
    at = event.get("at")
    try:
        return datetime.fromisoformat(at) if isinstance(at, str) else None
    except ValueError:
        return None


def _thread(events: list[OnlineEvent], nick: dict[int, str]) -> list[Line]:
    return [
        Line(e["seat"], nick.get(e["seat"], ""), e.get("text", ""), e.get("at"))
        for e in events
        if e["type"] == "post"
    ]


def _text(event: Mapping[str, object]) -> str:
    """A post's text ("" for an event without one)."""
    return str(event.get("text", ""))


def _own_checks(state: OnlineGame, mine: Seat | None, *, over: bool, host: bool) -> list[CheckView]:
    """The checks this viewer may read the answers of: their own (the host's: all)."""
    return [
        {**c.as_dict(), "answer": check_answer(c.result)}
        for c in state.checks
        if access.sees_check(c.by, mine, over=over, host=host)
    ]


def _seat_lines(found: Table, mine: Seat | None, *, over: bool, host: bool) -> list[SeatLine]:
    """Every seat, with its role where this viewer may see it."""
    state = found.state
    lines = []
    for seat in found.seats:
        sees = access.sees_online_role(seat, mine, over=over, host=host)
        role = seat.role if sees else None
        lines.append(
            SeatLine(
                seat=seat.number,
                nick=seat.player.nickname,
                alive=seat.number in state.alive,
                warnings=state.warnings.get(seat.number, 0),
                role=role,
                role_name=online_role(role) if role else "",
            )
        )
    return lines


def _story(found: Table, nick: dict[int, str]) -> list[StoryLine]:
    return [
        StoryLine(
            position=position,
            index=line.index,
            kind=line.kind,
            phase=line.phase,
            n=line.n,
            seat=line.seat,
            nick=_name(nick, line.seat),
            target=line.target,
            target_nick=_name(nick, line.target),
            seats=[(seat, _name(nick, seat)) for seat in line.seats],
            detail=line.detail,
            text=_text(found.events[line.index]),
            at=_moment(found.events[line.index]),
        )
        for position, line in enumerate(found.state.story)
    ]


def _ballots(state: OnlineGame, nick: dict[int, str]) -> list[Ballot]:
    """The day's votes by choice, the most voted first and PASS last."""
    by_target: dict[Choice, list[tuple[int, str]]] = {}
    for voter, target in sorted(state.votes.items()):
        by_target.setdefault(target, []).append((voter, _name(nick, voter)))
    return sorted(
        (Ballot(target, _name(nick, target), voters) for target, voters in by_target.items()),
        key=lambda ballot: (ballot.target == "pass", -len(ballot.voters), str(ballot.target)),
    )


def _mafia_chat(
    game: Game, mine: Seat | None, nick: dict[int, str], *, host: bool
) -> list[Line] | None:
    """The mafia's chat, or None where this viewer may not read it."""
    if not access.sees_mafia_chat(mine, host=host):
        return None
    return [
        Line(m.seat, nick.get(m.seat, ""), m.text, m.created_at)
        for m in MafiaMessage.objects.filter(game=game)
    ]


def _silent(state: OnlineGame) -> list[int]:
    """On an open day (no catastrophe round): the living players who have not voted."""
    day_open = state.phase.value == "day" and state.open and state.catastrophe is None
    return sorted(state.alive - set(state.votes)) if day_open else []


def _fast_night_at(found: Table) -> datetime | None:
    """Everyone fasted and the day closed: the fast night comes at the schedule's deadline."""
    state = found.state
    fast_night = state.ended_by_fast and state.phase.value == "day" and not state.open
    return found.table.deadline_at if fast_night else None


def _own_shot(state: OnlineGame, seat: int) -> ShotView | None:
    shots = state.shots if state.phase.value == "night" else state.advance_shots
    return {"target": shots[seat]} if seat in shots else None
