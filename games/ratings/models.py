"""What the analysis of a game stores: the scoring presets and their versions, which preset
each season is scored by, each game's analysis and each seat's score with its rating
(games/ratings/analysis.py builds them)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from club.kernel.tenancy import ClubScopedManager, club_key
from games.models import Game
from games.rules.presets import AUTO, CLUB, FIIM, PRESETS
from games.rules.rounding import rounded
from games.rules.scoring import Scheme

# The three presets the migration made, by the names the site speaks them in; a preset an
# admin adds shows its own name.
PRESET_LABELS = {CLUB: _("Club"), FIIM: _("FIIM"), AUTO: _("Automatic")}


class ScoringPresetQuerySet(models.QuerySet["ScoringPreset"]):
    def club(self) -> ScoringPreset:
        """«Клуб», which scores every season no row of SeasonPreset names (a migration makes
        it; a database emptied by a test gets it back)."""
        preset, _created = self.get_or_create(
            code=CLUB, defaults={"name": PRESETS[CLUB].name, "source": PRESETS[CLUB].source}
        )
        return preset


class ScoringPreset(models.Model):
    """A way of scoring a game (docs/scoring.md): its points live in its versions."""

    code = models.SlugField(_("code"), max_length=32, unique=True)
    name = models.CharField(_("name"), max_length=80)
    source = models.CharField(_("source"), max_length=300, blank=True)

    objects = ScoringPresetQuerySet.as_manager()

    class Meta:
        verbose_name = _("scoring preset")
        verbose_name_plural = _("scoring presets")
        ordering = ["pk"]

    def __str__(self) -> str:
        return str(self.label)

    @property
    def label(self) -> Any:
        return PRESET_LABELS.get(self.code, self.name)


class ScoringSchemeQuerySet(models.QuerySet["ScoringScheme"]):
    def current(self, preset: ScoringPreset | None = None) -> ScoringScheme:
        """The newest version of `preset` («Клуб» when not given; the data migration writes
        each preset's version 1)."""
        preset = preset or ScoringPreset.objects.club()
        scheme = self.filter(preset=preset).select_related("preset").order_by("-version").first()
        return scheme if scheme is not None else self.create(preset=preset, version=1, points={})


class ScoringScheme(models.Model):
    """A version of a preset's points (games/rules/scoring.Scheme). Versions are never
    changed: an admin's edit is a new version, and every game is scored again."""

    preset = models.ForeignKey(
        ScoringPreset,
        on_delete=models.PROTECT,
        related_name="versions",
        verbose_name=_("preset"),
    )
    version = models.PositiveIntegerField(_("version"))
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
        ordering = ["preset", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["preset", "version"], name="one_number_per_version"),
        ]

    def __str__(self) -> str:
        return str(
            _("%(preset)s v%(version)d") % {"preset": self.preset.label, "version": self.version}
        )

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self.preset_id:
            self.preset = ScoringPreset.objects.club()
        super().save(*args, **kwargs)

    def scheme(self) -> Scheme:
        return Scheme.from_dict(self.points)


class SeasonPreset(models.Model):
    """From which season on a preset scores the club's games: every season whose first day
    is on or after `since`, until a later row. Seasons before the first row are «Клуб»'s."""

    club = club_key("season_presets")

    since = models.DateField(
        _("for the seasons from"),
        help_text=_(
            "Every season that starts on this day or later is scored by the preset, until a "
            "later row; a season under way keeps its preset."
        ),
    )
    preset = models.ForeignKey(
        ScoringPreset, on_delete=models.PROTECT, related_name="+", verbose_name=_("preset")
    )
    note = models.CharField(_("why"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )

    objects = ClubScopedManager()
    all_clubs = models.Manager()  # noqa: DJ012 (the default manager comes first)

    class Meta:
        verbose_name = _("season's preset")
        verbose_name_plural = _("seasons' presets")
        ordering = ["-since"]
        constraints = [
            models.UniqueConstraint(fields=["club", "since"], name="season_preset_one_per_since"),
        ]

    def __str__(self) -> str:
        return f"{self.since:%Y-%m-%d} → {self.preset}"


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

    # The game's club, kept on the row: a season's tables read one club's scores by an index.
    club = club_key("scores")
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
    # What a season's table sums besides the points (first-night compensation, the
    # tie-breakers): shot dead on night 1, and the points of the lines a tie-breaker counts.
    killed_first_night = models.BooleanField(_("killed on night 1"), default=False)
    bonus_points = models.FloatField(_("extra points"), default=0.0)
    best_move_points = models.FloatField(_("best move points"), default=0.0)
    penalty_points = models.FloatField(_("penalty points"), default=0.0)

    objects = ClubScopedManager()
    all_clubs = models.Manager()  # noqa: DJ012 (the default manager comes first)

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
            models.Index(fields=["club", "played_on"]),
            models.Index(fields=["ended_at", "game", "seat"]),
        ]

    def __str__(self) -> str:
        return f"{self.game} · {self.seat}: {rounded(self.points):+.2f}"


class RatingForecast(models.Model):
    """How well each rating system foresaw the club's games, each before it was rated
    (games/rules/forecast.py): kept by the worker after every analysed game and shown to
    the admins beside the club's choice of system. Each club's own, from its own games."""

    club = club_key("rating_forecasts")
    system = models.CharField(_("rating system"), max_length=16)
    games = models.PositiveIntegerField(_("games foreseen"))
    log_loss = models.FloatField(_("log-loss"))
    base_log_loss = models.FloatField(_("log-loss of the base rate alone"))
    updated_at = models.DateTimeField(_("updated"))

    objects = ClubScopedManager()
    all_clubs = models.Manager()  # noqa: DJ012 (the default manager comes first)

    class Meta:
        verbose_name = _("rating forecast")
        verbose_name_plural = _("how sure the ratings are")
        ordering = ["log_loss"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "system"], name="rating_forecast_one_per_system"
            ),
        ]

    def __str__(self) -> str:
        return self.system


