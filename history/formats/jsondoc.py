"""A JSON upload decoded safely: UTF-8 (with or without its BOM), json's own guard against
deep nesting (a RecursionError, not a crash), and Python's limit on a number's digits; an
error is a message for the uploader, never an exception."""

from __future__ import annotations

import json

from django.utils.translation import gettext as _


def load_json(data: bytes) -> object | str:
    """The decoded document, or (a str) why it is not JSON."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return _("This JSON is not in UTF-8.")
    try:
        document: object = json.loads(text)
    except RecursionError:
        return _("This is not JSON a game can be: it is nested too deep.")
    except ValueError as error:  # JSONDecodeError, or a number of too many digits
        return _("This is not JSON: %(error)s.") % {"error": str(error)[:200]}
    if isinstance(document, str):
        return _("This JSON holds no game.")
    return document
