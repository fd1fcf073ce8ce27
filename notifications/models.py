from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.kernel.tenancy import ClubScopedManager, club_key


class NotificationStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    SENDING = "sending", _("Sending")
    SENT = "sent", _("Sent")
    FAILED = "failed", _("Failed")
    # Nowhere to send it: no Telegram chat (not linked, or the bot blocked) for a Telegram
    # row, no address for an email row.
    SKIPPED = "skipped", _("Nowhere to send")


class NotificationChannel(models.TextChoices):
    """How a row reaches its reader. A message to a member is one row per channel the member
    is told by (notifications/channels.py); a message to a chat is a Telegram row."""

    TELEGRAM = "telegram", _("Telegram")
    EMAIL = "email", _("Email")


class Notification(models.Model):
    """One message to one member or chat by one channel: the outbox. A row is written in the
    transaction that caused it and sent after the commit; the dedupe key makes writing it
    twice a no-op (a member told by two channels has two rows: the key, and the key with
    the second channel's suffix, notifications.channels.row_key)."""

    club = club_key("notifications")

    dedupe_key = models.CharField(_("dedupe key"), max_length=200)
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
    channel = models.CharField(
        _("channel"),
        max_length=8,
        choices=NotificationChannel.choices,
        default=NotificationChannel.TELEGRAM,
    )
    # An email's subject; empty: the club's name and the text's first sentence.
    subject = models.CharField(_("subject"), max_length=200, blank=True, default="")
    text = models.TextField(_("text"))
    # The language the text is written in, so that a letter wraps it in the same one (a
    # member's report in English); empty: the site's (Russian).
    language = models.CharField(_("language"), max_length=8, blank=True, default="", db_default="")
    buttons = models.JSONField(_("buttons"), default=list, blank=True)
    status = models.CharField(
        _("status"),
        max_length=8,
        choices=NotificationStatus.choices,
        default=NotificationStatus.PENDING,
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    # When a retry is due (after a 429, a network error, or the per-chat limit).
    next_attempt_at = models.DateTimeField(_("next attempt"), null=True, blank=True)
    claimed_at = models.DateTimeField(_("sending since"), null=True, blank=True)
    # Set just before the Bot API call: a row claimed but never called (the worker died
    # before) is sent again by the sweep; only one whose call began is in doubt.
    call_started_at = models.DateTimeField(_("sending call started"), null=True, blank=True)
    last_error = models.TextField(_("last error"), blank=True, default="")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)
    message_id = models.BigIntegerField(_("Telegram message id"), null=True, blank=True)
    # False: a message that email leaves out (member_notify's `email=False`: an online
    # game's steps, games/online/announce.py): no letter is written in its place when
    # Telegram cannot take it (notifications.services.email_fallback). A database default
    # too, for the SQL that writes rows itself (club/seating.py's sign-up).
    mailable = models.BooleanField(_("may go by email"), default=True, db_default=True)
    # Set on a row that edits an earlier message (a group post whose text changed: a member
    # switched publication off, a protocol was corrected) instead of sending a new one.
    edit_of = models.ForeignKey(
        "self",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="edits",
        verbose_name=_("edits the message of"),
    )

    objects = ClubScopedManager()
    all_clubs = models.Manager()  # noqa: DJ012 (the default manager comes first)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "created_at"]),
            models.Index(fields=["chat_id", "sent_at"]),
        ]
        constraints = [
            models.UniqueConstraint(fields=["club", "dedupe_key"], name="notification_one_per_key"),
        ]

    def __str__(self) -> str:
        return self.dedupe_key


class TelegramUpdate(models.Model):
    """Seen update ids: a repeat delivery of an update is ignored. Rows are kept for two
    days only, since ids restart at random after a quiet week."""

    club = club_key("telegram_updates")

    update_id = models.BigIntegerField()
    received_at = models.DateTimeField(auto_now_add=True, db_index=True)

    objects = ClubScopedManager()
    all_clubs = models.Manager()  # noqa: DJ012 (the default manager comes first)

    class Meta:
        verbose_name = _("Telegram update")
        verbose_name_plural = _("Telegram updates")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "update_id"], name="telegram_update_once_per_bot"
            ),
        ]

    def __str__(self) -> str:
        return str(self.update_id)


class TelegramLinkCode(models.Model):
    """A single-use code in a t.me deep link that ties a Telegram account to a member."""

    code = models.CharField(max_length=64, unique=True)
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="telegram_link_codes"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("Telegram link code")
        verbose_name_plural = _("Telegram link codes")

    def __str__(self) -> str:
        return f"{self.member} ({self.created_at:%Y-%m-%d %H:%M})"


class BotConversation(models.Model):
    """Where a Telegram user stands in a multi-step dialogue (the sign-up in the bot).

    Kept in the database, not in memory, so a restart of the server loses nothing.
    """

    club = club_key("bot_conversations")

    telegram_id = models.BigIntegerField()
    state = models.CharField(max_length=32)
    data = models.JSONField(default=dict, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = ClubScopedManager()
    all_clubs = models.Manager()  # noqa: DJ012 (the default manager comes first)

    class Meta:
        constraints = [
            # Each club's bot holds its own dialogue with a user.
            models.UniqueConstraint(
                fields=["club", "telegram_id"], name="bot_conversation_one_per_user"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.telegram_id}: {self.state}"


class TelegramGroup(models.Model):
    """A group or supergroup the bot was added to, as its my_chat_member updates tell: the
    club's admin picks the club's group from these, by title, never by its raw chat id."""

    club = club_key("telegram_groups")

    chat_id = models.BigIntegerField(_("chat id"))
    title = models.CharField(_("title"), max_length=255)
    # The bot is a member (or an administrator) now; False once it left or was removed.
    present = models.BooleanField(_("the bot is in the group"), default=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    objects = ClubScopedManager()
    all_clubs = models.Manager()  # noqa: DJ012 (the default manager comes first)

    class Meta:
        verbose_name = _("Telegram group")
        verbose_name_plural = _("Telegram groups")
        ordering = ["title"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "chat_id"], name="telegram_group_once_per_club"
            ),
        ]

    def __str__(self) -> str:
        return self.title


class TelegramBlock(models.Model):
    """A Telegram user who blocked a club's bot (Telegram answered 403): that bot writes
    to them no more, and their messages go by email where they have one. Per bot, hence per
    club: blocking one club's bot leaves the other clubs' bots free to write. Gone when the
    user writes to that bot again."""

    club = club_key("telegram_blocks")
    telegram_id = models.BigIntegerField(_("Telegram id"))
    blocked_at = models.DateTimeField(_("blocked the bot"), default=timezone.now)

    objects = ClubScopedManager()
    all_clubs = models.Manager()  # noqa: DJ012 (the default manager comes first)

    class Meta:
        verbose_name = _("blocked bot")
        verbose_name_plural = _("blocked bots")
        constraints = [
            models.UniqueConstraint(fields=["club", "telegram_id"], name="telegram_block_once"),
        ]

    def __str__(self) -> str:
        return str(self.telegram_id)
