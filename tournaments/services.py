"""A tournament's life: made by an admin, joined through its evening's sign-up, seated by the
generator (tournaments/seating), its games started at their tables, its final drawn from
the standings (tournaments/standings.py). Every door (admin, pages, API, bot) calls these."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import roles
from accounts.languages import speaking_to
from accounts.models import User
from club import services as evenings
from club.kernel.errors import RefusalCode, Refused
from club.kernel.parsing import shows_something
from club.kernel.queueing import queue_on_commit
from club.models import Evening, EveningStatus, Registration, RegistrationStatus
from games import live
from games.models import Game, GameStatus
from games.ratings.models import ScoringPreset
from games.starting import GuestAt, Player, deal, game_create
from notifications.models import Notification
from notifications.services import notification_enqueue
from tournaments.models import (
    Absence,
    JudgeConflict,
    KeptApart,
    Round,
    Stage,
    Table,
    TableJudge,
    Tournament,
)
from tournaments.seating import SeatingError, SeatingProblem, generate
from tournaments.standings import tournament_standings


# The cards of a tournament's table: FIIM's ten (the don, two mafia, the sheriff, six
# civilians) in the club's role codes; other sizes keep its shape (a quarter and more black).
def tournament_lineup(table_size: int) -> dict[str, int]:
    black = max(2, round(table_size * 0.3))
    return {"boss": 1, "mafia": black - 1, "commissar": 1, "civilian": table_size - black - 1}


@dataclass(frozen=True)
class TournamentPlan:
    """What an admin fills in for a new tournament."""

    name: str
    starts_at: datetime
    ends_on: date
    venue: str
    preset: str  # a ScoringPreset's code
    tables: int
    rounds: int
    table_size: int = 10
    capacity: int | None = None  # sign-ups before the reserve; tables × table size if None
    opens_at: datetime | None = None  # sign-up opens; at once if None
    final_players: int = 10
    final_rounds: int = 0
    final_weight: float = 1.0
    hide_final: bool = False


def _refuse_unless_admin(actor: User) -> None:
    if not roles.can(actor, "organise"):
        raise Refused(_("Only the club's admins run tournaments."), RefusalCode.FORBIDDEN)


# A tournament is played over a day or a few; a last day years away is a typo.
LONGEST = timedelta(days=366)


def refuse_bad_plan(plan: TournamentPlan) -> None:
    if not shows_something(plan.name):
        raise Refused(_("Name the tournament."), RefusalCode.INVALID, fields={"name": 1})
    if not shows_something(plan.venue):
        raise Refused(_("Name the venue."), RefusalCode.INVALID, fields={"venue": 1})
    if plan.opens_at is not None and plan.opens_at > plan.starts_at:
        raise Refused(
            _("Sign-up must open before the tournament starts."),
            RefusalCode.INVALID,
            fields={"opens_at": 1},
        )
    if not 7 <= plan.table_size <= 15:
        raise Refused(
            _("A table seats 7 to 15 players."), RefusalCode.INVALID, fields={"table_size": 1}
        )
    if not 1 <= plan.tables <= 10 or not 1 <= plan.rounds <= 30:
        raise Refused(
            _("1 to 10 tables and 1 to 30 qualifying rounds."),
            RefusalCode.INVALID,
            fields={"tables": 1},
        )
    places = plan.capacity or plan.tables * plan.table_size
    if places < plan.table_size:
        raise Refused(
            _("%(places)d places cannot fill a table of %(size)d.")
            % {"places": places, "size": plan.table_size},
            RefusalCode.INVALID,
            fields={"capacity": 1},
        )
    # No final game: no final, whatever its players say (the form's default is 10).
    if plan.final_rounds and (
        plan.final_players <= 0
        or plan.final_players % plan.table_size
        or plan.final_players > places
    ):
        raise Refused(
            _(
                "The final seats whole tables (a multiple of the table size), no more "
                "players than the places."
            ),
            RefusalCode.INVALID,
            fields={"final_players": 1},
        )
    first_day = timezone.localtime(plan.starts_at).date()
    if plan.ends_on < first_day:
        raise Refused(
            _("The last day is before the first."), RefusalCode.INVALID, fields={"ends_on": 1}
        )
    if plan.ends_on - first_day > LONGEST:
        raise Refused(
            _("The last day is more than a year after the first."),
            RefusalCode.INVALID,
            fields={"ends_on": 1},
        )


def tournament_create(
    *, plan: TournamentPlan, actor: User, now: datetime | None = None
) -> Tournament:
    """A tournament with its sign-up list (an evening of its own, as many tables as it
    plays at) and its rounds: the qualifying ones, then the final's, weighted. Refused at
    the start of another evening (one evening per start, club/services.py)."""
    _refuse_unless_admin(actor)
    refuse_bad_plan(plan)
    preset = ScoringPreset.objects.filter(code=plan.preset).first()
    if preset is None:
        raise Refused(
            _("There is no such scoring preset."), RefusalCode.INVALID, fields={"preset": 1}
        )
    now = now or timezone.now()
    with transaction.atomic():
        with evenings.one_evening_per_start(plan.starts_at):
            evening = Evening.objects.create(
                starts_at=plan.starts_at,
                venue=plan.venue.strip(),
                capacity=plan.capacity or plan.tables * plan.table_size,
                opens_at=min(plan.opens_at or now, plan.starts_at),
                tables=plan.tables,
                status=EveningStatus.SCHEDULED,
            )
        tournament = Tournament.objects.create(
            name=plan.name.strip(),
            evening=evening,
            ends_on=plan.ends_on,
            preset=preset,
            table_size=plan.table_size,
            tables=plan.tables,
            rounds=plan.rounds,
            final_players=plan.final_players if plan.final_rounds else 0,
            final_rounds=plan.final_rounds,
            final_weight=plan.final_weight,
            hide_final=plan.hide_final and plan.final_rounds > 0,
            seed=random.SystemRandom().randrange(1, 2**31),
        )
        Round.objects.bulk_create(
            [
                Round(tournament=tournament, number=n, stage=Stage.QUALIFYING)
                for n in range(1, plan.rounds + 1)
            ]
            + [
                Round(
                    tournament=tournament,
                    number=plan.rounds + n,
                    stage=Stage.FINAL,
                    weight=plan.final_weight,
                )
                for n in range(1, plan.final_rounds + 1)
            ]
        )
    return tournament


# --- who plays -------------------------------------------------------------------------


# A tournament's players: its evening's seats (the reserve waits).
PLAYING = (RegistrationStatus.CONFIRMED, RegistrationStatus.ATTENDED)


def tournament_preset_changed(tournament: Tournament) -> None:
    """Its games are scored by its preset on every page (games/ratings/presets.py): once
    its preset changes, the games already played are scored again, after the commit."""
    if Table.objects.filter(round__tournament=tournament, game__isnull=False).exists():
        queue_on_commit("games.ratings.tasks.games_rescore")
    live.evening_touch_on_commit(tournament.evening_id)  # its live standings (tournaments/live.py)


def participants(tournament: Tournament) -> list[Registration]:
    """The tournament's players: its evening's seats (confirmed or attended), in the order
    they signed up; the reserve waits as on any evening."""
    return list(
        Registration.objects.filter(evening_id=tournament.evening_id, status__in=PLAYING)
        .select_related("member", "guest")
        .order_by("arrival", "pk")
    )


# --- the seating ---------------------------------------------------------------------------


def _played_rounds(rounds: Sequence[Round], tables: Mapping[int, list[Table]]) -> list[Round]:
    """The leading rounds whose games have begun: their seating is kept as it was."""
    played = []
    for round_ in rounds:
        if not any(table.game_id for table in tables.get(round_.pk, [])):
            break
        played.append(round_)
    return played


@dataclass(frozen=True)
class _Problem:
    problem: SeatingProblem
    people: list[int]  # registration ids, by the generator's player index


def _judged_against(
    tournament: Tournament, index: dict[int, int], now_in: list[int], later: range
) -> set[tuple[int, int, int]]:
    """(player, round, table) for each table whose judge is listed against the player."""
    judge_of = dict(
        TableJudge.objects.filter(tournament=tournament).values_list("table", "judge_id")
    )
    return {
        (index[conflict.registration_id], r, table - 1)
        for conflict in JudgeConflict.objects.filter(registration_id__in=now_in)
        for table, judge_id in judge_of.items()
        if judge_id == conflict.judge_id and table <= tournament.tables
        for r in later
    }


def _problem(
    tournament: Tournament, rounds: list[Round], tables: dict[int, list[Table]]
) -> _Problem:
    played = _played_rounds(rounds, tables)
    now_in = [r.pk for r in participants(tournament)]
    # Whoever played a kept round keeps their index; one who dropped out sits out the rest.
    seen_before = {pk for r in played for t in tables[r.pk] for pk in t.players}
    people = sorted(set(now_in) | seen_before)
    index = {pk: i for i, pk in enumerate(people)}
    later = range(len(played), len(rounds))
    gone = seen_before - set(now_in)
    absent = {(index[pk], r) for pk in gone for r in later}
    absent |= {
        (index[absence.registration_id], absence.round - 1)
        for absence in Absence.objects.filter(registration_id__in=now_in)
        if absence.round - 1 in later
    }
    forbidden = _judged_against(tournament, index, now_in, later)
    apart = {
        (index[pair.first_id], index[pair.second_id])
        for pair in KeptApart.objects.filter(tournament=tournament)
        if pair.first_id in index and pair.second_id in index
    }
    kept = tuple(
        tuple(tuple(index[pk] for pk in table.players) for table in tables[r.pk]) for r in played
    )
    try:
        problem = SeatingProblem(
            players=len(people),
            rounds=len(rounds),
            tables=tournament.tables,
            table_size=tournament.table_size,
            keep_apart=frozenset(apart),
            absent=frozenset(absent),
            forbidden_tables=frozenset(forbidden),
            played=kept,
        )
    except SeatingError as error:
        raise _no_seating(error, people) from error
    return _Problem(problem, people)


def _no_seating(error: SeatingError, people: list[int]) -> Refused:
    """The generator's refusal in the organiser's words: its players by name, its rounds
    and tables counted from 1, in the reader's language (its templates are in the catalogue)."""
    names = {
        r.pk: r.listed_name
        for r in Registration.objects.filter(pk__in=people).select_related("member", "guest")
    }

    def said(error: SeatingError) -> str:
        params = dict(error.params)
        for key in ("player", "first", "second"):
            if isinstance(params.get(key), int) and 0 <= params[key] < len(people):
                params[key] = names.get(people[params[key]], params[key])
        for key in ("round", "table"):
            if isinstance(params.get(key), int):
                params[key] += 1
        if isinstance(error.__cause__, SeatingError) and "broken" in params:
            params["broken"] = said(error.__cause__)
        return _(error.template) % params

    return Refused(_("No seating fits: %(why)s") % {"why": said(error)}, RefusalCode.INVALID)


