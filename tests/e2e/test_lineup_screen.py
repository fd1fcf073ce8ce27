"""The organiser's line-up screen on a phone (360×640), what a walk of it found: every action
that asks first really asks (htmx reads `hx-confirm` from the element that sends the
request: the form), and a dismissed question changes nothing. Screenshots in
var/test-artifacts/e2e/lineup-screen/."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Dialog, Page, Request
from pytest_django.live_server_helper import LiveServer

from club.kernel.clubs import Club
from club.models import Evening, LineupAction, LineupChange, Registration
from tests.e2e.conftest import ARTIFACTS, PHONE, new_context, untranslated, watch_of
from tests.e2e.test_host_screen import axe_violations
from tests.factories import make_evening, make_member, sign_up_many
from tests.games.recording import make_host

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]
SHOTS = ARTIFACTS / "lineup-screen"
# Time for a request that should not be sent to be sent and answered, if it were.
QUIET_MS = 700

WORDS = {
    "ru": {
        "move": "В состав",
        "message": "Сообщение вечеру",
        "send": "Отправить",
        "guest": "Добавить гостя",
        "in_reserve": "{name} — в резерве: место {n}.",
    },
    "en": {
        "move": "To a seat",
        "message": "A message to the evening",
        "send": "Send",
        "guest": "Add a guest",
        "in_reserve": "{name} is in the reserve: position {n}.",
    },
}
SECOND_TABLE = "form[action$='/second-table/'] button"


def ready_for_a_second_table() -> Evening:
    """An evening an hour away with one table's seats taken and as many in the reserve."""
    seats = Club.current().min_players
    evening = make_evening(
        capacity=seats,
        starts_at=timezone.now() + timedelta(hours=1),
        opens_at=timezone.now() - timedelta(days=1),
    )
    sign_up_many(evening, 2 * seats)
    return evening


class Questions:
    """The page's confirm() dialogs: each one's message, answered as `accept` says."""

    def __init__(self, page: Page) -> None:
        self.asked: list[str] = []
        self.accept = False
        self.posts: list[str] = []
        page.on("dialog", self.answer)
        page.on("request", self.sent)

    def answer(self, dialog: Dialog) -> None:
        self.asked.append(dialog.message)
        if self.accept:
            dialog.accept()
        else:
            dialog.dismiss()

    def sent(self, request: Request) -> None:
        if request.method == "POST":
            self.posts.append(request.url)


def changes(action: LineupAction) -> int:
    return LineupChange.objects.filter(action=action).count()


