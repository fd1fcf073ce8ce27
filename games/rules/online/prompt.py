"""What each player and the host may do now: the one answer the table's page, the bot's
buttons and the night's reminders all read."""

from __future__ import annotations

from typing import TypedDict

from games.rules.online.state import (
    BLACK_ROLES,
    MAX_VOTES_A_DAY,
    Catastrophe,
    CatastropheDict,
    OnlineState,
    Phase,
)


class PromptDict(TypedDict):
    phase: str
    n: int
    open: bool
    legal: list[str]
    tally: dict[str, int]
    catastrophe: CatastropheDict | None
    outcome: str | None


class OnlinePrompt(OnlineState):
    """Who may act now, read from the state."""

    def actions_for(self, seat: int) -> tuple[str, ...]:
        """What the player in `seat` may do now (the host's moderation aside): the one
        answer the table's page, the bot's buttons and the night's reminders all read.
        "post" is the last word for a player who has just left."""
        if self.phase == Phase.OVER or seat not in self.roles:
            return ()
        if seat not in self.alive:
            return ("post",) if seat in self.last_words_due else ()
        if self.phase == Phase.DAY and self.open:
            round_ = self.catastrophe
            if round_ is not None:
                return self._round_actions(seat, round_)
            return self._open_day_actions(seat)
        if self.phase == Phase.DAY:
            return ("post",)
        if self.phase == Phase.NIGHT and self.open:
            return self._open_night_actions(seat)
        return ()

    def _round_actions(self, seat: int, round_: Catastrophe) -> tuple[str, ...]:
        """In a catastrophe round: the tied post once, the others revote once (a vote left
        in advance may be replaced)."""
        actions: list[str] = []
        if seat in round_.tied and seat not in round_.posted:
            actions.append("post")
        replaceable = seat in round_.advance and self.options.advance_vote_replaceable
        voter = seat in round_.voters(self.alive)
        if voter and (seat not in round_.votes or replaceable):
            actions.append("revote")
        return tuple(actions)

    def _open_day_actions(self, seat: int) -> tuple[str, ...]:
        actions: list[str] = []
        if self.vote_count.get(seat, 0) < MAX_VOTES_A_DAY:
            actions.append("vote")
        actions += ["unfast" if seat in self.fasted else "fast", "post"]
        if self.roles[seat] in BLACK_ROLES:
            actions.append("shot")  # left in advance for the coming night
        return tuple(actions)

    def _open_night_actions(self, seat: int) -> tuple[str, ...]:
        role = self.roles[seat]
        actions: list[str] = []
        if role in BLACK_ROLES and seat not in self.shots:
            actions.append("shot")
        if role == "don" and "don" not in self.checked:
            actions.append("don_check")
        if role == "commissar" and "commissar" not in self.checked:
            actions.append("com_check")
        return tuple(actions)

    def prompt(self) -> PromptDict:
        """What the players and the host may do now."""
        legal: list[str] = ["warning", "modkill"] if self.phase in (Phase.DAY, Phase.NIGHT) else []
        if self.phase == Phase.SETUP:
            legal = ["day"]
        elif self.phase == Phase.DAY and self.open:
            if self.catastrophe:
                legal += ["revote", "post", "day_end", "extend"]
            else:
                legal += ["vote", "fast", "unfast", "post", "revote", "shot", "day_end", "extend"]
        elif self.phase == Phase.DAY:
            legal += ["night", "post"]
        elif self.phase == Phase.NIGHT and self.open:
            legal += ["shot", "don_check", "com_check", "night_end", "extend"]
        elif self.phase == Phase.NIGHT:
            legal += ["day"]
        return {
            "phase": self.phase.value,
            "n": self.n,
            "open": self.open,
            "legal": legal,
            "tally": {str(k): v for k, v in self.tally().items()},
            "catastrophe": (
                {"tied": self.catastrophe.tied, "question": self.catastrophe.question}
                if self.catastrophe
                else None
            ),
            "outcome": self.outcome,
        }
