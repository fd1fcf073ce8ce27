"""The one answer of every export door (a page's link, the API): the scope read and its
powers checked for the club in scope, the format chosen, and the file streamed chunk by
chunk (history/exports/reading.py), in the requester's language."""

from __future__ import annotations

from collections.abc import Iterator

from django.http import StreamingHttpResponse
from django.utils.translation import get_language, override
from django.utils.translation import gettext as _

from club.kernel import tenancy
from club.kernel.errors import RefusalCode, Refused
from games.access import Viewer
from history.exports import writers
from history.exports.reading import exported_games
from history.exports.scopes import Format, Scope, scope_of

CONTENT_TYPES = {
    Format.CSV: "text/csv; charset=utf-8",
    Format.PROTOCOL: "application/json; charset=utf-8",
    Format.EXCHANGE: "application/json; charset=utf-8",
}
SUFFIX = {Format.CSV: "csv", Format.PROTOCOL: "json", Format.EXCHANGE: "mafiaratings.json"}


def format_of(raw: str | None) -> Format:
    try:
        return Format(raw or Format.CSV)
    except ValueError:
        raise Refused(
            _("Choose the file's format: csv, protocol or exchange."), RefusalCode.INVALID
        ) from None


def pieces(scope: Scope, form: Format, viewer: Viewer, language: str) -> Iterator[str]:
    """The file's text as it is read: the response iterates it after the view returned,
    so the club in scope and the language are entered again here."""
    club_id = tenancy.current_club_id()

    def written() -> Iterator[str]:
        games = exported_games(scope.games, viewer)
        if form == Format.CSV:
            yield from writers.csv_stream(games, language)
        elif form == Format.PROTOCOL:
            yield from writers.protocol_stream(games, scope)
        else:
            yield from writers.exchange_stream(games)

    def read() -> Iterator[str]:
        # The scope is entered and left around each piece, never held across a yield: the
        # server may resume the iterator in another context.
        inner = written()
        while True:
            with tenancy.club_scope(club_id), override(language):
                piece = next(inner, None)
            if piece is None:
                return
            yield piece

    return read()


def export_response(
    kind: str, key: str, raw_format: str | None, viewer: Viewer, *, published: bool = False
) -> StreamingHttpResponse:
    """The export a door names, streamed. `published`: the names as anybody reads them
    (a file to send out: the federation, the club's group), not as the requester may."""
    form = format_of(raw_format)
    scope = scope_of(kind, key, viewer)
    language = get_language() or "ru"
    reader = None if published else viewer
    response = StreamingHttpResponse(
        pieces(scope, form, reader, language), content_type=CONTENT_TYPES[form]
    )
    response["Content-Disposition"] = f'attachment; filename="{scope.filename}.{SUFFIX[form]}"'
    response["Cache-Control"] = "private, no-store"
    return response
