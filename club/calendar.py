"""The iCalendar feed of upcoming evenings, for members' phone calendars."""

from collections.abc import Iterable
from datetime import timedelta

from django.urls import reverse
from icalendar import Calendar, Event

from club.models import Evening

# Three games of about an hour each, and the talk after.
EVENING_LENGTH = timedelta(hours=4)


def evenings_calendar(evenings: Iterable[Evening], *, site_url: str) -> bytes:
    calendar = Calendar()
    calendar.add("prodid", "-//Mafia club//evenings//RU")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", "Мафия: игровые вечера")
    for evening in evenings:
        event = Event()
        event.add("uid", f"evening-{evening.pk}@mafia-club")
        event.add("summary", f"Мафия — {evening.venue}")
        event.add("dtstart", evening.starts_at)
        event.add("dtend", evening.starts_at + EVENING_LENGTH)
        event.add("dtstamp", evening.created_at)
        event.add("location", evening.venue)
        event.add("url", site_url + reverse("evening", args=[evening.pk]))
        calendar.add_component(event)
    ical: bytes = calendar.to_ical()
    return ical
