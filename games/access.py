"""Who may see or do what with a game, and who may see a member's name: the one answer for
the pages, the API, the bot and the admin.

- A host (a host, organiser or admin of the club: accounts/roles.py) starts games; only
  a member active in the club hosts.
- The game's host runs it: records its taps, moderates an online table, sees every card.
  An organiser or admin of its club who is not seated at it may take over (a phone that
  died) with the same view.
- A seated player sees what their seat may see, whatever their rank: an admin or a host
  who sits at a table is a player there. The host of a game never plays in it (refused at
  creation by every door).
- In everything published (RULES.md §C: the game analyses, scores, statistics and
  leaderboards, on the site, in the API and in the club group's analysis posts) a member
  who refused publication in the club is «Игрок N» to everyone but themselves, the club's
  organisers and admins and, on a game's
  own pages, whoever runs that game. An evening's line-up is a roster, not
  a published result: its sign-up list (to logged-in members on the site and in the API),
  the line-up the club's group is kept up to date with (club/announcements.py), and a
  host's seating name everyone by nickname, consent or not. Only a guest is «Гость» there.
- The admin is one more door: a staff member seated at a running table sees there only
  what their seat may see (`sees_record`); everything once the game ends.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext as _

from accounts import roles
from accounts.models import User
from club.kernel.clubs import Club
from club.kernel.errors import RefusalCode, Refused
from games.models import Game, GameStatus, Ruleset, Seat
from games.rules.online import BLACK_ROLES

# Whoever looks: a member, a visitor, or nobody (the club's group).
Viewer = User | AnonymousUser | None


def _member(viewer: Viewer) -> User | None:
    return viewer if isinstance(viewer, User) else None


def may_host(viewer: Viewer, club: Club | int | None = None) -> bool:
    """The club's hosts, organisers and admins start games, while their membership there is
    active (accounts.roles.can); `club`: the club in scope by default."""
    return roles.can(viewer, "host", club)


def is_club_staff(viewer: Viewer, club: Club | int | None = None) -> bool:
    """The club's organisers and admins (and a platform admin): they see every name the
    club publishes and may take over a game of the club."""
    return roles.can(viewer, "organise", club)


def refuse_unless_may_host(viewer: Viewer) -> None:
    """The one refusal of a member who may not start games, at every door."""
    if not may_host(viewer):
        raise Refused(_("Only the club's hosts and admins start games."), RefusalCode.FORBIDDEN)


def refuse_host_at_table(host: User, player_ids: Sequence[int]) -> None:
    """The host of a game never plays in it: they would see every card."""
    if host.pk in player_ids:
        raise Refused(
            _("The host of a game cannot play in it: choose another host or another player."),
            RefusalCode.INVALID,
        )


def seat_of(viewer: Viewer, seats: Sequence[Seat]) -> Seat | None:
    member = _member(viewer)
    if member is None:
        return None
    return next((seat for seat in seats if seat.member_id == member.pk), None)


def is_seated(viewer: Viewer, game: Game, seats: Sequence[Seat] | None = None) -> bool:
    member = _member(viewer)
    if member is None:
        return False
    if seats is not None:
        return seat_of(member, seats) is not None
    return game.seats.filter(member=member).exists()


def runs(viewer: Viewer, game: Game, seats: Sequence[Seat] | None = None) -> bool:
    """The game's host, or an admin who is not seated at it: the host's view and powers.
    Pass the game's seats when they are at hand, to spare a query."""
    if not may_host(viewer, game.club_id):
        return False
    member = _member(viewer)
    assert member is not None
    if game.host_id != member.pk and not is_club_staff(member, game.club_id):
        return False
    return not is_seated(member, game, seats)


def sees_roles(viewer: Viewer, game: Game, seats: Sequence[Seat] | None = None) -> bool:
    """While a game runs its cards are its host's secret; after the end everyone sees them."""
    return game.finished or runs(viewer, game, seats)


def may_see_name(
    member: User,
    viewer: Viewer,
    *,
    runs_game: bool = False,
    among_members: bool = False,
    club: Club | int | None = None,
) -> bool:
    """Whether `viewer` may see `member`'s nickname (RULES.md §C). On a game's own pages
    pass `runs_game` (runs(viewer, game)): its host sees the names of the table they ran.
    On a list for the club's members that is not a publication (an evening's sign-up
    list, the members a host seats at a table) pass `among_members`: every logged-in
    member sees the names there. Without either the answer also says whether `viewer` may
    open the member's player page, so a link to it is shown exactly when the name is.
    Templates ask through `{% member_name %}` (games/templatetags/member_names.py).
    The consent and the staff are `club`'s (the club in scope by default): a member who
    refused publication in one club is still named in another."""
    return name_visible(
        member_id=member.pk,
        consent=roles.consents_in(member, club),
        viewer=viewer,
        runs_game=runs_game,
        among_members=among_members,
        club=club,
    )


def name_visible(
    *,
    member_id: int,
    consent: bool,
    viewer: Viewer,
    runs_game: bool = False,
    among_members: bool = False,
    club: Club | int | None = None,
) -> bool:
    """may_see_name for reads that hold a member's id and their consent in `club` (the
    club in scope by default; accounts.roles.consent_in_club annotates it), not the member."""
    if consent or runs_game or among_members:
        return True
    looking = _member(viewer)
    if looking is None:
        return False
    return looking.pk == member_id or is_club_staff(looking, club)


