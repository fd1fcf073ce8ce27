"""The effective events of a game's log: each undo cancels the last effective event."""

from collections.abc import Iterable, Mapping
from typing import Any

UNDO = "undo"

# An event as the log stores it (games/rules/events.normalize made it): its type and the
# fields that type knows, JSON values each.
type JSONValue = str | int | float | bool | list[JSONValue] | dict[str, JSONValue] | None
Event = dict[str, JSONValue]


def effective_events(entries: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The protocol events that stand, in order, from the log's entries (each with `type`)."""
    events: list[dict[str, Any]] = []
    for entry in entries:
        if entry.get("type") == UNDO:
            if events:
                events.pop()
        else:
            events.append(dict(entry))
    return events
