"""The problems of one read, kept to a bounded number: a hostile file of a million bad rows
says the first few hundred and how many more, rather than a list as long as the file."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from history.formats.records import Problem

MAX_PROBLEMS = 500


class Problems:
    def __init__(self) -> None:
        self.kept: list[Problem] = []
        self.more = 0

    @property
    def full(self) -> bool:
        """No more is kept: a reader may count a problem without making its message."""
        return len(self.kept) >= MAX_PROBLEMS

    def count(self) -> None:
        self.more += 1

    def add(self, line: int, message: str) -> None:
        if len(self.kept) < MAX_PROBLEMS:
            self.kept.append(Problem(line, message))
        else:
            self.more += 1

    def __bool__(self) -> bool:
        return bool(self.kept)

    def done(self) -> list[Problem]:
        """The problems by line, and how many were not kept."""
        result = sorted(self.kept, key=lambda problem: problem.line)
        if self.more:
            result.append(
                Problem(
                    result[-1].line,
                    ngettext(
                        "And %(count)s more problem.", "And %(count)s more problems.", self.more
                    )
                    % {"count": self.more},
                )
            )
        return result


def file_problem(message: str) -> list[Problem]:
    """A file refused as a whole (line 0: no line of it is read)."""
    return [Problem(0, message)]


def empty_file() -> list[Problem]:
    return file_problem(_("The file is empty."))
