"""Every kind of event of both rulesets as a TypedDict: the one place their shape is written
(docs/protocol.md says what each means).

games/rules/events.py takes each kind's field names from these (`FIELDS`, `ONLINE_FIELDS`)
and `normalize` returns their union; each engine's handler takes its own kind (the handler
tables of games/rules/club/ and games/rules/online/ are checked against them by
tests/games/rules/test_event_types.py); `python manage.py host_types` writes them as
TypeScript for the host's screen (static/games/host/table.d.ts), so the phone's taps are
type-checked against the same shapes.

What a type promises: `normalize` makes sure an event carries no field its kind does not
know, and that its texts and times are storable; whether a field's value is what the type
says (a seat, a count) and whether a required one is there is for the engine to judge as
it reads it, since it is also fed from the log and from documents. A type says what a
well-formed event is, not that the one at hand was judged.

No `from __future__ import annotations` here: the postponed annotations would hide
`NotRequired` from each class's `__optional_keys__`, leaving it to say what the class does
not. Standard library only: this runs on the phone too.
"""

from typing import Literal, NotRequired, TypedDict


class EventCommon(TypedDict):
    """What any event may carry: when it happened (ISO 8601 with a time zone) and a note."""

    at: NotRequired[str]
    note: NotRequired[str]


# "for" is a keyword: the functional form, for the yes/no questions' hands.
HandsFor = TypedDict("HandsFor", {"for": int})


# --- both rulesets -----------------------------------------------------------------------


class DayEvent(EventCommon):
    type: Literal["day"]
    n: int


class NightEvent(EventCommon):
    type: Literal["night"]
    n: int


# --- the club's live game (RULES.md §B) --------------------------------------------------


class NominateEvent(EventCommon):
    type: Literal["nominate"]
    by: int
    target: int


class VotesEvent(EventCommon):
    """The count on the nominees: `counts` (seat → votes) or `voters` (voter → seat)."""

    type: Literal["votes"]
    counts: NotRequired[dict[str, int]]
    voters: NotRequired[dict[str, int]]


class FirstDayExpelEvent(EventCommon, HandsFor):
    type: Literal["first_day_expel"]


class HandsEvent(EventCommon):
    """A show of hands over the candidates: `counts` or `voters`, as for `votes`."""

    type: Literal["hands"]
    counts: NotRequired[dict[str, int]]
    voters: NotRequired[dict[str, int]]


class ExpelBothEvent(EventCommon, HandsFor):
    type: Literal["expel_both"]


class FoulEvent(EventCommon):
    type: Literal["foul"]
    seat: int
    reason: NotRequired[str]


class DisqualifyEvent(EventCommon):
    """The host (the judge) removes a player from the game, with the reason: at any moment
    of day or night, distinct from three fouls; the player leaves revealed, without a last
    word, and scores the scheme's `disqualification` line."""

    type: Literal["disqualify"]
    seat: int
    reason: str


class ExtensionEvent(EventCommon):
    type: Literal["extension"]
    seat: int


# A night action's target: a seat, or null (or none) for a role that woke and did nothing.


class CheckEvent(EventCommon):
    type: Literal["check"]
    by: int
    target: NotRequired[int | None]


class KillEvent(EventCommon):
    type: Literal["kill"]
    by: str  # "mafia" or the role's code
    target: NotRequired[int | None]


class HealEvent(EventCommon):
    type: Literal["heal"]
    target: NotRequired[int | None]


class ActionEvent(EventCommon):
    type: Literal["action"]
    by: int
    target: NotRequired[int | None]
    kind: str


class SpeechEvent(EventCommon):
    type: Literal["speech"]
    seat: int
    start: str
    end: str
    limit: int  # the seconds allowed


class LastWordEvent(EventCommon):
    type: Literal["last_word"]
    seat: int
    start: NotRequired[str]
    end: NotRequired[str]


class BestMoveEvent(EventCommon):
    """The best move («лучший ход», ЛХ): the player killed first at night (which victims
    qualify is the option `best_move_victims`) names up to three seats in the last word;
    no seats: the host skipped it («без ЛХ»). It changes no rule state."""

    type: Literal["best_move"]
    by: int
    targets: list[int]


class BonusEvent(EventCommon):
    """Extra points («допы», or a penalty when negative) from the host, with the reason;
    during the game or after it. It changes no rule state; the scoring counts it."""

    type: Literal["bonus"]
    seat: int
    points: float
    reason: str


class UndoEvent(EventCommon):
    """The host's undo: the log keeps it, the protocol does not (games/rules/log.py)."""

    type: Literal["undo"]


type ClubEvent = (
    DayEvent
    | NightEvent
    | NominateEvent
    | VotesEvent
    | FirstDayExpelEvent
    | HandsEvent
    | ExpelBothEvent
    | FoulEvent
    | DisqualifyEvent
    | ExtensionEvent
    | CheckEvent
    | KillEvent
    | HealEvent
    | ActionEvent
    | SpeechEvent
    | LastWordEvent
    | BestMoveEvent
    | BonusEvent
)
# What a club game's log holds, and what the host's screen sends: an event or an undo.
type ClubEntry = ClubEvent | UndoEvent


# --- the online game (RULES.md §D) -------------------------------------------------------


class VoteEvent(EventCommon):
    type: Literal["vote"]
    voter: int
    target: int | Literal["pass"]


class FastEvent(EventCommon):
    type: Literal["fast"]
    voter: int


class UnfastEvent(EventCommon):
    type: Literal["unfast"]
    voter: int


class ShotEvent(EventCommon):
    type: Literal["shot"]
    by: int
    target: NotRequired[int | None]  # null: no shot


class DonCheckEvent(EventCommon):
    type: Literal["don_check"]
    target: int


class ComCheckEvent(EventCommon):
    type: Literal["com_check"]
    target: int


class WarningEvent(EventCommon):
    type: Literal["warning"]
    seat: int
    reason: NotRequired[str]


class ModkillEvent(EventCommon):
    """A removal by the host; `inactivity`: for silence, which the site takes up to 30
    minutes before the night, or later with the host's `override` (why)."""

    type: Literal["modkill"]
    seat: int
    reason: NotRequired[str]
    inactivity: NotRequired[bool]
    override: NotRequired[str]


class RevoteEvent(EventCommon):
    type: Literal["revote"]
    voter: int
    target: int | Literal["hang_all", "pardon_all"]


class PostEvent(EventCommon):
    type: Literal["post"]
    seat: int
    text: NotRequired[str]


class ExtendEvent(EventCommon):
    type: Literal["extend"]
    minutes: int


class DayEndEvent(EventCommon):
    type: Literal["day_end"]


class NightEndEvent(EventCommon):
    type: Literal["night_end"]


type OnlineEvent = (
    DayEvent
    | NightEvent
    | VoteEvent
    | FastEvent
    | UnfastEvent
    | ShotEvent
    | DonCheckEvent
    | ComCheckEvent
    | WarningEvent
    | ModkillEvent
    | RevoteEvent
    | PostEvent
    | ExtendEvent
    | DayEndEvent
    | NightEndEvent
)
