"""Any file of a club's past, read by the reader its content calls for (not its name): JSON
(its first non-blank byte `{` or `[`) is this platform's protocol export when it says so
(`format`), else the field's exchange; a zip is an XLSX; anything else is CSV. Files over
50 MB and empty files are refused before any reading."""

from __future__ import annotations

from collections.abc import Mapping

from history.formats.exchange import read_exchange_document
from history.formats.jsondoc import load_json
from history.formats.problems import empty_file, file_problem
from history.formats.protocol import is_protocol, read_protocol_document
from history.formats.records import Read
from history.formats.spreadsheet import MAX_BYTES, read_spreadsheet, too_big

_BLANK = b" \t\r\n"


def read_history(data: bytes, *, filename: str, roles: Mapping[str, str]) -> Read:
    if len(data) > MAX_BYTES:
        return Read(problems=too_big())
    start = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    start = start.lstrip(_BLANK)
    if not start:
        return Read(problems=empty_file())
    if start[:1] in (b"{", b"["):
        raw = load_json(data)
        if isinstance(raw, str):
            return Read(problems=file_problem(raw))
        if is_protocol(raw):
            return read_protocol_document(raw, roles=roles)
        return read_exchange_document(raw, roles=roles)
    return read_spreadsheet(data, filename=filename, roles=roles)
