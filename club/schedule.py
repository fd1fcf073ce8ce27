"""When the club's evenings happen, computed from the club settings."""

from datetime import datetime, timedelta

from club.kernel.clubs import Club


def next_evening_start(club: Club, after: datetime) -> datetime:
    """The first start of a weekly evening strictly after `after`, as an aware datetime.

    The wall-clock time is fixed in the club's zone (18:00 stays 18:00 across a change
    of daylight-saving time), so the date is found on the local calendar first.
    """
    local_after = after.astimezone(club.zone)
    days_ahead = (club.weekday - local_after.weekday()) % 7
    day = local_after.date() + timedelta(days=days_ahead)
    start = datetime.combine(day, club.start_time, tzinfo=club.zone)
    if start <= after:
        start = datetime.combine(day + timedelta(days=7), club.start_time, tzinfo=club.zone)
    return start


def signup_opens_at(club: Club, starts_at: datetime) -> datetime:
    local_start = starts_at.astimezone(club.zone)
    opens_day = local_start.date() - timedelta(days=club.signup_opens_days_before)
    # Sign-up opens at noon local time on its day: a sociable hour for a burst of taps.
    return min(
        datetime.combine(opens_day, datetime.min.time().replace(hour=12), tzinfo=club.zone),
        starts_at,
    )
