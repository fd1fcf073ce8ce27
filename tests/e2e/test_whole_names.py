"""Nicknames whole on the organiser's phone (360×640, both languages): the walk found the
host's «Новая игра» breaking them in the middle of a word («Вор/он», «Кот Бег/емо/т»,
«Оле/г (гос/ть)», 91a.png) with a «✓ на месте» tag taking half of each chip, and the
line-up breaking «Северянк/а» (14-lineup-names-wrap.png). A nickname breaks only at a space
and shows whole; the mark of who came at the door is a small one. Screenshots in
var/test-artifacts/e2e/."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import Browser
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from club import lineup
from club.models import Registration
from tests.e2e.conftest import ARTIFACTS, PHONE, new_context
from tests.games.recording import evening_with_players, make_host

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]

# The nicknames (of the elements `selector` finds) that a line breaks inside a word: a
# letter, not after a space, on another line than the letter before it.
BROKEN_WORDS = """(selector) => [...document.querySelectorAll(selector)].flatMap(name => {
  const text = name.firstChild;
  const broken = [];
  let top = null;
  for (let i = 0; i < text.length; i++) {
    if (/\\s/.test(text.data[i])) { top = null; continue; }
    const range = document.createRange();
    range.setStart(text, i);
    range.setEnd(text, i + 1);
    const at = range.getBoundingClientRect().top;
    if (top !== null && Math.abs(at - top) > 2) broken.push(text.data);
    top = at;
  }
  return broken;
})"""
# The nicknames that do not show whole (cut off at their box's edge, or past it).
CUT_OFF = """(selector) => [...document.querySelectorAll(selector)].filter(name => {
  const box = name.getBoundingClientRect(), row = name.parentElement.getBoundingClientRect();
  return name.scrollWidth > name.clientWidth + 1 || box.right > row.right + 1;
}).map(name => name.textContent)"""
# The widest «came» mark of the seating's chips, as a share of its chip.
WIDEST_MARK = """() => Math.max(0, ...[
  ...document.querySelectorAll('.seating-players .seating-present')
].map(mark => {
  const chip = mark.closest('label');
  return mark.getBoundingClientRect().width / chip.getBoundingClientRect().width;
}))"""
NICKNAMES = [
    "Kapitan", "Jazz", "Ворон", "Барон", "Шериф", "Мотылёк", "Кот Бегемот", "Северянка",
    "Доктор Ватсон", "Профессор", "Маэстро", "Достопримечательность",
    "Очень длинное имя игрока клуба",
]  # fmt: skip


def evening_of_nicknames(host: User) -> int:
    """An evening an hour away: the walk's nicknames and a guest, all checked in."""
    evening, players = evening_with_players(len(NICKNAMES))
    for player, nickname in zip(players, NICKNAMES, strict=True):
        User.objects.filter(pk=player.pk).update(nickname=nickname)
    lineup.lineup_add_guest(evening_id=evening.pk, name="Олег", of_age=True, actor=host)
    Registration.objects.filter(evening=evening).update(checked_in_at=timezone.now())
    return evening.pk


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_seating_shows_whole_nicknames_and_a_small_came_mark(
    live_server: LiveServer, browser: Browser, language: str
) -> None:
    host = make_host(nickname="Ведущая")
    evening_id = evening_of_nicknames(host)
    context = new_context(browser, live_server, user=host, language=language)
    page = context.new_page()
    page.goto(f"{live_server.url}/evenings/{evening_id}/games/new/")
    page.screenshot(path=ARTIFACTS / f"seating-nicknames-{language}.png", full_page=True)
    assert page.evaluate(BROKEN_WORDS, ".seating-nick") == []
    assert page.evaluate(CUT_OFF, ".seating-nick") == []
    assert 0 < page.evaluate(WIDEST_MARK) < 0.2
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_line_up_shows_whole_nicknames(
    live_server: LiveServer, browser: Browser, language: str
) -> None:
    host = make_host(nickname="Ведущая")
    evening_id = evening_of_nicknames(host)
    Registration.objects.filter(evening_id=evening_id).update(checked_in_at=None)
    context = new_context(browser, live_server, user=host, language=language)
    page = context.new_page()
    page.goto(f"{live_server.url}/evenings/{evening_id}/lineup/")
    page.screenshot(path=ARTIFACTS / f"lineup-nicknames-{language}.png", full_page=True)
    assert page.evaluate(BROKEN_WORDS, ".lineup-name") == []
    assert page.evaluate(CUT_OFF, ".lineup-name") == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()
