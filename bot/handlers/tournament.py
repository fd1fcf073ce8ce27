"""/tournament: where the member plays next in their tournament and where they stand."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _

from bot.chat import Chat
from club.kernel.numbers import shown
from tournaments.queries import member_tournament


def on_tournament(chat: Chat, _argument: str) -> None:
    if chat.member is None:
        chat.not_linked()
        return
    mine = member_tournament(chat.member)
    if mine is None:
        chat.reply(_("You are not in a tournament now."))
        return
    lines = [_("Tournament «%(name)s».") % {"name": mine.tournament.name}]
    if mine.next_game is not None:
        game = mine.next_game
        lines.append(
            _("Next: round %(round)d, table %(table)d, seat %(seat)d.")
            % {"round": game.round.number, "table": game.table, "seat": game.seat}
        )
    elif mine.seated:
        lines.append(_("Your seated games are over."))
    else:
        lines.append(_("The rounds are not seated yet."))
    if mine.row is not None:
        lines.append(
            _("Standing: place %(place)d; points %(points)s; games played %(games)d.")
            % {
                "place": mine.row.standing.place,
                "points": shown(mine.row.standing.points, 2),
                "games": mine.row.standing.sums.games,
            }
        )
    url = settings.SITE_URL + reverse("tournament", args=[mine.tournament.pk])
    chat.reply("\n".join([*lines, url]))
