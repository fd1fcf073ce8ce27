"""What the players of an online game read in Telegram (in each player's language,
accounts/languages.py), and the online roles' names."""

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from club.kernel.clubs import Club
from club.texts import in_message_language
from games.rules.online import MAX_VOTES_A_DAY, OnlineGame


def online_role(role: str) -> str:
    names = {
        "don": _("Don"),
        "mafia": _("Mafia"),
        "commissar": _("Commissar"),
        "civilian": _("Civilian"),
    }
    return names.get(role, role)


def _moment(moment: datetime | None) -> str:
    if moment is None:
        return ""
    return date_format(timezone.localtime(moment, Club.current().zone), "j E, H:i")


@in_message_language
def online_dealt(
    *, number: int, seat: int, role: str, starts_at: datetime, partners: list[str]
) -> str:
    text = _(
        "Online game %(number)d starts %(when)s. Your seat: %(seat)d. Your role: %(role)s "
        "(keep it to yourself)."
    ) % {"number": number, "when": _moment(starts_at), "seat": seat, "role": online_role(role)}
    if partners:
        text += " " + _(
            "Your mafia: %(partners)s. Your chat on the site is open for the 30 minutes "
            "before the start."
        ) % {"partners": ", ".join(partners)}
    return text


@in_message_language
def online_phase(*, phase: str, n: int, until: datetime | None) -> str:
    if phase == "day":
        return _("Day %(n)d has begun: discuss and vote until %(until)s.") % {
            "n": n,
            "until": _moment(until),
        }
    return _("Night %(n)d has fallen, until %(until)s.") % {"n": n, "until": _moment(until)}


@in_message_language
def online_night_turn(*, actions: list[str], n: int) -> str:
    """The night's reminder, naming what the player may still do (OnlineGame.actions_for)."""
    if "shot" in actions and "don_check" in actions:
        return _("Night %(n)d: send your shot, and your check for the commissar.") % {"n": n}
    if "shot" in actions:
        return _("Night %(n)d: send your shot.") % {"n": n}
    return _("Night %(n)d: send your check.") % {"n": n}


def check_answer(result: str) -> str:
    answers = {
        "red": _("red"),
        "black": _("black"),
        "commissar": _("the commissar"),
        "not_commissar": _("not the commissar"),
    }
    return answers.get(result, result)


@in_message_language
def online_check(*, night: int, target: int, result: str) -> str:
    return _("Night %(n)d, your check of seat %(seat)d: %(answer)s.") % {
        "n": night,
        "seat": target,
        "answer": check_answer(result),
    }


@in_message_language
def online_outcome(
    *,
    phase: str,
    n: int,
    outcome: str,
    out: list[str],
    tied: list[str],
    fast_night_at: datetime | None = None,
) -> str:
    text = _outcome_words(phase=phase, n=n, outcome=outcome, out=out, tied=tied)
    if fast_night_at is not None:
        text += " " + _("Everyone fasted: the fast night comes at %(when)s.") % {
            "when": _moment(fast_night_at)
        }
    return text


def _outcome_words(*, phase: str, n: int, outcome: str, out: list[str], tied: list[str]) -> str:
    names = ", ".join(out)
    if outcome == "catastrophe":
        return _(
            "Day %(n)d: a tie between %(tied)s. Catastrophe: each of them may write one post; "
            "everyone else votes again among them."
        ) % {"n": n, "tied": ", ".join(tied)}
    if phase == "night":
        if out:
            return _("Night %(n)d: %(names)s was killed.") % {"n": n, "names": names}
        return _("Night %(n)d: the mafia misfired, nobody died.") % {"n": n}
    if out:
        return _("Day %(n)d: %(names)s leaves by the vote.") % {"n": n, "names": names}
    reasons = {
        "pardoned": _("pardoned"),
        "cancelled": _("no vote today (a modkill)"),
        "pardon_all": _("all pardoned"),
        "catastrophe_at_four": _("a tie at four players: nobody leaves"),
        "tie_again": _("the tie held through the revotes"),
        "limit": _("never more than two leave a day"),
    }
    return _("Day %(n)d: nobody leaves (%(why)s).") % {
        "n": n,
        "why": reasons.get(outcome, _("no votes")),
    }


