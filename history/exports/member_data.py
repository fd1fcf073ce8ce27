"""Everything the club in scope holds about one member, as one JSON document they download
from their settings: the account itself (not the password's hash, not a token's secret),
their membership of this club, their registrations, their games (their own name; every
other player as published), their scores, the messages the club sent them, their API
tokens' names, the recordings' foul suggestions at their seat, and their Telegram link.
Only this club's rows: another club's are that club's to give (its own address)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from typing import Any

from django.utils import timezone

from accounts import roles
from accounts.models import ApiToken, User
from club.kernel.clubs import Club
from club.models import Registration
from games.models import Game, GameStatus, Seat
from games.ratings.models import PlayerScore
from games.recordings.models import FoulSuggestion
from history.exports.reading import exported_games
from history.exports.writers import protocol_game
from notifications.models import Notification

FORMAT = "mafia-club-member-data/1"


def _value(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    return value


def _rows(rows: Iterator[dict[str, Any]] | Any) -> list[dict[str, Any]]:
    return [{key: _value(value) for key, value in row.items()} for row in rows]


def account_of(member: User) -> dict[str, Any]:
    return {
        "id": member.pk,
        "nickname": member.nickname,
        "email": member.email,
        "birth_date": _value(member.birth_date),
        "language": member.language,
        "reminders": member.reminders,
        "notify_by": member.notify_by,
        "game_reports": member.game_reports,
        "status": member.status,
        "date_joined": _value(member.date_joined),
        "last_login": _value(member.last_login),
    }


def _suggestions(member: User) -> list[dict[str, Any]]:
    """The foul suggestions the recordings' analysis made at the member's seat."""
    seats = dict(
        Seat.objects.filter(member=member, game__in=Game.objects.all()).values_list(
            "game_id", "number"
        )
    )
    found = FoulSuggestion.objects.filter(recording__game_id__in=list(seats)).values(
        "recording_id", "recording__game_id", "seat", "start", "end", "status"
    )
    return _rows(row for row in found if seats.get(row["recording__game_id"]) == row["seat"])


def member_data(member: User) -> dict[str, Any]:
    """The document: one member, the club in scope."""
    club = Club.current()
    membership = roles.membership_in(member)
    seated = Game.objects.filter(status=GameStatus.FINISHED, seats__member=member)
    games = [protocol_game(game) for game in exported_games(seated, member)]
    return {
        "format": FORMAT,
        "club": {"slug": club.slug, "name": str(club)},
        "exported_at": timezone.now().isoformat(),
        "account": account_of(member),
        "membership": None
        if membership is None
        else {
            "role": membership.role,
            "status": membership.status,
            "status_reason": membership.status_reason,
            "publication_consent": membership.publication_consent,
            "joined_at": _value(membership.joined_at),
            "left_at": _value(membership.left_at),
        },
        "registrations": _rows(
            Registration.objects.filter(member=member)
            .order_by("created_at")
            .values(
                "evening_id",
                "evening__starts_at",
                "status",
                "source",
                "created_at",
                "attendance_confirmed_at",
                "promoted_at",
                "cancelled_at",
                "checked_in_at",
                "left_at",
            )
        ),
        "games": games,
        "scores": _rows(
            PlayerScore.objects.filter(member=member)
            .order_by("ended_at")
            .values(
                "game_id",
                "seat",
                "role",
                "team",
                "won",
                "points",
                "lines",
                "played_on",
                "rating_before",
                "rating_after",
            )
        ),
        "notifications": _rows(
            Notification.objects.filter(member=member)
            .order_by("created_at")
            .values("channel", "subject", "text", "status", "created_at", "sent_at")
        ),
        "api_tokens": _rows(
            ApiToken.objects.filter(user=member)
            .order_by("created_at")
            .values("name", "created_at", "last_used_at")
        ),
        "recordings": _suggestions(member),
        "telegram": {
            "linked": member.telegram_id is not None,
            "username": member.telegram_username,
        },
    }
