"""Who each nickname of a club's old records is: a member of the club, matched exactly (as a
login is: accounts.validation.login_key) or by the look-alike skeleton
(accounts/lookalikes.py), or chosen by the organiser in the preview; else an unclaimed
player of the records (club.Guest with `from_history`), the one an earlier import made
under that name or a new one.

Only the club's own members (present or former) are matched: an account of the platform
that never joined this club may be another person of the same nickname, and naming them
in a club's history they never played in would be the worse mistake. They can still claim
their games once they join (history.imports.claims).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from accounts.lookalikes import lookalike_key
from accounts.models import User
from accounts.validation import login_key
from club.kernel.tenancy import current_club_id
from club.models import Guest

NEW = "new"  # the organiser's choice: an unclaimed player, whoever the name resembles
MEMBER = "member:"  # the organiser's choice: "member:<id>"


class How(StrEnum):
    EXACT = "exact"
    LOOKALIKE = "lookalike"
    CHOSEN = "chosen"
    CLAIMED = "claimed"  # an unclaimed player of an earlier import whom a member claimed
    UNCLAIMED = "unclaimed"  # an unclaimed player an earlier import made
    NEW = "new"  # a new unclaimed player


@dataclass(frozen=True)
class Match:
    nickname: str  # as the file first writes it
    key: str  # login_key(nickname): the choices are keyed by it
    how: How
    member: User | None = None
    guest: Guest | None = None

    @property
    def written(self) -> str:
        """The name as the file writes it: the records' text, not a member's nickname
        (which pages print through member_name)."""
        return self.nickname

    @property
    def choice(self) -> str:
        """The select's value this match stands for."""
        return f"{MEMBER}{self.member.pk}" if self.member is not None else NEW


def club_people() -> list[User]:
    """The members the records may name: everyone who ever joined the club."""
    return list(
        User.objects.filter(memberships__club_id=current_club_id()).distinct().order_by("nickname")
    )


def names_match(
    nicknames: Iterable[str],
    *,
    choices: Mapping[str, str] | None = None,
    people: list[User] | None = None,
) -> dict[str, Match]:
    """Each distinct nickname (by its login key) → who it is."""
    choices = choices or {}
    people = club_people() if people is None else people
    by_id = {member.pk: member for member in people}
    by_key = {member.nickname_key: member for member in people}
    skeletons: dict[str, list[User]] = {}
    for member in people:
        skeletons.setdefault(lookalike_key(member.nickname), []).append(member)
    first: dict[str, str] = {}
    for nickname in nicknames:
        first.setdefault(login_key(nickname), nickname)
    guests: dict[str, Guest] = {}
    for guest in Guest.objects.filter(from_history=True).select_related("member").order_by("pk"):
        guests.setdefault(login_key(guest.name), guest)
    return {
        key: _match(nickname, key, choices.get(key, ""), by_id, by_key, skeletons, guests)
        for key, nickname in first.items()
    }


def _match(
    nickname: str,
    key: str,
    choice: str,
    by_id: Mapping[int, User],
    by_key: Mapping[str, User],
    skeletons: Mapping[str, list[User]],
    guests: Mapping[str, Guest],
) -> Match:
    if choice.startswith(MEMBER):
        chosen = by_id.get(int(choice.removeprefix(MEMBER) or 0)) if _digits(choice) else None
        if chosen is not None:
            return Match(nickname, key, How.CHOSEN, member=chosen)
    guest = guests.get(key)
    if choice == NEW:
        return _unclaimed(nickname, key, guest)
    if key in by_key:
        return Match(nickname, key, How.EXACT, member=by_key[key])
    if guest is not None and guest.member is not None:
        return Match(nickname, key, How.CLAIMED, member=guest.member, guest=guest)
    alike = skeletons.get(lookalike_key(nickname), [])
    if len(alike) == 1:  # two members of one skeleton: the organiser chooses
        return Match(nickname, key, How.LOOKALIKE, member=alike[0])
    return _unclaimed(nickname, key, guest)


def _unclaimed(nickname: str, key: str, guest: Guest | None) -> Match:
    if guest is not None and guest.member is None:
        return Match(nickname, key, How.UNCLAIMED, guest=guest)
    return Match(nickname, key, How.NEW)


def _digits(choice: str) -> bool:
    return choice.removeprefix(MEMBER).isdigit()
