"""A check for what a test expects to be there."""


def present[T](value: T | None, what: str = "the value") -> T:
    """`value`, which the test expects to be there: a None fails the test here, by name."""
    assert value is not None, f"{what} is missing"
    return value
