from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class NotificationStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    SENDING = "sending", _("Sending")
    SENT = "sent", _("Sent")
    FAILED = "failed", _("Failed")


class Notification(models.Model):
    """One message to one member or chat: the outbox. A row is written in the transaction
    that caused it and sent after the commit; the dedupe key makes writing it twice a no-op."""

    dedupe_key = models.CharField(_("dedupe key"), max_length=200, unique=True)
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="notifications",
        verbose_name=_("member"),
    )
    # A group or channel, for messages that are not to one member.
    chat_id = models.BigIntegerField(_("chat id"), null=True, blank=True)
    text = models.TextField(_("text"))
    buttons = models.JSONField(_("buttons"), default=list, blank=True)
    status = models.CharField(
        _("status"),
        max_length=8,
        choices=NotificationStatus.choices,
        default=NotificationStatus.PENDING,
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True, default="")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)
    message_id = models.BigIntegerField(_("Telegram message id"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "created_at"])]

    def __str__(self) -> str:
        return self.dedupe_key
