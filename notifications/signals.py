"""The outbox's hooks for the rooms above it: the transport knows nothing of the club, so
what the club keeps about a chat (its group's id) follows by listening here."""

from django.dispatch import Signal

# Telegram answered that a group became a supergroup: old_chat_id, new_chat_id. The outbox
# has moved its own rows already; club.apps listens to move the club's group setting.
chat_migrated = Signal()
