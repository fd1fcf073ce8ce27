from django.http import HttpRequest

from club.doors.admin_scope import ClubStackedInline
from games.models import Game
from games.online.models import OnlineTable


class OnlineInline(ClubStackedInline[OnlineTable, Game]):
    model = OnlineTable
    extra = 0
    can_delete = False
    fields = ["starts_at", "day_minutes", "night_minutes", "catastrophe_minutes", "deadline_at"]
    readonly_fields = ["starts_at", "deadline_at"]

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # online games are created on the site or through the API
