"""Django 6.1's own admin strings that its Russian catalogue lacks or words badly for our
models («Выберите игра», «Добавить участник», «Паджинация», an English «- Select an option
-»). Listed here so makemessages keeps them in the project's catalogue, which Django reads
before its own (LOCALE_PATHS): the admin reads in Russian and in grammar."""

from django.utils.translation import gettext_noop

DJANGO_ADMIN_TEXTS = (
    gettext_noop("- Select an option -"),
    gettext_noop("Filter by %(field_name)s"),
    gettext_noop("Select %s"),
    gettext_noop("Select %s to change"),
    gettext_noop("Select %s to view"),
    gettext_noop("Add %s"),
    gettext_noop("Change %s"),
    gettext_noop("View %s"),
    gettext_noop("Pagination %(name)s"),
    gettext_noop("Pagination %(name)s entries"),
)
