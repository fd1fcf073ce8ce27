"""Django 6.1's own admin strings that its Russian catalogue lacks or words badly for our
models («Выберите игра», «Добавить участник», «Паджинация», an English «- Select an option
-», «был изменен» whatever the gender). Listed here so makemessages keeps them in the
project's catalogue, which Django reads before its own (LOCALE_PATHS): the admin reads in
Russian and in grammar."""

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
    # «Настройки клуба "…" был изменен», «Игра "…" был успешно изменен»: Django's Russian
    # agrees with a masculine name only; these say it without a gendered past form.
    gettext_noop("The {name} “{obj}” was added successfully."),
    gettext_noop("The {name} “{obj}” was added successfully. You may add another {name} below."),
    gettext_noop("The {name} “{obj}” was changed successfully."),
    gettext_noop("The {name} “{obj}” was changed successfully. You may edit it again below."),
    gettext_noop("The {name} “{obj}” was changed successfully. You may add another {name} below."),
    gettext_noop("The %(name)s “%(obj)s” was deleted successfully."),
    gettext_noop("%(name)s with ID “%(key)s” doesn’t exist. Perhaps it was deleted?"),
)
