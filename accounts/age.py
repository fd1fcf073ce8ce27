"""The club's age rule: one answer to "is this person N or over on date D"."""

from datetime import date


def age_on(birth_date: date, on: date) -> int:
    """Full years lived on `on`.

    A birthday on 29 February counts as reached on 1 March in common years: on 28 February
    the person is still a year younger, which is the cautious reading for an age limit.
    """
    had_birthday = (on.month, on.day) >= (birth_date.month, birth_date.day)
    return on.year - birth_date.year - (0 if had_birthday else 1)


def is_of_age(birth_date: date, on: date, minimum_age: int) -> bool:
    return age_on(birth_date, on) >= minimum_age


def coming_of_age(birth_date: date, minimum_age: int) -> date:
    """The first day on which `is_of_age` holds: for telling the underage when to come back."""
    year = birth_date.year + minimum_age
    try:
        return birth_date.replace(year=year)
    except ValueError:  # 29 February in a common year
        return date(year, 3, 1)
