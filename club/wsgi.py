import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
application = get_wsgi_application()

# Load what the first requests would otherwise load under the sign-up rush: the sending
# tasks pull in python-telegram-bot (over a second of imports, with the other threads of the
# process waiting on the import lock); the broker's transport, for the first publish.
import notifications.tasks  # noqa: E402, F401
from club.kernel.queueing import warm_up  # noqa: E402

warm_up()
