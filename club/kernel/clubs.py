"""A club: the tenant every evening, game, season, tournament, recording and notification
belongs to, with its own settings (venue, day and time, time zone, seats, ages, timings,
retention, its Telegram bot and group, its email sender). The lowest of the house's models,
read by every room (the age rule in accounts, the retention in recordings, the bot in the
outbox). Which club a request, a task or a command works for is club/kernel/tenancy.py's
scope; `Club.current()` is that club's row."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, date, datetime, time, timedelta
from email.utils import parseaddr
from functools import cache
from time import monotonic
from typing import Any

from django.core.exceptions import ValidationError
from django.core.files import File
from django.core.validators import (
    FileExtensionValidator,
    MaxValueValidator,
    MinValueValidator,
    validate_email,
)
from django.db import models
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from club.kernel import tenancy
from club.kernel.queueing import queue_on_commit
from games.rules import rating
from games.rules.options import ClubOptions


@cache
def _known_timezones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def validate_timezone(name: str) -> None:
    if name not in _known_timezones():
        raise ValidationError(_("Unknown time zone: %(name)s"), params={"name": name})


class Weekday(models.IntegerChoices):
    MONDAY = 0, _("Monday")
    TUESDAY = 1, _("Tuesday")
    WEDNESDAY = 2, _("Wednesday")
    THURSDAY = 3, _("Thursday")
    FRIDAY = 4, _("Friday")
    SATURDAY = 5, _("Saturday")
    SUNDAY = 6, _("Sunday")


LOGO_MAX_BYTES = 1024 * 1024

# The youngest a club may admit (21 is the default).
MIN_AGE_FLOOR = 18

# A table of the club's game seats 12 to 15 players (docs: RULES.md): the rules' own bounds,
# which a club's smallest table may not leave.
RULES_TABLE_MIN = ClubOptions.min_players
RULES_TABLE_MAX = ClubOptions.max_players

# How far ahead a weekly start is checked against the time zone's daylight-saving switches.
DST_CHECK_YEARS = 10


def validate_logo_size(logo: File[Any]) -> None:
    if logo.size is not None and logo.size > LOGO_MAX_BYTES:
        raise ValidationError(_("The logo may be at most 1 MB."))


def missing_start(weekday: int, start: time, zone: zoneinfo.ZoneInfo, since: date) -> date | None:
    """The first date (from `since`, over DST_CHECK_YEARS) on which the weekly start does
    not exist on the zone's clocks: the hour skipped when they go forward (02:30 on the
    last Sunday of March in Europe/Berlin). None when every weekly start exists. An hour
    that happens twice when the clocks go back is allowed: the evening takes the first."""
    day = since + timedelta(days=(weekday - since.weekday()) % 7)
    until = since.replace(year=since.year + DST_CHECK_YEARS)
    while day < until:
        wall = datetime.combine(day, start, tzinfo=zone)
        there_and_back = wall.astimezone(UTC).astimezone(zone)
        if there_and_back.replace(tzinfo=None) != wall.replace(tzinfo=None):
            return day
        day += timedelta(days=7)
    return None


_settings_cache: dict[int, tuple[float, Club]] = {}


class Visitors(models.TextChoices):
    """Who besides the club's own members may sign up for its evenings (#41, visiting):
    a member of another club on the platform plays as a visitor by the club's rule."""

    OPEN = "open", _("anyone with an account on the platform")
    MEMBERS_ONLY = "members", _("the club's members only")
    BY_APPROVAL = "approval", _("visitors wait for an organiser's approval")


def _is_sender(text: str) -> bool:
    """«club@example.org» or «Клуб <club@example.org>»: what a letter's From may say."""
    _name, address = parseaddr(text.strip(), strict=True)
    try:
        validate_email(address)
    except ValidationError:
        return False
    return True


