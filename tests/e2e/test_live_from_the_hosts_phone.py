"""A host's taps on the phone reach the spectators' page (#40's proof): the host's screen at
360×640 with real touch (DevTools touch events, as tests/e2e/test_host_touch.py taps: a
tap, a long press for a foul), and two spectators, a phone at 360×640 in Russian and a TV at
1920×1080 in English, each in a browser context of its own.

Every state a spectator's page shows is recorded as it is drawn (a MutationObserver on the
page), and compared with the host's own table after each tap (the phone's engine draws it
from the same rules the snapshot is made by):

- online, each tap shows on both spectators' pages within 2 s, in the order tapped, and
  every tap's state is seen;
- the host's phone offline for five taps (nominations, two fouls, a speech): the
  spectators' pages do not move; back online, the phone sends its queue and the pages show
  the last of them within 2 s of the return, having passed only through the taps' own
  states, in order (a poll a second may skip some of a burst, never reorder them);
- the spectator's own connection lost: the page says so and keeps the table while the host
  goes on; back online, it catches up within 2 s and the notice goes.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize
from pytest_django.live_server_helper import LiveServer

from games import live as live_table
from games.models import Spectators
from tests.e2e.conftest import ARTIFACTS, PHONE, new_context, polls_answered, watch_of
from tests.e2e.host_driver import LONG_PRESS_MS, HostScreen
from tests.e2e.test_host_screen import day_one
from tests.e2e.test_host_touch import Finger

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]

TV: ViewportSize = {"width": 1920, "height": 1080}
WITHIN_S = 2.0  # docs/live.md: the page polls every second
TAP_MS, FOUL_MS = 60, 900  # a tap; a long press (the host screen takes 700 ms as a foul)
SHOTS = ARTIFACTS / "live-from-the-phone"

# What a spectator's page shows, in its own words: the phase, the clock's label (not its
# seconds, which tick), the marked seats and the fouls; and whether it says it is offline.
STATE_JS = """() => {
  const live = document.getElementById('live');
  const seats = [...live.querySelectorAll('[data-live=seats] li')];
  const marked = (mark) => seats.filter((seat) => seat.classList.contains(mark))
    .map((seat) => Number(seat.dataset.seat));
  const fouls = {};
  for (const seat of seats) {
    const count = (seat.querySelector('.marks').textContent.match(/●/g) || []).length;
    if (count) fouls[seat.dataset.seat] = count;
  }
  const who = live.querySelector('[data-live=clock] .who');
  return {
    phase: live.querySelector('[data-live=phase]').textContent,
    clock: who ? who.textContent.replace(/\\u00a0/g, ' ') : '',
    speaking: marked('speaking'),
    nominated: marked('nominated'),
    out: marked('out'),
    fouls,
    offline: !live.querySelector('[data-live=offline]').hidden,
  };
}"""
# Records every state the page draws, with the wall clock's time (the test's clock too).
RECORD_STATES = (
    """
window.liveStates = [];
document.addEventListener('DOMContentLoaded', () => {
  const state = """
    + STATE_JS
    + """;
  const note = () => {
    const now = state();
    const last = window.liveStates.at(-1);
    if (!last || JSON.stringify(last.state) !== JSON.stringify(now))
      window.liveStates.push({at: Date.now() / 1000, state: now});
  };
  note();
  new MutationObserver(note).observe(document.getElementById('live'),
    {subtree: true, childList: true, characterData: true, attributes: true});
});
"""
)
WORDS = {
    "ru": {
        "day": "День {n}",
        "night": "Ночь {n}",
        "speech": "Говорит: место {seat}",
        "defence": "Оправдательная речь: место {seat}",
        "last_word": "Последнее слово: место {seat}",
    },
    "en": {
        "day": "Day {n}",
        "night": "Night {n}",
        "speech": "Speaking: seat {seat}",
        "defence": "Defence: seat {seat}",
        "last_word": "Last word: seat {seat}",
    },
}

type State = dict[str, Any]


def shown_by_the_host(table: dict[str, Any], language: str) -> State:
    """What the spectators' page must show for the host's table (games/live.py's snapshot
    through static/games/live.js): the day's speaker and marks, every seat's fouls."""
    words = WORDS[language]
    day = table["phase"] == "day"
    seats = table["seats"]
    timer = table["timer"] if day else None
    return {
        "phase": words[table["phase"]].format(n=table["n"]),
        "clock": words[timer["kind"]].format(seat=timer["seat"]) if timer else "",
        "speaking": [seat["no"] for seat in seats if day and seat["speaking"]],
        "nominated": [seat["no"] for seat in seats if seat["nominated"]],
        "out": [seat["no"] for seat in seats if not seat["alive"]],
        "fouls": {str(seat["no"]): seat["fouls"] for seat in seats if seat["fouls"]},
    }


class Spectator:
    """A spectator's page, and every state it has drawn."""

    def __init__(self, context: BrowserContext, url: str, language: str) -> None:
        context.add_init_script(RECORD_STATES)
        self.context = context
        self.language = language
        self.page: Page = context.new_page()
        self.page.goto(url, wait_until="networkidle")

    def states(self) -> list[tuple[float, State]]:
        seen: list[dict[str, Any]] = self.page.evaluate("() => window.liveStates")
        return [(each["at"], each["state"]) for each in seen]

    def now(self) -> State:
        return self.states()[-1][1]

    def shown_at(self, wanted: State, *, since: float, timeout: float = 10.0) -> float:
        """When the page first drew `wanted` (the offline notice aside) after `since`;
        waits up to `timeout` to say how late it came rather than only that it did not."""
        deadline = time.time() + timeout
        while True:
            for at, state in self.states():
                if at >= since and without_notice(state) == wanted:
                    return at
            assert time.time() < deadline, f"never shown: {wanted}; shows {self.now()}"
            self.page.wait_for_timeout(50)


