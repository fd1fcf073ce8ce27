"""The live table's links: a stream overlay's (a game, an evening's table or a tournament)
and a producer's (a game, with the cards, after an optional delay). Only a link's hash is
kept: the key is shown once, to whoever makes it, and a revoked link is refused exactly as a
guessed one (docs/live.md «Links»)."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from club.kernel.secret_keys import SecretKeyed
from club.kernel.tenancy import ClubScopedManager, club_key

# The producer's delay at most: ten minutes is longer than any stream's lag needs.
MAX_DELAY_SECONDS = 600


class LinkKind(models.TextChoices):
    OVERLAY = "overlay", _("stream overlay")
    PRODUCER = "producer", _("producer's view")


class LiveLink(SecretKeyed, models.Model):
    """A secret link to one game, one evening's table or one tournament (exactly one)."""

    club = club_key("live_links")

    PREFIX = "lv_"

    kind = models.CharField(_("kind"), max_length=8, choices=LinkKind.choices)
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="live_links",
        verbose_name=_("game"),
    )
    evening = models.ForeignKey(
        "club.Evening",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="live_links",
        verbose_name=_("evening"),
    )
    # The evening's table (1 or 2): the overlay follows whatever game is played there.
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="live_links",
        verbose_name=_("tournament"),
    )
    label = models.CharField(_("label"), max_length=64, blank=True, default="")
    delay_seconds = models.PositiveSmallIntegerField(
        _("delay, seconds"), default=0, validators=[MaxValueValidator(MAX_DELAY_SECONDS)]
    )
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    # The first characters, so whoever made links can tell them apart.
    key_start = models.CharField(_("starts with"), max_length=12, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("made by"),
    )
    created_at = models.DateTimeField(_("made"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("revoked by"),
    )

    objects = ClubScopedManager()
    all_clubs = models.Manager()  # noqa: DJ012 (the default manager comes first)

    class Meta:
        verbose_name = _("live link")
        verbose_name_plural = _("live links")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                name="live_link_one_scope",
                condition=(
                    Q(game__isnull=False, evening__isnull=True, tournament__isnull=True)
                    | Q(game__isnull=True, evening__isnull=False, tournament__isnull=True)
                    | Q(game__isnull=True, evening__isnull=True, tournament__isnull=False)
                ),
            ),
            models.CheckConstraint(
                name="live_link_table_with_evening",
                condition=Q(evening__isnull=True, table__isnull=True)
                | Q(evening__isnull=False, table__isnull=False, table__gte=1),
            ),
            # The producer's view is one game's, with its cards; a delay is the producer's.
            models.CheckConstraint(
                name="live_link_producer_of_a_game",
                condition=~Q(kind=LinkKind.PRODUCER) | Q(game__isnull=False),
            ),
            models.CheckConstraint(
                name="live_link_delay",
                condition=Q(delay_seconds__lte=MAX_DELAY_SECONDS)
                & (Q(kind=LinkKind.PRODUCER) | Q(delay_seconds=0)),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.key_start}…"

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None


class LiveLinkUse(models.Model):
    """A use of a link: its page opened, or its feed polled (kept once a minute per address,
    not per poll)."""

    link = models.ForeignKey(
        LiveLink, on_delete=models.CASCADE, related_name="uses", verbose_name=_("link")
    )
    at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    ip = models.GenericIPAddressField(_("address"), null=True, blank=True)
    user_agent = models.CharField(_("browser"), max_length=200, blank=True, default="")
    what = models.CharField(_("what"), max_length=8)

    class Meta:
        verbose_name = _("use of a live link")
        verbose_name_plural = _("uses of live links")
        ordering = ["-at"]

    def __str__(self) -> str:
        return f"{self.link} · {self.at:%Y-%m-%d %H:%M}"
