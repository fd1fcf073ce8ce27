from typing import Any

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubConfig(AppConfig):
    name = "club"
    verbose_name = _("Club")

    def ready(self) -> None:
        from notifications.signals import chat_migrated

        chat_migrated.connect(follow_group_migration, dispatch_uid="club-group-migrated")


def follow_group_migration(sender: Any, *, old_chat_id: int, new_chat_id: int, **_: Any) -> None:
    """The club's group became a supergroup: its posts go to the new chat from now on."""
    from club.kernel.clubs import Club

    club = Club.current()
    if club.telegram_group_chat_id == old_chat_id:
        Club.objects.filter(pk=club.pk).update(telegram_group_chat_id=new_chat_id)
        Club.forget_cached()
