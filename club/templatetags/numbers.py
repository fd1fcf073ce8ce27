"""`{{ value|points }}`: the one way a template prints points (a game's, a table's sum, an
average, Ci), rounded as people count (a half away from zero, games/rules/rounding.py) in
the reader's format: `{{ 0.625|points }}` is «0,63» in Russian. `{{ value|points:1 }}` for
one decimal. Django's floatformat is left to other numbers (seconds, weights), so a point
is never rounded by a second rule (tests/club/test_numbers.py)."""

from __future__ import annotations

from django import template

from club.kernel.numbers import shown

register = template.Library()


@register.filter
def points(value: float | str | None, digits: int = 2) -> str:
    """Points to `digits` decimals; nothing (an empty string) for no value."""
    if value is None or value == "":
        return ""
    return shown(float(value), int(digits))
