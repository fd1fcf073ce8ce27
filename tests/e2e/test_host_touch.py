"""The host's thumb on real touch events (#25): a whole 15-player game on a 360×640 phone
(scale 2, touch), every gesture sent through the DevTools protocol as a finger makes it
(`Input.dispatchTouchEvent`: touchStart … touchEnd, so Chromium makes the pointer events,
the long press and the click itself), in each entry mode of the votes and in both
languages.

After each gesture the test reads the events the server holds (GameEvent rows) and
asserts exactly the ones that gesture records: one event per gesture, never two; nothing
for a gesture that records nothing. The gestures that broke it: a long press of 600 ms
and of 1,300 ms (the foul's answer redraws the seats under the finger, so the click that
ends the press lands on a fresh button), a tap while the screen is redrawn, a long press
at night (a foul, not the night's shot), the third foul's long press (its «Записать?»
opens under the finger: the press's own click must not answer it).

And after each gesture: every control the host needs is inside the viewport, 48 px or
more, nothing scrolls; nothing on the seats differs by role unless 👁 is held; the checks'
answers show only under 👁. The screenshots of every phase are kept in
var/test-artifacts/e2e/touch/, and axe-core runs on each kind of screen.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator
from pytest_django.live_server_helper import LiveServer

from games.models import Game, GameEvent
from tests.e2e.conftest import ARTIFACTS, new_context, untranslated, watch_of
from tests.e2e.host_driver import TARGETS, HostScreen, shown_box
from tests.e2e.test_host_screen import axe_violations
from tests.games.recording import evening_with_players, make_host, record, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]

SHOTS = ARTIFACTS / "touch"
# Seat n has ROLES[n - 1]: the cards are mixed along the table, so a difference by role
# would show between neighbours.
ROLES = [
    "civilian", "boss", "civilian", "maniac", "mafia", "civilian", "commissar", "civilian",
    "instigator", "mafia", "civilian", "doctor", "civilian", "civilian", "civilian",
]  # fmt: skip
SHORT_HOLD_MS, LONG_HOLD_MS = 600, 1_300
TAP_MS = 60
# Time for a second event to show up if a gesture made one: the click that ends a press
# follows the lift within a frame or two (16–33 ms), and a tap it made is in the screen's
# queue at once, which the gesture then waits to empty. (450 ms cost the suite a minute.)
SETTLE_MS = 150

# Every control the host can touch that is on the screen now, with what is wrong with it:
# outside the viewport, under 48 px, or a seat cut off by the seats' own box.
CONTROLS_JS = """(selector) => {
  const wrong = [];
  const seats = document.getElementById('host-seats').getBoundingClientRect();
  for (const node of document.querySelectorAll(selector)) {
    if (!node.checkVisibility({visibilityProperty: true})) continue;
    const box = node.getBoundingClientRect();
    if (!box.width) continue;
    const name = node.dataset.act || (node.dataset.seat && 'seat ' + node.dataset.seat)
      || node.dataset.count && 'key ' + node.dataset.count || node.textContent.trim().slice(0, 24);
    const [x, y, w, h] = [box.left, box.top, box.width, box.height].map(Math.round);
    const where = `${x},${y} ${w}x${h}`;
    const outside = box.left < -0.5 || box.top < -0.5
      || box.right > innerWidth + 0.5 || box.bottom > innerHeight + 0.5;
    if (outside) wrong.push(`${name} outside the viewport at ${where}`);
    if (box.width < 47.5 || box.height < 47.5) wrong.push(`${name} under 48 px: ${where}`);
    if (node.dataset.seat && (box.top < seats.top - 0.5 || box.bottom > seats.bottom + 0.5))
      wrong.push(`${name} cut off by the seats' box at ${where}`);
  }
  return wrong;
}"""
# What each seat looks like: the same for every card unless 👁 is held.
SEATS_JS = """() => [...document.querySelectorAll('#host-seats [data-seat]')].map((node) => {
  const own = getComputedStyle(node);
  const nick = getComputedStyle(node.querySelector('.nick'));
  return {
    seat: Number(node.dataset.seat),
    classes: [...node.classList].sort().join(' '),
    roles: node.querySelectorAll('.role').length,
    look: [own.backgroundColor, own.color, own.fontWeight, own.borderColor, nick.fontWeight,
           nick.color, nick.fontStyle, nick.fontSize].join(' | '),
  };
})"""


@dataclass
class Finger:
    """One finger on the phone's glass, through the DevTools protocol."""

    page: Any
    cdp: Any

    def point(self, locator: Any) -> dict[str, float]:
        box = shown_box(self.page, locator)
        assert box is not None, f"{locator} is not on the screen"
        return {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}

    def down(self, locator: Any) -> None:
        point = self.point(locator)
        self.cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})

    def up(self) -> None:
        self.cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    def press(self, locator: Any, ms: int) -> None:
        self.down(locator)
        self.page.wait_for_timeout(ms)
        self.up()


