"""The right to be forgotten: a member's whole account, in every club at once (one account
is the platform's, not a club's). First each club does what a member leaving an evening
makes it do (the seat given up, the reserve moving up, as «Не смогу» does, at once), the
guests of the records linked to them lose their name, phone and Telegram, the messages
to them and their Telegram link codes go; then the account is anonymised
(accounts.services.member_forget). Their games keep their seats and scores under «Игрок N».

What was already sent cannot be taken back: a group post edits to «Игрок N» where Telegram
lets the bot edit it, but a copy a reader kept, or a file someone downloaded, stays theirs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts import services as accounts
from accounts.models import User
from club import services as club_services
from club.kernel.errors import Refused
from club.kernel.tenancy import club_scope
from club.models import Guest, Registration
from games.models import Game, GameEvent, Seat
from games.ratings.models import GameAnalysis, PlayerScore
from games.reasons import screened
from notifications.models import Notification, TelegramLinkCode

# A guest linked to a forgotten member is named by the seat: the placeholder names nobody.
FORGOTTEN_GUEST = "—"


def _deep(value: Any, change: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return change(value)
    if isinstance(value, list):
        return [_deep(item, change) for item in value]
    if isinstance(value, dict):
        return {key: _deep(item, change) for key, item in value.items()}
    return value


def _erase_name(member: User) -> None:
    """The member's nickname, in any form, written in words in their games (a host's
    reason for extra points, a note, a line's detail, an analysis's text, imported results)
    becomes «место N»: once the account's nickname is gone nothing could screen it there."""
    seats = Seat.objects.filter(Q(member=member) | Q(guest__member=member)).values_list(
        "game_id", "number"
    )
    for game_id, number in list(seats):

        def change(text: str, number: int = number) -> str:
            return screened(text, {number: member.nickname})

        for event in GameEvent.objects.filter(game_id=game_id):
            payload = _deep(event.payload, change)
            if payload != event.payload:
                GameEvent.objects.filter(pk=event.pk).update(payload=payload)
        for score in PlayerScore.all_clubs.filter(game_id=game_id):
            lines = _deep(score.lines, change)
            if lines != score.lines:
                PlayerScore.all_clubs.filter(pk=score.pk).update(lines=lines)
        for analysis in GameAnalysis.objects.filter(game_id=game_id):
            sections = _deep(analysis.sections, change)
            if sections != analysis.sections:
                GameAnalysis.objects.filter(pk=analysis.pk).update(sections=sections)
        for game in Game.all_clubs.filter(pk=game_id).exclude(results={}):
            results = _deep(game.results, change)
            if results != game.results:
                Game.all_clubs.filter(pk=game.pk).update(results=results)


def member_forget_everywhere(*, member: User, typed: str) -> User:
    """Forget `member` (they typed their nickname to confirm); refused, with its reason,
    before anything changes: a wrong nickname, a club's last admin."""
    accounts.refuse_unless_may_forget(member=member, typed=typed)
    now = timezone.now()
    pending = (
        Registration.all_clubs.active()
        .filter(member=member, evening__starts_at__gt=now)
        .values_list("club_id", "evening_id")
    )
    for club_id, evening_id in list(pending):
        with club_scope(club_id):
            try:
                club_services.registration_cancel(member=member, evening_id=evening_id, now=now)
            except Refused:
                continue  # the evening closed meanwhile: its list is the club's record
    with transaction.atomic():
        _erase_name(member)
        Guest.all_clubs.filter(member=member).update(
            name=FORGOTTEN_GUEST, phone="", telegram_username=""
        )
        Notification.all_clubs.filter(member=member).delete()
        TelegramLinkCode.objects.filter(member=member).delete()
        return accounts.member_forget(member=member, typed=typed)
