"""The test client's response, by the name helpers that return one annotate with."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse

# django-stubs' type of what Client.get/post return (it exists only for type checkers: the
# alias is lazy, so importing it at run time is fine).
type Response = _MonkeyPatchedWSGIResponse
