from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LiveConfig(AppConfig):
    """The live table's secret links: stream overlays and the producer's view (docs/live.md)."""

    name = "live"
    verbose_name = _("Live table")
    default_auto_field = "django.db.models.BigAutoField"
