"""A host records a whole game on a phone-sized screen in Chromium, from seating to the
winner, through the real pages; screenshots of the main steps are kept as artifacts
(var/test-artifacts/e2e/), and the result is checked against the rules engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.models import Game
from games.queries import game_view
from games.rules import protocol
from games.services import game_protocol
from tests.e2e.conftest import ARTIFACTS, PHONE, logged_in
from tests.games.recording import evening_with_players, make_host

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]


def test_a_host_records_a_full_game_on_a_phone(live_server, browser_page) -> None:
    host = make_host(nickname="Ведущая")
    evening, players = evening_with_players(12)
    context = logged_in(browser_page, live_server, host)
    page = context.new_page()
    shot = iter(range(1, 100))

    def screenshot(name: str) -> None:
        page.screenshot(path=ARTIFACTS / f"{next(shot):02d}-{name}.png", full_page=True)

    # Seating and the line-up: everyone present, the suggested line-up, dealt at random.
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    page.get_by_role("button", name="Новая игра").click()
    screenshot("new-game")
    page.get_by_role("button", name="Дальше: стол").click()
    screenshot("table-dealt")
    page.get_by_role("button", name="Начать игру").click()
    page.wait_for_url("**/games/*/")
    game = Game.objects.get(evening=evening)
    role_at = {seat.number: seat.role for seat in game.seats.all()}
    black = [n for n, role in sorted(role_at.items()) if role in ("boss", "mafia")]
    red = [n for n, role in sorted(role_at.items()) if role not in ("boss", "mafia")]
    screenshot("game-start")
    # No page is wider than the phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    def seq() -> int:
        return int(page.locator("#board").get_attribute("data-seq"))

    def tap(locator) -> None:
        before = seq()
        locator.click()
        page.wait_for_selector(f'#board[data-seq="{before + 1}"]')

    def mode(label: str) -> None:
        page.get_by_role("button", name=label).first.click()
        page.wait_for_selector(f'.modes [aria-current="true"]:has-text("{label}")')

    def seat(number: int):
        return page.locator(f'button.seat[value="{number}"]')

    tap(page.get_by_role("button", name="Начать день 1"))
    # The speech timer records the first speech; a foul and its undo.
    page.get_by_role("button", name="Начать речь").click()
    tap(page.get_by_role("button", name="Речь окончена"))
    mode("Фол")
    tap(seat(red[0]))
    assert "●" in seat(red[0]).inner_text()
    tap(page.get_by_role("button", name="Отменить последнее"))
    assert "●" not in seat(red[0]).inner_text()
    screenshot("day-1")
    tap(page.get_by_role("button", name="Наступает ночь"))

    victims = iter(red[1:])
    for day in (2, 3, 4):
        # The night: the mafia shoot a red player; the morning shows the result.
        mode("Выстрел: Мафия")
        tap(seat(next(victims)))
        if day == 2:
            screenshot("night-1")
        tap(page.get_by_role("button", name="Утро: следующий день"))
        # The day: a red player nominates a black one; the table votes him out.
        target = next(n for n in black if not seat(n).is_disabled())
        mode("Выставить")
        page.locator('select[name="by"]').select_option(str(red[-1]))
        tap(seat(target))
        page.locator(f'input[name="count_{target}"]').fill("6")
        if day == 2:
            screenshot("vote")
        tap(page.get_by_role("button", name="Записать"))
        if day < 4:
            tap(page.get_by_role("button", name="Наступает ночь"))

    screenshot("result")
    assert "красные" in page.locator(".result").inner_text()
    result_table = page.locator("table.table-seats").inner_text()
    for player in players:
        assert player.nickname in result_table

    # The game as recorded is what the engine makes of its protocol.
    view = game_view(game.pk)
    assert view.game.status == "finished" and view.game.winner == "red"
    document = game_protocol(view.game, view.seats, view.log)
    replayed, failure = protocol.replay(protocol.parse(document))
    assert failure is None
    assert replayed.summary() == view.state.summary()
    assert [e["type"] for e in document["events"]][:2] == ["day", "speech"]
    assert len(list(ARTIFACTS.glob("*.png"))) == 7


@pytest.mark.usefixtures("recording_storage")
def test_a_recording_uploads_in_chunks_and_survives_a_dropped_chunk(
    live_server, browser_page, tmp_path
) -> None:
    import numpy as np

    from games.recordings.models import Recording, RecordingStatus
    from tests.games.recording import TOWN_WINS, record, start_game
    from tests.sound import script, write

    host = make_host(nickname="Ведущий звука")
    evening, players = evening_with_players(12)
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS)
    sound = script(np.random.default_rng(1), [("speech", 40), ("quiet", 40), ("speech", 30)])
    path = write(tmp_path / "game.wav", sound, "wav")  # 3.5 MB: two chunks
    context = logged_in(browser_page, live_server, host)
    page = context.new_page()
    chunks: list[str] = []

    def drop_the_second_chunk_once(route) -> None:
        chunks.append(route.request.headers.get("upload-offset", ""))
        if len(chunks) == 2:
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route("**/api/v1/recordings/*/chunk", drop_the_second_chunk_once)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.set_input_files("#recording-upload input[type=file]", str(path))
    page.click("#recording-upload button[type=submit]")
    page.wait_for_selector("#recording audio", timeout=30_000)
    page.screenshot(path=ARTIFACTS / "recording-uploaded.png", full_page=True)
    recording = Recording.objects.get(game=game)
    assert recording.status in (RecordingStatus.QUEUED, RecordingStatus.ANALYSED)
    assert Path(recording.file.path).read_bytes() == path.read_bytes()
    # The dropped chunk was sent again from the offset the server had.
    assert chunks[1] == chunks[2] and chunks[0] == "0"
