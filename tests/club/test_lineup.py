"""The organiser's evening (club/lineup.py): every action goes through the sign-up's own
steps, so seats, the reserve's order and what members are told stay as for their own
actions; a guest sits at a table under their name and is never published by it."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone, translation
from django.utils.formats import date_format

from accounts.models import User
from club import lineup, queries, scheduling, services, texts
from club.kernel.clubs import Club
from club.kernel.errors import RefusalCode, Refused
from club.models import (
    Evening,
    EveningStatus,
    Guest,
    LineupAction,
    LineupChange,
    Registration,
    RegistrationSource,
)
from games.models import Game, Seat
from games.ratings.publication import visible_nicks
from games.starting import game_create, present_players
from notifications import mail
from notifications.models import Notification
from tests.factories import make_evening, make_member, sign_up_many
from tests.games.recording import make_host

pytestmark = pytest.mark.django_db

LINEUP_12 = ["boss", "mafia", "mafia", "commissar", "doctor"] + ["civilian"] * 7


def soon(capacity: int = 3) -> Evening:
    """An evening an hour away with sign-up open: the door is open too."""
    return make_evening(
        capacity=capacity,
        starts_at=timezone.now() + timedelta(hours=1),
        opens_at=timezone.now() - timedelta(days=1),
    )


def notes(member: User | None) -> list[str]:
    assert member is not None  # a guest is told nothing
    return list(
        Notification.objects.filter(member=member)
        .order_by("pk")
        .values_list("dedupe_key", flat=True)
    )


def statuses(evening: Evening) -> dict[str, list[int]]:
    rows = Registration.objects.filter(evening=evening).order_by("arrival")
    found: dict[str, list[int]] = {}
    for registration in rows:
        found.setdefault(registration.status, []).append(registration.pk)
    return found


def test_the_organiser_adds_a_member_seat_then_reserve_and_they_are_told() -> None:
    host, evening = make_host(), soon(capacity=1)
    first, second = make_member(), make_member()
    seated = lineup.lineup_add_member(evening_id=evening.pk, member_id=first.pk, actor=host)
    waiting = lineup.lineup_add_member(evening_id=evening.pk, member_id=second.pk, actor=host)
    assert (seated.seated, seated.place) == (True, 1)
    assert (waiting.seated, waiting.place) == (False, 1)
    assert [k.split(":")[0] for k in notes(first)] == ["seat"]
    assert [k.split(":")[0] for k in notes(second)] == ["reserve"]
    assert LineupChange.objects.filter(action=LineupAction.ADDED, actor=host).count() == 2
    with pytest.raises(Refused) as again:
        lineup.lineup_add_member(evening_id=evening.pk, member_id=first.pk, actor=host)
    assert again.value.code == RefusalCode.CONFLICT


def test_a_late_arrival_is_added_after_the_start_which_a_sign_up_is_not() -> None:
    host, member = make_host(), make_member()
    evening = make_evening(
        starts_at=timezone.now() - timedelta(minutes=10),
        opens_at=timezone.now() - timedelta(days=1),
    )
    with pytest.raises(Refused):
        services.registration_create(
            member=member, evening_id=evening.pk, source=RegistrationSource.WEB
        )
    added = lineup.lineup_add_member(evening_id=evening.pk, member_id=member.pk, actor=host)
    assert added.seated


def test_an_underage_or_suspended_member_is_refused_by_the_organiser_too() -> None:
    host, evening = make_host(), soon()
    young = make_member(birth_date=timezone.now().date() - timedelta(days=365 * 18))
    with pytest.raises(Refused) as underage:
        lineup.lineup_add_member(evening_id=evening.pk, member_id=young.pk, actor=host)
    assert underage.value.code == RefusalCode.UNDERAGE


def test_a_guest_takes_a_place_without_an_account_or_a_message() -> None:
    host, evening = make_host(), soon(capacity=1)
    sign_up_many(evening, 1)
    added = lineup.lineup_add_guest(
        evening_id=evening.pk, name=" Вася ", phone="+7 900 000-00-00", of_age=True, actor=host
    )
    assert (added.seated, added.place) == (False, 1)
    guest = Guest.objects.get()
    assert (guest.name, guest.added_by) == ("Вася", host)
    assert added.registration.member is None and added.registration.guest == guest
    assert not Notification.objects.filter(
        dedupe_key__startswith=f"reserve:{added.registration.pk}"
    )
    assert User.objects.filter(nickname="Вася").count() == 0


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": "x" * 33}, "name"),
        ({"name": "Вася", "phone": "call me"}, "phone"),
        ({"name": "Вася", "telegram": "@a"}, "telegram"),
        ({"name": "Вася", "of_age": False}, "of_age"),
    ],
)
def test_a_guest_is_refused_with_the_field_that_is_wrong(
    fields: dict[str, object], field: str
) -> None:
    host, evening = make_host(), soon()
    arguments: dict[str, object] = {"of_age": True, **fields}
    with pytest.raises(Refused) as refused:
        lineup.lineup_add_guest(evening_id=evening.pk, actor=host, **arguments)  # type: ignore[arg-type]
    assert field in refused.value.details["fields"]
    assert not Guest.objects.exists()


def test_a_second_guest_of_a_name_on_the_list_is_refused_and_guests_are_told_apart() -> None:
    """Two «Света» on the list could not be told apart (and the same guest sent twice is a
    mistake): a name already on the evening's list or reserve is refused, in any letter
    case; a guest's row shows the username and the phone's last four digits."""
    host, evening = make_host(), soon(capacity=1)
    sign_up_many(evening, 1)
    lineup.lineup_add_guest(
        evening_id=evening.pk, name="Света", phone="+7 900 123-45-67", of_age=True, actor=host
    )
    with pytest.raises(Refused) as twice:
        lineup.lineup_add_guest(evening_id=evening.pk, name=" света ", of_age=True, actor=host)
    assert twice.value.code == RefusalCode.CONFLICT and "name" in twice.value.details["fields"]
    assert "Света" in twice.value.message
    assert Guest.objects.count() == 1
    other = lineup.lineup_add_guest(
        evening_id=evening.pk, name="Света К.", telegram="@sveta_k", of_age=True, actor=host
    )
    # A guest taken off the list leaves the name free again.
    lineup.lineup_remove(registration_id=other.registration.pk, reason="by_phone", actor=host)
    lineup.lineup_add_guest(evening_id=evening.pk, name="Света К.", of_age=True, actor=host)
    client = Client()
    client.force_login(host)
    page = client.get(f"/evenings/{evening.pk}/lineup/").content.decode()
    assert "…4567" in page and "900" not in page


def test_moving_from_the_reserve_takes_a_free_seat_out_of_order_and_is_logged() -> None:
    host = make_host()
    evening = make_evening(
        capacity=2,
        starts_at=timezone.now() - timedelta(minutes=5),
        opens_at=timezone.now() - timedelta(days=1),
    )
    members = [make_member() for _ in range(4)]
    for member in members:
        lineup.lineup_add_member(evening_id=evening.pk, member_id=member.pk, actor=host)
    seated = Registration.objects.get(evening=evening, member=members[0])
    lineup.lineup_remove(registration_id=seated.pk, reason="no_show", actor=host)
    # After the start a freed seat waits for the organiser, who seats the one who is here.
    assert Registration.objects.confirmed().filter(evening=evening).count() == 1
    last = Registration.objects.get(evening=evening, member=members[3])
    moved = lineup.lineup_move_to_seat(registration_id=last.pk, actor=host)
    assert moved.seated
    assert f"promoted:{last.pk}:{last.arrival}" in notes(members[3])
    change = LineupChange.objects.get(action=LineupAction.MOVED)
    assert (change.actor, change.registration_id) == (host, last.pk)
    # No free seat now: the next one moved goes to the front of the reserve instead.
    third = Registration.objects.get(evening=evening, member=members[2])
    front = lineup.lineup_move_to_seat(registration_id=third.pk, actor=host)
    assert (front.seated, front.place) == (False, 1)
    assert Registration.objects.confirmed().filter(evening=evening).count() == 2


def test_removal_reasons_become_what_the_no_show_rule_reads_and_free_the_seat() -> None:
    host, evening = make_host(), soon(capacity=3)
    signed = sign_up_many(evening, 6)
    regs = [s.registration for s in signed]
    lineup.lineup_remove(registration_id=regs[0].pk, reason="no_show", actor=host)
    lineup.lineup_remove(registration_id=regs[1].pk, reason="left", actor=host)
    lineup.lineup_remove(registration_id=regs[2].pk, reason="by_phone", actor=host)
    got = {r.pk: r.status for r in Registration.objects.filter(evening=evening)}
    assert [got[r.pk] for r in regs[:3]] == ["no_show", "attended", "cancelled"]
    # The reserve moved up in order, each told once.
    assert [got[r.pk] for r in regs[3:]] == ["confirmed"] * 3
    for registration in regs[3:]:
        assert (
            notes(registration.member).count(f"promoted:{registration.pk}:{registration.arrival}")
            == 1
        )
    assert [k for k in notes(regs[0].member) if k.startswith(f"removed:{regs[0].pk}:")]
    assert not [k for k in notes(regs[1].member) if k.startswith("removed")]
    with pytest.raises(Refused):
        lineup.lineup_remove(registration_id=regs[3].pk, reason="bored", actor=host)
    # The one who was marked not come turns up after all: put back at the door.
    back = lineup.lineup_add_member(
        evening_id=evening.pk, member_id=regs[0].member_id or 0, actor=host
    )
    assert not back.seated


def test_who_left_is_no_longer_offered_for_the_next_game_until_put_back() -> None:
    host, evening = make_host(), soon(capacity=4)
    regs = [s.registration for s in sign_up_many(evening, 4)]
    for registration in regs:
        lineup.lineup_check_in(registration_id=registration.pk, actor=host)
    gone = regs[1]
    lineup.lineup_remove(registration_id=gone.pk, reason="left", actor=host)
    gone.refresh_from_db()
    assert gone.status == "attended" and gone.left_at is not None  # came: no no-show
    seatable = [p.member for p in present_players(evening)]
    assert gone.member not in seatable and len(seatable) == 3
    assert gone.member not in queries.evening_attendance(evening).members
    # Back at the door: offered again.
    lineup.lineup_add_member(evening_id=evening.pk, member_id=gone.member_id or 0, actor=host)
    assert Registration.objects.get(pk=gone.pk).left_at is None
    assert gone.member in [p.member for p in present_players(evening)]


def test_check_in_marks_a_seat_and_the_finish_makes_it_attendance() -> None:
    host, evening = make_host(), soon(capacity=3)
    regs = [s.registration for s in sign_up_many(evening, 4)]
    lineup.lineup_check_in(registration_id=regs[0].pk, actor=host)
    lineup.lineup_check_in(registration_id=regs[0].pk, actor=host)  # a second tap: the same
    lineup.lineup_check_in(registration_id=regs[1].pk, actor=host)
    with time_machine.travel(timezone.now() + lineup.DOUBLE_TAP + timedelta(seconds=1)):
        lineup.lineup_check_in(registration_id=regs[1].pk, actor=host, came=False)  # a mis-tap
    with pytest.raises(Refused) as reserve:
        lineup.lineup_check_in(registration_id=regs[3].pk, actor=host)
    assert reserve.value.code == RefusalCode.CONFLICT
    # Each tap is logged, the taken-back one too.
    assert LineupChange.objects.filter(action=LineupAction.CHECKED_IN).count() == 3
    later = evening.starts_at + timedelta(hours=6)
    scheduling.schedule_sweep(now=later)
    got = {r.pk: r.status for r in Registration.objects.filter(evening=evening)}
    assert [got[r.pk] for r in regs] == ["attended", "no_show", "no_show", "reserve"]
    club = Club.current()
    assert services.recent_no_shows(regs[1].signed_member, club, later) == 1


def test_a_double_tap_at_the_door_checks_in_once() -> None:
    """The second tap of a double tap lands on what the first one's answer drew («✓ на
    месте», which takes a check-in back): within DOUBLE_TAP it changes nothing, either way."""
    host, other, evening = make_host(), make_host(), soon(capacity=3)
    first, second = [s.registration for s in sign_up_many(evening, 2)]
    lineup.lineup_check_in(registration_id=first.pk, actor=host)
    again = lineup.lineup_check_in(registration_id=first.pk, actor=host, came=False)
    assert again.checked_in_at is not None
    assert Registration.objects.get(pk=first.pk).checked_in_at is not None
    log = LineupChange.objects.filter(registration=first, action=LineupAction.CHECKED_IN)
    assert list(log.values_list("text", flat=True)) == [""]
    # Another organiser's tap is not this finger's second tap.
    lineup.lineup_check_in(registration_id=first.pk, actor=other, came=False)
    assert Registration.objects.get(pk=first.pk).checked_in_at is None
    # A take-back double-tapped stays taken back; later, a tap counts again.
    later = timezone.now() + lineup.DOUBLE_TAP + timedelta(seconds=1)
    with time_machine.travel(later, tick=False):
        lineup.lineup_check_in(registration_id=second.pk, actor=host)
    with time_machine.travel(later + 2 * lineup.DOUBLE_TAP, tick=False):
        lineup.lineup_check_in(registration_id=second.pk, actor=host, came=False)
    with time_machine.travel(later + 2 * lineup.DOUBLE_TAP + lineup.DOUBLE_TAP / 2, tick=False):
        lineup.lineup_check_in(registration_id=second.pk, actor=host)
    assert Registration.objects.get(pk=second.pk).checked_in_at is None
    with time_machine.travel(later + 4 * lineup.DOUBLE_TAP, tick=False):
        lineup.lineup_check_in(registration_id=second.pk, actor=host)
    assert Registration.objects.get(pk=second.pk).checked_in_at is not None
    taps = LineupChange.objects.filter(registration=second, action=LineupAction.CHECKED_IN)
    assert list(taps.order_by("pk").values_list("text", flat=True)) == ["", "-", ""]


def test_a_tap_on_a_row_that_left_the_list_is_answered_where_the_row_was() -> None:
    """Another organiser took the row off after the page was drawn: the tap's refusal is
    said in the row, drawn once more at its place (not above the list, out of sight); a
    removal's own answer too, in the list the row was in."""
    host, other, evening = make_host(), make_host(), soon(capacity=4)
    regs = [s.registration for s in sign_up_many(evening, 6)]
    lineup.lineup_remove(registration_id=regs[1].pk, reason="no_show", actor=other)
    client = Client()
    client.force_login(host)
    htmx = {"HX-Request": "true"}
    tap = client.post(f"/evenings/{evening.pk}/lineup/{regs[1].pk}/came/", headers=htmx)
    assert tap.status_code == 409
    body = tap.content.decode()
    rows = [body.index(f'id="r{r.pk}"') for r in (regs[0], regs[1], regs[2])]
    assert rows == sorted(rows), "the row is drawn again between its neighbours"
    row = body[rows[1] : body.index("</li>", rows[1])]
    assert 'role="alert"' in row and "Уже не в списке." in row
    assert "/came/" not in row, "a row that left the list offers no tap"
    assert "/undo/" not in row, "another's removal is taken back from the log, not a refusal"
    assert Registration.objects.get(pk=regs[1].pk).checked_in_at is None
    # The removal of a reserve row: its answer in the reserve, where the row was.
    removed = client.post(
        f"/evenings/{evening.pk}/lineup/{regs[5].pk}/remove/",
        {"reason": "by_phone", "list": "reserve"},
        headers=htmx,
    )
    assert removed.status_code == 200
    body = removed.content.decode()
    at = body.index(f'id="r{regs[5].pk}"')
    assert body.index(f'id="r{regs[4].pk}"') < at, "after the reserve's first"
    said = body[at : body.index("</li>", at)]
    assert f"{nick(regs[5])} — больше не в резерве (просьба по телефону)." in said
    assert Registration.objects.get(pk=regs[5].pk).status == "cancelled"


