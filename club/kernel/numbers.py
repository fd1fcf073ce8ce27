"""Numbers as a reader sees them, in the reader's format (0,35 in Russian)."""

from django.utils.formats import number_format


def shown(value: float, digits: int) -> str:
    """`value` rounded to `digits` decimals: Django's number_format cuts a float's digits
    off (1.4507 to one digit gave «1,4» where the site's floatformat shows «1,5»)."""
    return number_format(round(value, digits), digits)


def signed(value: float, digits: int = 2) -> str:
    """With its sign, a typographic minus: «+0,20», «−0,50»."""
    return ("+" if value >= 0 else "−") + shown(abs(value), digits)
