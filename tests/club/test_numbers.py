"""Numbers as the reader sees them: rounded, never cut (#28's walk: a report said «1,4»
for a rating the site showed as «1,5»)."""

from django.utils import translation

from club.kernel.numbers import shown, signed


def test_numbers_are_rounded_in_the_readers_format() -> None:
    with translation.override("ru"):
        assert shown(1.4507, 1) == "1,5"
        assert shown(-0.624, 1) == "-0,6"
        assert signed(0.587, 1) == "+0,6"
        assert signed(-0.5) == "−0,50"
        assert signed(0.0) == "+0,00"
    with translation.override("en"):
        assert signed(0.35) == "+0.35"