@in_message_language
def online_end(*, number: int, winner: str) -> str:
    side = _("the town (red)") if winner == "red" else _("the mafia (black)")
    return _("Online game %(number)d is over: %(side)s wins.") % {"number": number, "side": side}


@in_message_language
def online_removed(*, names: list[str]) -> str:
    return _("The host removes %(names)s from the game.") % {"names": ", ".join(names)}


def _choice_name(seat: object, nick: Mapping[int, str]) -> str:
    """A vote's or an action's choice in words: a seat with its nickname, PASS, «hang all»
    or «pardon all», or nobody."""
    if seat == "pass":
        return _("PASS")
    if seat in ("hang_all", "pardon_all"):
        return _("hang all") if seat == "hang_all" else _("pardon all")
    if seat is None:
        return _("nobody")
    return f"{seat}. {nick.get(seat, '')}".strip() if isinstance(seat, int) else str(seat)


def online_answer(state: OnlineGame, event: Mapping[str, Any], nick: Mapping[int, str]) -> str:
    """What an action did and what remains, in the reader's language: the page shows it
    beside the control, the bot as the button's answer. Read off the state after it."""
    kind = event.get("type")

    def who(seat: object) -> str:
        return _choice_name(seat, nick)

    target = event.get("target")
    if kind == "vote":
        if state.vote_count.get(event["voter"], 0) >= MAX_VOTES_A_DAY:
            return _("Your vote is now %(target)s. Your change of vote is used: it is final.") % {
                "target": who(target)
            }
        return _("Your vote: %(target)s. You may change it once today.") % {"target": who(target)}
    if kind == "revote":
        return _("Your vote in the catastrophe: %(target)s.") % {"target": who(target)}
    if kind == "fast":
        return _("Your fast is counted; you may withdraw it.")
    if kind == "unfast":
        return _("Your fast is withdrawn.")
    if kind == "post":
        return _post_answer(state, event.get("seat"))
    if kind == "shot":
        if state.phase.value == "day":
            return _("Your shot for the coming night is left in advance: %(target)s.") % {
                "target": who(target)
            }
        if state.options.shot_changeable:
            return _("Your shot is taken: %(target)s. You may change it until the night ends.") % {
                "target": who(target)
            }
        return _("Your shot is taken: %(target)s.") % {"target": who(target)}
    if kind in ("don_check", "com_check") and state.checks:
        check = state.checks[-1]
        return _("Your check of %(target)s: %(answer)s.") % {
            "target": who(check.target),
            "answer": check_answer(check.result),
        }
    if kind == "warning":
        seat = event["seat"]
        count = state.warnings.get(seat, 0)
        return _("Warning to %(seat)s: %(count)d of %(most)d.") % {
            "seat": who(seat),
            "count": count,
            "most": state.options.warnings_to_removal,
        }
    if kind == "modkill":
        return _("%(seat)s is removed from the game.") % {"seat": who(event.get("seat"))}
    if kind == "extend":
        return _("The phase is extended by %(minutes)s minutes.") % {
            "minutes": event.get("minutes")
        }
    return _("Done.")


def _post_answer(state: OnlineGame, seat: object) -> str:
    """A post: a last word, the one post of a catastrophe round, or the thread's."""
    if any(line.kind == "last_word" and line.seat == seat for line in state.story[-1:]):
        return _("Your last word is posted.")
    if any(line.kind == "round_post" and line.seat == seat for line in state.story[-1:]):
        return _("Your post in the catastrophe is posted: it was your one post there.")
    return _("Your post is in the thread.")


