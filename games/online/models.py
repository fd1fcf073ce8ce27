"""An online game's schedule and the mafia's chat (games/online/services.py)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game


class OnlineTable(models.Model):
    """An online game's schedule: when it starts and how long each phase lasts. The sweep
    (games/online/sweep.py) moves the game on when `deadline_at` passes."""

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
        db_table = "games_onlinetable"  # the table it had in games
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
        db_table = "games_mafiamessage"  # the table it had in games
        verbose_name = _("mafia chat message")
        verbose_name_plural = _("mafia chat")
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.game} · {self.seat}"
