"""What a tournament's pages show: its rounds' seating (by table and, for the reader, «where
I play»), its standings, each name as the reader may see it (games/access.py)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from django.utils.translation import gettext as _

from accounts import roles
from accounts.models import User
from club.models import Registration
from games import access
from games.access import Viewer
from games.models import GameStatus
from games.ratings.presets import scheme_version
from games.ratings.publication import tie_breakers_named
from tournaments import services
from tournaments.models import Round, Stage, Table, Tournament
from tournaments.standings import Standing, Standings, tournament_standings


@dataclass(frozen=True)
class SeatView:
    seat: int
    name: str
    member_id: int | None  # a link to the player's page when the name is shown
    me: bool


@dataclass(frozen=True)
class TableView:
    table: Table
    seats: list[SeatView]
    judge: str
    may_start: bool  # the reader may start its game (its judge, an admin)

    @property
    def state(self) -> str:
        game = self.table.game
        if game is None:
            return "waiting"
        return "finished" if game.status == GameStatus.FINISHED else "running"


@dataclass(frozen=True)
class RoundView:
    round: Round
    tables: list[TableView]

    @property
    def final(self) -> bool:
        return self.round.stage == Stage.FINAL


@dataclass(frozen=True)
class MyGame:
    round: Round
    table: int
    seat: int


@dataclass(frozen=True)
class Row:
    standing: Standing
    name: str
    member_id: int | None
    me: bool


@dataclass(frozen=True)
class TournamentPage:
    tournament: Tournament
    rounds: list[RoundView]
    mine: list[MyGame]
    standings: Standings
    rows: list[Row]
    signed_up: bool
    players: int
    reader_id: int | None = None

    @cached_property
    def seated(self) -> bool:
        return any(r.tables for r in self.rounds)

    @cached_property
    def judged(self) -> list[tuple[RoundView, TableView]]:
        """The reader's tables as their judge whose games have not ended, in round order."""
        return [
            (r, t)
            for r in self.rounds
            for t in r.tables
            if t.table.judge_id is not None
            and t.table.judge_id == self.reader_id
            and t.state != "finished"
        ]

    @property
    def game_numbers(self) -> range:
        """What «as of game N» offers: every finished game counted."""
        return range(1, self.standings.of + 1)

    @cached_property
    def compensated(self) -> bool:
        return any(row.standing.ci is not None for row in self.rows)

    @cached_property
    def tie_breakers(self) -> str:
        return tie_breakers_named(scheme_version(self.tournament.preset).scheme().tie_breakers)


class _Names:
    """A registration's name as `viewer` may see it: a member's nickname under the
    publication rules (the seating is posted and printed: a publication, as a game's seats
    are), «Игрок N» otherwise (N: the player's number in the tournament); a guest is never
    named."""

    def __init__(self, registrations: list[Registration], viewer: Viewer) -> None:
        self.by_id = {r.pk: r for r in registrations}
        self.number = {r.pk: n for n, r in enumerate(registrations, 1)}
        self.viewer = viewer

    def name(self, registration_id: int) -> tuple[str, int | None]:
        """The name, and the member whose page it links to (when the name is shown)."""
        registration = self.by_id.get(registration_id)
        number = self.number.get(registration_id, 0)
        if registration is None or registration.member is None:
            return _("Guest %(n)d") % {"n": number}, None
        member = registration.member
        if access.may_see_name(member, self.viewer):
            return member.nickname, member.pk
        return _("Player %(n)d") % {"n": number}, None


def everyone(tournament: Tournament, tables: list[Table]) -> list[Registration]:
    """The participants, and anyone seated before who has left since (their games stay)."""
    now_in = services.participants(tournament)
    known = {r.pk for r in now_in}
    seated = {pk for table in tables for pk in table.players} - known
    gone = list(Registration.objects.filter(pk__in=seated).select_related("member", "guest"))
    return sorted([*now_in, *gone], key=lambda r: (r.arrival, r.pk))


@dataclass
class _Reader:
    """Who reads the page: their registrations, whether they start games anywhere."""

    viewer: Viewer
    names: _Names
    mine: set[int]
    me: int | None
    staff: bool

    def may_start(self, table: Table) -> bool:
        return table.game_id is None and (
            self.staff or (self.me is not None and table.judge_id == self.me)
        )

    def judge(self, table: Table) -> str:
        judge = table.judge
        if judge is None or not access.may_see_name(judge, self.viewer):
            return ""
        return judge.nickname


