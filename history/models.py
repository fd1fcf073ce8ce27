"""A club's past brought in: each upload (an import, a preview until confirmed), the games
each import created, and the members' claims on the unclaimed players of old records.

An import's games are linked to it through ImportedGame (a table of this app, so the games
app knows nothing of imports); deleting a game deletes its link, deleting the import's
games on undo leaves nothing behind, and the link's (club, source, key) is what makes a
game of an overlapping file be found and skipped.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.kernel.tenancy import ClubScopedManager, club_key

# A preview nobody confirmed is dropped after this (history.imports.services.previews_drop).
PREVIEW_KEPT = timedelta(days=1)


class ImportSource(models.TextChoices):
    # The values are history.formats.records.Source's.
    EXCHANGE = "exchange", _("The field's exchange JSON")
    SPREADSHEET = "spreadsheet", _("A spreadsheet of results")
    PROTOCOL = "protocol", _("This platform's protocols")


class ImportStatus(models.TextChoices):
    # The upload waits for the worker's reader (HistoryUpload); then a preview, or
    # unreadable with the reader's refusal in counts["error"].
    READING = "reading", _("Being read")
    UNREADABLE = "unreadable", _("Could not be read")
    PREVIEW = "preview", _("Preview")
    # Confirmed: the worker creates the games (history.imports.confirming); a refusal
    # there puts it back to the preview with the refusal in counts["refusal"].
    CONFIRMING = "confirming", _("Games being created")
    IMPORTING = "importing", _("Importing")
    IMPORTED = "imported", _("Imported")
    UNDOING = "undoing", _("Being undone")
    UNDONE = "undone", _("Undone")


# The states in which the file's games are (or are being put) in the club: the same file
# is refused while its import stands in one of them.
HOLDING = (ImportStatus.IMPORTING, ImportStatus.IMPORTED)


class HistoryImport(models.Model):
    club = club_key("history_imports")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("author"),
    )
    filename = models.CharField(_("file"), max_length=255)
    sha256 = models.CharField(_("file's digest"), max_length=64)
    source = models.CharField(_("format"), max_length=16, choices=ImportSource.choices)
    status = models.CharField(
        _("status"), max_length=16, choices=ImportStatus.choices, default=ImportStatus.PREVIEW
    )
    # The uploader's language: the worker's reader words the problems in it.
    language = models.CharField(_("language"), max_length=8, blank=True, default="")
    # The seasons' and ratings' rebuild after a confirm or an undo, 0 … 100.
    progress = models.PositiveSmallIntegerField(_("progress"), default=0)
    # The games and problems the reader gave (history.imports.stored), kept between the
    # upload and the confirm so that the file is not uploaded twice; emptied after.
    records = models.JSONField(_("games read"), default=list, blank=True, editable=False)
    problems = models.JSONField(_("problems"), default=list, blank=True)
    # The organiser's choices in the preview: a nickname's key → "member:<id>", "new".
    choices = models.JSONField(_("choices"), default=dict, blank=True)
    # What it created or skipped: games, skipped, evenings, guests, problems.
    counts = models.JSONField(_("counts"), default=dict, blank=True)
    # The evenings and guests it created (deleted on undo once nothing else holds them).
    created_evenings = models.JSONField(default=list, blank=True, editable=False)
    created_guests = models.JSONField(default=list, blank=True, editable=False)
    # Who confirmed it: the games' host, set by the worker that creates them.
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed by"),
    )
    created_at = models.DateTimeField(_("uploaded"), auto_now_add=True)
    imported_at = models.DateTimeField(_("imported"), null=True, blank=True)
    undone_at = models.DateTimeField(_("undone"), null=True, blank=True)

    objects = ClubScopedManager()
    all_clubs = models.Manager()  # noqa: DJ012 (the default manager comes first)

    class Meta:
        verbose_name = _("history import")
        verbose_name_plural = _("history imports")
        ordering = ["-created_at"]
        constraints = [
            # The same file is brought in once (an undone import frees it).
            models.UniqueConstraint(
                fields=["club", "sha256"],
                condition=Q(status__in=[s.value for s in HOLDING]),
                name="history_import_file_once",
            )
        ]

    def __str__(self) -> str:
        return f"{self.filename} ({self.get_status_display()})"

    @property
    def expired(self) -> bool:
        return (
            self.status == ImportStatus.PREVIEW and self.created_at < timezone.now() - PREVIEW_KEPT
        )

    @property
    def reading(self) -> bool:
        return self.status == ImportStatus.READING

    @property
    def confirming(self) -> bool:
        return self.status == ImportStatus.CONFIRMING

    @property
    def working(self) -> bool:
        """Its games are being created or removed, or the ratings rebuilt after."""
        return self.status in (ImportStatus.IMPORTING, ImportStatus.UNDOING)


class HistoryUpload(models.Model):
    """An uploaded file while the worker reads it (a 10,000-game XLSX takes longer than a
    web worker may hold a request, docs/benchmarks.md); deleted once read. A table of its
    own, so that the import's row, which the progress polls, never carries 50 MB."""

    club = club_key("history_uploads")
    history_import = models.OneToOneField(
        HistoryImport, on_delete=models.CASCADE, related_name="upload", verbose_name=_("import")
    )
    data = models.BinaryField(_("file"))

    objects = ClubScopedManager()
    all_clubs = models.Manager()  # noqa: DJ012 (the default manager comes first)

    class Meta:
        verbose_name = _("uploaded file")
        verbose_name_plural = _("uploaded files")

    def __str__(self) -> str:
        return str(self.history_import_id)


class ImportedGame(models.Model):
    """A game an import created, with its identity in its source."""

    club = club_key("imported_games")
    history_import = models.ForeignKey(
        HistoryImport, on_delete=models.CASCADE, related_name="games", verbose_name=_("import")
    )
    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, related_name="imported", verbose_name=_("game")
    )
    source = models.CharField(_("format"), max_length=16, choices=ImportSource.choices)
    key = models.CharField(_("key in the file"), max_length=255)

    objects = ClubScopedManager()
    all_clubs = models.Manager()  # noqa: DJ012 (the default manager comes first)

    class Meta:
        verbose_name = _("imported game")
        verbose_name_plural = _("imported games")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "source", "key"], name="history_game_once_per_club"
            )
        ]

    def __str__(self) -> str:
        return self.key


class ClaimStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for the organiser")
    APPROVED = "approved", _("Approved")
    REFUSED = "refused", _("Refused")


class HistoryClaim(models.Model):
    """«This is me»: a member says an unclaimed player of the club's records is them."""

    club = club_key("history_claims")
    guest = models.ForeignKey(
        "club.Guest",
        on_delete=models.CASCADE,
        related_name="history_claims",
        verbose_name=_("player of the records"),
    )
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="history_claims",
        verbose_name=_("member"),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=ClaimStatus.choices, default=ClaimStatus.PENDING
    )
    created_at = models.DateTimeField(_("asked"), auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)

    objects = ClubScopedManager()
    all_clubs = models.Manager()  # noqa: DJ012 (the default manager comes first)

    class Meta:
        verbose_name = _("claim")
        verbose_name_plural = _("claims")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["guest", "member"],
                condition=Q(status="pending"),
                name="history_claim_pending_once",
            )
        ]

    def __str__(self) -> str:
        return f"{self.member} → {self.guest.name}"
