"""Hostile input: every reader refuses it or finishes, with work linear in the input's size.

The work is counted, not timed: sys.setprofile counts every Python and C function call of a
read, and the count for an input 4n large is compared with the one for n on the same run. A
linear reader gives about 4; quadratic work would give 16. The bound 5 leaves room for the
constant part (the header, the catalogue). A C call on a long string (a decode, a split) is
one call but linear in its input by its nature; the patterns, where a C call could hide
quadratic work, only ever see a cell cut to words.SHORT characters."""

from __future__ import annotations

import io
import json
import random
import sys
import zipfile
from collections.abc import Callable
from types import FrameType
from typing import Any

import pytest
from django.utils import translation

from history.formats.problems import MAX_PROBLEMS
from history.formats.reading import read_history
from history.formats.records import Read
from tests.history.sheets import HEADER_RU, ROLES, csv_bytes, game_rows
from tests.history.test_exchange import game as exchange_game
from tests.history.test_protocol import document, entry, export
from tests.history.test_spreadsheet_xlsx import typed, xlsx

LINEAR = 5.0


def read(data: bytes, name: str = "upload") -> Read:
    with translation.override("ru"):
        return read_history(data, filename=name, roles=ROLES)


def work(data: bytes) -> tuple[int, Read]:
    calls = 0

    def count(_frame: FrameType, _event: str, _arg: Any) -> None:
        nonlocal calls
        calls += 1

    sys.setprofile(count)
    try:
        result = read(data)
    finally:
        sys.setprofile(None)
    return calls, result


def ratio(make: Callable[[int], bytes], n: int) -> tuple[float, Read]:
    small, _ = work(make(n))
    large, result = work(make(4 * n))
    return large / small, result


def one_game_key(rows: int) -> bytes:
    header = "Игра;Дата;Место;Ник;Роль;Победа\r\n"
    return (header + "A;07.12.2026;1;Ник;мирный;red\r\n" * rows).encode()


def one_row_games(rows: int) -> bytes:
    header = "Игра;Дата;Место;Ник;Роль;Победа\r\n"
    return (header + "".join(f"g{i};07.12.2026;1;Ник;мирный;red\r\n" for i in range(rows))).encode()


def rows_of_no_game(rows: int) -> bytes:
    header = "Игра;Дата;Место;Ник;Роль;Победа\r\n"
    return (header + ";07.12.2026;1;Ник;мирный;red\r\n" * rows).encode()


def long_cells(length: int) -> bytes:
    rows = game_rows()
    for row in rows:
        row[0] = "7" * (length // 40)  # a «date» of digits: the date pattern's bait
        row[4] = "Н" * (length // 40)
    return csv_bytes(rows)


def tiny_games(count: int) -> bytes:
    return json.dumps([{"players": [{}]}] * count).encode()


def protocol_games(count: int) -> bytes:
    return json.dumps(export(*[entry(document(), number=i + 1) for i in range(count)])).encode()


def exchange_games(count: int) -> bytes:
    return json.dumps([exchange_game(id=i) for i in range(count)]).encode()


def xlsx_rows(count: int) -> bytes:
    rows: list[list[object]] = []
    for number in range(count // 10):
        rows += typed(game_rows(number=str(number + 1)))
    return xlsx([HEADER_RU, *rows], [f"A{2 + 10 * i}:A{11 + 10 * i}" for i in range(count // 10)])


@pytest.mark.parametrize(
    ("make", "n"),
    [
        (one_game_key, 5_000),
        (one_row_games, 2_000),
        (rows_of_no_game, 2_000),
        (long_cells, 400_000),
        (tiny_games, 2_000),
        (protocol_games, 20),
        (exchange_games, 100),
        (xlsx_rows, 200),
    ],
)
def test_work_grows_linearly_with_the_input(make: Callable[[int], bytes], n: int) -> None:
    growth, result = ratio(make, n)
    assert growth < LINEAR, f"{make.__name__}: 4n costs {growth:.1f}× n"
    assert len(result.problems) <= MAX_PROBLEMS + 1


def test_two_hundred_thousand_rows_of_one_game_are_refused_as_one_game() -> None:
    result = read(one_game_key(200_000))
    assert result.games == []
    (problem,) = result.problems
    assert problem.line == 2 and "200000 игроков" in problem.message


def test_a_json_of_many_tiny_games_keeps_a_bounded_list_of_problems() -> None:
    result = read(tiny_games(100_000))
    assert result.games == []
    assert len(result.problems) == MAX_PROBLEMS + 1
    assert result.problems[-1].message == f"И ещё {100_000 - MAX_PROBLEMS} ошибок."


def test_a_ten_megabyte_cell_refuses_the_file_unread() -> None:
    data = csv_bytes(game_rows()) + b'07.12.2026;1;1;11;"' + b"x" * 10_000_000 + b'";1\r\n'
    result = read(data)
    assert result.games == [] and len(result.problems) == 1
    assert "CSV" in result.problems[0].message


def test_deeply_nested_json_is_refused_not_a_crash() -> None:
    for data in (b"[" * 200_000, b'{"a":' * 100_000 + b"1" + b"}" * 100_000):
        (problem,) = read(data).problems
        assert problem.line == 0


def test_a_number_of_a_million_digits_is_refused() -> None:
    (problem,) = read(b'{"games": [{"id": ' + b"9" * 1_000_000 + b"}]}").problems
    assert problem.message.startswith("Это не JSON")


def test_a_zip_of_too_many_members_is_refused() -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for index in range(10_001):
            archive.writestr(f"x{index}", b"")
    assert "слишком много частей" in read(out.getvalue()).problems[0].message


def _mutations(rng: random.Random, seed: bytes, count: int) -> list[bytes]:
    out = []
    for _ in range(count):
        data = bytearray(seed)
        for _ in range(rng.randint(1, 8)):
            if not data:
                break
            at = rng.randrange(len(data))
            action = rng.randrange(3)
            if action == 0:
                data[at] = rng.randrange(256)
            elif action == 1:
                del data[at : at + rng.randint(1, 40)]
            else:
                data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        out.append(bytes(data))
    return out


def test_random_and_mutated_bytes_give_a_read_never_an_exception() -> None:
    rng = random.Random(42)
    seeds = [
        csv_bytes(game_rows()),
        csv_bytes(game_rows(), encoding="cp1251", sep="\t"),
        json.dumps(exchange_game()).encode(),
        json.dumps(export(entry(document()))).encode(),
        xlsx([HEADER_RU, *typed(game_rows())]),
    ]
    inputs = [bytes(rng.randrange(256) for _ in range(rng.randint(0, 300))) for _ in range(200)]
    inputs += [b"PK\x03\x04" + bytes(rng.randrange(256) for _ in range(200)) for _ in range(30)]
    for seed in seeds:
        inputs += _mutations(rng, seed, 60)
    for data in inputs:
        result = read(data)
        assert isinstance(result, Read)
        assert result.games or result.problems


def test_a_sheets_far_row_costs_no_more_than_a_near_one() -> None:
    """A tiny XLSX with one cell in row 1,048,576: the reader reads the rows the XML holds,
    not every number up to it (openpyxl's iter_rows would make a million empty rows)."""

    def far(row: int) -> bytes:
        from openpyxl import Workbook

        book = Workbook()
        sheet = book.active
        assert sheet is not None
        sheet.append(HEADER_RU)
        sheet.cell(row=row, column=1, value="x")
        out = io.BytesIO()
        book.save(out)
        return out.getvalue()

    near, _ = work(far(1_000))
    distant, result = work(far(1_048_576))
    assert distant < 1.5 * near
    assert result.problems[0].line == 1_048_576
