"""Which club the code at hand works for: the scope of a request, a task or a command.

Every club's rows (evenings, registrations, games, tournaments, recordings, notifications,
live links …) carry a `club` key, and their default manager (`ClubScopedManager`) reads
only the club in scope, so a door that forgets a filter still cannot show one club another
club's rows: the row is simply not there (a 404). Code that must read across clubs (the
platform's rating, a player's games in every club, a sweep that visits each club in turn)
says so with the `all_clubs` manager or `each_club()`.

The scope is a context variable: the web's ClubMiddleware sets it from the address
(`/c/<slug>/…`, or the first club without a prefix), the worker from the task's `club_id`
header, which every publish inside a scope adds (`connect_celery`). With no scope, a
single-club install means its one club (GrandDaddy's site works as before); with several
clubs it is an error (`NoClubInScope`) rather than a guess: a row written to the wrong
club is the worst failure the platform could have.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from time import monotonic
from typing import TYPE_CHECKING, Any, TypeVar

from django.apps import apps
from django.db import models
from django.urls import get_script_prefix, set_script_prefix

if TYPE_CHECKING:
    from celery import Celery

    from club.kernel.clubs import Club

_scope: contextvars.ContextVar[int | None] = contextvars.ContextVar("club_scope", default=None)

# The clubs' ids and slugs as this process last read them: a club is added a few times a
# year.
_CLUBS_SECONDS = 5.0
_known: tuple[float, dict[int, str]] | None = None
# The script prefix outside every club's scope (the WSGI SCRIPT_NAME, usually "/").
_base_prefix: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "club_base_prefix", default=None
)

HEADER = "club_id"


class NoClubInScope(RuntimeError):
    """Club rows were read or written outside any club's scope on a site with several
    clubs: the code must say which club (`club_scope`) or read across them (`all_clubs`)."""


def clubs_changed() -> None:
    """A club was added or removed: read the list afresh (in this process at once)."""
    global _known
    _known = None


def _slugs(*, fresh: bool = False) -> dict[int, str]:
    """Every club's slug by its id, first club first. A database without a club (a test's
    flush, a row deleted by hand) gets the first club back, as the data migration made it."""
    global _known
    if not fresh and _known is not None and monotonic() - _known[0] < _CLUBS_SECONDS:
        return _known[1]
    club_model = apps.get_model("club", "Club")
    slugs = dict(club_model.objects.order_by("pk").values_list("pk", "slug"))
    if not slugs:
        first = club_model.objects.get_or_create(slug=FIRST_CLUB_SLUG)[0]
        slugs = {first.pk: first.slug}
    _known = (monotonic(), slugs)
    return slugs


def club_ids(*, fresh: bool = False) -> tuple[int, ...]:
    """Every club's id, first club first."""
    return tuple(_slugs(fresh=fresh))


def club_prefix(club_id: int) -> str:
    """The club's part of its addresses: "" for the first club, "c/<slug>/" for another."""
    slugs = _slugs()
    if club_id not in slugs:
        slugs = _slugs(fresh=True)
    if club_id == next(iter(slugs)) or club_id not in slugs:
        return ""  # the first club, or one deleted since: its rows are gone too
    return f"c/{slugs[club_id]}/"


FIRST_CLUB_SLUG = "club"


def first_club_id() -> int:
    """The first club: the one whose pages answer without a /c/<slug>/ prefix."""
    return club_ids()[0]


def scoped_club_id() -> int | None:
    """The club in scope, or None outside every scope."""
    return _scope.get()


def current_club_id() -> int:
    """The club in scope; outside every scope the only club, if there is one."""
    club_id = _scope.get()
    if club_id is not None:
        return club_id
    ids = club_ids()
    if len(ids) > 1:
        ids = club_ids(fresh=True)  # a second club gone since (a test's rollback)
    if len(ids) == 1:
        return ids[0]
    raise NoClubInScope(
        "Several clubs and none in scope: wrap the work in club_scope(club) or read "
        "across clubs with the all_clubs manager."
    )