class Club(models.Model):
    """A club on the platform. The first one is made by a data migration with the
    defaults (a single-club install has only it, and its addresses have no club prefix)."""

    CACHE_SECONDS = 5

    slug = models.SlugField(
        _("address"),
        max_length=40,
        unique=True,
        help_text=_(
            "The club's part of the site's addresses: /c/<address>/. The first club's pages "
            "also answer without it."
        ),
    )
    city = models.CharField(_("city"), max_length=64, blank=True)
    telegram_bot_token = models.CharField(
        _("Telegram bot token"),
        max_length=128,
        blank=True,
        help_text=_(
            "The club's own bot, from @BotFather. Empty for the first club: the server's "
            "TELEGRAM_BOT_TOKEN."
        ),
    )
    telegram_bot_username = models.CharField(
        _("Telegram bot username"), max_length=64, blank=True, editable=False
    )
    telegram_webhook_secret = models.CharField(
        _("webhook secret"), max_length=64, blank=True, editable=False
    )
    email_sender = models.CharField(
        _("email sender"),
        max_length=254,
        blank=True,
        help_text=_(
            "The From of the club's letters: an address (club@example.org), or a name and "
            "the address in angle brackets. Empty: the server's DEFAULT_FROM_EMAIL with the "
            "club's name."
        ),
    )

    name = models.CharField(
        _("club name"),
        max_length=64,
        blank=True,
        help_text=_(
            "Shown in the site's header and the pages' titles. Empty: «Mafia club» in the "
            "reader's language."
        ),
    )
    logo = models.ImageField(
        _("logo"),
        upload_to="club/",
        blank=True,
        validators=[
            FileExtensionValidator(["png", "jpg", "jpeg", "webp"]),
            validate_logo_size,
        ],
        help_text=_(
            "A square PNG, JPEG or WebP picture up to 1 MB. It is the header's mark, the "
            "browser tab's icon and the phone's home-screen icon. Empty: the club's hat."
        ),
    )
    venue = models.CharField(_("venue"), max_length=128, default="GrandDaddy")
    weekday = models.PositiveSmallIntegerField(
        _("weekday"), choices=Weekday.choices, default=Weekday.SUNDAY
    )
    start_time = models.TimeField(_("start time"), default=time(18, 0))
    timezone = models.CharField(
        _("time zone"), max_length=64, default="Europe/Moscow", validators=[validate_timezone]
    )
    seats_per_evening = models.PositiveSmallIntegerField(
        _("seats per evening"),
        default=15,
        validators=[MinValueValidator(1), MaxValueValidator(200)],
    )
    min_players = models.PositiveSmallIntegerField(
        _("minimum players for a table"),
        default=12,
        validators=[MinValueValidator(2), MaxValueValidator(30)],
    )
    min_age = models.PositiveSmallIntegerField(
        _("minimum age"),
        default=21,
        # 21+ is the house's rule; a club may admit from 18, never below (the law on
        # gatherings with alcohol and the consent to publication need adults).
        validators=[MinValueValidator(MIN_AGE_FLOOR), MaxValueValidator(99)],
        help_text=_("21 by default; a club may admit members from 18."),
    )
    signup_opens_days_before = models.PositiveSmallIntegerField(
        _("sign-up opens (days before)"), default=6, validators=[MaxValueValidator(60)]
    )
    confirmation_deadline_hours = models.PositiveSmallIntegerField(
        _("attendance confirmation deadline (hours before the start)"),
        default=3,
        validators=[MaxValueValidator(72)],
    )
    release_unconfirmed_seats = models.BooleanField(
        _("release unconfirmed seats to the reserve at the deadline"), default=False
    )
    audio_retention_days = models.PositiveSmallIntegerField(
        _("audio retention (days)"),
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(30)],
    )
    max_recording_minutes = models.PositiveSmallIntegerField(
        _("longest recording (minutes)"),
        default=300,
        validators=[MinValueValidator(1), MaxValueValidator(24 * 60)],
        help_text=_(
            "A longer recording is refused when its upload completes, before its analysis: "
            "a game lasts an evening, and the analysis costs the server time by the hour."
        ),
    )
    telegram_group_chat_id = models.BigIntegerField(
        _("club's Telegram group chat id"), null=True, blank=True
    )
    noshow_penalty_count = models.PositiveSmallIntegerField(
        _("no-shows that send a member to the reserve first (0: off)"),
        default=0,
        validators=[MaxValueValidator(50)],
    )
    reserve_news_within = models.PositiveSmallIntegerField(
        _("tell a member in the reserve when they move up into its first places"),
        default=3,
        validators=[MaxValueValidator(50)],
        help_text=_(
            "A member waiting in the reserve is told their new position once, when it comes "
            "within this many places of the front (0: never); not at every move. A member "
            "who gets a seat is always told."
        ),
    )
    noshow_penalty_window = models.PositiveSmallIntegerField(
        _("counted over the member's last N evenings"),
        default=5,
        validators=[MinValueValidator(1), MaxValueValidator(100)],
    )

    visitors = models.CharField(
        _("visitors from other clubs"),
        max_length=8,
        choices=Visitors.choices,
        default=Visitors.OPEN,
        help_text=_(
            "Whether a player who is not the club's member may sign up for its evenings: "
            "freely, never, or in the reserve until an organiser lets them in."
        ),
    )

    season_length = models.CharField(
        _("season"),
        max_length=8,
        choices=[("quarter", _("a quarter")), ("year", _("a year"))],
        default="quarter",
        help_text=_("Each season has its own leaderboard."),
    )
    rating_system = models.CharField(
        _("rating system"),
        max_length=16,
        choices=[
            (rating.OPENSKILL_PLAIN, _("OpenSkill, by wins")),
            (rating.OPENSKILL, _("OpenSkill, weighted by game points")),
            (rating.ELO_TRACKS, _("Elo on a red track and a black track")),
            (rating.ELO_NONZERO_SUM, _("mafiaratings' Elo: winners gain more than losers lose")),
        ],
        # bench/ratings.py: OpenSkill ranks simulated players closest to their skill whether
        # or not game points follow skill; weighting by points helps only if they do, which
        # the club's own games show (Analyses and ratings → How sure the ratings are).
        default=rating.OPENSKILL_PLAIN,
        help_text=_(
            "The rating the leaderboard and the players' pages show, in every season. A "
            "change replays every game's rating by the new system in a minute or two. "
            "How well each system foresees the club's own games: Analyses and ratings → "
            "How sure the ratings are."
        ),
    )
    provisional_games = models.PositiveSmallIntegerField(
        _("games before a rating is established"),
        default=10,
        validators=[MaxValueValidator(1000)],
        help_text=_(
            "A player's rating with fewer rated games than this is marked provisional; the "
            "leaderboard sorted by rating lists provisional ratings after the established "
            "ones unless the reader asks to include them. 0: no rating is provisional."
        ),
    )
    season_tournament_games = models.CharField(
        _("tournament games in the season's table"),
        max_length=8,
        choices=[
            ("included", _("included, under their tournament's points")),
            ("excluded", _("left out: they count in their tournament's standings only")),
        ],
        default="included",
        help_text=_(
            "A tournament game has one score, by its tournament's scoring preset, on every "
            "page. The season's table either sums it with the club's games or leaves it "
            "out; the table says which."
        ),
    )
    best_move_victims = models.CharField(
        _("who names the best move"),
        max_length=16,
        choices=[
            ("night_one", _("the player killed on night 1")),
            ("first_killed", _("the first player killed at night, whichever night")),
            ("none", _("nobody: the club does not play the best move")),
        ],
        default="night_one",
        help_text=_(
            "The best move («лучший ход»): the victim names up to three seats in the last "
            "word. A game keeps the reading it started with."
        ),
    )
    bonus_window_days = models.PositiveSmallIntegerField(
        _("extra points after a game (days)"),
        default=3,
        validators=[MaxValueValidator(30)],
        help_text=_(
            "How long after a game ended its host and the admins may still give extra "
            "points or a penalty (with a reason) and record the best move. 0: during the "
            "game only."
        ),
    )

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["pk"]
        constraints = [
            # One bot serves one club: two clubs on one token would answer each other's
            # members and share a webhook.
            models.UniqueConstraint(
                fields=["telegram_bot_token"],
                condition=~models.Q(telegram_bot_token=""),
                name="club_one_club_per_bot",
                violation_error_message=_("Another club uses this bot."),
            ),
        ]

    def __str__(self) -> str:
        # The slug is an address, not a name a reader should see.
        return self.name or str(_("Mafia club"))

    def save(self, *args: Any, **kwargs: Any) -> None:
        rows = Club.objects.filter(pk=self.pk) if self.pk is not None else None
        stored = rows.values_list("rating_system", flat=True).first() if rows is not None else None
        replay = stored is not None and stored != self.rating_system
        super().save(*args, **kwargs)
        _settings_cache.clear()
        tenancy.clubs_changed()
        if replay:
            # Every game's rating again by the new system (as a new scoring scheme does),
            # this club's: its row may be saved from another club's pages.
            with tenancy.club_scope(self):
                queue_on_commit("games.ratings.tasks.ratings_replay")

    @classmethod
    def forget_cached(cls) -> None:
        """A change made with update() (or undone by a rollback): read the rows afresh
        (in this process at once)."""
        _settings_cache.clear()
        tenancy.clubs_changed()

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        deleted = super().delete(*args, **kwargs)
        _settings_cache.clear()
        tenancy.clubs_changed()
        return deleted

    def clean(self) -> None:
        """Settings that contradict the rules, the clocks or another club are refused, each
        beside its field: the form says what to change."""
        super().clean()
        errors: dict[str, ValidationError] = {}
        if not RULES_TABLE_MIN <= self.min_players <= RULES_TABLE_MAX:
            errors["min_players"] = ValidationError(
                _(
                    "The rules seat %(min)d to %(max)d players at a table: the smallest "
                    "table cannot be %(value)d."
                ),
                params={"min": RULES_TABLE_MIN, "max": RULES_TABLE_MAX, "value": self.min_players},
            )
        if self.timezone in _known_timezones() and self.start_time is not None:
            missing = missing_start(self.weekday, self.start_time, self.zone, date.today())
            if missing is not None:
                errors["start_time"] = ValidationError(
                    _(
                        "%(time)s does not exist in %(zone)s on %(date)s: the clocks skip "
                        "that hour when they go forward. Choose another start."
                    ),
                    params={
                        "time": self.start_time.strftime("%H:%M"),
                        "zone": self.timezone,
                        "date": date_format(missing, "DATE_FORMAT"),
                    },
                )
        if self.seats_per_evening is not None and self.seats_per_evening < self.min_players:
            errors["seats_per_evening"] = ValidationError(
                _(
                    "%(seats)d seats do not make a table: the smallest table here is "
                    "%(min)d players."
                ),
                params={"seats": self.seats_per_evening, "min": self.min_players},
            )
        if self.email_sender.strip() and not _is_sender(self.email_sender):
            errors["email_sender"] = ValidationError(
                _("Write the sender as an email address, or a name and the address in <>.")
            )
        token = self.telegram_bot_token.strip()
        if token and Club.objects.filter(telegram_bot_token=token).exclude(pk=self.pk).exists():
            errors["telegram_bot_token"] = ValidationError(
                _("Another club on the platform uses this bot: each club needs a bot of its own.")
            )
        if errors:
            raise ValidationError(errors)

    @classmethod
    def current(cls) -> Club:
        """The club in scope (club/kernel/tenancy.py), kept for a few seconds per process:
        it is read by every sign-up and changed a few times a year. A save here is seen at
        once in this process and within CACHE_SECONDS in the others."""
        club_id = tenancy.current_club_id()
        cached = _settings_cache.get(club_id)
        if cached is not None and monotonic() - cached[0] < cls.CACHE_SECONDS:
            return cached[1]
        row = cls.objects.get(pk=club_id)
        _settings_cache[club_id] = (monotonic(), row)
        return row

    @classmethod
    def by_slug(cls, slug: str) -> Club | None:
        """The club at /c/<slug>/, or None; kept as `current()` keeps its row."""
        for club_id in tenancy.club_ids():
            cached = _settings_cache.get(club_id)
            fresh = cached is not None and monotonic() - cached[0] < cls.CACHE_SECONDS
            if cached is not None and fresh and cached[1].slug == slug:
                return cached[1]
        row = cls.objects.filter(slug=slug).first()
        if row is not None:
            _settings_cache[row.pk] = (monotonic(), row)
        return row

    @property
    def weekday_name(self) -> str:
        """The game day as a sentence says it in the reader's language («воскресенье»,
        "Sunday"): Django's own name of a date on that weekday (1 January 2024 was a Monday)."""
        return date_format(date(2024, 1, 1 + self.weekday), "l")

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.timezone)

    def today(self) -> date:
        """Today's date where the club plays."""
        return timezone.localdate(timezone=self.zone)
