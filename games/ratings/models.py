"""What the analysis of a game stores: the scoring schemes' versions, each game's analysis and
each seat's score with its rating (games/ratings/analysis.py builds them)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game
from games.rules.scoring import Scheme


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
        db_table = "games_scoringscheme"  # the table it had in games
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
        db_table = "games_gameanalysis"  # the table it had in games
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
        db_table = "games_playerscore"  # the table it had in games
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