@dataclass
class TouchGame:
    """The game on the phone, and the events its server holds."""

    page: Any
    finger: Finger
    game: Game
    language: str
    mode: str
    nicks: dict[int, str]
    live_server: Any
    screen: HostScreen = field(init=False)
    shots: int = 0
    gestures: int = 0
    problems: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.screen = HostScreen(self.page)

    # --- what the server holds --------------------------------------------------------

    def rows(self) -> list[dict[str, Any]]:
        return [
            dict(row)
            for row in GameEvent.objects.filter(game_id=self.game.pk)
            .order_by("seq")
            .values("seq", "type", "payload")
        ]

    def gesture(
        self,
        action: Callable[[], None],
        *expected: dict[str, Any],
        confirm: bool = False,
        settle: int = SETTLE_MS,
    ) -> None:
        """Make one gesture and assert the events it records: exactly `expected` (each
        expected field as recorded), in order, and nothing more."""
        before = len(self.rows())
        action()
        self.gestures += 1
        if confirm:
            dialog = self.page.locator("#host-confirm")
            dialog.wait_for(state="visible")
            self.page.wait_for_timeout(settle)
            # The gesture's own click (it may land on «Да») answered nothing.
            assert dialog.is_visible(), "the press's click answered «Записать?»"
            assert len(self.rows()) == before, "recorded before the host answered"
            self.controls()
            self.finger.press(dialog.locator("button[value=yes]"), TAP_MS)
        target = before + len(expected)
        if expected:
            self.page.wait_for_function(
                "(seq) => Number(document.documentElement.dataset.seq) >= seq", arg=target
            )
        self.page.wait_for_timeout(settle)
        # Nothing waits, nor an answer (a refusal is said when the server's answer comes).
        self.page.wait_for_function(
            "() => window.hostScreen.queued() === 0 && window.hostScreen.asking() === 0"
        )
        rows = self.rows()
        made = [f"{row['type']} {row['payload']}" for row in rows[before:]]
        assert len(rows) == target, f"gesture {self.gestures}: expected {expected}, recorded {made}"
        for row, want in zip(rows[before:], expected, strict=True):
            got = {"type": row["type"], **row["payload"]}
            assert all(got.get(key) == value for key, value in want.items()), (
                f"gesture {self.gestures}: expected {want}, recorded {got}"
            )
        self.controls()
        self.secrecy()

    def tap(self, locator: Any) -> None:
        self.finger.press(locator, TAP_MS)

    def tap_during_redraw(self, locator: Any) -> None:
        """A tap while the screen is redrawn: the node under the finger is replaced."""
        self.finger.down(locator)
        self.page.evaluate("() => window.hostScreen.redraw()")
        self.page.wait_for_timeout(TAP_MS)
        self.finger.up()

    # --- looking ------------------------------------------------------------------------

    def table(self) -> dict[str, Any]:
        return self.screen.table()

    def seat(self, number: int) -> Any:
        return self.screen.seat(number)

    def act(self, name: str) -> Any:
        return self.screen.act(name)

    def prompt(self) -> str:
        return str(self.page.locator("#host-prompt").inner_text())

    def marks(self, seat: int) -> str:
        return str(self.seat(seat).locator(".marks").inner_text())

    def controls(self) -> None:
        """Every control the host needs now is inside the 360×640 viewport, 48 px or
        more, and nothing scrolls."""
        wrong = self.page.evaluate(CONTROLS_JS, TARGETS)
        assert wrong == [], f"gesture {self.gestures}: {wrong}"
        self.screen.assert_no_scroll()

    def secrecy(self, *, cards: bool = False) -> None:
        """Nothing on the seats differs by role unless the cards are shown; the checks'
        answers are in the prompt only then."""
        over = self.table()["over"]
        seats = self.page.evaluate(SEATS_JS)
        assert [seat["seat"] for seat in seats] == list(range(1, 16)), "the seats' order"
        if cards or over:
            assert all(seat["roles"] == 1 for seat in seats), "every card shows"
            return
        assert all(seat["roles"] == 0 for seat in seats), "a card shows without 👁"
        assert not any("card-" in seat["classes"] for seat in seats), "a team's class without 👁"
        looks: dict[str, set[str]] = {}
        for seat in seats:
            looks.setdefault(seat["classes"], set()).add(seat["look"])
        assert all(len(found) == 1 for found in looks.values()), f"seats differ by role: {looks}"
        assert not re.search(r"\d+ → \d+", self.prompt()), "a check's answer without 👁"

    def with_cards(self, look: Callable[[], None]) -> None:
        """Hold 👁 (a finger stays on it), look, let go."""
        self.finger.down(self.page.locator("#host-eye"))
        self.page.wait_for_selector("#host.show-cards")
        self.secrecy(cards=True)
        look()
        self.finger.up()
        self.page.wait_for_selector("#host:not(.show-cards)")
        self.secrecy()

    def shot(self, name: str, *, axe: bool = False) -> None:
        self.shots += 1
        self.controls()
        self.page.screenshot(
            path=SHOTS / f"{self.language}-{self.mode}-{self.shots:02d}-{name}.png"
        )
        for text in untranslated(self.page, self.language, list(self.nicks.values())):
            self.problems.append(f"{name}: untranslated {text!r}")
        if axe:
            found = axe_violations(self.page, self.live_server)
            self.problems += [f"{name}: axe {each}" for each in found]

    # --- the game's steps ---------------------------------------------------------------

    def speaker(self) -> tuple[str, int] | None:
        timer = self.table()["timer"]
        return (timer["kind"], timer["seat"]) if timer else None

    def next_speech(self, *, during_redraw: bool = False) -> None:
        kind, seat = self.speaker() or ("", 0)
        assert kind in ("speech", "defence"), kind
        tap = self.tap_during_redraw if during_redraw else self.tap
        self.gesture(lambda: tap(self.act("next")), {"type": "speech", "seat": seat})

    def speeches(self, hook: Callable[[int], None] | None = None) -> None:
        """The round's or the defence's speeches, each as the table says, with `hook`
        (the host's taps during a speech) before «Дальше»."""
        while (now := self.speaker()) and now[0] in ("speech", "defence"):
            if hook is not None:
                hook(now[1])
            if self.speaker() == now:
                self.next_speech()

    def last_words(self) -> None:
        while (now := self.speaker()) and now[0] == "last_word":
            expected = {"type": "last_word", "seat": now[1]}
            self.gesture(lambda: self.tap(self.act("last-word")), expected)

    def start_round(self) -> None:
        if self.act("round").count():
            self.gesture(lambda: self.tap(self.act("round")))

    def hold_foul(self, seat: int, ms: int, *, confirm: bool = False) -> None:
        fouls = self.table()["seats"][seat - 1]["fouls"]
        self.gesture(
            lambda: self.finger.press(self.seat(seat), ms),
            {"type": "foul", "seat": seat},
            confirm=confirm,
        )
        assert self.table()["seats"][seat - 1]["fouls"] == fouls + 1

    def chip(self, target: Any) -> Any:
        return self.page.locator(f'#host-prompt .host-chip[data-target="{target}"]')

    def choose(self, target: Any) -> None:
        if self.chip(target).get_attribute("aria-pressed") != "true":
            self.gesture(lambda: self.tap(self.chip(target)))
        assert self.chip(target).get_attribute("aria-pressed") == "true"

    def vote(self, plan: dict[Any, int], *, confirm: bool = False, rest: Any = None) -> None:
        """One show of hands as the plan says (candidate or "for" → hands), entered in this
        game's mode, and what the server then holds: one event, the count as planned."""
        vote = self.table()["vote"]
        kind = vote["type"]
        self.controls()
        if self.mode == "counts":
            if not self.screen.counting():
                self.gesture(lambda: self.tap(self.act("mode")))  # remembered from now on
            assert self.screen.counting()
            targets = list(plan)
            for n, target in enumerate(targets):
                self.choose(target)
                key = self.page.locator(f'#host-prompt .host-keypad [data-count="{plan[target]}"]')
                last = n == len(targets) - 1 and len(targets) == len(vote["among"] or ["for"])
                # The last number records the vote by itself.
                expected = [{"type": kind}] if last else []
                self.gesture(functools.partial(self.tap, key), *expected, confirm=confirm and last)
        else:
            assert not self.screen.counting(), "the tapped hands are the default"
            voters = list(vote["voters"])
            for target, count in plan.items():
                if target == rest:
                    continue
                self.choose(target)
                for _ in range(count):
                    voter = voters.pop(0)
                    self.gesture(functools.partial(self.tap, self.seat(voter)), settle=120)
                    hand = f"✋{'' if target == 'for' else target}"
                    assert hand in self.marks(voter), self.marks(voter)
            if rest is not None:
                self.choose(rest)
                self.gesture(lambda: self.tap(self.act("rest")), settle=120)
            self.gesture(lambda: self.tap(self.act("record")), {"type": kind}, confirm=confirm)
        tally = self.table()["tally"]
        if tally is None:  # the vote ended the game: the table shows the end, not the day
            assert self.table()["over"]
            return
        if "for" in plan:
            assert tally["for"] == plan["for"], tally
        else:
            assert tally["counts"] == {str(seat): count for seat, count in plan.items()}, tally
        if not self.table()["over"]:
            shown = self.page.locator("#host-prompt .host-tally")
            if shown.count():  # shown until the next vote opens
                text = shown.inner_text()
                counted = [f"{seat}: {count}" for seat, count in plan.items() if seat != "for"]
                assert all(each in text for each in counted), text

    def bonus(self, seat: int, points: str, reason: str) -> None:
        """Extra points (or a penalty) from ☰: the dialog in view, its buttons 48 px, one
        event when given."""
        self.gesture(lambda: self.tap(self.page.locator("#host summary")))
        self.gesture(lambda: self.tap(self.page.locator("#host-bonus-open")))
        dialog = self.page.locator("#host-bonus")
        dialog.wait_for(state="visible")
        dialog.locator('select[name="seat"]').select_option(str(seat))
        dialog.locator('select[name="points"]').select_option(points)
        dialog.locator('input[name="reason"]').fill(reason)
        self.controls()
        self.screen.assert_inside(dialog.locator("article"))
        self.shot("bonus-dialog", axe=True)
        self.gesture(
            lambda: self.tap(dialog.locator('button[value="give"]')),
            {"type": "bonus", "seat": seat, "points": float(points), "reason": reason},
        )
        assert not dialog.is_visible()
        shown = {"seat": seat, "points": float(points), "reason": reason}
        assert shown in self.table()["bonuses"]

    def switch_modes(self) -> None:
        """The remembered mode switches back and forth from the bar, recording nothing."""
        counting = self.screen.counting()
        self.gesture(lambda: self.tap(self.act("mode")))
        assert self.screen.counting() is not counting
        self.controls()
        self.gesture(lambda: self.tap(self.act("mode")))
        assert self.screen.counting() is counting