def _qualifying(tournament: Tournament) -> tuple[list[Round], _Problem]:
    """The qualifying rounds and the seating problem they pose as the database has them."""
    rounds = list(tournament.round_set.filter(stage=Stage.QUALIFYING).order_by("number"))
    tables: dict[int, list[Table]] = {r.pk: [] for r in rounds}
    for table in Table.objects.filter(round__in=rounds).order_by("number"):
        tables[table.round_id].append(table)
    return rounds, _problem(tournament, rounds, tables)


def tournament_seat(*, tournament_id: int, actor: User, effort: int | None = None) -> int:
    """Seat the qualifying rounds not begun yet (all of them at first; after a player
    drops out or joins, the rest, keeping the rounds played): returns how many rounds were
    seated. Deterministic from the tournament's seed.

    The generator runs outside any lock (seconds for fifty players); the seating is written
    only if the problem is still the one it solved (nobody joined, left or started a game
    meanwhile), else the organiser is asked to seat again."""
    _refuse_unless_admin(actor)
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise Refused(_("There is no such tournament."), RefusalCode.NOT_FOUND)
    if len(participants(tournament)) < tournament.table_size:
        raise Refused(
            _("Fewer players have signed up than a table seats (%(size)d): nothing to seat yet.")
            % {"size": tournament.table_size},
            RefusalCode.CONFLICT,
        )
    _rounds, built = _qualifying(tournament)
    try:
        seating = generate(built.problem, tournament.seed, *(() if effort is None else (effort,)))
    except SeatingError as error:
        raise _no_seating(error, built.people) from error
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        rounds, now = _qualifying(tournament)
        if now != built:
            raise Refused(
                _("The tournament changed while it was being seated: seat it again."),
                RefusalCode.CONFLICT,
            )
        played = len(built.problem.played)
        judges = dict(
            TableJudge.objects.filter(tournament=tournament).values_list("table", "judge_id")
        )
        later = rounds[played:]
        Table.objects.filter(round__in=later).delete()
        Table.objects.bulk_create(
            Table(
                round=round_,
                number=number,
                players=[built.people[i] for i in seated],
                judge_id=judges.get(number),
            )
            for round_, round_tables in zip(later, seating[played:], strict=True)
            for number, seated in enumerate(round_tables, 1)
        )
        Round.objects.filter(pk__in=[r.pk for r in later]).update(announced_at=None)
        # The stream overlays say who plays next (live/tournament.py).
        live.evening_touch_on_commit(tournament.evening_id)
    return len(later)


