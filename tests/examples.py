"""How many examples a property test draws: all of them in CI, a fifth on a developer's
machine, so a local run of the suite stays quick while CI searches as widely as before.

`.ci/run` sets HYPOTHESIS_PROFILE=ci; anything else (or nothing) is the quick profile.
Hypothesis's own profiles cannot do this alone: a test's `@settings(max_examples=...)`
overrides the profile's, so every property test asks `examples(n)` for its count.
"""

import os

from hypothesis import settings

FULL = os.environ.get("HYPOTHESIS_PROFILE") == "ci"

settings.register_profile("ci", deadline=None, print_blob=True)
settings.register_profile("quick", deadline=None)
settings.load_profile("ci" if FULL else "quick")


def examples(full: int) -> int:
    """The test's full count in CI, a fifth (at least 10) elsewhere."""
    return full if FULL else max(10, full // 5)
