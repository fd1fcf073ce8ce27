from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LiveConfig(AppConfig):
    """The live table's secret links: stream overlays and the producer's view (docs/live.md)."""

    name = "live"
    verbose_name = _("Live table")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The producer's snapshot is written with the public one, in the same callback after
        # each event (games.live cannot import this room above it).
        from games import live
        from live import producer

        live.also_write(producer.producer_write)