def nick(registration: Registration) -> str:
    assert registration.member is not None
    return registration.member.nickname


def test_a_removal_names_who_is_off_the_list_and_who_took_the_seat() -> None:
    host, evening = make_host(), soon(capacity=2)
    regs = [s.registration for s in sign_up_many(evening, 3)]
    client = Client()
    client.force_login(host)

    def remove(registration: Registration, reason: str, at: str = "seated") -> str:
        answer = client.post(
            f"/evenings/{evening.pk}/lineup/{registration.pk}/remove/",
            {"reason": reason, "list": at},
            headers={"HX-Request": "true"},
        )
        assert answer.status_code == 200
        body = answer.content.decode()
        row = body.index(f'id="r{registration.pk}"')
        return body[row : body.index("</li>", row)]

    said = remove(regs[0], "no_show")
    assert (
        f"{nick(regs[0])} — больше не в списке (неявка). Место занимает {nick(regs[2])} из резерва."
    ) in said
    said = remove(regs[1], "by_phone")
    assert f"{nick(regs[1])} — больше не в списке (просьба по телефону). Место свободно." in said


def test_a_stale_move_says_the_row_is_no_longer_on_the_list_or_already_seated() -> None:
    host, evening = make_host(), soon(capacity=1)
    regs = [s.registration for s in sign_up_many(evening, 3)]
    lineup.lineup_remove(registration_id=regs[2].pk, reason="by_phone", actor=host)
    client = Client()
    client.force_login(host)
    for registration, said in ((regs[2], "Уже не в списке."), (regs[0], "Уже в составе.")):
        answer = client.post(
            f"/evenings/{evening.pk}/lineup/{registration.pk}/move/",
            headers={"HX-Request": "true"},
        )
        assert answer.status_code == 409
        body = answer.content.decode()
        row = body.index(f'id="r{registration.pk}"')
        assert said in body[row : body.index("</li>", row)]
    assert not LineupChange.objects.filter(action=LineupAction.MOVED).exists()


