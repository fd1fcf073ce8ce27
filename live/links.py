"""Making, revoking and opening the live table's secret links (live.models).

Who may make and revoke a link: a game's — whoever runs it (its host, or an admin who is not
at the table: games.access.runs); an evening's table's — the club's hosts and admins, who
run evenings; a tournament's — the club's admins, who run tournaments. A producer's link is
a game's only: it shows the cards.

Opening a link costs no database query while it is kept in the cache (30 s): a poll every
second from OBS stays off PostgreSQL. A revoked link is dropped from the cache at once (if
the cache does not answer then, it is refused within 30 s at most), and answers exactly as a
link never made: «not found», with no hint which it was. An open that read the link just
before it was revoked cannot keep it again: revoking leaves a short-lived «revoked» mark in
the cache, which an open reads after keeping the link (a cache read; a kept link's open
still costs no query).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, Max, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import roles
from accounts.models import User
from club.kernel.cache import CACHE_FAILURES, cache_delete, cache_get, cache_set
from club.kernel.errors import RefusalCode, Refused
from club.kernel.tenancy import club_cache_key
from club.models import Evening
from games import access
from games.models import Game, Ruleset
from games.rules.events import storable_text
from live.models import MAX_DELAY_SECONDS, LinkKind, LiveLink, LiveLinkUse
from live.producer import forget_delay
from tournaments.models import Tournament

OPENED_SECONDS = 30
# A use is logged once a minute per link, address and kind of use, not on every poll.
USE_LOGGED_SECONDS = 60
# An evening has at most this many tables (club.models: a second table opens when full).
MAX_TABLES = 2

# What a key looks like: the prefix and 43 URL-safe characters (32 random bytes). Anything
# else is refused before any lookup.
_KEY = re.compile(r"lv_[A-Za-z0-9_-]{43}")


@dataclass(frozen=True, slots=True)
class LinkTarget:
    """What an opened link shows: one game, one evening's table, or one tournament."""

    link_id: int
    kind: str
    game_id: int | None
    evening_id: int | None
    table: int | None
    tournament_id: int | None
    delay_seconds: int


def _cache_key(key_hash: str) -> str:
    return club_cache_key(f"live:link:{key_hash}")


def _revoked_key(key_hash: str) -> str:
    return club_cache_key(f"live:link:revoked:{key_hash}")


def _not_found() -> Refused:
    return Refused(
        _("This link does not work: it was revoked, or never made."), RefusalCode.NOT_FOUND
    )


def may_manage(author: User | AnonymousUser, link: LiveLink) -> bool:
    """Whether `author` may make and revoke links like `link` (its scope: the pages offer
    the form only to them)."""
    if not isinstance(author, User):
        return False
    try:
        _refuse_unless_may_manage(author, link)
    except Refused:
        return False
    return True


def _refuse_unless_may_manage(author: User, link: LiveLink) -> None:
    if link.game is not None:
        allowed = access.runs(author, link.game)
        message = _("Only the game's host or an admin makes and revokes its live links.")
    elif link.evening is not None:
        allowed = access.may_host(author)
        message = _("Only the club's hosts and admins make and revoke an evening's live links.")
    else:
        allowed = roles.can(author, "organise")
        message = _("Only the club's admins make and revoke a tournament's live links.")
    if not allowed:
        raise Refused(message, RefusalCode.FORBIDDEN)


def _scoped(
    kind: str,
    *,
    game_id: int | None,
    evening_id: int | None,
    table: int | None,
    tournament_id: int | None,
) -> LiveLink:
    """The unsaved link for exactly one scope, or a clear refusal."""
    if kind not in LinkKind.values:
        raise Refused(_("Choose an overlay's link or a producer's."), RefusalCode.INVALID)
    scopes = [game_id is not None, evening_id is not None, tournament_id is not None]
    if sum(scopes) != 1:
        raise Refused(
            _("A live link is one game's, one evening table's or one tournament's."),
            RefusalCode.INVALID,
        )
    if kind == LinkKind.PRODUCER and game_id is None:
        raise Refused(_("A producer's link is one game's."), RefusalCode.INVALID)
    link = LiveLink(kind=kind)
    if game_id is not None:
        link.game = Game.objects.filter(pk=game_id).first()
        if link.game is None:
            raise Refused(_("There is no such game."), RefusalCode.NOT_FOUND)
        if kind == LinkKind.PRODUCER and link.game.ruleset != Ruleset.CLUB:
            # The producer's snapshot is a club table's (live.producer): an online game's
            # link would be made and then answer «not found» to every poll.
            raise Refused(_("A producer's view follows a club game only."), RefusalCode.INVALID)
    elif evening_id is not None:
        if table is None or not 1 <= table <= MAX_TABLES:
            raise Refused(_("Choose the evening's table: 1 or 2."), RefusalCode.INVALID)
        link.evening = Evening.objects.filter(pk=evening_id).first()
        link.table = table
        if link.evening is None:
            raise Refused(_("There is no such evening."), RefusalCode.NOT_FOUND)
    else:
        assert tournament_id is not None  # exactly one scope, above
        link.tournament = Tournament.objects.filter(pk=tournament_id).first()
        if link.tournament is None:
            raise Refused(_("There is no such tournament."), RefusalCode.NOT_FOUND)
    return link


