"""The day's talk (RULES.md §B): the day opens (after the night's casualties), the round of
speeches in the table's order with «под фол», the defence speeches, last words, and the
fouls that a player collects by day or by night (three remove them)."""

from __future__ import annotations

from datetime import datetime

from games.rules.club.night import ClubNight
from games.rules.club.state import (
    BestMove,
    Bonus,
    Phase,
    Reason,
    Step,
    _count_field,
)
from games.rules.errors import ProtocolError, RuleCode, RuleViolation, gettext_noop, seat_field
from games.rules.event_types import (
    BestMoveEvent,
    BonusEvent,
    DayEvent,
    ExtensionEvent,
    FoulEvent,
    LastWordEvent,
    SpeechEvent,
)

MAX_EXTENSIONS = 2
FOULS_TO_REMOVAL = 3
BEST_MOVE_SEATS = 3
# A bonus is in hundredths of a point, within the ±10 any scoring line keeps to; the
# scheme's own bounds (`bonus_min`, `bonus_max`) are the site's to apply when it is given.
BONUS_LIMIT = 10
BONUS_REASON_MAX = 200


class ClubDay(ClubNight):
    """The day opens, its speeches and fouls; the night's handlers below it."""

    def _on_day(self, event: DayEvent) -> None:
        n = _count_field(event, "n")
        if self.phase == Phase.SETUP:
            if n != 1:
                raise RuleViolation(
                    RuleCode.PHASE_ORDER, gettext_noop("The game opens with day 1.")
                )
        elif self.phase != Phase.NIGHT or n != self.n + 1:
            raise RuleViolation(
                RuleCode.PHASE_ORDER, gettext_noop("Day %(n)s cannot start now."), n=n
            )
        if self.phase == Phase.NIGHT:
            self._resolve_night()  # may end the game: the day then never starts
            if self.finished:
                return
        self.phase = Phase.DAY
        self.n = n
        self._start_day()

    def _start_day(self) -> None:
        self.step = Step.ROUND
        self.nominees = []
        self.nominations_by = {}
        self.candidates = []
        self.defended = set()
        self.spoken = set()
        self.extensions = {}
        self.outcome = None
        self.tally = None
        self.hands_round = 0
        self.dropped = []
        living = [seat for seat in self.order if seat in self.alive]
        if not living:
            return
        # Each day's round opens one seat further round the table than the day before
        # (docs/protocol.md, the option `day_opener`), skipping the seats that have left.
        if self.options.day_opener == "day_number":
            anchor = self.order[(self.n - 1) % len(self.order)]
            self.round_opener = next((seat for seat in living if seat >= anchor), living[0])
        elif self.round_opener is None:
            self.round_opener = living[0]
        else:
            later = [seat for seat in living if seat > self.round_opener]
            self.round_opener = later[0] if later else living[0]

    def _on_foul(self, event: FoulEvent) -> None:
        seat = seat_field(event, "seat")
        if self.finished:
            # A foul heard after the end (the recording's suggestion, accepted by the host):
            # it counts in the record and changes nothing of the finished game.
            if seat not in self.roles:
                raise RuleViolation(
                    RuleCode.NO_SUCH_SEAT, gettext_noop("There is no seat %(seat)s."), seat=seat
                )
            self.fouls[seat] = self.fouls.get(seat, 0) + 1
            return
        if self.phase not in (Phase.DAY, Phase.NIGHT):
            raise RuleViolation(RuleCode.NOT_STARTED, gettext_noop("The game has not started."))
        self._require_alive(seat)
        self._add_foul(seat)

    def _add_foul(self, seat: int) -> None:
        self.fouls[seat] = self.fouls.get(seat, 0) + 1
        if self.fouls[seat] >= FOULS_TO_REMOVAL:
            self._eliminate([(seat, Reason.FOULS)])

    def _on_best_move(self, event: BestMoveEvent) -> None:
        """The best move (ЛХ): named once a game, by a victim who qualifies, after their
        death is known; up to three other seats, each once (none: «без ЛХ»). It changes no
        rule state: the scoring reads it."""
        by = seat_field(event, "by")
        targets = event.get("targets")
        if not isinstance(targets, list) or any(type(seat) is not int for seat in targets):
            raise ProtocolError(gettext_noop("Field `targets` is a list of seat numbers."))
        self._require_seat(by)
        if self.options.best_move_victims == "none":
            raise RuleViolation(
                RuleCode.NO_BEST_MOVE, gettext_noop("These rules have no best move.")
            )
        if self.best_move is not None:
            raise RuleViolation(
                RuleCode.BEST_MOVE_GIVEN,
                gettext_noop("The best move is already recorded (seat %(seat)s's)."),
                seat=self.best_move.by,
            )
        if by not in self.best_move_givers():
            raise RuleViolation(
                RuleCode.BEST_MOVE_NOT_DUE,
                gettext_noop(
                    "Seat %(seat)s names no best move: only the player killed first at night does."
                ),
                seat=by,
            )
        if len(targets) > BEST_MOVE_SEATS:
            raise RuleViolation(
                RuleCode.BEST_MOVE_TARGETS, gettext_noop("A best move names three seats at most.")
            )
        if len(set(targets)) != len(targets):
            raise RuleViolation(
                RuleCode.BEST_MOVE_TARGETS, gettext_noop("A best move names each seat once.")
            )
        if by in targets:
            raise RuleViolation(
                RuleCode.BEST_MOVE_TARGETS, gettext_noop("A player does not name their own seat.")
            )
        for seat in targets:
            self._require_seat(seat)
        self.best_move = BestMove(by, tuple(targets))

    def _on_bonus(self, event: BonusEvent) -> None:
        """Extra points (a penalty when negative) with the host's reason, from day 1 on and
        after the end. It changes no rule state: the scoring counts it."""
        seat = seat_field(event, "seat")
        points, reason = event.get("points"), event.get("reason")
        if isinstance(points, bool) or not isinstance(points, int | float):
            raise ProtocolError(gettext_noop("Field `points` is a number."))
        if not isinstance(reason, str):
            raise ProtocolError(gettext_noop("Field `reason` is a text."))
        if self.phase == Phase.SETUP:
            raise RuleViolation(RuleCode.NOT_STARTED, gettext_noop("The game has not started."))
        self._require_seat(seat)
        if not points:
            raise RuleViolation(RuleCode.BONUS_POINTS, gettext_noop("Extra points are never zero."))
        if round(points, 2) != points:
            raise RuleViolation(
                RuleCode.BONUS_POINTS,
                gettext_noop("Extra points are in hundredths of a point (0.05, 0.1, 0.25…)."),
            )
        if abs(points) > BONUS_LIMIT:
            raise RuleViolation(
                RuleCode.BONUS_POINTS, gettext_noop("Extra points are within ±10 in a protocol.")
            )
        reason = reason.strip()
        if not reason:
            raise RuleViolation(RuleCode.BONUS_REASON, gettext_noop("Extra points need a reason."))
        if len(reason) > BONUS_REASON_MAX:
            raise RuleViolation(
                RuleCode.BONUS_REASON, gettext_noop("The reason is 200 characters at most.")
            )
        self.bonuses.append(Bonus(seat, float(points), reason))

    def _on_extension(self, event: ExtensionEvent) -> None:
        seat = seat_field(event, "seat")
        self._require_day()
        self._require_alive(seat)
        speaker = self.speaker_due()
        if self.options.speeches_checked and seat != speaker:
            raise RuleViolation(
                RuleCode.NOT_SPEAKING,
                gettext_noop("«Под фол» is the speaker's: seat %(seat)s is not speaking now."),
                seat=seat,
            )
        taken = (
            self.extensions.get(seat, 0)
            if self.options.extension_limit_per == "speech"
            else self.extensions_total.get(seat, 0)
        )
        if taken >= MAX_EXTENSIONS:
            raise RuleViolation(
                RuleCode.EXTENSION_LIMIT, gettext_noop("«Под фол» is allowed twice at most.")
            )
        self.extensions[seat] = self.extensions.get(seat, 0) + 1
        self.extensions_total[seat] = self.extensions_total.get(seat, 0) + 1
        self._add_foul(seat)  # each extension is a foul; the third foul removes the player

    def _on_speech(self, event: SpeechEvent) -> None:
        seat = seat_field(event, "seat")
        self._require_day()
        if self.options.speeches_checked:
            self._require_speaker(seat)
            end = self._require_after_the_last(event)
        else:
            if seat not in self.alive and seat not in self.last_words_due:
                self._require_alive(seat)
            end = self.speeches_end
        self.speeches_end = end
        self.spoken.add(seat)
        if self.step in (Step.FIRST_DAY_QUESTION, Step.HANDS) and seat in self.candidates:
            self.defended.add(seat)
        self.extensions.pop(seat, None)  # the next speech starts a fresh «под фол» count

    def _on_last_word(self, event: LastWordEvent) -> None:
        seat = seat_field(event, "seat")
        self._require_seat(seat)
        if seat not in self.last_words_due:
            raise RuleViolation(
                RuleCode.NO_LAST_WORD,
                gettext_noop("Seat %(seat)s has no last word now."),
                seat=seat,
            )
        if self.options.speeches_checked:
            self.speeches_end = self._require_after_the_last(event)
        self.last_words_due.discard(seat)

    def _require_speaker(self, seat: int) -> None:
        """A speech is the one due now: the next seat of the round, or the next candidate's
        defence; a seat that has spoken (or a departed one) is refused, saying who speaks."""
        self._require_seat(seat)
        due = self.speaker_due()
        if seat == due:
            return
        if (seat in self.spoken and self.step == Step.ROUND) or seat in self.defended:
            raise RuleViolation(
                RuleCode.SPOKEN, gettext_noop("Seat %(seat)s has already spoken."), seat=seat
            )
        if due is None:
            raise RuleViolation(RuleCode.NO_SPEECH_DUE, gettext_noop("No speech is due now."))
        raise RuleViolation(
            RuleCode.SPEECH_ORDER,
            gettext_noop("Seat %(due)s speaks now, not seat %(seat)s."),
            due=due,
            seat=seat,
        )

    def _require_after_the_last(self, event: SpeechEvent | LastWordEvent) -> datetime | None:
        """A speech or last word starts no earlier than the one before it ended (the
        recording's analysis reads who spoke when from these); returns the new end."""
        if "start" not in event:
            return self.speeches_end
        start = datetime.fromisoformat(event["start"])
        end = datetime.fromisoformat(event["end"])
        if self.speeches_end is not None and start < self.speeches_end:
            raise RuleViolation(
                RuleCode.SPEECH_OVERLAP,
                gettext_noop(
                    "This speech starts at %(start)s, before the one before it ended (%(end)s)."
                ),
                # Moments (errors.MOMENTS): each reader sees them in the club's zone.
                start=start.isoformat(),
                end=self.speeches_end.isoformat(),
            )
        return end

    # --- the order of speeches ---------------------------------------------------------

    def round_order(self) -> list[int]:
        living = [seat for seat in self.order if seat in self.alive]
        if self.round_opener is None or not living:
            return living
        start = next((i for i, seat in enumerate(living) if seat >= self.round_opener), 0)
        return living[start:] + living[:start]

    def speaker_due(self) -> int | None:
        """Whose speech is due now: the round's next seat, or the next candidate's defence;
        None between them (a vote, a question, the night)."""
        if self.phase != Phase.DAY:
            return None
        if self.step == Step.ROUND:
            # round_order()'s first seat not yet spoken, without building the order: this
            # runs for every speech of a replay.
            order = self.order
            start = order.index(self.round_opener) if self.round_opener is not None else 0
            for i in range(len(order)):
                seat = order[(start + i) % len(order)]
                if seat in self.alive and seat not in self.spoken:
                    return seat
            return None
        if self.step in (Step.FIRST_DAY_QUESTION, Step.HANDS):
            return next((seat for seat in self.candidates if seat not in self.defended), None)
        return None
