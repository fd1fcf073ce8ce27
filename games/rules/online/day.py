"""The day (RULES.md §D): it opens (after the night's resolution), the posts and last
words, the host's close of the day, and an extension of whichever phase is open."""

from __future__ import annotations

from games.rules.errors import ProtocolError, RuleCode, RuleViolation, gettext_noop, seat_field
from games.rules.event_types import DayEndEvent, DayEvent, ExtendEvent, PostEvent
from games.rules.online.night import OnlineNight
from games.rules.online.state import Phase


class OnlineDay(OnlineNight):
    """The day's start and talk; the night's and the vote's handlers below it."""

    def _on_day(self, event: DayEvent) -> None:
        n = event.get("n")
        expected = 1 if self.phase == Phase.SETUP else self.n + 1
        if self.phase not in (Phase.SETUP, Phase.NIGHT) or n != expected:
            raise RuleViolation(
                RuleCode.PHASE_ORDER, gettext_noop("Day %(n)s cannot start now."), n=n
            )
        if self.phase == Phase.NIGHT and self.open:
            self._resolve_night()
            if self.finished:
                return
        self.phase, self.n, self.open = Phase.DAY, expected, True
        self.votes, self.vote_count, self.fasted = {}, {}, set()
        self.catastrophe, self.held = None, {}
        # A modkill last night cancels this day's vote where the club reads it so.
        self.vote_cancelled, self.cancel_next_vote = self.cancel_next_vote, False
        self.removed_today = self.tied_rounds = 0
        self.ended_by_fast = False
        self.outcome = None
        self._tell("phase")

    def _on_day_end(self, event: DayEndEvent) -> None:
        self._require_open(Phase.DAY)
        self._resolve_day()

    def _on_extend(self, event: ExtendEvent) -> None:
        minutes = event.get("minutes")
        if type(minutes) is not int or not 1 <= minutes <= 24 * 60:
            raise ProtocolError(gettext_noop("`minutes` is 1 to 1440."))
        if not self.open:
            raise RuleViolation(
                RuleCode.WRONG_PHASE, gettext_noop("There is no open phase to extend.")
            )

    def _on_post(self, event: PostEvent) -> None:
        seat = seat_field(event, "seat")
        if "text" in event and (not isinstance(event["text"], str) or len(event["text"]) > 4000):
            raise ProtocolError(gettext_noop("A post's text is up to 4000 characters."))
        if seat in self.last_words_due:
            self.last_words_due.discard(seat)  # the last word
            self._tell("last_word", seat=seat)
            return
        self._living(seat)
        if self.phase != Phase.DAY:
            raise RuleViolation(RuleCode.WRONG_PHASE, gettext_noop("Posts are written by day."))
        round_ = self.catastrophe
        if round_ is not None:
            if seat not in round_.tied:
                raise RuleViolation(
                    RuleCode.CATASTROPHE,
                    gettext_noop("In a catastrophe only the tied players post."),
                )
            if seat in round_.posted:
                raise RuleViolation(
                    RuleCode.CATASTROPHE, gettext_noop("One post in a catastrophe.")
                )
            round_.posted.add(seat)
            self.posts.append((self.n, seat))
            self._tell("round_post", seat=seat)
            self._maybe_close_round()
            return
        self.posts.append((self.n, seat))
        self._tell("post", seat=seat)
