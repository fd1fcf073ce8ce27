"""Numbers as a reader sees them, in the reader's format (0,35 in Russian), rounded as
people count: a half away from zero (games/rules/rounding.py, the one rounding rule)."""

from django.utils.formats import number_format

from games.rules.rounding import rounded


def shown(value: float, digits: int = 2) -> str:
    """`value` rounded to `digits` decimals, a half up: Django's number_format cuts a float's
    digits off (1.4507 to one digit gave «1,4» where the site shows «1,5»), and round()
    takes 0,625 to 0,62."""
    return number_format(rounded(value, digits), digits)


def signed(value: float, digits: int = 2) -> str:
    """With its sign, a typographic minus: «+0,20», «−0,50» (−0,001 is «+0,00»)."""
    near = rounded(value, digits)
    return ("+" if near >= 0 else "−") + shown(abs(near), digits)