def log_lines(page: str) -> list[str]:
    """The lines of the screen's «Изменения вручную», newest first, tags taken out."""
    start = page.index('id="lineup-log"')
    block = page[start : page.index("</ul>", start)]
    return [" ".join(re.sub(r"<[^>]+>", " ", line).split()) for line in block.split("<li>")[1:]]


def test_the_log_keeps_removals_among_door_taps_and_says_what_each_change_was() -> None:
    """Door taps do not push a removal out of sight: the last 50 lines and a link to all;
    a check-in taken back reads so; the reserve moving up because of the organiser's
    action (a removal, the second table) is logged for whom it moved, by the organiser."""
    host, club = make_host(), Club.current()
    evening = soon(capacity=club.min_players)
    regs = [s.registration for s in sign_up_many(evening, 2 * club.min_players + 1)]
    client = Client()
    client.force_login(host)
    removed = lineup.lineup_remove(registration_id=regs[0].pk, reason="no_show", actor=host)
    [moved_up] = removed.promoted
    # 60 door taps: a check-in, and taken back a little later, 30 times.
    seated = list(Registration.objects.confirmed().filter(evening=evening).order_by("arrival"))
    later = timezone.now()
    for tap in range(60):
        later += lineup.DOUBLE_TAP * 2
        with time_machine.travel(later, tick=False):
            registration = seated[tap // 2 % len(seated)]
            lineup.lineup_check_in(registration_id=registration.pk, actor=host, came=tap % 2 == 0)
    page = client.get(f"/evenings/{evening.pk}/lineup/").content.decode()
    lines = log_lines(page)
    assert len(lines) == 50
    assert lines[0].endswith(f"Отметка прихода снята: {nick(registration)} · {host.nickname}")
    assert lines[1].endswith(f"На месте: {nick(registration)} · {host.nickname}")
    assert "Показать все 62 изменения" in page
    whole = log_lines(client.get(f"/evenings/{evening.pk}/lineup/?log=all").content.decode())
    assert len(whole) == 62
    assert whole[-2].endswith(f"Из резерва в состав: {nick(moved_up)} · {host.nickname}")
    # The removal, minutes old, can still be taken back from its line.
    assert f"Снятие со списка: {nick(regs[0])} (неявка) · {host.nickname} Вернуть до" in whole[-1]
    promoted = lineup.evening_open_second_table(evening_id=evening.pk, actor=host)
    assert set(
        LineupChange.objects.filter(action=LineupAction.PROMOTED, actor=host).values_list(
            "registration_id", flat=True
        )
    ) == {moved_up.pk, *(r.pk for r in promoted)}


def test_a_finished_evening_s_line_up_shows_who_came_and_who_did_not() -> None:
    host = make_host()
    evening = soon(capacity=15)
    regs = [s.registration for s in sign_up_many(evening, 16)]
    guest = lineup.lineup_add_guest(evening_id=evening.pk, name="Вася", of_age=True, actor=host)
    lineup.lineup_remove(registration_id=regs[0].pk, reason="left", actor=host)
    came = regs[1:12]
    for registration in came:
        lineup.lineup_check_in(registration_id=registration.pk, actor=host)
    scheduling.schedule_sweep(now=evening.starts_at + timedelta(hours=6))
    client = Client()
    client.force_login(host)
    page = client.get(f"/evenings/{evening.pk}/lineup/").content.decode()
    assert "Пока никого" not in page and "Играют 0" not in page
    # 15 seats and one who came and left: 16 on the list, 12 of them came.
    assert "Пришли 12 из 16" in page and "Не пришли 4" in page
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    text = text[text.index("Вечер закончился") :]  # the lists, below the counts
    present = text.index("Пришли 12 ")
    absent = text.index("Не пришли 4 ", present)
    reserve = text.index("Резерв 1 ", absent)
    for registration in [regs[0], *came]:
        assert text.index(f" {nick(registration)} ", present) < absent
    for registration in regs[12:16]:
        assert text.index(f" {nick(registration)} ", absent) < reserve
    assert text.index(" Вася ", reserve) < text.index("Изменения вручную")
    assert guest.registration.status == "reserve"
    # A tap from a page drawn before the evening was over: refused in its row.
    tap = client.post(
        f"/evenings/{evening.pk}/lineup/{regs[12].pk}/came/", headers={"HX-Request": "true"}
    )
    assert tap.status_code == 409
    body = tap.content.decode()
    row = body.index(f'id="r{regs[12].pk}"')
    assert "Этот вечер уже закончился." in body[row : body.index("</li>", row)]


def test_an_evening_whose_door_was_not_kept_marks_nobody_a_no_show() -> None:
    evening = soon(capacity=3)
    sign_up_many(evening, 3)
    scheduling.schedule_sweep(now=evening.starts_at + timedelta(hours=6))
    assert set(Registration.objects.filter(evening=evening).values_list("status", flat=True)) == {
        "confirmed"
    }


def test_attendance_the_door_recorded_is_not_asked_for_again() -> None:
    """The admins are asked to mark who came only after an evening whose door nobody
    kept: the door's taps already said it for every seat."""
    admin = make_member(is_staff=True, telegram_id=9001)
    host, kept, unkept = make_host(), soon(capacity=3), soon(capacity=3)
    regs = [s.registration for s in sign_up_many(kept, 2)]
    sign_up_many(unkept, 2)
    lineup.lineup_check_in(registration_id=regs[0].pk, actor=host)
    scheduling.schedule_sweep(now=kept.starts_at + timedelta(hours=6))
    asked = Notification.objects.filter(member=admin, dedupe_key__startswith="mark-no-shows:")
    assert [key.split(":")[1] for key in asked.values_list("dedupe_key", flat=True)] == [
        str(unkept.pk)
    ]
    assert [r.status for r in Registration.objects.filter(evening=kept).order_by("arrival")] == [
        "attended",
        "no_show",
    ]


def test_the_door_opens_on_the_evening_s_day() -> None:
    host = make_host()
    evening = make_evening(capacity=3)  # three days away
    registration = sign_up_many(evening, 1)[0].registration
    with pytest.raises(Refused) as early:
        lineup.lineup_check_in(registration_id=registration.pk, actor=host)
    assert early.value.code == RefusalCode.NOT_OPEN


def test_before_the_door_opens_the_screen_says_when_and_offers_no_check_in() -> None:
    """The rule is DOOR_OPENS before the start, not «the evening's day»: the screen says
    the hour and offers no «На месте» until then, and a refusal names the same hour."""
    host, club = make_host(), Club.current()
    starts = timezone.now().astimezone(club.zone).replace(hour=18, minute=0) + timedelta(days=1)
    evening = make_evening(capacity=3, starts_at=starts)
    registration = sign_up_many(evening, 1)[0].registration
    client = Client()
    client.force_login(host)
    with time_machine.travel(starts - timedelta(hours=13)):  # 05:00 the evening's day
        page = client.get(f"/evenings/{evening.pk}/lineup/").content.decode()
        assert "/came/" not in page
        assert "Отметка прихода — с 06:00</p>" in page
        tap = client.post(
            f"/evenings/{evening.pk}/lineup/{registration.pk}/came/",
            headers={"HX-Request": "true"},
        )
        assert tap.status_code == 409
        assert "Отмечать приход можно с 06:00." in tap.content.decode()
    with time_machine.travel(starts - timedelta(hours=20)):  # 22:00 the evening before
        page = client.get(f"/evenings/{evening.pk}/lineup/").content.decode()
        day = date_format(timezone.localtime(starts, club.zone), "j E")
        assert f"Отметка прихода — с 06:00, {day}</p>" in page
    with time_machine.travel(starts - lineup.DOOR_OPENS + timedelta(minutes=1)):
        page = client.get(f"/evenings/{evening.pk}/lineup/").content.decode()
        assert "/came/" in page and "Отметка прихода" not in page


def test_before_the_door_opens_only_a_request_by_phone_takes_someone_off() -> None:
    """Days before the evening nobody «did not come» or «left»: those reasons are refused
    by the service (nothing counted, nobody told) and not offered on the screen."""
    host = make_host()
    evening = make_evening(capacity=3)  # three days away
    registration = sign_up_many(evening, 1)[0].registration
    for reason in ("no_show", "left"):
        with pytest.raises(Refused) as early:
            lineup.lineup_remove(registration_id=registration.pk, reason=reason, actor=host)
        assert early.value.code == RefusalCode.NOT_OPEN
    assert Registration.objects.get(pk=registration.pk).status == "confirmed"
    assert not Notification.objects.filter(dedupe_key__startswith="removed:").exists()
    assert not LineupChange.objects.exists()
    client = Client()
    client.force_login(host)
    page = client.get(f"/evenings/{evening.pk}/lineup/").content.decode()
    assert 'value="by_phone"' in page
    assert 'value="no_show"' not in page and 'value="left"' not in page
    # Once the door opens, every reason.
    with time_machine.travel(evening.starts_at - lineup.DOOR_OPENS + timedelta(minutes=1)):
        page = client.get(f"/evenings/{evening.pk}/lineup/").content.decode()
        assert 'value="no_show"' in page and 'value="left"' in page
        lineup.lineup_remove(registration_id=registration.pk, reason="no_show", actor=host)
    assert Registration.objects.get(pk=registration.pk).status == "no_show"


def test_a_second_table_doubles_the_seats_and_the_reserve_moves_up_in_order() -> None:
    host, club = make_host(), Club.current()
    evening = soon(capacity=15)
    signed = sign_up_many(evening, 2 * club.min_players - 1)
    with pytest.raises(Refused) as too_few:
        lineup.evening_open_second_table(evening_id=evening.pk, actor=host)
    assert too_few.value.code == RefusalCode.CONFLICT
    signed += sign_up_many(evening, 1)
    promoted = lineup.evening_open_second_table(evening_id=evening.pk, actor=host)
    evening.refresh_from_db()
    assert (evening.tables, evening.capacity) == (2, 30)
    assert [r.pk for r in promoted] == [s.registration.pk for s in signed[15:]]
    for registration in promoted:
        assert (
            notes(registration.member).count(f"promoted:{registration.pk}:{registration.arrival}")
            == 1
        )
    with pytest.raises(Refused):
        lineup.evening_open_second_table(evening_id=evening.pk, actor=host)


def test_games_record_their_table_and_a_player_plays_at_one_table_at_a_time() -> None:
    host, other_host, club = make_host(), make_host(), Club.current()
    evening = soon(capacity=15)
    sign_up_many(evening, 2 * club.min_players)
    lineup.lineup_add_guest(evening_id=evening.pk, name="Гость Петя", of_age=True, actor=host)
    lineup.evening_open_second_table(evening_id=evening.pk, actor=host)
    first = present_players(evening, table=1)
    assert len(first) == 2 * club.min_players + 1
    seats = {
        n: (p.player, role)
        for n, (p, role) in enumerate(zip(first[:12], LINEUP_12, strict=True), 1)
    }
    game = game_create(host=host, evening_id=evening.pk, seats=seats, table=1)
    assert game.table == 1
    second = present_players(evening, table=2)
    assert {p.key for p in second}.isdisjoint({p.key for p in first[:12]})
    assert len(second) == 13
    guest_seat = next(p for p in second if p.guest is not None)
    chosen = [guest_seat, *[p for p in second if p.guest is None][:11]]
    seats = {
        n: (p.player, role) for n, (p, role) in enumerate(zip(chosen, LINEUP_12, strict=True), 1)
    }
    at_two = game_create(host=other_host, evening_id=evening.pk, seats=seats, table=2)
    assert Seat.objects.filter(game=at_two, guest__isnull=False).count() == 1
    # Someone of table 1's running game cannot sit at table 2 now.
    busy = {
        1: (first[0].player, "boss"),
        **{
            n: (p.player, r)
            for n, (p, r) in enumerate(zip(chosen[1:], LINEUP_12[1:], strict=True), 2)
        },
    }
    with pytest.raises(Refused):
        game_create(host=other_host, evening_id=evening.pk, seats=busy, table=2)
    with pytest.raises(Refused):
        game_create(host=host, evening_id=evening.pk, seats=seats, table=3)
    assert Game.objects.filter(evening=evening).count() == 2


def test_a_guest_is_named_only_to_whoever_runs_the_game_until_linked_to_a_consenting_member() -> (
    None
):
    host, evening = make_host(), soon(capacity=15)
    players = [s.member for s in sign_up_many(evening, 11)]
    lineup.lineup_add_guest(evening_id=evening.pk, name="Маша", of_age=True, actor=host)
    present = present_players(evening)
    seats = {
        n: (p.player, role) for n, (p, role) in enumerate(zip(present, LINEUP_12, strict=True), 1)
    }
    game = game_create(host=host, evening_id=evening.pk, seats=seats)
    table = list(Seat.objects.filter(game=game).select_related("member", "guest__member"))
    guest_seat = next(s for s in table if s.guest is not None)
    assert visible_nicks(table, game, host)[guest_seat.number] == "Маша"
    for viewer in (None, players[0]):
        assert visible_nicks(table, game, viewer)[guest_seat.number] != "Маша"
    member = make_member(nickname="Мария", publication_consent=True)
    assert guest_seat.guest_id is not None
    Guest.objects.filter(pk=guest_seat.guest_id).update(member=member)
    table = list(Seat.objects.filter(game=game).select_related("member", "guest__member"))
    assert visible_nicks(table, game, None)[guest_seat.number] == "Мария"


def test_a_message_reaches_the_list_once_each_and_counts_who_has_a_channel() -> None:
    host, evening = make_host(), soon(capacity=3)
    linked = make_member(telegram_id=1001)
    by_email = make_member()
    nowhere = make_member(email="")
    waiting = make_member(telegram_id=1002)
    for member in (linked, by_email, nowhere, waiting):
        lineup.lineup_add_member(evening_id=evening.pk, member_id=member.pk, actor=host)
    lineup.lineup_add_guest(evening_id=evening.pk, name="Мария", of_age=True, actor=host)
    reach = lineup.evening_message(evening_id=evening.pk, text="Начинаем в 18:30", actor=host)
    assert (reach.members, reach.reached, reach.unreachable) == (3, 2, [nowhere.nickname])
    change = LineupChange.objects.get(action=LineupAction.MESSAGE)
    assert change.reached == 2 and change.text == "Начинаем в 18:30"
    key = f"evening-message:{change.pk}"
    assert [k for k in notes(linked) if k.startswith(key)] == [f"{key}:{linked.pk}"]
    assert list(
        Notification.objects.filter(member=by_email, dedupe_key__startswith=key).values_list(
            "channel", flat=True
        )
    ) == ["email"]
    assert not [k for k in notes(waiting) if k.startswith("evening-message")]
    with_reserve = lineup.evening_message(
        evening_id=evening.pk, text="Резерв тоже", actor=host, include_reserve=True
    )
    assert (with_reserve.members, with_reserve.reached) == (4, 3)
    assert "Начинаем в 18:30" in Notification.objects.get(dedupe_key=f"{key}:{linked.pk}").text
    with pytest.raises(Refused):
        lineup.evening_message(evening_id=evening.pk, text="  ", actor=host)


def test_a_message_says_it_is_being_sent_leaves_guests_out_aloud_and_has_a_plain_subject() -> None:
    """The outbox sends later: the answer says «отправляется N участникам», not «дошло»;
    guests on the list are not reached and the answer says so; a letter's subject is no
    sentence cut at its colon."""
    host, evening = make_host(), soon(capacity=5)
    by_email = make_member()
    for member in (make_member(telegram_id=2001), by_email, make_member(email="")):
        lineup.lineup_add_member(evening_id=evening.pk, member_id=member.pk, actor=host)
    lineup.lineup_add_guest(evening_id=evening.pk, name="Мария", of_age=True, actor=host)
    client = Client()
    client.force_login(host)
    answer = client.post(
        f"/evenings/{evening.pk}/lineup/message/",
        {"text": "Начинаем в 18:30"},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 200
    body = answer.content.decode()
    assert "Отправляется 2 участникам." in body and "дошло" not in body
    assert "Гостей (1) это сообщение не достигает." in body
    assert "получателей: 2" in body
    notification = Notification.objects.get(
        member=by_email, channel="email", dedupe_key__startswith="evening-message"
    )
    subject = mail.letter(notification, by_email).subject
    when = texts.evening_when(evening, Club.current())
    assert subject.endswith(f": Сообщение от организатора вечера ({when})"), subject


def test_the_screen_s_russian_agrees_in_number_and_says_nothing_of_anyone_s_gender() -> None:
    host, club = make_host(), Club.current()
    evening = soon(capacity=1)
    regs = [s.registration for s in sign_up_many(evening, 3)]
    client = Client()
    client.force_login(host)
    page = client.get(f"/evenings/{evening.pk}/lineup/").content.decode()
    assert f"наберётся {2 * club.min_players} человека." in page  # 24 человека
    assert "Гостю исполнился 21 год" in page
    assert "Ник в Telegram (@…, необязательно)" in page
    with pytest.raises(Refused) as few:
        lineup.evening_open_second_table(evening_id=evening.pk, actor=host)
    assert f"нужно {2 * club.min_players} человека" in few.value.message
    moved = client.post(
        f"/evenings/{evening.pk}/lineup/{regs[2].pk}/move/", headers={"HX-Request": "true"}
    ).content.decode()
    assert (
        f"Свободного места нет: {nick(regs[2])} теперь на первом месте в резерве и получит "
        "следующее освободившееся место."
    ) in moved
    for age, said in (
        (21, "гостю исполнился 21 год"),
        (18, "гостю исполнилось 18 лет"),
        (22, "гостю исполнилось 22 года"),
    ):
        club.min_age = age
        club.save()
        with translation.override("ru"), pytest.raises(Refused) as young:
            lineup.lineup_add_guest(evening_id=evening.pk, name="Вася", of_age=False, actor=host)
        assert said in young.value.message


def test_nothing_changes_on_a_finished_or_cancelled_evening() -> None:
    host, evening = make_host(), soon(capacity=2)
    registration = sign_up_many(evening, 1)[0].registration
    Evening.objects.filter(pk=evening.pk).update(status=EveningStatus.FINISHED)
    for action in (
        lambda: lineup.lineup_add_member(
            evening_id=evening.pk, member_id=make_member().pk, actor=host
        ),
        lambda: lineup.lineup_check_in(registration_id=registration.pk, actor=host),
        lambda: lineup.lineup_remove(registration_id=registration.pk, reason="left", actor=host),
        lambda: lineup.evening_message(evening_id=evening.pk, text="hi", actor=host),
    ):
        with pytest.raises(Refused) as refused:
            action()
        assert refused.value.code == RefusalCode.CLOSED


def test_the_screen_is_for_hosts_and_admins_and_a_refused_tap_is_said_in_its_row() -> None:
    evening = soon(capacity=1)
    regs = [s.registration for s in sign_up_many(evening, 2)]
    member_client = Client()
    member_client.force_login(make_member())
    assert member_client.get(f"/evenings/{evening.pk}/lineup/").status_code == 403
    refused = member_client.post(
        f"/evenings/{evening.pk}/lineup/{regs[0].pk}/came/", headers={"HX-Request": "true"}
    )
    assert refused.status_code == 403
    host = Client()
    host.force_login(make_host())
    page = host.get(f"/evenings/{evening.pk}/lineup/")
    assert page.status_code == 200
    tap = host.post(
        f"/evenings/{evening.pk}/lineup/{regs[1].pk}/came/", headers={"HX-Request": "true"}
    )
    assert tap.status_code == 409
    body = tap.content.decode()
    row = body[body.index(f'id="r{regs[1].pk}"') :]
    assert 'role="alert"' in row[: row.index("</li>")]
    other = make_evening()
    assert host.post(f"/evenings/{other.pk}/lineup/{regs[0].pk}/came/").status_code == 302
    assert Registration.objects.get(pk=regs[0].pk).checked_in_at is None
    found = host.get(
        f"/evenings/{evening.pk}/lineup/?q=Игрок",
        headers={"HX-Request": "true", "HX-Target": "found"},
    )
    assert found.status_code == 200 and 'id="found"' in found.content.decode()


def test_a_removal_by_the_club_says_who_did_it_and_what_became_of_the_place() -> None:
    """Taken off by the club, a member hears that the club did it and what it means for
    their place, a seat or the reserve, in their own language; asked by phone, that the
    organiser did as they asked."""
    host, evening = make_host(), soon(capacity=1)
    seated, waiting, phoned = (make_member() for _ in range(3))
    User.objects.filter(pk=waiting.pk).update(language="en")
    for member in (seated, waiting, phoned):
        services.registration_create(
            member=member, evening_id=evening.pk, source=RegistrationSource.WEB
        )

    def told(member: User) -> str:
        return (
            Notification.objects.filter(member=member)
            .order_by("-pk")
            .values_list("text", flat=True)[0]
        )

    mine = {r.member_id: r.pk for r in Registration.objects.filter(evening=evening)}
    services.registration_withdraw(registration_id=mine[waiting.pk])
    assert told(waiting).startswith(
        "The club has cancelled your sign-up: you are no longer in the reserve"
    )
    lineup.lineup_remove(registration_id=mine[phoned.pk], reason="by_phone", actor=host)
    assert told(phoned).startswith("Как вы просили по телефону, организатор убрал вас из резерва.")
    services.registration_withdraw(registration_id=mine[seated.pk])
    assert told(seated).startswith(
        "Клуб отменил вашу запись: место больше не за вами и перейдёт другому."
    )