@pytest.mark.parametrize("language", ["ru", "en"])
def test_an_action_that_asks_first_asks_and_a_dismissed_question_changes_nothing(
    browser: Browser, live_server: LiveServer, language: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    words = WORDS[language]
    evening = ready_for_a_second_table()
    first_waiting = Registration.objects.reserve().filter(evening=evening).first()
    assert first_waiting is not None
    context = new_context(browser, live_server, user=make_host(), language=language)
    page = context.new_page()
    questions = Questions(page)
    page.goto(f"{live_server.url}/evenings/{evening.pk}/lineup/", wait_until="networkidle")

    def tap(selector: str) -> None:
        button = page.locator(selector).first
        button.scroll_into_view_if_needed()
        button.tap()
        page.wait_for_timeout(QUIET_MS)
        page.wait_for_load_state("networkidle")

    # «В состав» out of the reserve's order: asked; dismissed, nothing is sent.
    move = f"#r{first_waiting.pk} form[action$='/move/'] button"
    tap(move)
    assert len(questions.asked) == 1, "«В состав» did not ask"
    assert questions.posts == [] and changes(LineupAction.MOVED) == 0
    questions.accept = True
    tap(move)
    page.wait_for_selector(f"#r{first_waiting.pk} .notice.ok")
    assert len(questions.asked) == 2 and changes(LineupAction.MOVED) == 1

    # A message to the evening: asked; dismissed, not sent, and the text is still there.
    questions.accept, questions.posts = False, []
    page.locator("summary", has_text=words["message"]).tap()
    page.fill("textarea[name=text]", "Начинаем в 18:30")
    send = f"form[action$='/message/'] button:has-text('{words['send']}')"
    tap(send)
    assert len(questions.asked) == 3, "«Отправить» did not ask"
    assert questions.posts == [] and changes(LineupAction.MESSAGE) == 0
    assert page.input_value("textarea[name=text]") == "Начинаем в 18:30"
    page.screenshot(path=SHOTS / f"{language}-message-dismissed.png")
    questions.accept = True
    tap(send)
    page.wait_for_selector(".lineup-add .notice.ok")
    assert len(questions.asked) == 4 and changes(LineupAction.MESSAGE) == 1

    # The second table: asked; dismissed, the evening keeps one table.
    questions.accept, questions.posts = False, []
    tap(SECOND_TABLE)
    assert len(questions.asked) == 5, "«Открыть второй стол» did not ask"
    assert questions.posts == []
    evening.refresh_from_db()
    assert evening.tables == 1 and changes(LineupAction.SECOND_TABLE) == 0
    page.screenshot(path=SHOTS / f"{language}-second-table-dismissed.png")
    questions.accept = True
    tap(SECOND_TABLE)
    page.wait_for_function("() => !document.querySelector('.lineup-second')")
    evening.refresh_from_db()
    assert evening.tables == 2 and changes(LineupAction.SECOND_TABLE) == 1
    assert watch_of(context).failed == [] and watch_of(context).console_errors == []
    context.close()


def in_sight(page: Page, selector: str) -> str:
    """The text of the element, which must be visible between the sticky header and the
    bottom of the phone's screen."""
    element = page.locator(selector)
    element.wait_for(state="visible")
    page.wait_for_timeout(QUIET_MS)
    box = element.bounding_box()
    header = page.locator(".site-header").bounding_box()
    assert box is not None and header is not None
    top = header["y"] + header["height"] - 0.5
    assert box["y"] >= top and box["y"] + box["height"] <= PHONE["height"], (
        f"{selector} is out of sight: {box}"
    )
    return str(element.inner_text()).strip()


def add_guest(page: Page, name: str, phone: str = "", telegram: str = "") -> None:
    """Fill the guest's form (opened if need be) and tap «Добавить гостя»."""
    form = page.locator("form[action$='/guest/']")
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=phone]").fill(phone)
    form.locator("input[name=telegram]").fill(telegram)
    form.locator("input[name=of_age]").check()
    button = form.locator("button[type=submit]")
    button.scroll_into_view_if_needed()
    button.tap()
    page.wait_for_load_state("networkidle")


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_guest_s_answer_is_said_where_the_organiser_looks_and_two_guests_are_told_apart(
    browser: Browser, live_server: LiveServer, language: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    words = WORDS[language]
    seats = Club.current().min_players
    evening = make_evening(
        capacity=seats,
        starts_at=timezone.now() + timedelta(hours=1),
        opens_at=timezone.now() - timedelta(days=1),
    )
    sign_up_many(evening, seats + 1)
    context = new_context(browser, live_server, user=make_host(), language=language)
    page = context.new_page()
    page.goto(f"{live_server.url}/evenings/{evening.pk}/lineup/", wait_until="networkidle")
    page.locator("summary", has_text=words["guest"]).tap()
    add_guest(page, "Света", phone="+7 900 123-45-67")
    said = in_sight(page, "#guest-said")
    assert said == words["in_reserve"].format(name="Света", n=2), said
    page.screenshot(path=SHOTS / f"{language}-guest-added.png")
    # The same name again: refused, said where the finger is, nothing written.
    add_guest(page, " света ", telegram="@sveta_k")
    assert "Света" in in_sight(page, "#guest-said.error")
    # What was typed is still there, to be corrected rather than typed again.
    form = page.locator("form[action$='/guest/']")
    assert form.locator("input[name=name]").input_value() == " света "
    assert form.locator("input[name=telegram]").input_value() == "@sveta_k"
    assert form.locator("input[name=of_age]").is_checked()
    page.screenshot(path=SHOTS / f"{language}-guest-twice.png")
    add_guest(page, "Света К.", telegram="@sveta_k")
    assert in_sight(page, "#guest-said") == words["in_reserve"].format(name="Света К.", n=3)
    # The two are told apart in their rows: by the phone's last digits and the username.
    rows = page.locator(".lineup-row", has=page.locator(".badge.info"))
    assert rows.count() == 2
    first, second = (str(rows.nth(n).inner_text()) for n in (0, 1))
    assert "4567" in first and "123" not in first and "@sveta_k" in second
    assert watch_of(context).csp_violations(page) == []
    context.close()


# Every control on the screen a thumb hits: links, buttons, summaries, the fields, and the
# label of a checkbox (the box alone is small; its whole label row takes the tap).
TARGETS = """() => [...document.querySelectorAll(
    'main a, main button, main summary, main input:not([type=checkbox]):not([type=hidden]),'
    + ' main textarea, main label:has(input[type=checkbox])')]
  .filter((el) => el.checkVisibility())
  .map((el) => {
    const box = el.getBoundingClientRect();
    const name = (el.innerText || el.name || el.tagName).trim().split('\\n')[0].slice(0, 30);
    return [name, Math.round(box.width), Math.round(box.height)];
  })"""


@pytest.mark.parametrize("language", ["ru", "en"])
def test_every_control_of_the_line_up_is_a_thumb_s_target(
    browser: Browser, live_server: LiveServer, language: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    words = WORDS[language]
    evening = ready_for_a_second_table()
    seated = Registration.objects.confirmed().filter(evening=evening).first()
    waiting = Registration.objects.reserve().filter(evening=evening).first()
    assert seated is not None and waiting is not None
    make_member(nickname="Лиса")
    context = new_context(browser, live_server, user=make_host(), language=language)
    page = context.new_page()
    page.goto(f"{live_server.url}/evenings/{evening.pk}/lineup/", wait_until="networkidle")
    # Everything open at once: both rows' reasons, a member found, both forms.
    for row in (seated, waiting):
        page.locator(f"#r{row.pk} .lineup-remove summary").tap()
    page.fill("#member-search", "Лиса")
    page.wait_for_selector("#found button")
    page.locator("summary", has_text=words["guest"]).tap()
    page.locator("summary", has_text=words["message"]).tap()
    small = [
        f"{name} {width}x{height}"
        for name, width, height in page.evaluate(TARGETS)
        if height < 47.5
    ]
    assert small == [], f"targets under 48 px: {small}"
    page.locator(f"#r{waiting.pk}").scroll_into_view_if_needed()
    page.screenshot(path=SHOTS / f"{language}-controls.png")
    context.close()


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_screen_before_the_door_opens_and_after_the_evening_reads_right(
    browser: Browser, live_server: LiveServer, language: str
) -> None:
    """Days before the evening: no «На месте», the hour the door opens, only «Просьба по
    телефону» to take someone off. After it: who came and who did not. Both in the
    organiser's language, at 360×640."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    host = make_host(nickname="Организатор")
    early = make_evening(capacity=Club.current().min_players)  # three days away
    first = sign_up_many(early, 3)[0].registration
    over = make_evening(capacity=3)
    came = [s.registration for s in sign_up_many(over, 3)]
    Registration.objects.filter(pk__in=[r.pk for r in came[:2]]).update(status="attended")
    Registration.objects.filter(pk=came[2].pk).update(status="no_show")
    Evening.objects.filter(pk=over.pk).update(
        status="finished", starts_at=timezone.now() - timedelta(hours=8)
    )
    nicknames = [host.nickname, *Registration.objects.values_list("member__nickname", flat=True)]
    context = new_context(browser, live_server, user=host, language=language)
    page = context.new_page()
    page.goto(f"{live_server.url}/evenings/{early.pk}/lineup/", wait_until="networkidle")
    assert page.locator("form[action$='/came/']").count() == 0
    page.locator(f"#r{first.pk} .lineup-remove summary").tap()
    reasons = page.locator(f"#r{first.pk} .lineup-remove button").all_inner_texts()
    assert len(reasons) == 1
    page.wait_for_timeout(QUIET_MS)
    page.screenshot(path=SHOTS / f"{language}-before-the-door.png")
    assert untranslated(page, language, nicknames) == []
    assert axe_violations(page, live_server) == []
    page.goto(f"{live_server.url}/evenings/{over.pk}/lineup/", wait_until="networkidle")
    counts = page.locator(".lineup-counts").inner_text()
    assert ("2" in counts and "3" in counts) and page.locator(".lineup-row").count() == 3
    page.screenshot(path=SHOTS / f"{language}-finished.png")
    assert untranslated(page, language, nicknames) == []
    assert axe_violations(page, live_server) == []
    context.close()


UNDO_WORDS = {
    "ru": {"no_show": "Неявка", "undo": "Вернуть", "back": "{name} — снова в списке, № 1."},
    "en": {
        "no_show": "Did not come",
        "undo": "Take it back",
        "back": "{name} is on the list again, no. 1.",
    },
}


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_removal_is_taken_back_from_its_answer_on_a_phone(
    browser: Browser, live_server: LiveServer, language: str
) -> None:
    """«Убрать» → «Неявка» answers in the row with «Вернуть» and until when, in sight and a
    thumb's target; a tap puts the place back, said in its row."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    words = UNDO_WORDS[language]
    evening = make_evening(
        capacity=3,
        starts_at=timezone.now() + timedelta(hours=1),
        opens_at=timezone.now() - timedelta(days=1),
    )
    first = sign_up_many(evening, 3)[0].registration
    assert first.member is not None
    host = make_host()
    context = new_context(browser, live_server, user=host, language=language)
    page = context.new_page()
    page.goto(f"{live_server.url}/evenings/{evening.pk}/lineup/", wait_until="networkidle")
    page.locator(f"#r{first.pk} .lineup-remove summary").tap()
    page.locator(f"#r{first.pk} .lineup-remove button", has_text=words["no_show"]).tap()
    undo = page.locator(f"#r{first.pk} .lineup-undo button")
    undo.wait_for(state="visible")
    assert in_sight(page, f"#r{first.pk} .lineup-undo button") == words["undo"]
    box = undo.bounding_box()
    assert box is not None and box["height"] >= 47.5, box
    assert Registration.objects.get(pk=first.pk).status == "no_show"
    page.screenshot(path=SHOTS / f"{language}-removal-undo.png")
    nicknames = [host.nickname, *Registration.objects.values_list("member__nickname", flat=True)]
    assert untranslated(page, language, nicknames) == []
    assert axe_violations(page, live_server) == []
    # The removal's line in the log offers it too (the log is open while it does).
    logged = page.locator("#lineup-log .lineup-undo button")
    logged.scroll_into_view_if_needed()
    assert logged.is_visible() and logged.inner_text().strip() == words["undo"]
    page.screenshot(path=SHOTS / f"{language}-removal-undo-log.png")
    undo.scroll_into_view_if_needed()
    undo.tap()
    page.wait_for_selector(f"#r{first.pk}:not(.gone) .notice.ok")
    said = in_sight(page, f"#r{first.pk} .notice.ok")
    assert words["back"].format(name=first.member.nickname) in said, said
    assert Registration.objects.get(pk=first.pk).status == "confirmed"
    page.screenshot(path=SHOTS / f"{language}-removal-undone.png")
    assert watch_of(context).failed == [] and watch_of(context).console_errors == []
    assert watch_of(context).csp_violations(page) == []
    context.close()