def without_notice(state: State) -> State:
    return {key: value for key, value in state.items() if key != "offline"}


def in_order(seen: list[State], expected: list[State]) -> bool:
    """Whether every state seen is one of `expected`, in `expected`'s order (some skipped)."""
    position = 0
    for state in seen:
        while position < len(expected) and expected[position] != state:
            position += 1
        if position == len(expected):
            return False
    return True


class Host:
    """The host's phone: one finger on its glass, and what the table says after each tap."""

    def __init__(self, context: BrowserContext, url: str) -> None:
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("html[data-host-ready]")
        # The phone's engine judges the taps made offline (tests/e2e/test_host_offline.py).
        page.wait_for_function(
            "() => document.documentElement.dataset.engine === 'ready'", timeout=90_000
        )
        self.screen = HostScreen(page, shots=SHOTS)
        self.finger = Finger(page, context.new_cdp_session(page))
        self.offline = False
        self.waiting = 0
        self.touched = self.taken = 0.0

    def press(self, locator: Any, ms: int) -> None:
        """One gesture that records one event: online, until the server has it; offline,
        until the phone's engine has judged it and it waits in the queue. `touched` is when
        the finger met the glass, `taken` when the screen took the gesture: a tap as the
        finger lifts, a foul when the press has lasted long enough (the finger still down)."""
        self.screen.assert_inside(locator)
        before = self.screen.seq()
        self.touched = time.time()
        self.finger.press(locator, ms)
        self.taken = self.touched + min(ms, LONG_PRESS_MS) / 1000
        if self.offline:
            self.waiting += 1
            self.screen.wait_queued(self.waiting)
        else:
            self.screen.page.wait_for_function(
                "(seq) => Number(document.documentElement.dataset.seq) > seq", arg=before
            )

    def nominate(self, seat: int) -> None:
        self.press(self.screen.seat(seat), TAP_MS)

    def foul(self, seat: int) -> None:
        self.press(self.screen.seat(seat), FOUL_MS)

    def next_speech(self) -> None:
        self.press(self.screen.act("next"), TAP_MS)

    def table(self) -> dict[str, Any]:
        return self.screen.table()


