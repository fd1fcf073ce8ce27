"""A league of clubs (#41, item 7): the clubs that agreed to join it, its series of
tournaments with points by place, and the platform's rating of the players whose rated games
its clubs' leagues accept.

None of these rows belongs to one club: a league is above its clubs, and its pages read
every club's tournaments and games on purpose (the `all_clubs` managers)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from club.kernel.clubs import Club
from tournaments.models import Tournament

# A series' table of points has at most this many places: a place below it earns nothing.
MAX_PLACES = 100
MAX_POINTS = 10_000


class League(models.Model):
    """A set of clubs that agreed to play together: series of tournaments, and (when it
    accepts them) their rated games in the platform's rating."""

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("address"), max_length=40, unique=True)
    accepts_rated_games = models.BooleanField(
        _("accepts its clubs' rated games"),
        default=True,
        help_text=_(
            "The games its clubs mark rated count in the platform's rating. Off: the league "
            "runs its series only."
        ),
    )
    admins = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="leagues_administered",
        verbose_name=_("league's admins"),
        help_text=_("They invite clubs and run the series; a club joins only by its admin's yes."),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name


class JoinStatus(models.TextChoices):
    INVITED = "invited", _("invited")
    ACCEPTED = "accepted", _("accepted")
    DECLINED = "declined", _("declined")
    LEFT = "left", _("left")


class LeagueMembership(models.Model):
    """A club in a league, by agreement in two steps: the league's admin invites the club,
    the club's admin accepts (or declines). Only an accepted club is in the league."""

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("league")
    )
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="league_memberships", verbose_name=_("club")
    )
    status = models.CharField(
        _("status"), max_length=12, choices=JoinStatus.choices, default=JoinStatus.INVITED
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("invited by"),
    )
    invited_at = models.DateTimeField(_("invited"), auto_now_add=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("answered by"),
    )
    answered_at = models.DateTimeField(_("answered"), null=True, blank=True)

    class Meta:
        verbose_name = _("club in a league")
        verbose_name_plural = _("clubs in leagues")
        ordering = ["league", "club"]
        constraints = [
            models.UniqueConstraint(fields=["league", "club"], name="league_club_once"),
        ]

    def __str__(self) -> str:
        return f"{self.club} · {self.league}: {self.get_status_display()}"


def validate_points_by_place(value: Any) -> None:
    """A list of points, first place first, each a number from 0 to MAX_POINTS."""
    if not isinstance(value, list) or not value or len(value) > MAX_PLACES:
        raise ValidationError(
            _("Points by place are a list of 1 to %(most)s numbers, the first place's first."),
            params={"most": MAX_PLACES},
        )
    for points in value:
        if isinstance(points, bool) or not isinstance(points, int | float):
            raise ValidationError(_("Every place's points are a number."))
        if not 0 <= points <= MAX_POINTS:
            raise ValidationError(
                _("A place's points are from 0 to %(most)s."), params={"most": MAX_POINTS}
            )


class Series(models.Model):
    """A league's series of tournaments (a cup over a year): each tournament's places earn
    points by the series' table, and the series' standings are their sum."""

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="series", verbose_name=_("league")
    )
    name = models.CharField(_("name"), max_length=120)
    points_by_place = models.JSONField(
        _("points by place"),
        validators=[validate_points_by_place],
        help_text=_(
            "The first place's points first, e.g. [25, 18, 15, 12, 10]; lower places earn 0."
        ),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("series")
        verbose_name_plural = _("series")
        ordering = ["league", "-created_at", "pk"]

    def __str__(self) -> str:
        return self.name

    def points_for(self, place: int) -> float:
        """The points a place earns (from 1); 0 below the table."""
        table = self.points_by_place
        return float(table[place - 1]) if 1 <= place <= len(table) else 0.0


class SeriesTournament(models.Model):
    """A club's tournament in a series (the club must be in the series' league)."""

    series = models.ForeignKey(
        Series, on_delete=models.CASCADE, related_name="stages", verbose_name=_("series")
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="+", verbose_name=_("tournament")
    )

    class Meta:
        verbose_name = _("tournament of a series")
        verbose_name_plural = _("tournaments of a series")
        ordering = ["series", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["series", "tournament"], name="series_tournament_once"),
        ]

    def __str__(self) -> str:
        return f"{self.series} · {self.tournament_id}"


class PlatformRating(models.Model):
    """A player's rating across clubs: the replay of the rated games of the clubs whose
    league accepts them (leagues/rating.py rebuilds every row)."""

    member = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="platform_rating",
        verbose_name=_("member"),
    )
    rating = models.FloatField(_("rating"))
    games = models.PositiveIntegerField(_("games"))
    # The clubs whose games count in it: their consent rules the name shown (leagues/queries.py).
    club_ids = models.JSONField(_("clubs"), default=list)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("platform rating")
        verbose_name_plural = _("platform ratings")
        ordering = ["-rating"]
        indexes = [models.Index(fields=["-rating"], name="platform_rating_order")]

    def __str__(self) -> str:
        return f"{self.member_id}: {self.rating:.1f}"
