from datetime import UTC, datetime, time
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from club.kernel.clubs import Club
from club.schedule import next_evening_start, signup_opens_at


def club(**fields: Any) -> Club:
    return Club(**fields)


def test_next_sunday_at_six_in_moscow() -> None:
    start = next_evening_start(club(), datetime(2026, 12, 2, 12, 0, tzinfo=UTC))
    assert start == datetime(2026, 12, 6, 18, 0, tzinfo=ZoneInfo("Europe/Moscow"))


def test_an_evening_that_has_started_is_not_next() -> None:
    moscow = ZoneInfo("Europe/Moscow")
    start = next_evening_start(club(), datetime(2026, 12, 6, 18, 0, tzinfo=moscow))
    assert start == datetime(2026, 12, 13, 18, 0, tzinfo=moscow)
    start = next_evening_start(club(), datetime(2026, 12, 6, 17, 59, tzinfo=moscow))
    assert start == datetime(2026, 12, 6, 18, 0, tzinfo=moscow)


def test_year_end() -> None:
    start = next_evening_start(club(), datetime(2026, 12, 28, tzinfo=UTC))
    assert start.date().isoformat() == "2027-01-03"


@pytest.mark.parametrize(
    ("after", "expected_utc"),
    [
        # 22 March 2026: still winter time in Berlin (UTC+1).
        (datetime(2026, 3, 17, tzinfo=UTC), datetime(2026, 3, 22, 18, 0, tzinfo=UTC)),
        # 29 March: clocks went forward that night, summer time (UTC+2).
        (datetime(2026, 3, 23, tzinfo=UTC), datetime(2026, 3, 29, 17, 0, tzinfo=UTC)),
        # 25 October: clocks went back that night, winter time again.
        (datetime(2026, 10, 20, tzinfo=UTC), datetime(2026, 10, 25, 18, 0, tzinfo=UTC)),
    ],
)
def test_the_local_start_time_holds_across_daylight_saving(
    after: datetime, expected_utc: datetime
) -> None:
    berlin = club(timezone="Europe/Berlin", start_time=time(19, 0))
    start = next_evening_start(berlin, after)
    assert start == expected_utc
    assert start.astimezone(berlin.zone).time() == time(19, 0)


def test_signup_opens_at_noon_some_days_before() -> None:
    moscow = ZoneInfo("Europe/Moscow")
    starts_at = datetime(2026, 12, 6, 18, 0, tzinfo=moscow)
    assert signup_opens_at(club(), starts_at) == datetime(2026, 11, 30, 12, 0, tzinfo=moscow)
    assert signup_opens_at(club(signup_opens_days_before=0), starts_at) == datetime(
        2026, 12, 6, 12, 0, tzinfo=moscow
    )