def play(g: TouchGame) -> None:
    """Day 1: four nominees, the first-day question, four candidates' hands, two runoffs
    and «выгнать обоих?» (both mafia leave); night 1 with a long press at the mafia's turn,
    a miss, a pass and the maniac's shot at the boss; day 2: the third foul by a long
    press, and «выгнать обоих?» over the maniac and the instigator ends it: the town wins."""
    g.shot("setup", axe=True)
    g.gesture(lambda: g.tap(g.act("day")), {"type": "day", "n": 1})
    g.shot("day-1-free-talk")
    g.start_round()

    def day_one(speaker: int) -> None:
        if speaker == 1:
            g.gesture(lambda: g.tap(g.seat(5)), {"type": "nominate", "by": 1, "target": 5})
            g.hold_foul(8, SHORT_HOLD_MS)
        elif speaker == 2:
            # The foul's answer redraws the seats while the finger is still down.
            g.hold_foul(11, LONG_HOLD_MS)
            g.gesture(
                lambda: g.tap_during_redraw(g.seat(10)),
                {"type": "nominate", "by": 2, "target": 10},
            )
        elif speaker == 3:
            g.gesture(lambda: g.tap(g.seat(4)), {"type": "nominate", "by": 3, "target": 4})
            assert "→4" in g.marks(3), g.marks(3)
        elif speaker == 4:
            g.gesture(lambda: g.tap(g.seat(9)), {"type": "nominate", "by": 4, "target": 9})
            g.shot("day-1-speech")
            g.next_speech(during_redraw=True)
        elif speaker == 6:
            # «Фол…» for those who cannot long-press: it arms one foul for the next seat.
            g.gesture(lambda: g.tap(g.act("foul")))
            assert g.act("foul").get_attribute("aria-pressed") == "true"
            g.gesture(lambda: g.tap(g.seat(13)), {"type": "foul", "seat": 13})

    g.speeches(day_one)
    # The preliminary vote over four nominees, fifteen voters.
    assert sorted(g.table()["vote"]["among"]) == [4, 5, 9, 10]
    g.shot("day-1-votes", axe=True)
    g.vote({5: 5, 10: 3, 4: 3, 9: 3})
    if g.mode == "counts":
        g.shot("day-1-keypad-recorded")

    extended: list[int] = []

    def defence(speaker: int) -> None:
        if extended:
            return
        clock = g.page.locator("#host-prompt .host-clock")
        key, seconds = clock.get_attribute("data-key"), clock.get_attribute("data-seconds")
        g.gesture(lambda: g.tap(g.act("extension")), {"type": "extension", "seat": speaker})
        # «Под фол» lengthens this defence by 30 s: the same clock, longer.
        assert clock.get_attribute("data-key") == key
        assert int(clock.get_attribute("data-seconds") or 0) == int(seconds or 0) + 30
        g.shot("day-1-defence-under-a-foul")
        extended.append(speaker)

    g.speeches(defence)
    assert extended, "no defence speech"
    question = g.table()["vote"]
    assert question["type"] == "first_day_expel" and question["about"] == [4, 5, 9, 10]
    assert all(g.nicks[seat] in g.prompt() for seat in question["about"]), g.prompt()
    g.shot("day-1-question")
    g.vote({"for": 9})
    g.speeches()
    # Four candidates' hands, fifteen voters: the most the rules allow.
    assert g.table()["vote"]["among"] == [4, 5, 9, 10]
    g.shot("day-1-four-candidates", axe=True)
    g.vote({5: 5, 10: 5, 4: 3, 9: 2})  # 9 drops out
    g.speeches()
    runoff = g.table()["vote"]
    assert runoff["round"] == 2 and runoff["dropped"] == [9], runoff
    assert g.nicks[9] in g.prompt() and "2" in g.prompt()
    g.shot("day-1-runoff")
    g.switch_modes()
    g.vote({5: 6, 10: 6, 4: 3}, rest=4 if g.mode == "hands" else None)  # 4 drops out
    g.speeches()
    g.vote({5: 7, 10: 7})  # a tie of two: «выгнать обоих?»
    both = g.table()["vote"]
    assert both["type"] == "expel_both" and both["about"] == [5, 10]
    assert g.nicks[5] in g.prompt() and g.nicks[10] in g.prompt(), g.prompt()
    g.shot("day-1-expel-both")
    g.vote({"for": 8}, confirm=True)
    g.last_words()
    g.gesture(lambda: g.tap(g.act("night")), {"type": "night", "n": 1})

    # Night 1: the boss checks 7.
    assert not g.act("morning").count(), "«Утро» before anyone acted"
    g.gesture(lambda: g.tap(g.seat(7)), {"type": "check", "by": 2, "target": 7})
    assert g.seat(7).locator(".slot").count() == 1
    g.shot("night-1-check-hidden")

    def the_answer() -> None:
        assert re.search(r"2 → 7", g.prompt()), g.prompt()
        g.shot("night-1-check-under-the-eye")

    g.with_cards(the_answer)
    # The mafia's turn: a long press is a foul, not the mafia's shot, and the turn stays.
    g.hold_foul(11, LONG_HOLD_MS)
    assert g.table()["night"]["slot"] == "kill:mafia"
    assert not g.act("morning").count()
    g.gesture(lambda: g.tap(g.act("miss")), {"type": "kill", "by": "mafia", "target": None})
    g.gesture(lambda: g.tap(g.seat(2)), {"type": "kill", "by": "maniac", "target": 2})
    g.gesture(lambda: g.tap(g.act("nobody")), {"type": "action", "by": 9, "target": None})
    assert not g.act("morning").count()
    g.gesture(lambda: g.tap(g.seat(4)), {"type": "check", "by": 7, "target": 4})
    g.gesture(lambda: g.tap(g.seat(13)), {"type": "heal", "target": 13})
    assert g.act("morning").count(), "every role has acted: «Утро»"
    g.shot("night-1-done", axe=True)
    # ☰ lists the night's marks.
    g.gesture(lambda: g.tap(g.page.locator("#host summary")))
    marks = g.page.locator("#host-night-marks")
    assert marks.is_visible()
    assert all(g.nicks[seat] in marks.inner_text() for seat in (2, 4, 7, 13)), marks.inner_text()
    g.shot("night-1-menu")
    g.gesture(lambda: g.tap(g.page.locator("#host summary")))
    g.gesture(lambda: g.tap(g.act("morning")), {"type": "day", "n": 2}, confirm=True)

    # Day 2: the morning names no check's answer unless 👁 is held.
    g.shot("morning-2", axe=True)

    def morning_checks() -> None:
        assert "2 → 7" in g.prompt() and "7 → 4" in g.prompt(), g.prompt()
        g.shot("morning-2-under-the-eye")

    g.with_cards(morning_checks)
    # The boss, shot by the maniac on night 1, names the best move in the last word: a tap
    # per named seat records nothing; «Записать ЛХ» records them once.
    assert g.table()["best_move"] == {"by": [2], "most": 3}
    assert not g.act("last-word").count(), "the last word ends once the best move is recorded"
    for n, seat in enumerate((4, 9, 7), 1):
        g.gesture(functools.partial(g.tap, g.seat(seat)))
        assert f"★{n}" in g.marks(seat), g.marks(seat)
    g.gesture(lambda: g.tap(g.seat(13)))  # a fourth: refused in words, nothing changes
    assert "★" not in g.marks(13)
    line = g.page.locator("#host-prompt .host-best-move").inner_text()
    assert "4, 9, 7" in line and g.nicks[2] in line, line
    g.shot("morning-2-best-move", axe=True)
    named = {"type": "best_move", "by": 2, "targets": [4, 9, 7]}
    g.gesture(lambda: g.tap(g.act("best-move")), named)
    assert g.table()["best_move"] is None and g.act("last-word").count()
    # Extra points (Russian) and a penalty (English), each with its reason, from ☰.
    if g.language == "ru":
        g.bonus(6, "0.3", "сильная речь")
    else:
        g.bonus(6, "-0.2", "shouting")
    g.last_words()
    g.start_round()
    nominated: list[int] = []
    fouled: list[int] = []

    def day_two(speaker: int) -> None:
        for target in (4, 9):
            if target not in nominated and speaker != target:
                g.gesture(
                    functools.partial(g.tap, g.seat(target)),
                    {"type": "nominate", "by": speaker, "target": target},
                )
                nominated.append(target)
                return
        if not fouled and speaker != 11:
            # The third foul: «Записать?» opens under the finger and says why 11 leaves.
            def asks_why() -> None:
                text = g.page.locator("#host-confirm-text").inner_text()
                why = "три фола" if g.language == "ru" else "three fouls"
                assert g.nicks[11] in text and why in text, text

            def press() -> None:
                g.finger.down(g.seat(11))
                g.page.locator("#host-confirm").wait_for(state="visible")
                asks_why()
                g.shot("day-2-third-foul-question", axe=True)
                g.finger.up()

            g.gesture(press, {"type": "foul", "seat": 11}, confirm=True)
            fouled.append(11)

    g.speeches(day_two)
    g.last_words()  # the fouled-out player's last word, after the round
    g.speeches()
    assert sorted(g.table()["vote"]["among"]) == [4, 9]
    g.vote({4: 5, 9: 5})
    g.speeches()
    g.vote({4: 5, 9: 5})  # a tie: «выгнать обоих?»
    g.shot("day-2-expel-both")
    g.vote({"for": 6}, confirm=True)
    table = g.table()
    assert table["over"] and table["winner"] == "red", table
    g.shot("the-end", axe=True)


