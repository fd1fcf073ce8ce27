"""Replay a game protocol (docs/protocol.md) and print the outcome as JSON.

Exit 0 with the replay output; exit 2 with {"error", "event"} for an event the rules forbid,
or {"error"} for a malformed document. Never a traceback.
"""

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone, translation

from games.rules import protocol
from games.rules.errors import ProtocolError, gettext_noop
from games.rules_text import rules_message


class Command(BaseCommand):
    help = "Replay a game protocol file (or - for stdin) and print the result as JSON."
    # A replay never touches the database, so it skips the checks that would connect to it.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the protocol JSON file, or - for standard input")
        parser.add_argument("--lang", choices=["ru", "en"], default="ru", help="language of errors")

    def handle(self, *args: Any, file: str, lang: str, **options: Any) -> None:
        with translation.override(lang):
            try:
                text = sys.stdin.buffer.read() if file == "-" else self._read(file)
                document = protocol.loads(text)
            except ProtocolError as error:
                self._fail({"error": rules_message(error)})
                return
            game, failure = protocol.replay(document)
            if failure is not None:
                # No database here: a moment reads in the site's zone (the club's default).
                zone = timezone.get_default_timezone()
                self._fail(failure.as_dict(rules_message(failure.error, zone)))
                return
        self._print(game.summary())

    def _read(self, path: str) -> bytes:
        try:
            with open(path, "rb") as handle:
                return handle.read()
        except OSError as error:
            raise ProtocolError(
                gettext_noop("Cannot read the file %(path)s: %(reason)s."),
                path=path,
                reason=error.strerror,
            ) from error

    def _print(self, body: dict[str, Any]) -> None:
        self.stdout.write(json.dumps(body, ensure_ascii=False))

    def _fail(self, body: dict[str, Any]) -> None:
        self._print(body)
        sys.exit(2)
