"""The effective events of a game's log: each undo cancels the last effective event."""

from collections.abc import Iterable, Mapping
from typing import Any, Final

# The host's undo (games/rules/event_types.UndoEvent): in the log, never in the protocol.
UNDO: Final = "undo"


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