# Each entry mode once and each language once: the four pairings took 7.7 minutes for what
# two prove (the gestures do not depend on the language, the words do not on the mode).
@pytest.mark.parametrize(("mode", "language"), [("hands", "ru"), ("counts", "en")])
def test_every_gesture_records_exactly_its_event(
    live_server: LiveServer, browser: Browser, mode: str, language: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for old in SHOTS.glob(f"{language}-{mode}-*.png"):
        old.unlink(missing_ok=True)  # another worker may have taken it first
    host = make_host(nickname="Ведущая")
    evening, players = evening_with_players(15)
    game = start_game(host, evening, players, ROLES)
    nicks = {seat.number: seat.player.nickname for seat in game.seats.select_related("member")}
    context = new_context(browser, live_server, user=host, language=language)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("html[data-host-ready]")
    finger = Finger(page, context.new_cdp_session(page))
    touch = TouchGame(page, finger, game, language, mode, nicks, live_server)
    play(touch)
    assert touch.problems == [], "\n".join(touch.problems)
    # Every answer under 200 was an «are you sure» (428); nothing was refused.
    assert {failed.split()[0] for failed in watch_of(context).failed} <= {"428"}
    expected = "status of 428"
    assert [e for e in watch_of(context).console_errors if expected not in e] == []
    assert watch_of(context).csp_violations(page) == []
    game.refresh_from_db()
    assert game.finished and game.winner == "red"
    context.close()


@pytest.mark.parametrize("nominees", [4, 14])
def test_the_vote_fits_the_phone_in_both_modes_whatever_the_nominees(
    live_server: LiveServer, browser: Browser, nominees: int
) -> None:
    """The preliminary vote over 4 nominees, and over 14 (every seat but one, the most 15
    seats allow): the chips, the keypad 0…15, the seats and the bar inside 360×640 in both
    modes; with counts over 14 the chips fold away and the candidates' seats choose. The
    numbers typed record the vote once, by the keypad alone."""
    host = make_host(nickname="Ведущая")
    evening, players = evening_with_players(15)
    game = start_game(host, evening, players, ROLES)
    events: list[dict[str, Any]] = [{"type": "day", "n": 1}]
    for speaker in range(1, 16):
        if speaker <= nominees:
            events.append({"type": "nominate", "by": speaker, "target": speaker % 15 + 1})
        at = f"2026-12-06T18:{speaker:02d}:00+03:00"
        events.append({"type": "speech", "seat": speaker, "start": at, "end": at, "limit": 30})
    record(game, host, *events)
    nicks = {seat.number: seat.player.nickname for seat in game.seats.select_related("member")}
    context = new_context(browser, live_server, user=host)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("html[data-host-ready]")
    finger = Finger(page, context.new_cdp_session(page))
    g = TouchGame(page, finger, game, "ru", "counts", nicks, live_server)
    among = g.table()["vote"]["among"]
    assert len(among) == nominees
    g.controls()
    page.screenshot(path=SHOTS / f"vote-{nominees}-nominees-hands.png")
    g.gesture(lambda: g.tap(g.act("mode")))
    assert g.screen.counting()
    page.screenshot(path=SHOTS / f"vote-{nominees}-nominees-counts.png")
    problems = axe_violations(page, live_server)
    folded = not g.chip(among[0]).is_visible()
    assert folded == (nominees > 4), "the chips fold only when the seats would not fit"
    # The last candidate first: by its chip, or by its seat once the chips are folded.
    last = among[-1]
    g.gesture(lambda: g.tap(g.seat(last) if folded else g.chip(last)))
    assert "chosen" in (g.seat(last).get_attribute("class") or "")
    plan = dict.fromkeys(among, 0) | {last: 3}

    def key(count: int) -> Locator:
        return page.locator(f'#host-prompt .host-keypad [data-count="{count}"]')

    g.gesture(lambda: g.tap(key(3)))
    assert "=3" in g.marks(last)
    for n, _seat in enumerate(among[:-1]):
        done = n == len(among) - 2
        g.gesture(lambda: g.tap(key(0)), *([{"type": "votes"}] if done else []))
    assert g.table()["tally"]["counts"] == {str(seat): count for seat, count in plan.items()}
    assert problems == [], problems
    context.close()