def test_a_hosts_taps_on_the_phone_reach_the_spectators_in_order_after_an_offline_stretch(
    browser: Browser, live_server: LiveServer
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    host_user, game = day_one()
    live_table.spectators_set(game_id=game.pk, author=host_user, spectators=Spectators.PUBLIC)
    phone_context = new_context(browser, live_server, user=host_user)
    host = Host(phone_context, f"{live_server.url}/games/{game.pk}/")
    live = f"{live_server.url}/games/{game.pk}/live/"
    on_a_phone = Spectator(new_context(browser, live_server, viewport=PHONE), live, "ru")
    on_a_tv = Spectator(new_context(browser, live_server, viewport=TV, language="en"), live, "en")
    spectators = (on_a_phone, on_a_tv)
    # Each spectator's expected states, from the first: one per tap.
    expected: dict[Spectator, list[State]] = {
        each: [shown_by_the_host(host.table(), each.language)] for each in spectators
    }
    for each in spectators:
        assert without_notice(each.now()) == expected[each][0]

    def tapped(gesture: Any, *args: Any, watching: tuple[Spectator, ...] = spectators) -> None:
        """A gesture online: every watching spectator shows its state within 2 s."""
        gesture(*args)
        for each in spectators:
            expected[each].append(shown_by_the_host(host.table(), each.language))
        for each in watching:
            late = each.shown_at(expected[each][-1], since=host.touched) - host.taken
            assert late <= WITHIN_S, f"{gesture.__name__}{args} shown after {late:.1f} s"

    # Online: day 1, seat 1 speaks and nominates 5, seat 8 is fouled; seat 2 nominates 10.
    host.finger.press(host.screen.act("round"), TAP_MS)  # the clock starts; nothing recorded
    tapped(host.nominate, 5)
    tapped(host.foul, 8)
    tapped(host.next_speech)
    tapped(host.nominate, 10)
    tapped(host.next_speech)
    for each in spectators:
        seen = [without_notice(state) for _at, state in each.states()]
        assert seen == expected[each], "every online tap's state, in order, none skipped"
    on_a_phone.page.screenshot(path=SHOTS / "online-phone-ru.png", full_page=True)

    # Offline: five taps wait on the phone; the spectators see none of them.
    phone_context.set_offline(True)
    host.offline = True
    before_offline = {each: len(each.states()) for each in spectators}
    offline_taps: list[Callable[[], None]] = [
        functools.partial(host.nominate, 4),
        functools.partial(host.foul, 8),
        functools.partial(host.foul, 11),
        host.next_speech,
        functools.partial(host.nominate, 9),
    ]
    for gesture in offline_taps:
        gesture()
        for each in spectators:
            expected[each].append(shown_by_the_host(host.table(), each.language))
    assert host.screen.queued() == len(offline_taps)
    assert game.events.count() == 6, "nothing reached the server while offline"
    host.screen.shot("offline-five-taps-waiting")
    for each in spectators:  # each has asked the server since, and been told nothing new
        polls_answered(each.page, "live.json")
    for each in spectators:
        assert len(each.states()) == before_offline[each], "a spectator moved while offline"

    phone_context.set_offline(False)
    host.offline = False
    returned = time.time()
    host.screen.page.wait_for_function("() => window.hostScreen.queued() === 0", polling=50)
    sent = time.time() - returned  # the phone sends its queue one tap after another
    for each in spectators:
        late = each.shown_at(expected[each][-1], since=returned) - returned
        assert late <= WITHIN_S, (
            f"the offline taps shown {late:.1f} s after the return (the phone sent them"
            f" in {sent:.1f} s)"
        )
        after = [without_notice(state) for _at, state in each.states()[before_offline[each] :]]
        assert in_order(after, expected[each][-len(offline_taps) :]), after
    host.screen.page.wait_for_function("() => window.hostScreen.queued() === 0")
    kinds = list(game.events.order_by("seq").values_list("type", flat=True))
    assert kinds[6:] == ["nominate", "foul", "foul", "speech", "nominate"]
    on_a_tv.page.screenshot(path=SHOTS / "after-the-offline-stretch-tv-en.png")

    # The spectator's phone loses its connection: it says so and keeps the table.
    on_a_phone.context.set_offline(True)
    lost = time.time()
    on_a_phone.page.wait_for_function(
        "() => !document.querySelector('[data-live=offline]').hidden", timeout=5_000
    )
    assert time.time() - lost <= WITHIN_S
    notice = on_a_phone.page.locator("[data-live=offline]")
    assert notice.inner_text() == "Нет связи: стол показан таким, каким был."
    kept = without_notice(on_a_phone.now())
    assert kept == expected[on_a_phone][-1], "the table is kept"
    on_a_phone.page.screenshot(path=SHOTS / "spectator-offline-phone-ru.png", full_page=True)
    # Seat 4 speaks now: a foul on 2, the speech, seat 5 nominates 12; the TV follows.
    tapped(host.foul, 2, watching=(on_a_tv,))
    tapped(host.next_speech, watching=(on_a_tv,))
    tapped(host.nominate, 12, watching=(on_a_tv,))
    assert without_notice(on_a_phone.now()) == kept

    on_a_phone.context.set_offline(False)
    back = time.time()
    late = on_a_phone.shown_at(expected[on_a_phone][-1], since=back) - back
    assert late <= WITHIN_S, f"the spectator caught up {late:.1f} s after its return"
    on_a_phone.page.wait_for_function(
        "() => document.querySelector('[data-live=offline]').hidden", timeout=2_000
    )
    on_a_phone.page.screenshot(path=SHOTS / "spectator-back-phone-ru.png", full_page=True)

    for each in spectators:
        seen = [without_notice(state) for _at, state in each.states()]
        assert in_order(seen, expected[each]), seen
        watch = watch_of(each.context)
        # The spectator's own lost connection fails its polls, and Chromium says so.
        errors = [e for e in watch.console_errors if "ERR_INTERNET_DISCONNECTED" not in e]
        assert (errors, watch.failed, watch.csp_violations(each.page)) == ([], [], [])
        each.context.close()
    phone_context.close()