class RatingFold(models.Model):
    """Where one rating system's fold over the club's rated games stands (games/ratings/
    fold.py): the last game it has folded, in playing order, and what the system carries
    beside each player's state (RatingState): the club's base rate as the system counts it,
    and its foresight's running sums. A game that ends after that one is folded from here
    alone; anything else replays every game and writes these rows again. No row: no fold yet
    (the next game's end replays). Each club's own, over its own games."""

    club = club_key("rating_folds")
    system = models.CharField(max_length=16)
    # The last game folded: its scores' `ended_at` and its id (none folded yet: both null).
    # Not a key: a deleted game leaves the fold pointing at nothing, which the next end sees.
    last_ended_at = models.DateTimeField(null=True, blank=True)
    last_game_id = models.BigIntegerField(null=True, blank=True)
    # The scores' stored ratings are this system's (the club's choice when they were written).
    shown = models.BooleanField(default=False)
    # games.rules.rating.BaseRate of the system's own fold: red wins and decided games.
    reds = models.PositiveIntegerField(default=0)
    decided = models.PositiveIntegerField(default=0)
    # games.rules.forecast.Tally: its base rate, and its log-losses summed (not averaged, so
    # that the next game adds to them exactly as the replay does).
    foreseen_reds = models.PositiveIntegerField(default=0)
    foreseen = models.PositiveIntegerField(default=0)
    loss = models.FloatField(default=0.0)
    base_loss = models.FloatField(default=0.0)

    objects = ClubScopedManager()
    all_clubs = models.Manager()  # noqa: DJ012 (the default manager comes first)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "system"], name="one_fold_per_system"),
        ]

    def __str__(self) -> str:
        return self.system


class RatingState(models.Model):
    """A player's state in one rating system after the last game folded (RatingFold), all
    the system needs to rate their next game: OpenSkill's mu and sigma, Elo's two tracks,
    the non-zero-sum Elo's one rating. A field the system does not keep is null; a player the
    system has not rated has no row. A player has a state in each club they play in: each
    club's ratings are its own."""

    club = club_key("rating_states")
    system = models.CharField(max_length=16)
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
    )
    mu = models.FloatField(null=True, blank=True)
    sigma = models.FloatField(null=True, blank=True)
    red = models.FloatField(null=True, blank=True)
    black = models.FloatField(null=True, blank=True)
    overall = models.FloatField(null=True, blank=True)

    objects = ClubScopedManager()
    all_clubs = models.Manager()  # noqa: DJ012 (the default manager comes first)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["club", "system", "member"], name="one_state_per_system"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.system} · {self.member_id}"


class PlayFacts(models.Model):
    """One seat's facts of play in an analysed game (games/rules/facts.py): what the
    statistics of play sum in SQL (games/ratings/play.py, docs/statistics.md). Written by
    the worker with the game's analysis and rebuilt with it; a guest's seat has a row too
    (no member), so a table's size and a host's games count every seat."""

    club = club_key("play_facts")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="play_facts")
    seat = models.PositiveSmallIntegerField(_("seat"))
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("member"),
    )
    # Copied from the game so that the sums filter and group without a join.
    # None for an imported game: its records name no host (Game.host_known).
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("host"),
    )
    played_on = models.DateField(_("played on"))
    table_size = models.PositiveSmallIntegerField(_("players at the table"))
    # Whether the game has an event log: the event-based facts (nominations, votes, checks)
    # count only such games; a results-only game holds what its results hold.
    has_log = models.BooleanField(_("event log"), default=True)
    role = models.CharField(_("role"), max_length=32)
    team = models.CharField(_("team"), max_length=8)
    won = models.BooleanField(_("won"))
    nominations = models.PositiveSmallIntegerField(_("nominations"), default=0)
    nominations_rival = models.PositiveSmallIntegerField(
        _("nominations of the other side"), default=0
    )
    votes = models.PositiveSmallIntegerField(_("votes"), default=0)
    votes_rival = models.PositiveSmallIntegerField(_("votes on the other side"), default=0)
    checks = models.PositiveSmallIntegerField(_("commissar's checks"), default=0)
    checks_black = models.PositiveSmallIntegerField(_("checks that found black"), default=0)
    killed_first = models.BooleanField(_("killed first"), default=False)
    best_move_named = models.PositiveSmallIntegerField(_("best move: seats named"), default=0)
    best_move_black = models.PositiveSmallIntegerField(_("best move: black named"), default=0)
    fouls = models.PositiveSmallIntegerField(_("fouls"), default=0)
    left_reason = models.CharField(_("left by"), max_length=16, blank=True)
    left_phase = models.CharField(_("left in"), max_length=8, blank=True)
    left_n = models.PositiveSmallIntegerField(_("left on day or night"), null=True, blank=True)

    objects = ClubScopedManager()
    all_clubs = models.Manager()  # noqa: DJ012 (the default manager comes first)

    class Meta:
        verbose_name = _("facts of play")
        verbose_name_plural = _("facts of play")
        ordering = ["game_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="one_play_facts_per_seat"),
        ]
        indexes = [
            models.Index(fields=["club", "member", "played_on"]),
            models.Index(fields=["club", "host"]),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} · {self.seat}"