def club_cache_key(name: str) -> str:
    """A cache key of the club in scope: what one club's doors keep (a live table's
    snapshot, a link's target) is never found at another club's address, where the lookup
    falls through to the scoped rows and answers «not found»."""
    return f"club{current_club_id()}:{name}"


@contextmanager
def club_scope(club: Club | int) -> Iterator[None]:
    """Work for `club` inside the block (nested scopes restore the outer one). The
    addresses reversed inside are the club's (/c/<slug>/… but for the first club), in a
    request as in a task that writes a link into a message."""
    club_id = club if isinstance(club, int) else club.pk
    base = _base_prefix.get()
    base_token = _base_prefix.set(get_script_prefix()) if base is None else None
    outer_prefix = get_script_prefix()
    token = _scope.set(club_id)
    set_script_prefix((base or get_script_prefix()) + club_prefix(club_id))
    try:
        yield
    finally:
        _scope.reset(token)
        set_script_prefix(outer_prefix)
        if base_token is not None:
            _base_prefix.reset(base_token)


def each_club() -> Iterator[int]:
    """Every club's id, each inside its own scope: the sweeps' loop over clubs."""
    for club_id in club_ids(fresh=True):
        with club_scope(club_id):
            yield club_id


def each_club_of(rows: models.QuerySet[Any]) -> Iterator[int]:
    """Each club that has one of `rows` (an `all_clubs` queryset: what is due in every
    club, read in one query), inside its scope: a sweep visits only the clubs with work,
    so a minute's sweep over a hundred clubs costs a query, not a hundred."""
    for club_id in rows.order_by("club_id").values_list("club_id", flat=True).distinct():
        with club_scope(club_id):
            yield club_id


_Row = TypeVar("_Row", bound=models.Model)


class CurrentClubId(models.Expression):
    """The club in scope, read when the query runs, not when it is built: a queryset made
    once (a form's choices at import, a class attribute) serves each request its club."""

    output_field = models.BigIntegerField()

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, tuple[int]]:
        return "%s", (current_club_id(),)


class ClubScopedManager(models.Manager[_Row]):
    """The default manager of a club's rows: the rows of the club in scope only. Related
    managers (`evening.registrations`) and forms' choices inherit it; Django's own
    internals (deletion, a foreign key's row) use the unscoped base manager."""

    def get_queryset(self) -> models.QuerySet[_Row]:
        return super().get_queryset().filter(club_id=CurrentClubId())


def club_key(related_name: str) -> Any:
    """The `club` key of a club's row: the club in scope by default, so that code which
    creates a row inside a scope never names the club (and cannot name another)."""
    from django.utils.translation import gettext_lazy as _

    return models.ForeignKey(
        "club.Club",
        on_delete=models.PROTECT,
        related_name=related_name,
        verbose_name=_("club"),
        default=current_club_id,
        editable=False,
    )


def connect_celery(app: Celery) -> None:
    """A task runs for the club that queued it: every publish inside a scope carries the
    club's id in a header, and the worker opens that scope around the task."""
    from celery.signals import before_task_publish, task_postrun, task_prerun

    scopes: dict[str, AbstractContextManager[None]] = {}

    @before_task_publish.connect(weak=False)
    def _carry(headers: dict[str, Any] | None = None, **_: Any) -> None:
        club_id = _scope.get()
        if headers is not None and club_id is not None:
            headers.setdefault(HEADER, club_id)

    @task_prerun.connect(weak=False)
    def _open(task_id: str | None = None, task: Any = None, **_: Any) -> None:
        request = getattr(task, "request", None)
        club_id = getattr(request, HEADER, None)
        if club_id is None:
            club_id = (getattr(request, "headers", None) or {}).get(HEADER)
        if club_id is not None and task_id is not None:
            scope = club_scope(int(club_id))
            scope.__enter__()
            scopes[task_id] = scope

    @task_postrun.connect(weak=False)
    def _close(task_id: str | None = None, **_: Any) -> None:
        scope = scopes.pop(task_id or "", None)
        if scope is not None:
            scope.__exit__(None, None, None)