def reading_labels() -> dict[str, str]:
    """The online ruleset's options as the hosts' form names them (docs/protocol.md says
    why each default): an option the form leaves out is kept at its default."""
    return {
        "misfires_to_town_win": _("Misfired or skipped nights in a row that give the town the win"),
        "warnings_to_removal": _("Warnings that remove a player"),
        "day_one_pardon": _("Day 1: a single vote with everyone else on PASS is pardoned"),
        "day_one_pardon_with_silent": _("… and players who did not vote count as PASS there"),
        "fast_resolves_day": _("When everyone has fasted, the day's vote is settled at once"),
        "fast_night_after_modkill": _("A fast night may follow a day with a modkill"),
        "warnings_removal_cancels_vote": _(
            "A removal for warnings by day cancels that day's vote, like a modkill"
        ),
        "night_modkill_cancels_next_vote": _("A modkill at night cancels the next day's vote"),
        "revote_tie_limit": _(
            "Tied revotes in a row after which nobody leaves (0: revote while the tie lasts)"
        ),
        "untied_vote_in_followup": _("A player no longer tied votes in the next round"),
        "advance_vote_replaceable": _(
            "A «hang all / pardon all» vote left in advance may be replaced once in the round"
        ),
        "catastrophe_silence": _("A player who does not vote in a catastrophe round gets"),
        "catastrophe_closes_when_all_posted": _(
            "A catastrophe round closes once everyone has posted or voted"
        ),
        "two_leave_limit": _("«Never more than two leave» counts"),
        "shot_changeable": _("A mafioso may change the night's shot"),
        "check_departed": _("The don and the commissar may check a player who has left"),
    }


def reading_choices() -> dict[str, list[tuple[str, str]]]:
    return {
        "catastrophe_silence": [
            ("nothing", _("nothing: counts for nobody")),
            ("warning", _("a warning")),
        ],
        "two_leave_limit": [
            ("vote", _("the vote's removals")),
            ("day", _("the day's removals, the host's too")),
        ],
    }


def spectators_words() -> dict[str, Any]:
    """The words of an online game's spectators' page (static/games/live-online.js), in
    the reader's language: the thread's lines as the players' page says them
    (templates/games/online.html, games/_online_outcome.html)."""
    return {
        "starts": _("Before day 1"),
        "until": _("until %(when)s"),
        "next_step": _("next step %(when)s"),
        "thread": _("The thread"),
        "no_posts": _("No posts yet."),
        "earlier": _("The thread's earlier lines are the players' page's."),
        "vote_title": _("The vote"),
        "no_votes": _("No votes yet."),
        "fasted": _("Fasted:"),
        "pass": _("PASS"),
        "hang_all": _("hang all"),
        "pardon_all": _("pardon all"),
        "final": _("changed, final"),
        "changed": _("changed"),
        "fasts": _("fasts"),
        "unfasts": _("withdraws the fast"),
        "last_word": _("last word"),
        "round_post": _("catastrophe post"),
        "seat_ref": _("seat %(seat)s"),
        "catastrophe_question": _("Catastrophe among %(seats)s: hang all or pardon all?"),
        "catastrophe_revote": _("Catastrophe: a revote among %(seats)s."),
        "warning": _("The host's warning no. %(count)s:"),
        "warnings": _("Warnings"),
        "removed": _("Leaves the game for warnings:"),
        "modkill": _("The host removes from the game (a modkill):"),
        "red_wins": _("The town (red) wins."),
        "black_wins": _("The mafia (black) wins."),
        "outcomes": {
            "killed": _("Night: killed"),
            "misfire": _("Night: the mafia misfired, nobody died."),
            "voted": _("Leaves by the vote:"),
            "fast": _("(the day ended by everyone's fast)"),
            "pardoned": _("Nobody leaves: on day one a single vote is pardoned."),
            "cancelled": _("No vote today: a player was removed by the host."),
            "pardon_all": _("All pardoned: nobody leaves."),
            "catastrophe_at_four": _("A tie at four players: no revote, nobody leaves."),
            "tie_again": _("The tie held through the revotes: nobody leaves."),
            "limit": _("Never more than two leave a day: nobody is hanged."),
            "nobody": _("Nobody leaves: no votes on anyone."),
        },
        "reasons": {
            "voted": _("voted out"),
            "killed": _("killed"),
            "modkill": _("removed by the host"),
            "warnings": _("three warnings"),
        },
        "roles": {role: online_role(role) for role in ("don", "mafia", "commissar", "civilian")},
        # The times as the players' page gives them: in the club's zone, not the reader's.
        "zone": Club.current().timezone,
    }