def link_make(
    *,
    author: User,
    kind: str,
    game_id: int | None = None,
    evening_id: int | None = None,
    table: int | None = None,
    tournament_id: int | None = None,
    delay_seconds: int = 0,
    label: str = "",
) -> tuple[LiveLink, str]:
    """A new link and its key, which is shown once: only its hash is kept."""
    link = _scoped(
        kind, game_id=game_id, evening_id=evening_id, table=table, tournament_id=tournament_id
    )
    _refuse_unless_may_manage(author, link)
    if not 0 <= delay_seconds <= MAX_DELAY_SECONDS:
        raise Refused(
            _("The delay is from 0 to %(most)d seconds.") % {"most": MAX_DELAY_SECONDS},
            RefusalCode.INVALID,
        )
    if delay_seconds and kind != LinkKind.PRODUCER:
        raise Refused(_("Only a producer's view is delayed."), RefusalCode.INVALID)
    label = label.strip()
    if len(label) > LiveLink._meta.get_field("label").max_length:  # type: ignore[operator]
        raise Refused(_("The label is too long."), RefusalCode.INVALID)
    # The overlay's form hands the label over as posted: PostgreSQL cannot store a NUL (nor a
    # lone surrogate), and would answer the form with a server error.
    if not storable_text(label):
        raise Refused(
            _("The label holds a NUL character or a broken one, which is not allowed."),
            RefusalCode.INVALID,
        )
    key = LiveLink.new_key()
    link.set_key(key)
    link.label = label
    link.delay_seconds = delay_seconds
    link.created_by = author
    link.save()
    if link.kind == LinkKind.PRODUCER and link.game_id is not None:
        forget_delay(link.game_id)  # the history is kept for this link's delay from now
    return link, key


def link_revoke(*, author: User, link_id: int) -> LiveLink:
    """Revoke a link for good; revoking one already revoked changes nothing."""
    with transaction.atomic():
        link = (
            LiveLink.objects.select_for_update(of=("self",))
            .select_related("game", "evening", "tournament")
            .filter(pk=link_id)
            .first()
        )
        if link is None:
            raise Refused(_("There is no such link."), RefusalCode.NOT_FOUND)
        _refuse_unless_may_manage(author, link)
        if link.revoked_at is None:
            link.revoked_at = timezone.now()
            link.revoked_by = author
            link.save(update_fields=["revoked_at", "revoked_by"])
    # The mark first, then the drop: an open that keeps the link after the drop finds the
    # mark (link_open), and one that kept it before has it dropped. If the cache does not
    # answer, the kept link lives OPENED_SECONDS more at most.
    cache_set(_revoked_key(link.key_hash), True, OPENED_SECONDS)
    cache_delete(_cache_key(link.key_hash))
    return link


def link_open(key: str, kind: str) -> LinkTarget:
    """The target of a live link of `kind`, or «not found» alike for a revoked link, a
    link of another kind, a malformed or a guessed key."""
    if not isinstance(key, str) or not _KEY.fullmatch(key):
        raise _not_found()
    key_hash = LiveLink.hash_key(key)
    kept = cache_get(_cache_key(key_hash))
    if isinstance(kept, LinkTarget):
        target = kept
    else:
        link = LiveLink.objects.filter(key_hash=key_hash, revoked_at__isnull=True).first()
        if link is None:
            raise _not_found()
        target = LinkTarget(
            link_id=link.pk,
            kind=link.kind,
            game_id=link.game_id,
            evening_id=link.evening_id,
            table=link.table,
            tournament_id=link.tournament_id,
            delay_seconds=link.delay_seconds,
        )
        cache_set(_cache_key(key_hash), target, OPENED_SECONDS)
        if cache_get(_revoked_key(key_hash)):
            # Revoked between the read above and the keeping: the revocation wins.
            cache_delete(_cache_key(key_hash))
            raise _not_found()
    if target.kind != kind:
        raise _not_found()
    return target


def link_used(target: LinkTarget, *, what: str, ip: str | None, user_agent: str) -> None:
    """Log a use of a link: its page opened, or its feed polled, once a minute per address."""
    marker = f"live:link:used:{target.link_id}:{what}:{ip}"
    try:
        if not cache.add(marker, 1, USE_LOGGED_SECONDS):
            return
    except CACHE_FAILURES:
        pass  # without the cache every use is logged: more rows, nothing lost
    LiveLinkUse.objects.create(
        link_id=target.link_id, what=what[:8], ip=ip or None, user_agent=user_agent[:200]
    )


def producer_links(game_id: int) -> QuerySet[LiveLink]:
    """The game's producer links, the newest first, with who made them, how many uses were
    logged and the last (one query)."""
    return (
        LiveLink.objects.filter(game_id=game_id, kind=LinkKind.PRODUCER)
        .select_related("created_by")
        .annotate(use_count=Count("uses"), last_use=Max("uses__at"))
        .order_by("-created_at")
    )


def producer_links_listed(*, author: User, game_id: int) -> QuerySet[LiveLink]:
    """The game's producer links for whoever runs it (the API's list); refused to others."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise Refused(_("There is no such game."), RefusalCode.NOT_FOUND)
    if not access.runs(author, game):
        raise Refused(
            _("Only the game's host or an admin makes and revokes its live links."),
            RefusalCode.FORBIDDEN,
        )
    return producer_links(game_id)


def producer_link_of(*, game_id: int, link_id: int) -> None:
    """Refuse a link that is not a producer's link of this game (an address that names
    another game's link is no way to it)."""
    if not LiveLink.objects.filter(pk=link_id, game_id=game_id, kind=LinkKind.PRODUCER).exists():
        raise Refused(_("There is no such link."), RefusalCode.NOT_FOUND)
