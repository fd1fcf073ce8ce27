"""The groups the bot is in, as Telegram tells it (a my_chat_member update whenever the bot
is added to a group, made an administrator, removed or leaves): recorded, so the club's admin
picks the club's group by its title instead of looking up its raw chat id."""

from __future__ import annotations

from dataclasses import dataclass

from notifications.models import TelegramGroup

GROUP_TYPES = {"group", "supergroup"}
# The bot's own status in the chat after the change: in it, or not any more.
PRESENT = {"member", "administrator", "creator", "restricted"}
ABSENT = {"left", "kicked"}


@dataclass(frozen=True)
class GroupMembership:
    chat_id: int
    title: str
    present: bool


def parse_membership(raw: object) -> GroupMembership | None:
    """The bot's membership of a group from a my_chat_member update, or None for any other
    update (a private chat's block and unblock come the same way, and are not groups)."""
    if not isinstance(raw, dict) or not isinstance(change := raw.get("my_chat_member"), dict):
        return None
    chat, new = change.get("chat"), change.get("new_chat_member")
    if not isinstance(chat, dict) or not isinstance(new, dict):
        return None
    chat_id, status = chat.get("id"), new.get("status")
    if type(chat_id) is not int or not -(2**63) <= chat_id < 2**63:
        return None
    if chat.get("type") not in GROUP_TYPES or status not in PRESENT | ABSENT:
        return None
    title = chat.get("title")
    title = title.strip()[:255] if isinstance(title, str) and title.strip() else str(chat_id)
    return GroupMembership(chat_id, title, status in PRESENT)


def group_membership_record(membership: GroupMembership) -> TelegramGroup:
    """Remember the group, its current title and whether the bot is in it."""
    group, _created = TelegramGroup.objects.update_or_create(
        chat_id=membership.chat_id,
        defaults={"title": membership.title, "present": membership.present},
    )
    return group
