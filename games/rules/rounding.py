"""Rounding as people count: a half goes up, away from zero (0,625 → 0,63; −0,625 → −0,63).

Python's round() and a format's `.2f` round the float's binary value half to even, so 1,25
points in 2 games showed 0,62 «за игру» where anyone counting by hand says 0,63. Every point,
average and compensation the site rounds, stores or shows passes through `rounded`
(the pages through club/kernel/numbers.py and its `points` template filter), so one rule
rounds them all. A float is read as its shortest repr, the decimal a person wrote (0.625 is
0,625 and 1.005 is 1,005, not the binary neighbour below it), and a quotient is taken in
decimals (`per`), so a half is a half. Pure standard library: the phone's engine runs it.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal


def rounded(value: float, digits: int = 2, per: int = 1) -> float:
    """`value` (divided by `per`, exactly) to `digits` decimals, a half away from zero."""
    exact = Decimal(repr(float(value)))
    if per != 1:
        exact /= per
    # + 0.0: −0,001 rounds to 0, not to «−0,00».
    return float(exact.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)) + 0.0
