"""The events' TypedDicts (games/rules/event_types.py) are the one shape of each kind: the
field names `normalize` allows come from them, each engine's handler takes the kind its
table names it for, and the host screen's TypeScript writes them as interfaces."""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Literal, NotRequired, TypedDict

import pytest

from games.management.commands.host_types import declarations
from games.rules import event_types, events
from games.rules.club import ClubGame
from games.rules.errors import ProtocolError
from games.rules.fold import EventFold
from games.rules.online import OnlineGame


def _kinds(union: typing.TypeAliasType) -> dict[str, type]:
    """Each kind of a ruleset's union, by its `type`."""
    kinds: dict[str, type] = {}
    pending: list[object] = [union]
    while pending:
        hint = pending.pop()
        if isinstance(hint, typing.TypeAliasType):
            pending.append(hint.__value__)
        elif typing.get_origin(hint) is not None:
            pending.extend(typing.get_args(hint))
        else:
            assert isinstance(hint, type)
            (kind,) = typing.get_args(typing.get_type_hints(hint)["type"])
            kinds[kind] = hint
    return kinds


def _handler_kind(handler: Callable[..., None]) -> object:
    return typing.get_type_hints(handler)["event"]


@pytest.mark.parametrize(
    ("engine", "union"),
    [(ClubGame, event_types.ClubEvent), (OnlineGame, event_types.OnlineEvent)],
)
def test_each_handler_takes_the_kind_its_table_names_it_for(
    engine: type[EventFold], union: typing.TypeAliasType
) -> None:
    kinds = _kinds(union)
    assert set(engine._handlers) == set(kinds)
    for kind, handler in engine._handlers.items():
        assert _handler_kind(handler) is kinds[kind], kind


def test_the_allowed_fields_are_the_typed_dicts_keys() -> None:
    club = {**_kinds(event_types.ClubEvent), "undo": event_types.UndoEvent}
    online = _kinds(event_types.OnlineEvent)
    for fields, kinds in ((events.FIELDS, club), (events.ONLINE_FIELDS, online)):
        assert fields == {
            kind: set(typing.get_type_hints(typed)) - {"type", "at", "note"}
            for kind, typed in kinds.items()
        }
    assert events.FIELDS["first_day_expel"] == {"for"}
    assert events.ONLINE_FIELDS["modkill"] == {"seat", "reason", "inactivity", "override"}
    assert {"type", "at", "note"} == events.COMMON


def test_normalize_keeps_an_event_as_its_kind_says() -> None:
    shaped = events.normalize({"type": "expel_both", "for": 7, "note": "loud"})
    assert shaped == {"type": "expel_both", "for": 7, "note": "loud"}
    online = events.normalize({"type": "vote", "voter": 3, "target": "pass"}, "online")
    assert online == {"type": "vote", "voter": 3, "target": "pass"}


def test_an_event_without_its_type_says_so() -> None:
    """«Unknown event type: None» named Python's word for nothing (a helper's walk)."""
    with pytest.raises(ProtocolError) as missing:
        events.normalize({"seat": 3})
    assert missing.value.english == "An event needs its `type`."
    with pytest.raises(ProtocolError) as unknown:
        events.normalize({"type": "dance"})
    assert unknown.value.english == "Unknown event type: 'dance'."


class Base(TypedDict):
    at: NotRequired[str]


Counted = TypedDict("Counted", {"for": int})


class Question(Base, Counted):
    """A question."""

    type: Literal["question"]


def test_a_typed_dict_base_is_an_interface_extended() -> None:
    body = declarations((Question,)).split("\n\n", 1)[1]
    assert body == (
        "/** A question. */\n"
        "export interface Question extends Base, Counted {\n"
        '  type: "question";\n'
        "}\n\n"
        "export interface Base {\n  at?: string;\n}\n\n"
        "export interface Counted {\n  for: number;\n}\n"
    )
