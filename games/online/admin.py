from django.contrib import admin
from django.http import HttpRequest

from games.models import Game
from games.online.models import OnlineTable


class OnlineInline(admin.StackedInline[OnlineTable, Game]):
    model = OnlineTable
    extra = 0
    can_delete = False
    fields = ["starts_at", "day_minutes", "night_minutes", "catastrophe_minutes", "deadline_at"]
    readonly_fields = ["starts_at", "deadline_at"]

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # online games are created on the site or through the API