def _rounds(
    rounds: list[Round], tables: list[Table], reader: _Reader
) -> tuple[list[RoundView], list[MyGame]]:
    """Each round's tables with their seats as the reader may see them, and the reader's
    own games. Rounds are played in order: a round after one with a table not begun waits."""
    number = {r.pk: r.number for r in rounds}
    waiting = services.rounds_waiting(number[t.round_id] for t in tables if t.game_id is None)
    views: list[RoundView] = []
    mine: list[MyGame] = []
    for round_ in rounds:
        round_tables = []
        for table in (t for t in tables if t.round_id == round_.pk):
            seats = [
                SeatView(seat, reader.names.name(pk)[0], None, pk in reader.mine)
                for seat, pk in enumerate(table.players, 1)
            ]
            mine += [MyGame(round_, table.number, s.seat) for s in seats if s.me]
            may_start = reader.may_start(table) and round_.number not in waiting
            round_tables.append(TableView(table, seats, reader.judge(table), may_start))
        views.append(RoundView(round_, round_tables))
    return views, mine


def tournament_page(tournament: Tournament, viewer: Viewer, *, as_of: int | None) -> TournamentPage:
    rounds = list(tournament.round_set.order_by("number"))
    tables = list(
        Table.objects.filter(round__tournament=tournament)
        .select_related("game", "judge")
        .order_by("round__number", "number")
    )
    seated = everyone(tournament, tables)
    me = viewer.pk if isinstance(viewer, User) else None
    reader = _Reader(
        viewer=viewer,
        names=_Names(seated, viewer),
        mine={r.pk for r in seated if me is not None and r.member_id == me},
        me=me,
        staff=roles.can(viewer, "organise", tournament.club_id),
    )
    round_views, mine = _rounds(rounds, tables, reader)
    standings = tournament_standings(tournament, as_of=as_of, show_final=reader.staff)
    rows = []
    for standing in standings.rows:
        name, member_id = reader.names.name(standing.registration_id)
        rows.append(Row(standing, name, member_id, standing.registration_id in reader.mine))
    return TournamentPage(
        tournament=tournament,
        rounds=round_views,
        mine=mine,
        standings=standings,
        rows=rows,
        signed_up=bool(reader.mine),
        players=len(services.participants(tournament)),
        reader_id=me,
    )


def member_tournaments(member: User) -> list[Tournament]:
    """The tournaments a member played in (sat at a table whose game began), newest first."""
    registration_of = dict(
        Registration.objects.filter(member=member, evening__tournament__isnull=False).values_list(
            "evening__tournament", "pk"
        )
    )
    tables = Table.objects.filter(
        round__tournament__in=list(registration_of), game__isnull=False
    ).values_list("round__tournament", "players")
    played = {t for t, players in tables if registration_of[t] in players}
    return list(Tournament.objects.filter(pk__in=played).select_related("evening"))


@dataclass(frozen=True)
class MyTournament:
    """Where a member stands in their current tournament, for the bot's /tournament."""

    tournament: Tournament
    next_game: MyGame | None  # the first of their tables whose game has not ended
    seated: bool  # the rounds have a seating
    row: Row | None  # their standing, when they have played


def member_tournament(member: User) -> MyTournament | None:
    """The member's tournament not finished yet (the latest they signed up for)."""
    tournament = (
        Tournament.objects.filter(
            finished_at__isnull=True,
            evening__registrations__member=member,
            evening__registrations__status__in=services.PLAYING,
        )
        .select_related("evening", "preset")
        .order_by("-evening__starts_at")
        .first()
    )
    if tournament is None:
        return None
    page = tournament_page(tournament, member, as_of=None)
    states = {(t.table.round_id, t.table.number): t.state for r in page.rounds for t in r.tables}
    waiting = (g for g in page.mine if states.get((g.round.pk, g.table)) != "finished")
    row = next((row for row in page.rows if row.me), None)
    return MyTournament(tournament, next(waiting, None), page.seated, row)
