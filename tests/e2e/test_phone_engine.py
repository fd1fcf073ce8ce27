"""The phone's engine under Pyodide in Chromium judges the round's order as the server does:
every case of tests/games/speech_order.py through the same `offline_tap`, in the worker the
host's screen starts (static/games/engine-worker.js), with the answers compared to the
server's own (tests/games/rules/test_speech_order.py runs them there)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser
from pytest_django.live_server_helper import LiveServer

from games.rules.table import offline_tap
from tests.e2e.conftest import new_context
from tests.e2e.test_host_screen import day_one
from tests.games.speech_order import CASES, SEATS

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]

# A worker of its own, from the page's own addresses: each case as the screen asks it.
RUN_CASES = """async (cases) => {
  const page = JSON.parse(document.getElementById("host-data").textContent);
  const worker = new Worker(page.workerUrl, { type: "module" });
  const answers = new Map();
  let next = 0;
  const ready = new Promise((resolve, reject) => {
    worker.addEventListener("message", ({ data }) => {
      if (data.ready) resolve(data.figures);
      else if (data.failed) reject(new Error(data.failed));
      else answers.get(data.id)(data.result);
    });
  });
  worker.postMessage({ init: true, pyodideUrl: page.pyodideUrl, engineUrl: page.engineUrl });
  await ready;
  const call = (args) => new Promise((resolve) => {
    next += 1;
    answers.set(next, resolve);
    worker.postMessage({ id: next, fn: "offline_tap", args });
  });
  const results = [];
  for (const args of cases) results.push(await call(args));
  worker.terminate();
  return results;
}"""


def test_the_phones_engine_judges_the_round_as_the_server_does(
    live_server: LiveServer, browser: Browser
) -> None:
    host, game = day_one()
    context = new_context(browser, live_server, user=host)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("html[data-host-ready]")
    cases = [[SEATS, case.options, [], case.log, case.tap] for case in CASES]
    page.set_default_timeout(120_000)  # Pyodide's first load on these shared cores
    on_the_phone = page.evaluate(RUN_CASES, cases)
    context.close()
    for case, phone in zip(CASES, on_the_phone, strict=True):
        server = offline_tap(SEATS, case.options, [], case.log, case.tap)
        # The same JSON, whichever engine judged it (the enums are their values in JSON).
        assert phone == json.loads(json.dumps(server)), case.name
        if case.refused is not None:
            assert phone["refusal"]["code"] == case.refused, case.name
        else:
            assert phone["ok"] and phone["table"]["speaker"] == case.speaks_next, case.name
