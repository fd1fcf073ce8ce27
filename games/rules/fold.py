"""What both engines share: a game's state folded over its events one at a time, each
type of event judged by its own handler, and a refused event leaving the state as it was."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, Self

from games.rules.errors import ProtocolError, RuleCode, RuleViolation, gettext_noop


class EventFold:
    # Each engine maps its event types to its handlers; a handler checks everything first
    # and changes the state only after, so a refusal changes nothing. A handler takes its
    # own kind of event, the TypedDict of games/rules/event_types.py whose `type` is its key
    # here: a table of many kinds cannot say so in a type (tests/games/rules/
    # test_event_types.py checks each entry against its kind instead).
    _handlers: ClassVar[dict[str, Callable[[Any, Any], None]]]
    # Event types still taken once the game is over (the club's: a foul heard later).
    after_end: ClassVar[frozenset[str]] = frozenset()
    events_applied: int

    @property
    def finished(self) -> bool:
        raise NotImplementedError

    def apply(self, event: Mapping[str, object]) -> None:
        """Apply one event, or raise RuleViolation / ProtocolError changing nothing.

        Any mapping is judged, not only a typed event: the engine is fed from the log, from
        documents and by the tests too, and its handlers check each value they read."""
        if not isinstance(event, Mapping):
            raise ProtocolError(gettext_noop("An event must be an object."))
        kind = event.get("type")
        handler = self._handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise ProtocolError(gettext_noop("Unknown event type: %(kind)s."), kind=repr(kind))
        if self.finished and kind not in self.after_end:
            raise RuleViolation(RuleCode.GAME_OVER, gettext_noop("The game is over."))
        handler(self, event)
        self.events_applied += 1

    def apply_all(self, events: Iterable[Mapping[str, object]]) -> None:
        for event in events:
            self.apply(event)

    def copy(self) -> Self:
        """An independent state, for callers that want state + event → a new state."""
        return copy.deepcopy(self)
