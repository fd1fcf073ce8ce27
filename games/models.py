"""Games as the host records them: the role catalogue, games, seats and the event log.

A game's state is never stored: it is the rules engine's fold over the game's effective
events (games/log.py), so the log is the one truth and undo is just another entry in it.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.functions import Coalesce
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games.rules.roles import Action, CheckKind, Team
from games.rules.roles import Role as EngineRole
from games.rules.scoring import Scheme


class RoleQuerySet(models.QuerySet["Role"]):
    def engine_roles(self) -> dict[str, EngineRole]:
        return {role.code: role.to_engine() for role in self}


class Role(models.Model):
    """A card of the club's deck. Admins may add roles or change one; a game keeps the
    definitions it started with (Game.options), so a change never alters a played game."""

    code = models.SlugField(_("code"), max_length=32, unique=True)
    name_ru = models.CharField(_("name (Russian)"), max_length=64)
    name_en = models.CharField(_("name (English)"), max_length=64)
    team = models.CharField(_("team"), max_length=8, choices=[(t.value, t.value) for t in Team])
    night_order = models.PositiveSmallIntegerField(
        _("night order"), null=True, blank=True, help_text=_("When it wakes; empty: never.")
    )
    action = models.CharField(
        _("night action"),
        max_length=8,
        choices=[(a.value, a.value) for a in Action],
        default=Action.NONE,
    )
    check_kind = models.CharField(
        _("what a check answers"),
        max_length=16,
        choices=[(c.value, c.value) for c in CheckKind],
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


class GameStatus(models.TextChoices):
    RUNNING = "running", _("In progress")
    FINISHED = "finished", _("Finished")


class Game(models.Model):
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

    OUTCOME_FIELDS = ("status", "winner", "first_eliminated", "ended_at", "first_ended_at")
    # Retention counts from the first of these that is set (the SQL sweep reads the same).
    RETENTION_FROM = ("first_ended_at", "started_at")

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(fields=["evening", "number"], name="game_number_per_evening")
        ]

    def __str__(self) -> str:
        if self.evening_id is None:
            return str(_("Online game %(number)d") % {"number": self.number})
        return f"{self.evening} · #{self.number}"

    @property
    def finished(self) -> bool:
        return self.status == GameStatus.FINISHED

    @property
    def retention_from(self) -> datetime:
        """When the 3 days of its recording begin: the game's first end (RULES.md §C)."""
        return next(getattr(self, f) for f in self.RETENTION_FROM if getattr(self, f))

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
    )
    role = models.CharField(_("role"), max_length=32)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_number_per_game"),
            models.UniqueConstraint(fields=["game", "member"], name="one_seat_per_member"),
        ]

    def __str__(self) -> str:
        return f"{self.number}: {self.member}"


class GameEvent(models.Model):
    """An entry of the append-only log: a protocol event, or an undo of the last one."""

    UNDO = "undo"

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


class ScoringSchemeQuerySet(models.QuerySet["ScoringScheme"]):
    def current(self) -> ScoringScheme:
        """The newest version (the data migration writes version 1 with the defaults)."""
        scheme = self.order_by("-version").first()
        return scheme if scheme is not None else self.create(version=1, points={})


class ScoringScheme(models.Model):
    """A version of the points of each scoring line (games/rules/scoring.Scheme). Versions
    are never changed: an admin's edit is a new version, and every game is scored again."""

    version = models.PositiveIntegerField(_("version"), unique=True)
    # Only the lines that differ from the defaults need be here; Scheme fills the rest.
    points = models.JSONField(_("points"), default=dict, blank=True)
    note = models.CharField(_("what changed and why"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )

    objects = ScoringSchemeQuerySet.as_manager()

    class Meta:
        verbose_name = _("scoring scheme")
        verbose_name_plural = _("scoring schemes")
        ordering = ["-version"]

    def __str__(self) -> str:
        return str(_("Scoring scheme v%(version)d") % {"version": self.version})

    def scheme(self) -> Scheme:
        return Scheme.from_dict(self.points)


class GameAnalysis(models.Model):
    """The «разбор» of a finished game, built by games.analysis from its protocol. Names are
    not stored: pages and posts name the seats as the reader may see them."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, related_name="analysis", verbose_name=_("game")
    )
    scheme = models.ForeignKey(
        ScoringScheme, on_delete=models.PROTECT, related_name="+", verbose_name=_("scheme")
    )
    # A digest of what it was built from (the events, the seats, the scheme): the same
    # inputs give the same analysis, and building it again changes nothing.
    digest = models.CharField(_("digest"), max_length=64)
    # The effective events, by day and night: [{"phase": "day", "n": 1, "events": [...]}].
    sections = models.JSONField(_("timeline"), default=list)
    built_at = models.DateTimeField(_("built"))

    class Meta:
        verbose_name = _("game analysis")
        verbose_name_plural = _("game analyses")

    def __str__(self) -> str:
        return str(self.game)


class PlayerScore(models.Model):
    """One seat's result in an analysed game: the points with their lines, and the Elo
    rating on the seat's track before and after. The rows leaderboards and profiles read."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="scores")
    seat = models.PositiveSmallIntegerField(_("seat"))
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="scores",
        verbose_name=_("member"),
    )
    role = models.CharField(_("role"), max_length=32)
    team = models.CharField(_("team"), max_length=8)
    won = models.BooleanField(_("won"))
    points = models.FloatField(_("points"))
    lines = models.JSONField(_("lines"), default=list)
    # Copied from the game so that the reads sort and filter without a join.
    played_on = models.DateField(_("played on"))  # the evening's date in the club's zone
    ended_at = models.DateTimeField(_("ended"))
    track = models.CharField(_("rating track"), max_length=8, blank=True)  # red, black, ""
    rating_before = models.FloatField(_("rating before"), null=True, blank=True)
    rating_after = models.FloatField(_("rating after"), null=True, blank=True)

    class Meta:
        verbose_name = _("player score")
        verbose_name_plural = _("player scores")
        ordering = ["ended_at", "game_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="one_score_per_seat"),
        ]
        indexes = [
            models.Index(fields=["member", "ended_at"]),
            models.Index(fields=["played_on"]),
            models.Index(fields=["ended_at", "game", "seat"]),
        ]

    def __str__(self) -> str:
        return f"{self.game} · {self.seat}: {self.points:+.2f}"


