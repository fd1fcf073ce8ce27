"""What the bot shows: the evening card, the settings card, the online game card, each a
text with the buttons that fit."""

from __future__ import annotations

from collections.abc import Callable

from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import roles
from accounts.models import User
from club import buttons, queries, texts
from club.kernel.clubs import Club
from club.models import Evening, RegistrationStatus
from games.online.table import TableView, online_table, table_view

Buttons = list[list[dict[str, str]]]


def evening_card(evening: Evening, member: User | None) -> tuple[str, Buttons]:
    """The evening's message: when, seats, the member's place, and the buttons that fit."""
    club_settings = Club.current()
    lineup = queries.evening_lineup(evening)
    mine = lineup.by_member.get(member.pk) if member else None
    left = lineup.seats_left(evening.capacity)
    lines = [
        texts.sentence(texts.evening_when(evening, club_settings)),
        _("Seats left: %(left)d of %(capacity)d.") % {"left": left, "capacity": evening.capacity},
    ]
    keys: Buttons = []
    if mine is not None and mine.status == RegistrationStatus.CONFIRMED:
        lines.append(_("You are in: no. %(seat)d on the list.") % {"seat": lineup.seat_of(mine)})
        row = [] if mine.attendance_confirmed_at else [buttons.confirm(evening.pk)]
        keys.append([*row, buttons.cancel(evening.pk)])
    elif mine is not None:
        lines.append(
            _("You are in the reserve, position %(position)d.")
            % {"position": lineup.position_of(mine)}
        )
        keys.append([buttons.cancel(evening.pk)])
    if mine is not None and mine.leaves_at is not None:
        # «Не смогу» pressed: the place is kept for the undo window, and only «Вернуть» fits.
        when = timezone.localtime(mine.leaves_at, club_settings.zone)
        lines.append(
            _("You pressed «I can't make it»: your place goes at %(when)s.")
            % {"when": when.strftime("%H:%M:%S")}
        )
        keys = [[buttons.undo(evening.pk)]]
    elif evening.is_open_for_signup():
        keys.append([buttons.sign_up(evening.pk)])
    app = buttons.mini_app(evening.pk)
    if app is not None:
        keys.append([app])
    return "\n".join(lines), keys


def settings_card(member: User) -> tuple[str, Buttons]:
    def state(on: bool) -> str:
        return _("on") if on else _("off")

    text = "\n".join(
        [
            _("Your settings:"),
            _("Publish my nickname and scores: %(state)s")
            % {"state": state(roles.consents_in(member))},
            _("Evening reminders: %(state)s") % {"state": state(member.reminders)},
            _("A report after each game: %(state)s") % {"state": state(member.game_reports)},
        ]
    )
    buttons = [
        [{"text": _("Publication: switch"), "callback_data": "set:consent"}],
        [{"text": _("Reminders: switch"), "callback_data": "set:reminders"}],
        [{"text": _("Reports after games: switch"), "callback_data": "set:reports"}],
    ]
    return text, buttons


# Callback data "<action>:<game>:<target>" → the online event and the field the target fills.
ONLINE_BUTTONS = {
    "ov": ("vote", "target"),
    "or": ("revote", "target"),
    "of": ("fast", ""),
    "os": ("shot", "target"),
    "od": ("don_check", "target"),
    "oc": ("com_check", "target"),
}


def online_card(game_id: int, member: User) -> tuple[str, Buttons]:
    """The member's online game: where it stands, and a button row for each thing the
    engine says they may do now (view.my_actions)."""
    found = online_table(game_id)
    assert found is not None
    view = table_view(found, member)
    return "\n".join(_online_lines(view)), _online_buttons(view, game_id)


def _online_lines(view: TableView) -> list[str]:
    """Where the game stands: the phase, a catastrophe, the live tally, who has not voted."""
    lines = [
        _("Online game %(number)d · seat %(seat)s · %(role)s")
        % {"number": view.number, "seat": view.my_seat, "role": view.my_role_name},
        (_("Day %(n)d") if view.phase == "day" else _("Night %(n)d")) % {"n": view.n},
    ]
    if view.catastrophe:
        lines.append(
            _("Catastrophe among %(seats)s.")
            % {"seats": ", ".join(map(str, view.catastrophe["tied"]))}
        )
    for ballot in view.ballots:  # the live tally: who votes whom (public by the rules)
        choice = _("PASS") if ballot.target == "pass" else f"{ballot.target}. {ballot.nick}"
        voters = ", ".join(str(seat) for seat, _nick in ballot.voters)
        lines.append(f"🗳 {choice}: {len(ballot.voters)} ← {voters}")
    if view.silent:
        lines.append(_("Not voted yet: %(seats)s") % {"seats": ", ".join(map(str, view.silent))})
    if view.my_next_vote_final:
        lines.append(_("Your next vote is final: it is your one change today."))
    return lines


def _online_buttons(view: TableView, game_id: int) -> Buttons:
    """A row of buttons for each thing the engine says the member may do now."""
    alive = [seat.seat for seat in view.alive]
    actions = set(view.my_actions)
    keys: Buttons = []

    def row(action: str, targets: list[int], label: Callable[[int], str]) -> None:
        for start in range(0, len(targets), 5):
            keys.append(
                [
                    {"text": label(t), "callback_data": f"{action}:{game_id}:{t}"}
                    for t in targets[start : start + 5]
                ]
            )

    catastrophe = view.catastrophe
    if "revote" in actions and catastrophe is not None:
        if catastrophe["question"]:
            keys.append(
                [
                    {"text": _("Hang all"), "callback_data": f"or:{game_id}:hang_all"},
                    {"text": _("Pardon all"), "callback_data": f"or:{game_id}:pardon_all"},
                ]
            )
        else:
            row("or", list(catastrophe["tied"]), lambda t: f"🗳 {t}")
    if "vote" in actions:
        row("ov", alive, lambda t: f"🗳 {t}")
        keys.append([{"text": _("PASS"), "callback_data": f"ov:{game_id}:pass"}])
    if "fast" in actions or "unfast" in actions:
        fasting = "unfast" in actions
        keys.append(
            [
                {
                    "text": _("Withdraw the fast") if fasting else _("Fast"),
                    "callback_data": f"of:{game_id}:{0 if fasting else 1}",
                }
            ]
        )
    if "shot" in actions and view.phase == "night":
        row("os", alive, lambda t: f"🔫 {t}")
    if "don_check" in actions:
        row("od", alive, lambda t: f"🔎 {t}")
    if "com_check" in actions:
        row("oc", alive, lambda t: f"🔎 {t}")
    return keys
