"""A host's thumb on the table screen, for the browser tests and bench/host_taps.py.

`HostScreen` taps the way a person does: only what is inside the 360×640 viewport at that
moment (it asserts so before every tap and never scrolls), and it counts every tap.
`play_scripted_game` records one whole 13-player game through it, role by role, so the
test and the benchmark record the same game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the tests and the benches import Playwright when the browser starts
    from playwright.sync_api import ViewportSize

PHONE: ViewportSize = {"width": 360, "height": 640}
LONG_PRESS_MS = 700
RETRIES_AFTER_REDRAW = 10
# Everything the host can touch on the screen (the ☰ menu's items while it is open).
TARGETS = (
    "#host button:not([disabled]), #host a[role=button], #host summary, dialog[open] button,"
    " #host details[open] li a"
)

SMALL_TARGETS_JS = """(selector) => [...document.querySelectorAll(selector)]
  .filter((node) => node.offsetParent !== null || node.closest('dialog[open]'))
  .map((node) => [node.textContent.trim().slice(0, 30), node.getBoundingClientRect()])
  .filter(([, box]) => box.width > 0 && (box.width < 48 || box.height < 48))
  .map(([label, box]) => `${label} ${Math.round(box.width)}x${Math.round(box.height)}`)"""


def shown_box(page: Any, locator: Any) -> Any:
    """Where the element is; None when it is not shown. A redraw (the clock's, the network
    line's) replaces the seats' buttons, and one that falls between finding the element and
    measuring it loses the box: measured again, the new button has it."""
    for _ in range(RETRIES_AFTER_REDRAW):
        box = locator.bounding_box()
        if box is not None:
            return box
        page.wait_for_timeout(50)
    return locator.bounding_box()


@dataclass
class HostScreen:
    page: Any
    shots: Path | None = None
    taps: int = 0
    votes_by: str = "hands"  # "counts": every show of hands by the typed-counts chips
    phases: list[str] = field(default_factory=list)
    check_targets: bool = True

    # --- looking ------------------------------------------------------------------------

    def table(self) -> dict[str, Any]:
        shown: dict[str, Any] = self.page.evaluate("() => window.hostScreen.table()")
        return shown

    def seq(self) -> int:
        return int(self.page.evaluate("() => document.documentElement.dataset.seq"))

    def queued(self) -> int:
        return int(self.page.evaluate("() => window.hostScreen.queued()"))

    def wait_queued(self, count: int) -> None:
        """Offline, a tap is taken when the phone's engine has judged it and it waits."""
        self.page.wait_for_function("(n) => window.hostScreen.queued() === n", arg=count)

    def assert_inside(self, locator: Any) -> None:
        box = shown_box(self.page, locator)
        assert box is not None, f"{locator} is not on the screen"
        assert box["x"] >= 0 and box["y"] >= 0, f"{locator} is above or left of the viewport"
        assert box["x"] + box["width"] <= PHONE["width"] + 0.5, f"{locator} is cut off on the right"
        assert box["y"] + box["height"] <= PHONE["height"] + 0.5, f"{locator} is below the fold"

    def assert_no_scroll(self) -> None:
        scrolled = self.page.evaluate(
            "() => [scrollX, scrollY, document.documentElement.scrollHeight - innerHeight,"
            " document.documentElement.scrollWidth - innerWidth]"
        )
        assert scrolled[:2] == [0, 0], f"the page was scrolled: {scrolled}"
        assert scrolled[2] <= 0 and scrolled[3] <= 0, (
            f"the page is larger than the phone: {scrolled}"
        )

    def small_targets(self) -> list[str]:
        small: list[str] = self.page.evaluate(SMALL_TARGETS_JS, TARGETS)
        return small

    def shot(self, name: str) -> None:
        if self.check_targets:
            assert self.small_targets() == [], f"{name}: targets under 48×48 px"
            self.assert_no_scroll()
        if self.shots is not None:
            self.phases.append(name)
            self.page.screenshot(path=self.shots / f"host-{len(self.phases):02d}-{name}.png")

    # --- touching -------------------------------------------------------------------------

    def seat(self, number: int) -> Any:
        return self.page.locator(f'#host-seats [data-seat="{number}"]')

    def bar(self, label: str) -> Any:
        return self.page.locator("#host-actions button, #host-actions a").filter(has_text=label)

    def act(self, name: str) -> Any:
        """A button of the bar by what it does (`data-act`), in either language."""
        return self.page.locator(f'#host-actions [data-act="{name}"]')

    def counting(self) -> bool:
        """Whether the vote is entered as counts (the keypad is shown)."""
        return bool(self.page.locator("#host-prompt .host-keypad").count())

    def touch(self, locator: Any) -> None:
        self.assert_inside(locator)
        locator.tap()
        self.taps += 1

    def tap(self, locator: Any, *, confirm: bool = False, records: bool = True) -> None:
        """Tap, answer «are you sure» when it is expected, and wait for the server."""
        before = self.seq()
        self.touch(locator)
        if confirm:
            self.confirm()
        if records:
            self.page.wait_for_function(
                "(seq) => Number(document.documentElement.dataset.seq) > seq", arg=before
            )

    def confirm(self) -> None:
        yes = self.page.locator("#host-confirm button[value=yes]")
        yes.wait_for(state="visible")
        self.touch(yes)

    def hold(self, locator: Any, *, confirm: bool = False) -> None:
        """A long press (a foul): pointer down, wait, pointer up; one tap for the count."""
        before = self.seq()
        self.assert_inside(locator)
        locator.dispatch_event("pointerdown")
        self.page.wait_for_timeout(LONG_PRESS_MS)
        locator.dispatch_event("pointerup")
        self.taps += 1
        if confirm:
            self.confirm()
        self.page.wait_for_function(
            "(seq) => Number(document.documentElement.dataset.seq) > seq", arg=before
        )

    def refusal(self) -> str:
        toast = self.page.locator("#host-toast.error")
        toast.wait_for(state="visible")
        self.assert_inside(toast)
        return str(toast.inner_text())


# --- the scripted game ------------------------------------------------------------------

LINEUP_13 = {"boss": 1, "mafia": 2, "commissar": 1, "doctor": 1, "maniac": 1, "civilian": 7}


@dataclass
class Cast:
    """Seats by role, from the dealt table."""

    roles: dict[int, str]

    def all(self, role: str) -> list[int]:
        return sorted(seat for seat, code in self.roles.items() if code == role)

    def one(self, role: str) -> int:
        return self.all(role)[0]


def speeches(
    screen: HostScreen,
    nominations: dict[int, int] | None = None,
    *,
    hook: Callable[[int], None] | None = None,
) -> None:
    """The round: each speaker in turn, tapping the seats they nominate; `nominations`
    maps a target to its nominator-to-be (any speaker other than the target)."""
    pending = list((nominations or {}).items())
    while True:
        table = screen.table()
        timer = table["timer"]
        if screen.bar("Начать круг").count():
            screen.touch(screen.bar("Начать круг"))
            continue
        if timer is None or timer["kind"] not in ("speech", "defence"):
            return
        speaker = timer["seat"]
        if hook is not None:
            hook(speaker)
        for target, _unused in list(pending):
            if target != speaker and timer["kind"] == "speech":
                screen.tap(screen.seat(target))
                pending.remove((target, _unused))
                break
        screen.tap(screen.bar("Дальше"))


def last_words(screen: HostScreen) -> None:
    while (timer := screen.table()["timer"]) and timer["kind"] == "last_word":
        screen.tap(screen.bar("Слово сказано"))


def best_move(screen: HostScreen, named: list[int]) -> None:
    """The best move in its giver's last word: one tap per named seat (each marked ★n,
    nothing recorded yet), then «Записать ЛХ» records them; every control in view."""
    offer = screen.table()["best_move"]
    assert offer is not None, "the best move is not offered"
    before = screen.seq()
    assert screen.act("best-move").is_disabled(), "«Записать ЛХ» before a seat is named"
    for n, seat in enumerate(named, 1):
        screen.touch(screen.seat(seat))
        screen.page.wait_for_function(
            '([seat, mark]) => document.querySelector(`#host-seats [data-seat="${seat}"]`)'
            ".textContent.includes(mark)",
            arg=[seat, f"★{n}"],
        )
    if len(named) == offer["most"]:
        # A fourth seat is refused with a hint that hides no seat (it lies over the bar at
        # the top: at the bottom it covered seats 13–15 while the host named them).
        other = screen.page.locator("#host-seats .host-seat:not([disabled]):not(.best)").first
        screen.touch(other)
        toast = screen.page.locator("#host-toast")
        toast.wait_for(state="visible")
        hint = toast.bounding_box()
        seats = screen.page.locator("#host-seats .host-seat")
        for box in (shown_box(screen.page, seats.nth(i)) for i in range(seats.count())):
            apart = hint["y"] + hint["height"] <= box["y"] or box["y"] + box["height"] <= hint["y"]
            assert apart, f"the hint {hint} covers a seat {box}"
    assert screen.seq() == before, "a named seat recorded something by itself"
    prompt = screen.page.locator("#host-prompt .host-best-move")
    screen.assert_inside(prompt)
    assert ", ".join(map(str, named)) in prompt.inner_text()
    screen.shot("best-move")
    screen.tap(screen.act("best-move"))
    assert screen.table()["best_move_given"] == {"by": offer["by"][0], "targets": named}


def hands(
    screen: HostScreen, plan: dict[Any, int], *, rest_to: Any = None, confirm: bool = False
) -> None:
    """A show of hands by tapping: for each candidate (or "for"), tap that many voters;
    `rest_to` gives everyone not yet tapped to that candidate with one tap."""
    table = screen.table()
    voters = list(table["vote"]["voters"])
    if screen.votes_by == "counts":
        if rest_to is not None:
            plan = {**plan, rest_to: len(voters) - sum(plan.values())}
        counts(screen, plan, confirm=confirm)
        return
    if screen.counting():
        screen.touch(screen.act("mode"))
    for target, count in plan.items():
        chip = screen.page.locator(f'#host-prompt .host-chip[data-target="{target}"]')
        if chip.get_attribute("aria-pressed") != "true":
            screen.touch(chip)
        for _ in range(count):
            screen.touch(screen.seat(voters.pop(0)))
    if rest_to is not None:
        chip = screen.page.locator(f'#host-prompt .host-chip[data-target="{rest_to}"]')
        if chip.get_attribute("aria-pressed") != "true":
            screen.touch(chip)
        screen.touch(screen.bar("Остальные"))
    screen.tap(screen.bar("Записать"), confirm=confirm)


def counts(
    screen: HostScreen, plan: dict[Any, int], *, confirm: bool = False, records: bool = True
) -> None:
    """The typed counts: one keypad, 0 … voters, for the chosen candidate's chip; the keypad
    moves on by itself to the next candidate without a number."""
    if not screen.counting():
        screen.touch(screen.act("mode"))

    def chip(target: Any) -> Any:
        return screen.page.locator(f'#host-prompt .host-chip[data-target="{target}"]')

    # The first full set of numbers records the vote by itself; a correction needs «Записать».
    correcting = any(
        not chip(target).locator(".host-chip-count").inner_text().endswith("?") for target in plan
    )
    before = screen.seq()
    # In the chips' order, as a host types: the keypad moves on by itself.
    shown = screen.page.locator("#host-prompt .host-chip").evaluate_all(
        "(chips) => chips.map((chip) => chip.dataset.target)"
    )
    for target in sorted(plan, key=lambda each: shown.index(str(each))):
        if chip(target).get_attribute("aria-pressed") != "true":
            screen.touch(chip(target))
        key = screen.page.locator(f'#host-prompt .host-keypad [data-count="{plan[target]}"]')
        if key.get_attribute("aria-pressed") != "true":
            screen.touch(key)
    if correcting:
        screen.touch(screen.act("record"))
    if confirm:
        screen.confirm()
    if records:
        screen.page.wait_for_function(
            "(seq) => Number(document.documentElement.dataset.seq) > seq", arg=before
        )


def night(screen: HostScreen, targets: Iterable[int | None]) -> None:
    """Each waking role in the night order taps its target (None: nobody / a miss)."""
    for target in targets:
        if target is None:
            button = (
                screen.bar("Промах")
                if screen.table()["night"]["kind"] == "kill"
                else screen.bar("Никого")
            )
            screen.tap(button)
        else:
            screen.tap(screen.seat(target))
    assert screen.table()["night"] is None, "a role is still waiting to act"


def play_scripted_game(
    screen: HostScreen, cast: Cast, *, checks: Callable[[str], None] = lambda name: None
) -> None:
    """Day 1 → «выгнать обоих?», night 1 with every role, the best move in the last word of
    night 1's victim, day 2 with a three-foul removal and a runoff, night 2, day 3 by typed
    counts, night 3 with a miss and nobody healed, day 4 ends it: the town wins."""
    boss, (m1, m2), com, doc, man = (
        cast.one("boss"),
        cast.all("mafia"),
        cast.one("commissar"),
        cast.one("doctor"),
        cast.one("maniac"),
    )
    c1, c2, c3, c4, c5, c6, _c7 = cast.all("civilian")

    screen.shot("setup")
    screen.tap(screen.bar("Начать день 1"))
    screen.shot("day-1-free-talk")
    speeches(screen, {c1: 0, c2: 0})
    screen.shot("day-1-votes")
    hands(screen, {c1: 6, c2: 6})  # a tie: both defend, then the first-day question
    checks("after-votes")
    speeches(screen)  # the two defence speeches
    hands(screen, {"for": 7})  # «expel anyone at all?» — yes
    speeches(screen)
    hands(screen, {c1: 5, c2: 5})  # a tie of two → «expel both?»
    screen.shot("day-1-expel-both")
    hands(screen, {"for": 7}, confirm=True)
    last_words(screen)
    screen.tap(screen.bar("Наступает ночь"))

    screen.shot("night-1")
    night(screen, [com, c3, c4, m1, c3])  # boss checks, mafia shoot, maniac, commissar, doctor
    screen.tap(screen.bar("Утро"), confirm=True)  # the maniac's shot lands: c4 leaves
    screen.shot("morning-2")
    # c4, shot on night 1, names the best move in the last word: two black of three.
    best_move(screen, [m1, c5, m2])
    last_words(screen)

    fouled: list[int] = []

    def foul_c5(speaker: int) -> None:
        if not fouled and speaker != c5:
            for n in range(3):
                screen.hold(screen.seat(c5), confirm=n == 2)
            fouled.append(c5)

    speeches(screen, {m1: 0, c6: 0, man: 0}, hook=foul_c5)
    last_words(screen)  # the fouled-out player's last word
    speeches(screen)
    screen.shot("day-2-votes")
    hands(screen, {m1: 3, c6: 3, man: 2})  # three candidates
    speeches(screen)
    hands(screen, {m1: 4, c6: 3, man: 1})  # the runoff: the maniac drops out
    speeches(screen)
    screen.shot("day-2-runoff")
    hands(screen, {m1: 5}, rest_to=c6, confirm=True)
    last_words(screen)
    screen.tap(screen.bar("Наступает ночь"))

    night(screen, [doc, com, boss, man, c6])  # the maniac shoots the boss
    screen.shot("night-2")
    screen.tap(screen.bar("Утро"), confirm=True)
    last_words(screen)
    speeches(screen, {m2: 0, man: 0})
    # A refusal in sight: more votes than living players, typed as counts.
    alive = screen.table()["alive"]
    counts(screen, {m2: alive, man: alive}, records=False)
    message = screen.refusal()
    assert "больше, чем живых" in message, message
    screen.shot("day-3-refusal")
    counts(screen, {m2: 4, man: 2})
    speeches(screen)
    hands(screen, {m2: 5, man: 1}, confirm=True)
    last_words(screen)
    screen.tap(screen.bar("Наступает ночь"))

    night(screen, [None, None])  # the maniac misses, the doctor heals nobody
    screen.shot("night-3")
    screen.tap(screen.bar("Утро"))
    speeches(screen, {man: 0})
    hands(screen, {man: 5}, confirm=True)  # the maniac leaves: the town wins
    screen.shot("the-end")