class RecordingStatus(models.TextChoices):
    UPLOADING = "uploading", _("Uploading")
    QUEUED = "queued", _("Waiting for analysis")
    PROCESSING = "processing", _("Being analysed")
    ANALYSED = "analysed", _("Analysed")
    FAILED = "failed", _("Could not be analysed")
    DELETED = "deleted", _("Deleted")


class RecordingQuerySet(models.QuerySet["Recording"]):
    def due(self, *, now: datetime, retention: timedelta) -> RecordingQuerySet:
        """Not yet deleted, and their game's retention began `retention` ago or earlier."""
        began = Coalesce(*(f"game__{name}" for name in Game.RETENTION_FROM))
        return (
            self.filter(deleted_at__isnull=True)
            .alias(began=began)
            .filter(began__lte=now - retention)
        )


class Recording(models.Model):
    """The sound of one game, from the host's phone: personal data, analysed and then
    deleted on time (games/recordings.py). The row outlives the file: it keeps the numbers
    derived from the sound (voiced intervals), never the sound or its transcript."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, related_name="recording", verbose_name=_("game")
    )
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("uploaded by"),
    )
    original_name = models.CharField(_("file name"), max_length=200)
    size = models.BigIntegerField(_("size, bytes"))
    received = models.BigIntegerField(_("received, bytes"), default=0)
    file = models.FileField(_("file"), upload_to="recordings/", blank=True)
    # When the phone started recording: second 0 of the sound, to align it with the log.
    started_at = models.DateTimeField(_("recording started"))
    status = models.CharField(
        _("status"),
        max_length=12,
        choices=RecordingStatus.choices,
        default=RecordingStatus.UPLOADING,
    )
    progress = models.PositiveSmallIntegerField(_("analysis progress, %"), default=0)
    error = models.CharField(_("error"), max_length=300, blank=True)
    duration = models.FloatField(_("length, s"), null=True, blank=True)
    # Seconds of voice, [[start, end], ...] from the start of the sound (Silero VAD).
    voiced = models.JSONField(_("voiced intervals"), null=True, blank=True)
    # Per speech, what a local Whisper model heard; deleted with the sound.
    transcript = models.JSONField(_("transcript"), null=True, blank=True)
    transcript_note = models.CharField(_("transcription"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    uploaded_at = models.DateTimeField(_("uploaded"), null=True, blank=True)
    analysed_at = models.DateTimeField(_("analysed"), null=True, blank=True)
    deleted_at = models.DateTimeField(_("deleted"), null=True, blank=True)

    objects = RecordingQuerySet.as_manager()

    class Meta:
        verbose_name = _("recording")
        verbose_name_plural = _("recordings")
        indexes = [models.Index(fields=["deleted_at"])]

    def __str__(self) -> str:
        return f"{self.game}: {self.original_name}"


class RecordingDeletion(models.Model):
    """The audit of retention: what was deleted, when, and why."""

    recording_id = models.BigIntegerField(_("recording"))
    game = models.ForeignKey(
        Game, on_delete=models.SET_NULL, null=True, related_name="+", verbose_name=_("game")
    )
    file_name = models.CharField(_("file"), max_length=300, blank=True)
    size = models.BigIntegerField(_("size, bytes"))
    due_at = models.DateTimeField(_("due"), null=True)
    deleted_at = models.DateTimeField(_("deleted"))
    reason = models.CharField(_("reason"), max_length=32)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )

    class Meta:
        verbose_name = _("recording deletion")
        verbose_name_plural = _("recording deletions")
        ordering = ["-deleted_at"]

    def __str__(self) -> str:
        return f"{self.file_name} @ {self.deleted_at:%Y-%m-%d %H:%M}"


class OnlineTable(models.Model):
    """An online game's schedule: when it starts and how long each phase lasts. The sweep
    (games/online.py) moves the game on when `deadline_at` passes."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, related_name="online", verbose_name=_("game")
    )
    starts_at = models.DateTimeField(_("starts"))
    day_minutes = models.PositiveIntegerField(_("day, minutes"), default=720)
    night_minutes = models.PositiveIntegerField(_("night, minutes"), default=240)
    catastrophe_minutes = models.PositiveIntegerField(_("catastrophe round, minutes"), default=60)
    fast_night_minutes = models.PositiveIntegerField(_("fast night comes in, minutes"), default=5)
    # When the current phase closes (open) or the next one starts (closed).
    deadline_at = models.DateTimeField(_("next step"), null=True, blank=True)

    class Meta:
        verbose_name = _("online game")
        verbose_name_plural = _("online games")
        indexes = [models.Index(fields=["deadline_at"])]

    def __str__(self) -> str:
        return str(self.game)


class MafiaMessage(models.Model):
    """The mafia's private chat before an online game starts."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="mafia_chat")
    seat = models.PositiveSmallIntegerField(_("seat"))
    text = models.CharField(_("text"), max_length=2000)
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("mafia chat message")
        verbose_name_plural = _("mafia chat")
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.game} · {self.seat}"
