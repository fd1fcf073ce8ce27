"""What comes next, for the host's screen: the phase, the events the engine takes now, whose
speech is due and for how long, the question being asked, and who wakes at night."""

from __future__ import annotations

from dataclasses import dataclass

from games.rules.club.day import ClubDay
from games.rules.club.state import Phase, Step

ROUND_SECONDS = 30
LAST_IN_ROUND_SECONDS = 45
DEFENCE_SECONDS = 30
# Not in RULES.md: the last word is timed like a closing speech, and the «балаган» (the
# table's free talk) is two minutes, one on day 1 (the hosts' custom).
LAST_WORD_SECONDS = 60
BALAGAN_SECONDS = 120
BALAGAN_DAY_ONE_SECONDS = 60
EXTENSION_SECONDS = 30


@dataclass(frozen=True, slots=True)
class Prompt:
    """What comes next, for the host's screen."""

    phase: str
    n: int
    step: str | None
    legal: tuple[str, ...]  # event types the engine accepts now
    speaker: int | None = None  # whose speech is next
    seconds: int | None = None  # how long that speech is
    question: str | None = None  # "expel_anyone", "expel_both" or "hands"
    candidates: tuple[int, ...] = ()
    wake: str | None = None  # the role (or "mafia" for the joint kill) that wakes now


class ClubPrompt(ClubDay):
    """The prompt, read from the state of every phase."""

    def prompt(self) -> Prompt:
        if self.phase == Phase.OVER:
            return Prompt(self.phase.value, self.n, None, ())
        if self.phase == Phase.SETUP:
            return Prompt(self.phase.value, 0, None, ("day",))
        if self.phase == Phase.NIGHT:
            return Prompt(
                self.phase.value, self.n, None, self._night_legal(), wake=self._next_to_wake()
            )
        always = ("speech", "foul", "disqualify", "extension", "last_word")
        if self.step == Step.ROUND:
            waiting = [seat for seat in self.round_order() if seat not in self.spoken]
            speaker = waiting[0] if waiting else None
            seconds = None
            if speaker is not None:
                base = LAST_IN_ROUND_SECONDS if len(waiting) == 1 else ROUND_SECONDS
                seconds = base + EXTENSION_SECONDS * self.extensions.get(speaker, 0)
            legal = (
                (*always, "nominate", "votes") if self.nominees else (*always, "nominate", "night")
            )
            return Prompt(self.phase.value, self.n, self.step.value, legal, speaker, seconds)
        questions = {
            Step.FIRST_DAY_QUESTION: ("expel_anyone", "first_day_expel"),
            Step.HANDS: ("hands", "hands"),
            Step.EXPEL_BOTH: ("expel_both", "expel_both"),
        }
        if self.step in questions:
            question, event_type = questions[self.step]
            # The candidates' defence speeches, in their order, before the hands; «под фол»
            # lengthens a defence as it does a speech of the round.
            speaker = self.speaker_due()
            return Prompt(
                self.phase.value,
                self.n,
                self.step.value,
                (*always, event_type),
                speaker=speaker,
                seconds=DEFENCE_SECONDS + EXTENSION_SECONDS * self.extensions.get(speaker or 0, 0),
                question=question,
                candidates=tuple(self.candidates),
            )
        return Prompt(self.phase.value, self.n, self.step.value, (*always, "night"))

    def _next_to_wake(self) -> str | None:
        slots = self.night_slots()
        return slots[0][1].split(":", 1)[-1] if slots else None

    def _night_legal(self) -> tuple[str, ...]:
        kinds = {slot.split(":", 1)[0] for _order, slot in self.night_slots()}
        return (*sorted(kinds), "foul", "disqualify", "day")
