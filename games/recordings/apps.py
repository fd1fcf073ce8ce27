from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RecordingsConfig(AppConfig):
    name = "games.recordings"
    label = "recordings"
    verbose_name = _("Recordings")