# --- the games -----------------------------------------------------------------------------


def _player(registration: Registration) -> Player:
    if registration.member_id is not None:
        return registration.member_id
    return GuestAt(registration.guest_id or 0)


def rounds_waiting(not_begun: Iterable[int]) -> set[int]:
    """Rounds are played in order: of the rounds with a table whose game has not begun
    (their numbers), every one after the first waits."""
    numbers = sorted(set(not_begun))
    return set(numbers[1:])


def waits_for_an_earlier_round(table: Table) -> bool:
    not_begun = Table.objects.filter(
        round__tournament_id=table.round.tournament_id, game__isnull=True
    ).values_list("round__number", flat=True)
    return table.round.number in rounds_waiting(not_begun)


def table_game_start(*, table_id: int, host: User, now: datetime | None = None) -> Game:
    """Start the game of one round's table: its players in the seating's order, the cards
    dealt at random from the tournament's line-up; then the judge records it on the host's
    screen as any game. Only the table's judge, or an admin, starts it."""
    table = Table.objects.select_related("round__tournament").filter(pk=table_id).first()
    if table is None:
        raise Refused(_("There is no such table."), RefusalCode.NOT_FOUND)
    tournament = table.round.tournament
    if not (roles.can(host, "organise", tournament.club_id) or table.judge_id == host.pk):
        raise Refused(
            _("Only this table's judge or an admin starts its game."), RefusalCode.FORBIDDEN
        )
    if table.game_id is not None:
        raise Refused(_("This table's game has begun already."), RefusalCode.CONFLICT)
    if waits_for_an_earlier_round(table):
        raise Refused(
            _("Round %(round)d starts once every table of the rounds before it has begun.")
            % {"round": table.round.number},
            RefusalCode.CONFLICT,
        )
    registrations = Registration.objects.in_bulk(table.players)
    if len(registrations) != len(table.players):
        raise Refused(
            _("A player of this table is no longer in the tournament: seat again."),
            RefusalCode.CONFLICT,
        )
    numbers = list(range(1, len(table.players) + 1))
    cards = deal(tournament_lineup(tournament.table_size), numbers, random.SystemRandom())
    seats = {
        n: (_player(registrations[pk]), cards[n])
        for n, pk in zip(numbers, table.players, strict=True)
    }
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        if locked.game_id is not None:
            raise Refused(_("This table's game has begun already."), RefusalCode.CONFLICT)
        game = game_create(
            host=host,
            evening_id=tournament.evening_id,
            seats=seats,
            table=table.number,
            table_size=tournament.table_size,
            now=now,
        )
        locked.game = game
        locked.save(update_fields=["game"])
    return game


