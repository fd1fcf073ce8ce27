"""The host screen's TypeScript types (static/games/host/table.d.ts) are written from the
TypedDicts of its JSON (games/management/commands/host_types.py): the committed file is
what they say now, and the writer is exact about every kind of type it meets."""

from __future__ import annotations

import enum
from typing import Any, Literal, NotRequired, TypedDict

import pytest

from games.management.commands.host_types import OUTPUT, declarations


def test_the_committed_declarations_are_what_the_typed_dicts_say_now() -> None:
    assert OUTPUT.read_text(encoding="utf-8") == declarations(), (
        "static/games/host/table.d.ts is stale: run `make types` and commit it"
    )


class Colour(enum.StrEnum):
    RED = "red"
    BLACK = "black"


type Tree = int | list[Tree]


class Leaf(TypedDict):
    """A leaf."""

    colour: Colour
    kind: Literal["a", "b"]
    note: NotRequired[str | None]


class Root(TypedDict):
    leaves: list[Leaf]
    marks: list[Literal[1, 2]]
    by_name: dict[str, bool]
    tree: Tree
    anything: Any
    ratio: float


def test_each_kind_of_type_is_written_once_under_its_name() -> None:
    written = declarations((Root,))
    body = written.split("\n\n", 1)[1]
    assert body == (
        "export interface Root {\n"
        "  leaves: Leaf[];\n"
        "  marks: (1 | 2)[];\n"
        "  by_name: Record<string, boolean>;\n"
        "  tree: Tree;\n"
        "  anything: unknown;\n"
        "  ratio: number;\n"
        "}\n\n"
        "/** A leaf. */\n"
        "export interface Leaf {\n"
        '  colour: Colour;\n  kind: "a" | "b";\n  note?: string | null;\n'
        "}\n\n"
        'export type Colour = "red" | "black";\n\n'
        "export type Tree = number | Tree[];\n"
    )


class Odd(TypedDict):
    seats: set[int]


def test_a_type_json_cannot_carry_is_refused_not_guessed() -> None:
    with pytest.raises(TypeError, match="no TypeScript for set"):
        declarations((Odd,))
