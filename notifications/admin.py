from django.contrib import admin

from notifications.models import Notification


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = (
        "created_at",
        "member",
        "chat_id",
        "status",
        "attempts",
        "sent_at",
        "dedupe_key",
    )
    list_filter = ("status",)
    search_fields = ("dedupe_key", "member__nickname", "text")
    list_select_related = ("member",)
    readonly_fields = [field.name for field in Notification._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False
