"""A game's recording and the audit of its deletion (games/recordings/services.py)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.kernel.tenancy import ClubScopedManager, club_key
from games.models import Game


class RecordingStatus(models.TextChoices):
    UPLOADING = "uploading", _("Uploading")
    QUEUED = "queued", _("Waiting for analysis")
    PROCESSING = "processing", _("Being analysed")
    ANALYSED = "analysed", _("Analysed")
    FAILED = "failed", _("Could not be analysed")
    DELETED = "deleted", _("Deleted")


class RecordingQuerySet(models.QuerySet["Recording"]):
    def current(self) -> RecordingQuerySet:
        """The games' recordings: what the pages, the API's readers and the published
        analysis show; not the replacements still being uploaded."""
        return self.filter(replacement=False)

    def abandoned(self, *, since: datetime) -> RecordingQuerySet:
        """Uploads that never became a game's recording (unfinished, or a replacement that
        failed) and have had no chunk since `since`."""
        # A replacement in the worker is not abandoned, however long the queue: the
        # catch-up runs it again (tasks.recordings_catch_up).
        return self.filter(
            models.Q(status=RecordingStatus.UPLOADING)
            | models.Q(replacement=True, status=RecordingStatus.FAILED),
            deleted_at__isnull=True,
            last_chunk_at__lt=since,
        )

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
    deleted on time (games/recordings/services.recordings_sweep). The row outlives the file:
    it keeps the numbers derived from the sound (voiced intervals), never the sound or its
    transcript."""

    club = club_key("recordings")

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="recordings", verbose_name=_("game")
    )
    # An upload that replaces the game's recording: until the worker has analysed it (read
    # all of its sound) the game keeps the recording it has, with its analysis; then this
    # one takes its place.
    # A game has at most one recording and one replacement (the constraints below).
    replacement = models.BooleanField(_("replacement being uploaded"), default=False)
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
    # What the stored file takes: the upload's size, or the transcoded form's
    # (services.recording_compact), which is what the club keeps for 3 days.
    stored_size = models.BigIntegerField(_("stored, bytes"), null=True, blank=True)
    file = models.FileField(_("file"), upload_to="recordings/", blank=True)
    # When the phone started recording: second 0 of the sound, to align it with the log.
    # Every reader aligns with it: the start the upload gave, or the one the analysis found
    # in the sound when nobody gave one (games/recordings/audio/offset.py).
    started_at = models.DateTimeField(_("recording started"))
    # The start the upload gave (the game's start by default), kept when the sound's is
    # used; empty until the first analysis, when it is `started_at` as uploaded.
    given_started_at = models.DateTimeField(_("recording started, as given"), null=True, blank=True)
    # Where the protocol fits the sound: its start minus the given one, in seconds, and how
    # sure (0-1; audio/offset.SURE and more: claimed). Empty until analysed.
    start_offset = models.FloatField(
        _("start by the sound, s from the given"), null=True, blank=True
    )
    start_confidence = models.FloatField(
        _("confidence of the start by the sound"), null=True, blank=True
    )
    # The recording was paused and resumed (offset.Pause.as_dict: where, by how much): its
    # time line is broken after it, so nobody's voice is attributed on it.
    pause = models.JSONField(_("paused at"), null=True, blank=True)
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
    # Who spoke when (audio/speakers.py's Attribution): stretches of voice by seat, each
    # seat's talk in its own speeches, in others' and at night. Numbers only: no voice
    # print is kept, so it is worked out from the sound once, when it is analysed.
    speakers = models.JSONField(_("who spoke when"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # The last sign of the phone: an upload left without a chunk for a day is abandoned.
    last_chunk_at = models.DateTimeField(_("last chunk"), default=timezone.now)
    uploaded_at = models.DateTimeField(_("uploaded"), null=True, blank=True)
    analysed_at = models.DateTimeField(_("analysed"), null=True, blank=True)
    deleted_at = models.DateTimeField(_("deleted"), null=True, blank=True)

    objects = ClubScopedManager.from_queryset(RecordingQuerySet)()
    all_clubs = RecordingQuerySet.as_manager()

    class Meta:
        db_table = "games_recording"  # the table it had in games
        verbose_name = _("recording")
        verbose_name_plural = _("recordings")
        indexes = [models.Index(fields=["deleted_at"])]
        constraints = [
            models.UniqueConstraint(
                fields=["game"],
                condition=models.Q(replacement=False),
                name="recording_one_per_game",
            ),
            models.UniqueConstraint(
                fields=["game"],
                condition=models.Q(replacement=True),
                name="recording_one_replacement_per_game",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game}: {self.original_name}"

    @property
    def given_start(self) -> datetime:
        """The start the upload gave (the game's start when it gave none)."""
        return self.given_started_at or self.started_at

    @property
    def voices_told(self) -> bool:
        """Whether who spoke when was worked out for any seat (a game logged without
        speeches teaches the analysis no voice: nothing to show)."""
        return bool(self.speakers and self.speakers.get("seats"))

    @property
    def start_given(self) -> bool:
        """Whether someone said when the recording began. The upload form offers the game's
        start to the second and the API's default is the game's start exactly (the game's
        start never changes), so a start within a second of it is the default: the sound's
        start is used instead when the sound is sure of it."""
        return abs((self.given_start - self.game.started_at).total_seconds()) >= 1.0


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
        db_table = "games_recordingdeletion"  # the table it had in games
        verbose_name = _("recording deletion")
        verbose_name_plural = _("recording deletions")
        ordering = ["-deleted_at"]

    def __str__(self) -> str:
        return f"{self.file_name} @ {self.deleted_at:%Y-%m-%d %H:%M}"


class SuggestionStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for the host")
    ACCEPTED = "accepted", _("Given as a foul")
    DISMISSED = "dismissed", _("Dismissed")


class FoulSuggestion(models.Model):
    """A foul the recording suggests: a seat talked in another's speech, or at night. The
    host accepts it (a foul event in the game's log) or dismisses it; it is never applied
    by itself."""

    recording = models.ForeignKey(
        Recording, on_delete=models.CASCADE, related_name="suggestions", verbose_name=_("recording")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    during = models.PositiveSmallIntegerField(_("during the speech of"), null=True, blank=True)
    start = models.FloatField(_("from, s"))
    end = models.FloatField(_("to, s"))
    seconds = models.FloatField(_("talk, s"))
    status = models.CharField(
        _("status"),
        max_length=12,
        choices=SuggestionStatus.choices,
        default=SuggestionStatus.PENDING,
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)

    class Meta:
        verbose_name = _("suggested foul")
        verbose_name_plural = _("suggested fouls")
        ordering = ["recording", "start"]

    def __str__(self) -> str:
        return f"{self.recording_id}: {self.seat} ({self.seconds:.0f} s)"
