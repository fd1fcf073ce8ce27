"""read_history picks the reader by the content, whatever the file's name, and refuses
empty and oversized files before reading."""

from __future__ import annotations

import json

from django.utils import translation

from history.formats.reading import read_history
from history.formats.records import Read, Source
from history.formats.spreadsheet import MAX_BYTES
from tests.history.sheets import ROLES, csv_bytes, game_rows
from tests.history.test_exchange import game as exchange_game
from tests.history.test_protocol import document, entry, export
from tests.history.test_spreadsheet_xlsx import typed, xlsx


def read(data: bytes, name: str = "upload.bin") -> Read:
    with translation.override("ru"):
        return read_history(data, filename=name, roles=ROLES)


def test_each_format_is_found_by_its_content() -> None:
    assert read(csv_bytes(game_rows())).games[0].source is Source.SPREADSHEET
    from tests.history.sheets import HEADER_RU

    assert (
        read(xlsx([HEADER_RU, *typed(game_rows())]), "x.csv").games[0].source is Source.SPREADSHEET
    )
    assert read(b"\n " + json.dumps(exchange_game()).encode()).games[0].source is Source.EXCHANGE
    assert read(json.dumps(export(entry(document()))).encode()).games[0].source is Source.PROTOCOL
    assert read(json.dumps([document()]).encode()).games[0].source is Source.PROTOCOL


def test_empty_and_oversized_files_are_refused_unread() -> None:
    assert read(b"").problems[0].message == "Файл пуст."
    assert read(b"\xef\xbb\xbf \n").problems[0].message == "Файл пуст."
    (problem,) = read(b"x" * (MAX_BYTES + 1)).problems
    assert problem.line == 0 and "50 МБ" in problem.message


def test_broken_json_is_a_clear_problem() -> None:
    (problem,) = read(b'{"games": [').problems
    assert problem.message.startswith("Это не JSON")


def test_the_read_says_which_format_it_found() -> None:
    assert read(csv_bytes(game_rows())).source is Source.SPREADSHEET
    assert read(b"[]").source is Source.EXCHANGE
    assert read(json.dumps([document()]).encode()).source is Source.PROTOCOL
    assert read(b"").source is None and read(b"{oops").source is None