def seat_name_visible(seat: Seat, viewer: Viewer, *, runs_game: bool = False) -> bool:
    """Whether `viewer` may see the name of whoever sits in `seat`: a member by
    may_see_name. A guest (club.Guest) is no member and never gave consent, so their name
    is the table's host's and staff's only, everywhere (the group and the published pages
    say «Игрок N»), until an admin links the guest to a member: then the member's consent
    decides, as for any seat of theirs. Read the seats with `guest__member` at hand."""
    if seat.member is not None:
        return may_see_name(seat.member, viewer, runs_game=runs_game)
    guest = seat.guest
    assert guest is not None  # a seat is a member's or a guest's (its check constraint)
    if guest.member is not None and may_see_name(guest.member, viewer, runs_game=runs_game):
        return True
    return runs_game or is_club_staff(viewer)


def seat_nickname(seat: Seat) -> str:
    """The name of whoever sits in `seat`, once seat_name_visible said it may be shown: a
    guest linked to a member goes by the member's nickname."""
    if seat.member is not None:
        return seat.member.nickname
    guest = seat.guest
    assert guest is not None
    return guest.member.nickname if guest.member is not None else guest.name


def seq_shown(
    log: Sequence[Mapping[str, object]], last: int, *, at_night: bool, sees_night: bool
) -> int:
    """The log's length as a reader may count it: whoever does not see the night (all
    but whoever runs the game, until it ends) counts it as it stood when the night began,
    so the night's taps (a check, a kill, a heal, an undo of one) cannot be counted by
    polling; the morning shows them all at once. `log` is every entry in order (undos
    too), the first numbered 1; `last` the last one's number."""
    if sees_night or not at_night:
        return last
    began = max((i for i, event in enumerate(log) if event.get("type") == "night"), default=-1)
    return began + 1 if began >= 0 else last


# --- an online table --------------------------------------------------------------------


def sees_table(viewer: Viewer, game: Game, seats: Sequence[Seat]) -> bool:
    """An online table is its players' and its host's; what is published of it, with every
    member's consent respected, is its analysis once it ends."""
    return seat_of(viewer, seats) is not None or runs(viewer, game, seats)


def refuse_unless_sees_table(viewer: Viewer, game: Game, seats: Sequence[Seat]) -> None:
    """The one refusal of an online table to whoever is not at it, at every door."""
    if not sees_table(viewer, game, seats):
        raise Refused(_("Only the game's players and host see its table."), RefusalCode.FORBIDDEN)


def sees_online_role(seat: Seat, mine: Seat | None, *, over: bool, host: bool) -> bool:
    """Roles stay closed until the end, except one's own, the mafia's to each other, and
    every one to the host (RULES.md §D)."""
    if over or host:
        return True
    if mine is None:
        return False
    return seat.pk == mine.pk or (is_black(mine.role) and is_black(seat.role))


def sees_mafia_chat(mine: Seat | None, *, host: bool) -> bool:
    return host or (mine is not None and is_black(mine.role))


def sees_check(by: int, mine: Seat | None, *, over: bool, host: bool) -> bool:
    """A check's answer is for the one who made it (and the host; everyone at the end)."""
    return over or host or (mine is not None and mine.number == by)


def is_black(role: str) -> bool:
    return role in BLACK_ROLES


def sees_seat_role(viewer: Viewer, game: Game, seat: Seat, seats: Sequence[Seat]) -> bool:
    """One seat's card as the game's pages and the API show it to `viewer`: at an online
    table `sees_online_role`; at a live one every card or none (`sees_roles`)."""
    if game.ruleset == Ruleset.ONLINE:
        host = runs(viewer, game, seats)
        return sees_online_role(seat, seat_of(viewer, seats), over=game.finished, host=host)
    return sees_roles(viewer, game, seats)


# --- the admin --------------------------------------------------------------------------


def sees_record(viewer: Viewer, game: Game, seats: Sequence[Seat] | None = None) -> bool:
    """The whole record of a game in the admin: every card, the log, the protocol, the
    points, the players' private messages, the recording's analysis. Django's permissions
    decide who opens the admin; a staff member seated at a running table is a player there
    and sees it as their seat does (`sees_seat_role`), so the admin is no way round the
    rules above."""
    return game.finished or not is_seated(viewer, game, seats)


def games_played_now(viewer: Viewer) -> list[int]:
    """The running games `viewer` is seated at: those whose record they may not see."""
    member = _member(viewer)
    if member is None:
        return []
    return list(
        Seat.objects.filter(member=member, game__status=GameStatus.RUNNING).values_list(
            "game_id", flat=True
        )
    )


def fellow_players_now(viewer: Viewer) -> tuple[set[int], set[int]]:
    """The members (and their Telegram chats) seated beside `viewer` at the running games
    they play in: in the admin's outbox their messages (cards, partners, checks, the bot's
    answers about the game) are theirs, not the seated staff member's."""
    member = _member(viewer)
    if member is None:
        return set(), set()
    rows = (
        Seat.objects.filter(game_id__in=games_played_now(member))
        .exclude(member=member)
        .values_list("member_id", "member__telegram_id")
    )
    members = {member_id for member_id, _chat in rows}
    return members, {chat for _member_id, chat in rows if chat is not None}
