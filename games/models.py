"""Games as the host records them: the role catalogue, games, seats and the event log.

A game's state is never stored: it is the rules engine's fold over the game's effective
events (games/rules/log.py), so the log is the one truth and undo is just another entry in it.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import models
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from club.kernel.tenancy import ClubScopedManager, club_key
from games.rules.log import UNDO, effective_events
from games.rules.roles import Action, CheckKind, Team
from games.rules.roles import Role as EngineRole

if TYPE_CHECKING:
    from accounts.models import User


class RoleQuerySet(models.QuerySet["Role"]):
    def engine_roles(self) -> dict[str, EngineRole]:
        return {role.code: role.to_engine() for role in self}


# The engine's codes in the admin's words.
TEAM_LABELS = {Team.RED: _("red"), Team.BLACK: _("black"), Team.LONER: _("loner")}
ACTION_LABELS = {
    Action.KILL: _("kills"),
    Action.CHECK: _("checks"),
    Action.HEAL: _("heals"),
    Action.OTHER: _("another action"),
    Action.NONE: _("none"),
}
CHECK_LABELS = {
    CheckKind.TEAM: _("the team: red or black"),
    CheckKind.COMMISSAR: _("whether it is the commissar"),
}


class Role(models.Model):
    """A card of the club's deck. Admins may add roles or change one; a game keeps the
    definitions it started with (Game.options), so a change never alters a played game."""

    code = models.SlugField(_("code"), max_length=32, unique=True)
    name_ru = models.CharField(_("name (Russian)"), max_length=64)
    name_en = models.CharField(_("name (English)"), max_length=64)
    team = models.CharField(
        _("team"), max_length=8, choices=[(t.value, TEAM_LABELS[t]) for t in Team]
    )
    night_order = models.PositiveSmallIntegerField(
        _("night order"), null=True, blank=True, help_text=_("When it wakes; empty: never.")
    )
    action = models.CharField(
        _("night action"),
        max_length=8,
        choices=[(a.value, ACTION_LABELS[a]) for a in Action],
        default=Action.NONE,
    )
    check_kind = models.CharField(
        _("what a check answers"),
        max_length=16,
        choices=[(c.value, CHECK_LABELS[c]) for c in CheckKind],
        default=CheckKind.TEAM,
    )
    shoots_as = models.SlugField(
        _("shoots together as"),
        max_length=32,
        blank=True,
        help_text=_("The boss and the mafia shoot together as «mafia»."),
    )

    objects = RoleQuerySet.as_manager()

    class Meta:
        verbose_name = _("role")
        verbose_name_plural = _("roles")
        ordering = ["night_order", "code"]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return self.name_en if translation.get_language() == "en" else self.name_ru

    def to_engine(self) -> EngineRole:
        return EngineRole(
            self.code,
            Team(self.team),
            self.night_order,
            Action(self.action),
            CheckKind(self.check_kind),
            self.shoots_as or None,
        )


class Ruleset(models.TextChoices):
    CLUB = "club", _("Club (live)")
    ONLINE = "online", _("Online (text)")


class Spectators(models.TextChoices):
    """Who may follow a running club game on its live page (games/live.py)."""

    PUBLIC = "public", _("Everyone")
    MEMBERS = "members", _("The club's members")
    OFF = "off", _("Nobody")


class GameStatus(models.TextChoices):
    RUNNING = "running", _("In progress")
    # A context of its own: Russian says a game («игра») finished in another form than an
    # evening («вечер»), and the two shared one translation («Игра 1 — Завершён»).
    FINISHED = "finished", pgettext_lazy("game status", "Finished")


class GameSource(models.TextChoices):
    """Where a game's record comes from: played here, or brought from a club's old records
    (history/imports/): a protocol keeps its event log, results keep only the results."""

    LIVE = "live", _("Played here")
    PROTOCOL = "protocol", _("Imported protocol")
    RESULTS = "results", _("Imported results")


class Game(models.Model):
    club = club_key("games")
    # Live games belong to an evening; online games to none.
    evening = models.ForeignKey(
        "club.Evening",
        on_delete=models.PROTECT,
        related_name="games",
        verbose_name=_("evening"),
        null=True,
        blank=True,
    )
    number = models.PositiveSmallIntegerField(_("game of the evening"))
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="hosted_games",
        verbose_name=_("host"),
    )
    ruleset = models.CharField(
        _("ruleset"), max_length=8, choices=Ruleset.choices, default=Ruleset.CLUB
    )
    # The options and role definitions the game started with (ClubOptions.to_dict()).
    options = models.JSONField(_("options"), default=dict)
    lineup = models.JSONField(_("line-up"), default=dict, help_text=_("Role code → count."))
    # Which of the evening's tables it is played at (an evening opens a second table when
    # enough people came: club/lineup.py).
    table = models.PositiveSmallIntegerField(_("table"), default=1)
    # Seats carrying first-eliminated immunity from the previous game of the evening.
    immune = models.JSONField(_("immune seats"), default=list, blank=True)
    status = models.CharField(
        _("status"), max_length=8, choices=GameStatus.choices, default=GameStatus.RUNNING
    )
    winner = models.CharField(_("winner"), max_length=32, blank=True)
    # The seats eliminated first, for the next game's immunity (kept when the game ends).
    first_eliminated = models.JSONField(_("first eliminated"), default=list, blank=True)
    # The number of the last entry in the log: the sequence check of every write.
    last_seq = models.PositiveIntegerField(_("last event"), default=0)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)
    # When the game first ended, kept when an undo reopens it: its recording's retention
    # counts from here, so undoing and redoing the last tap cannot move the deletion.
    first_ended_at = models.DateTimeField(_("first ended"), null=True, blank=True)
    # An unrated game (practice, a newcomers' evening) keeps its scores on its pages but
    # counts for no rating and no season's table (docs/scoring.md «Games that do not count»).
    rated = models.BooleanField(
        _("rated"),
        default=True,
        help_text=_(
            "Unticked: a practice game. Its scores still show on its page, but it counts for "
            "no rating and no season's table."
        ),
    )
    # Who may follow it live (/games/<id>/live/): the club's choice per game, its host's or
    # an admin's; the club's members by default.
    spectators = models.CharField(
        _("live spectators"),
        max_length=8,
        choices=Spectators.choices,
        default=Spectators.MEMBERS,
    )

    source = models.CharField(
        _("source"), max_length=8, choices=GameSource.choices, default=GameSource.LIVE
    )
    # A results-only game's results (games/rules/results.Results.as_dict): each seat's
    # fouls, how and when they left, extra points and their reason; the best move.
    results = models.JSONField(_("results"), default=dict, blank=True)

    OUTCOME_FIELDS = ("status", "winner", "first_eliminated", "ended_at", "first_ended_at")
    # Retention counts from the first of these that is set (the SQL sweep reads the same).
    RETENTION_FROM = ("first_ended_at", "started_at")

    objects = ClubScopedManager()
    all_clubs = models.Manager()  # noqa: DJ012 (the default manager comes first)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(fields=["evening", "number"], name="game_number_per_evening")
        ]
        indexes = [models.Index(fields=["club", "status"])]

    def __str__(self) -> str:
        if self.evening_id is None:
            return str(_("Online game %(number)d") % {"number": self.number})
        return f"{self.evening} · #{self.number}"

    @property
    def finished(self) -> bool:
        return self.status == GameStatus.FINISHED

    @property
    def host_known(self) -> bool:
        """Who ran the game is known: it was played here. An imported game's `host` is the
        organiser who imported it (the field is required), whom no page calls its host."""
        return self.source == GameSource.LIVE

    @property
    def results_only(self) -> bool:
        """Brought from records that hold its results, not its course: no log to replay."""
        return self.source == GameSource.RESULTS

    @property
    def retention_from(self) -> datetime:
        """When the 3 days of its recording begin: the game's first end (RULES.md §C)."""
        moment: datetime = next(getattr(self, f) for f in self.RETENTION_FROM if getattr(self, f))
        return moment

    def take_outcome(self, state: Any, now: datetime) -> None:
        """Copy the engine's verdict (finished or not, the winner, who left first) onto the
        row; an undo past the end reopens the game. Save OUTCOME_FIELDS after."""
        self.first_eliminated = list(state.first_eliminated)
        if state.finished:
            self.status, self.winner = GameStatus.FINISHED, state.winner or ""
            self.ended_at = self.ended_at or now
            self.first_ended_at = self.first_ended_at or self.ended_at
        else:
            self.status, self.winner, self.ended_at = GameStatus.RUNNING, "", None


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(_("seat"))
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="game_seats",
        verbose_name=_("member"),
        null=True,
        blank=True,
    )
    guest = models.ForeignKey(
        "club.Guest",
        on_delete=models.PROTECT,
        related_name="game_seats",
        verbose_name=_("guest"),
        null=True,
        blank=True,
    )
    role = models.CharField(_("role"), max_length=32)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_number_per_game"),
            models.UniqueConstraint(fields=["game", "member"], name="one_seat_per_member"),
            models.UniqueConstraint(fields=["game", "guest"], name="one_seat_per_guest"),
            # A live table seats members and the evening's guests; an online one members.
            models.CheckConstraint(
                condition=models.Q(member__isnull=False, guest__isnull=True)
                | models.Q(member__isnull=True, guest__isnull=False),
                name="seat_member_or_guest",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.number}: {self.member or self.guest}"

    @property
    def player(self) -> User:
        """The member in a seat where only a member can sit (an online table, a score): a
        guest's seat there is a bug, not a refusal."""
        if self.member is None:
            raise ValueError(f"Seat {self.pk} holds a guest, not a member.")
        return self.member


class EventQuerySet(models.QuerySet["GameEvent"]):
    def payloads(self) -> list[dict[str, Any]]:
        """Every entry of the log in order, undos included."""
        return list(self.order_by("seq").values_list("payload", flat=True))

    def effective(self) -> list[dict[str, Any]]:
        """The protocol events that stand, in order: each undo cancels the last one."""
        return effective_events(self.payloads())


class GameEvent(models.Model):
    """An entry of the append-only log: a protocol event, or an undo of the last one."""

    UNDO = UNDO

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField(_("number"))
    type = models.CharField(_("type"), max_length=32)
    payload = models.JSONField(_("event"), default=dict)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("author"),
    )
    created_at = models.DateTimeField(_("time"), auto_now_add=True)
    # Chosen by the phone for each tap: the same tap sent again is recognised, not doubled.
    # NULL, not "", when absent: the unique constraint then allows any number of them.
    client_id = models.CharField(  # noqa: DJ001
        _("client event id"), max_length=64, null=True, blank=True
    )

    objects = EventQuerySet.as_manager()

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="event_seq_per_game"),
            models.UniqueConstraint(fields=["game", "client_id"], name="event_client_id_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.seq}: {self.type}"