# --- the final -------------------------------------------------------------------------------


def tournament_final(*, tournament_id: int, actor: User, effort: int | None = None) -> list[int]:
    """Seat the final: the standings' top `final_players` once every qualifying game has
    ended (points, then the preset's tie-breakers, then the earlier sign-up), their seats
    drawn for each final game by the generator, so that seat positions spread evenly.
    Returns the finalists' registration ids in their standings' order."""
    _refuse_unless_admin(actor)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        finals = list(tournament.round_set.filter(stage=Stage.FINAL).order_by("number"))
        if not finals or tournament.final_players == 0:
            raise Refused(_("This tournament has no final."), RefusalCode.CONFLICT)
        if Table.objects.filter(round__in=finals, game__isnull=False).exists():
            raise Refused(_("The final has begun: its seating stays."), RefusalCode.CONFLICT)
        qualifying = Table.objects.filter(
            round__tournament=tournament, round__stage=Stage.QUALIFYING
        )
        if not qualifying.exists():
            raise Refused(_("The rounds are not seated yet."), RefusalCode.CONFLICT)
        waiting = qualifying.exclude(game__status=GameStatus.FINISHED).count()
        if waiting:
            raise Refused(
                _("The qualifying rounds are not over: %(n)d games to play.") % {"n": waiting},
                RefusalCode.CONFLICT,
            )
        rows = tournament_standings(tournament).rows
        finalists = [row.registration_id for row in rows[: tournament.final_players]]
        if len(finalists) < tournament.final_players:
            raise Refused(
                _("Fewer players than the final seats have played."), RefusalCode.CONFLICT
            )
        tables = tournament.final_players // tournament.table_size
        problem = SeatingProblem(
            players=len(finalists),
            rounds=len(finals),
            tables=tables,
            table_size=tournament.table_size,
        )  # no constraint: every table of the final is full of finalists
        seating = generate(problem, tournament.seed, *(() if effort is None else (effort,)))
        judges = dict(
            TableJudge.objects.filter(tournament=tournament).values_list("table", "judge_id")
        )
        Table.objects.filter(round__in=finals).delete()
        Table.objects.bulk_create(
            Table(
                round=round_,
                number=number,
                players=[finalists[i] for i in seated],
                judge_id=judges.get(number),
            )
            for round_, round_tables in zip(finals, seating, strict=True)
            for number, seated in enumerate(round_tables, 1)
        )
        live.evening_touch_on_commit(tournament.evening_id)
    return finalists


