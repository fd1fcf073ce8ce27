"""A tournament: its sign-up list (an evening's, with its reserve), its rounds and tables,
and the games played at them (docs/tournaments.md)."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from club.kernel.tenancy import ClubScopedManager, club_key
from club.models import Evening, Registration
from games.models import Game
from games.ratings.models import ScoringPreset


class Stage(models.TextChoices):
    QUALIFYING = "qualifying", _("Qualifying")
    FINAL = "final", _("Final")


class Tournament(models.Model):
    """A championship of the club: qualifying rounds seated by the generator
    (tournaments/seating), then a final of the standings' top players."""

    club = club_key("tournaments")

    name = models.CharField(_("name"), max_length=120)
    # Its sign-up list is an evening's (club.seating): the same sign-up, reserve and bot as
    # a Sunday evening; its games are that evening's games at its tables.
    evening = models.OneToOneField(
        Evening, on_delete=models.PROTECT, related_name="tournament", verbose_name=_("evening")
    )
    ends_on = models.DateField(_("last day"))
    preset = models.ForeignKey(
        ScoringPreset, on_delete=models.PROTECT, verbose_name=_("scoring preset")
    )
    table_size = models.PositiveSmallIntegerField(
        _("players at a table"),
        default=10,
        validators=[MinValueValidator(7), MaxValueValidator(15)],
    )
    tables = models.PositiveSmallIntegerField(
        _("tables"), default=1, validators=[MinValueValidator(1), MaxValueValidator(10)]
    )
    rounds = models.PositiveSmallIntegerField(
        _("qualifying rounds"), default=6, validators=[MinValueValidator(1), MaxValueValidator(30)]
    )
    final_players = models.PositiveSmallIntegerField(
        _("players in the final"),
        default=10,
        help_text=_("The standings' top players after the qualifying rounds; 0: no final."),
    )
    final_rounds = models.PositiveSmallIntegerField(
        _("final games"), default=0, validators=[MaxValueValidator(10)]
    )
    final_weight = models.FloatField(
        _("final games' weight"),
        default=1.0,
        validators=[MinValueValidator(0.1), MaxValueValidator(5.0)],
        help_text=_("A final game's points count this many times (e.g. 1.5)."),
    )
    hide_final = models.BooleanField(
        _("hide the final's results until the end"),
        default=False,
        help_text=_("The standings stop at the qualifying rounds until the last final game."),
    )
    # The seating generator's seed: the published seating can be made again from it.
    seed = models.PositiveIntegerField(_("seed"), default=0)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    objects = ClubScopedManager()
    all_clubs = models.Manager()  # noqa: DJ012 (the default manager comes first)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-evening__starts_at"]

    def __str__(self) -> str:
        return self.name


class Round(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="round_set", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("round"))
    stage = models.CharField(_("stage"), max_length=12, choices=Stage.choices)
    weight = models.FloatField(_("weight"), default=1.0)
    # When its seating went to the players (tournaments.services.round_announce).
    announced_at = models.DateTimeField(_("announced"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_once"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.number}"


class Table(models.Model):
    """One table of one round: who sits where (registrations in seat order), its judge,
    and its game once started."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="table_set", verbose_name=_("round")
    )
    number = models.PositiveSmallIntegerField(_("table"))
    players = models.JSONField(_("players"), default=list, help_text=_("Seat order."))
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("judge"),
    )
    game = models.OneToOneField(
        Game,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournament_table",
        verbose_name=_("game"),
    )

    class Meta:
        verbose_name = pgettext_lazy("tournament", "table")
        verbose_name_plural = pgettext_lazy("tournament", "tables")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_once"),
        ]

    def __str__(self) -> str:
        return f"{self.round} · {self.number}"


class TableJudge(models.Model):
    """Who judges (hosts) a table, every round."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="judges", verbose_name=_("tournament")
    )
    table = models.PositiveSmallIntegerField(_("table"))
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("judge"),
    )

    class Meta:
        verbose_name = _("table's judge")
        verbose_name_plural = _("tables' judges")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "table"], name="judge_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.judge}"


class KeptApart(models.Model):
    """Two players never seated at one table (a family, a team)."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="kept_apart",
        verbose_name=_("tournament"),
    )
    first = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    second = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="+", verbose_name=_("other player")
    )

    class Meta:
        verbose_name = _("pair kept apart")
        verbose_name_plural = _("pairs kept apart")

    def __str__(self) -> str:
        return f"{self.first} · {self.second}"

    def clean(self) -> None:
        """Two different players of this tournament (its evening's sign-ups)."""
        if not (self.first_id and self.second_id):
            return  # the form says which is missing
        if self.first_id == self.second_id:
            raise ValidationError(_("A player is not kept apart from themselves."))
        evening = self.tournament.evening_id
        if {self.first.evening_id, self.second.evening_id} != {evening}:
            raise ValidationError(_("Both players are this tournament's: its sign-ups."))


class Absence(models.Model):
    """A round a player cannot attend."""

    registration = models.ForeignKey(
        Registration,
        on_delete=models.CASCADE,
        related_name="tournament_absences",
        verbose_name=_("player"),
    )
    round = models.PositiveSmallIntegerField(_("round"))

    class Meta:
        verbose_name = _("absence")
        verbose_name_plural = _("absences")
        constraints = [
            models.UniqueConstraint(fields=["registration", "round"], name="absence_once"),
        ]

    def __str__(self) -> str:
        return f"{self.registration} · {self.round}"

    def clean(self) -> None:
        """A round of the tournament whose sign-up this is."""
        if not self.registration_id:
            return  # the form says it is missing
        tournament = Tournament.objects.filter(evening_id=self.registration.evening_id).first()
        if tournament is None:
            raise ValidationError(_("This sign-up is no tournament's."))
        if not tournament.round_set.filter(number=self.round).exists():
            raise ValidationError(_("The tournament has no round %(n)d.") % {"n": self.round})


class JudgeConflict(models.Model):
    """A judge who must not judge a player (listed against them)."""

    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("judge"),
    )
    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )

    class Meta:
        verbose_name = _("judge's conflict")
        verbose_name_plural = _("judges' conflicts")

    def __str__(self) -> str:
        return f"{self.judge} · {self.registration}"
