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
    # A model's name inside a sentence: Django's Russian declines none («Удалить выбранные
    # участники», «Не удается удалить участник», «Удаление выбранной участник»), so the name
    # stands after a colon or in brackets, as «Добавить: вечер» does. (A count beside a name,
    # «6 гости», is templates/admin/pagination.html's: «Гости: 6».)
    gettext_noop("Add %(name)s"),
    gettext_noop("Search %(name)s"),
    gettext_noop("Select all %(total_count)s %(module_name)s"),
    gettext_noop("Delete selected %(verbose_name_plural)s"),
    gettext_noop("Successfully deleted %(count)d %(items)s."),
    gettext_noop("Cannot delete %(name)s"),
    gettext_noop(
        "Deleting the selected %(objects_name)s would result in deleting related objects, "
        "but your account doesn't have permission to delete the following types of objects:"
    ),
    gettext_noop(
        "Deleting the selected %(objects_name)s would require deleting the following "
        "protected related objects:"
    ),
    gettext_noop(
        "Are you sure you want to delete the selected %(objects_name)s? All of the following "
        "objects and their related items will be deleted:"
    ),
    gettext_noop(
        "Deleting the %(object_name)s “%(escaped_object)s” would result in deleting related "
        "objects, but your account doesn't have permission to delete the following types of "
        "objects:"
    ),
    gettext_noop(
        "Deleting the %(object_name)s “%(escaped_object)s” would require deleting the "
        "following protected related objects:"
    ),
    gettext_noop(
        "Are you sure you want to delete the %(object_name)s “%(escaped_object)s”? All of "
        "the following related items will be deleted:"
    ),
    # The history's lines: «Добавлен …», «Удален …» agreed with a masculine name only.
    gettext_noop("Added {name} “{object}”."),
    gettext_noop("Changed {fields} for {name} “{object}”."),
    gettext_noop("Deleted {name} “{object}”."),
)