# --- telling the players ---------------------------------------------------------------------


def round_announce(*, round_id: int, actor: User) -> int:
    """Tell each member seated in a round where they play (table and seat), by their
    channels, with the tournament's page; returns how many were told now. A re-seated
    round is told again (its keys name the table and seat); a guest has no channel."""
    _refuse_unless_admin(actor)
    round_ = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if round_ is None:
        raise Refused(_("There is no such round."), RefusalCode.NOT_FOUND)
    return _announce(round_)


def _announce(round_: Round) -> int:
    tables = list(Table.objects.filter(round=round_).order_by("number"))
    if not tables:
        raise Refused(_("This round is not seated yet."), RefusalCode.CONFLICT)
    tournament = round_.tournament
    seated = {pk: (t.number, seat) for t in tables for seat, pk in enumerate(t.players, 1)}
    registrations = Registration.objects.filter(pk__in=seated, member__isnull=False)
    link = settings.SITE_URL + reverse("tournament", args=[tournament.pk]) + "#me"
    prefix = f"tournament-round:{round_.pk}:"
    # The keys written before, in one query (a message's first row carries its key as is).
    before = set(
        Notification.objects.filter(dedupe_key__startswith=prefix).values_list(
            "dedupe_key", flat=True
        )
    )
    told = 0
    with transaction.atomic():
        for registration in registrations.select_related("member"):
            table, seat = seated[registration.pk]
            assert registration.member is not None  # the filter's
            key = f"{prefix}{registration.pk}:{table}:{seat}"
            with speaking_to(registration.member):
                notification_enqueue(
                    dedupe_key=key,
                    member=registration.member,
                    text=_(
                        "Tournament «%(name)s», round %(round)d: you play at table %(table)d, "
                        "seat %(seat)d."
                    )
                    % {
                        "name": tournament.name,
                        "round": round_.number,
                        "table": table,
                        "seat": seat,
                    },
                    link=link,
                )
            told += key not in before
        Round.objects.filter(pk=round_.pk).update(announced_at=timezone.now())
    return told


def tournament_finish(*, tournament_id: int, actor: User, now: datetime | None = None) -> None:
    """The last game has ended: the tournament is over and its results (the final's too,
    when they were hidden) are published under the consent rules."""
    _refuse_unless_admin(actor)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.finished_at is not None:
            raise Refused(_("The tournament is over already."), RefusalCode.CONFLICT)
        tables = Table.objects.filter(round__tournament=tournament)
        if not tables.exists():
            raise Refused(_("The rounds are not seated yet."), RefusalCode.CONFLICT)
        waiting = tables.exclude(game__status=GameStatus.FINISHED).count()
        if waiting:
            raise Refused(
                _("Games are still to be played: %(n)d.") % {"n": waiting}, RefusalCode.CONFLICT
            )
        tournament.finished_at = now or timezone.now()
        tournament.save(update_fields=["finished_at"])
        live.evening_touch_on_commit(tournament.evening_id)  # the final's results, no headline


# The first round is told this long before the tournament starts (a seating made days
# before may still change); each later one as soon as the round before it has ended.
FIRST_ROUND_TOLD = timedelta(hours=2)


def tournaments_sweep(now: datetime | None = None) -> int:
    """Every minute (Celery beat): tell each running tournament's next seated round to its
    players once it is due; returns how many rounds were told."""
    now = now or timezone.now()
    told = 0
    running = Tournament.objects.filter(finished_at__isnull=True).select_related("evening")
    for tournament in running.filter(evening__starts_at__lte=now + FIRST_ROUND_TOLD):
        rounds = list(tournament.round_set.order_by("number"))
        due = _next_to_tell(rounds)
        if due is not None:
            _announce(due)
            told += 1
    return told


def _next_to_tell(rounds: list[Round]) -> Round | None:
    """The first round not told yet, when it is seated and the round before it has ended."""
    for before, round_ in zip([None, *rounds], rounds, strict=False):
        if round_.announced_at is not None:
            continue
        tables = Table.objects.filter(round=round_)
        if not tables.exists():
            return None
        if before is not None:
            earlier = Table.objects.filter(round=before)
            if earlier.exclude(game__status=GameStatus.FINISHED).exists() or not earlier.exists():
                return None
        return round_
    return None
