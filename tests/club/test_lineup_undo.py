"""«Убрать» taken back (club/lineup.py's lineup_remove_undo): for REMOVAL_UNDO after a
removal the organiser puts the same sign-up back where it was, with its arrival; a seat the
reserve took meanwhile stays with whoever took it, and the place waits first in the reserve;
the member told of the removal is told they are back, in their language."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from accounts.models import User
from club import lineup, queries, services
from club.kernel.errors import RefusalCode, Refused
from club.models import (
    Evening,
    LineupAction,
    LineupChange,
    Registration,
    RegistrationSource,
    RegistrationStatus,
)
from notifications.models import Notification
from tests.factories import make_evening, make_member, sign_up_many
from tests.games.recording import make_host

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def soon(capacity: int) -> Evening:
    """An evening an hour away with sign-up open: the door is open too."""
    return make_evening(
        capacity=capacity,
        starts_at=timezone.now() + timedelta(hours=1),
        opens_at=timezone.now() - timedelta(days=1),
    )


def removal_of(registration: Registration) -> LineupChange:
    return LineupChange.objects.filter(
        registration=registration, action=LineupAction.REMOVED
    ).latest("pk")


def undo(registration: Registration, host: User) -> lineup.Restored:
    return lineup.lineup_remove_undo(
        registration_id=registration.pk, change_id=removal_of(registration).pk, actor=host
    )


def told(member: User | None) -> list[str]:
    """What the member was told, oldest first."""
    assert member is not None
    return list(
        Notification.objects.filter(member=member).order_by("pk").values_list("text", flat=True)
    )


def keys(member: User | None) -> list[str]:
    assert member is not None
    return list(
        Notification.objects.filter(member=member)
        .order_by("pk")
        .values_list("dedupe_key", flat=True)
    )


def nick(registration: Registration) -> str:
    assert registration.member is not None
    return registration.member.nickname


def places(evening: Evening) -> tuple[list[int], list[int]]:
    """The seats and the reserve in order, as registrations' ids."""
    current = queries.evening_lineup(evening)
    return [r.pk for r in current.confirmed], [r.pk for r in current.reserve]


def test_an_undo_puts_a_seat_and_a_reserve_place_back_where_they_were() -> None:
    host, evening = make_host(), soon(capacity=2)
    regs = [s.registration for s in sign_up_many(evening, 4)]
    before = places(evening)
    # The reserve's first asked by phone to be taken off: back at the front, by its arrival.
    lineup.lineup_remove(registration_id=regs[2].pk, reason="by_phone", actor=host)
    assert places(evening) == ([regs[0].pk, regs[1].pk], [regs[3].pk])
    restored = undo(regs[2], host)
    assert (restored.undone_as, restored.place) == (lineup.UndoneAs.RESERVE, 1)
    assert places(evening) == before
    back = Registration.objects.get(pk=regs[2].pk)
    assert (back.arrival, back.cancelled_at) == (regs[2].arrival, None)
    # After the start the reserve does not move up: a seated no-show's seat waits, free, and
    # the undo gives it back, the same number.
    Evening.objects.filter(pk=evening.pk).update(starts_at=timezone.now() - timedelta(minutes=5))
    removed = lineup.lineup_remove(registration_id=regs[0].pk, reason="no_show", actor=host)
    assert removed.promoted == []
    restored = undo(regs[0], host)
    assert (restored.undone_as, restored.place) == (lineup.UndoneAs.SEAT, 1)
    assert places(evening) == before
    # Someone who left and comes back: on the list again, their check-in kept.
    lineup.lineup_check_in(registration_id=regs[1].pk, actor=host)
    lineup.lineup_remove(registration_id=regs[1].pk, reason="left", actor=host)
    undo(regs[1], host)
    back = Registration.objects.get(pk=regs[1].pk)
    assert (back.status, back.left_at) == (RegistrationStatus.CONFIRMED, None)
    assert back.checked_in_at is not None
    assert places(evening) == before
    assert LineupChange.objects.filter(action=LineupAction.RESTORED, actor=host).count() == 3


def test_an_undo_after_the_seat_went_to_the_reserve_leaves_it_there_and_waits_first() -> None:
    host, evening = make_host(), soon(capacity=2)
    regs = [s.registration for s in sign_up_many(evening, 4)]
    removed = lineup.lineup_remove(registration_id=regs[0].pk, reason="no_show", actor=host)
    assert [r.pk for r in removed.promoted] == [regs[2].pk]
    promoted_told = len(told(regs[2].member))
    restored = undo(regs[0], host)
    assert (restored.undone_as, restored.place) == (lineup.UndoneAs.RESERVE_FRONT, 1)
    # Whoever took the seat keeps it and hears nothing more; the restored waits first.
    assert places(evening) == ([regs[1].pk, regs[2].pk], [regs[0].pk, regs[3].pk])
    assert len(told(regs[2].member)) == promoted_told
    assert told(regs[0].member)[-1].startswith(
        "Организатор отменил снятие, но ваше место уже отдано резерву: теперь вы на первой "
        "позиции в резерве"
    )
    # The next seat that frees up is theirs, and they are told so.
    services.registration_cancel(member=regs[1].signed_member, evening_id=evening.pk)
    assert places(evening) == ([regs[0].pk, regs[2].pk], [regs[3].pk])  # by arrival
    assert told(regs[0].member)[-1].startswith("Освободилось место — вы в игре!")


def test_the_organiser_reads_where_the_undo_put_the_place() -> None:
    """The removal's answer offers «Вернуть» in its row; the undo's answer says, in the row
    back on the list, where the place went; the log says who took it back."""
    host, evening = make_host(), soon(capacity=2)
    regs = [s.registration for s in sign_up_many(evening, 3)]
    client = Client()
    client.force_login(host)

    def row(answer_body: str, registration: Registration) -> str:
        at = answer_body.index(f'id="r{registration.pk}"')
        return answer_body[at : answer_body.index("</li>", at)]

    removed = client.post(
        f"/evenings/{evening.pk}/lineup/{regs[1].pk}/remove/",
        {"reason": "no_show", "list": "seated"},
        headers=HTMX,
    ).content.decode()
    change = removal_of(regs[1])
    said = row(removed, regs[1])
    assert f'action="/evenings/{evening.pk}/lineup/{regs[1].pk}/undo/"' in said
    assert f'name="change" value="{change.pk}"' in said and "Вернуть" in said
    until = timezone.localtime(change.undo_until).strftime("%H:%M")
    assert f"до {until}" in said
    answer = client.post(
        f"/evenings/{evening.pk}/lineup/{regs[1].pk}/undo/",
        {"change": change.pk, "list": "seated"},
        headers=HTMX,
    )
    assert answer.status_code == 200
    said = " ".join(re.sub(r"<[^>]+>", " ", row(answer.content.decode(), regs[1])).split())
    assert (
        f"Возвращено, но место тем временем отдано резерву и остаётся за тем, кто его занял: "
        f"{nick(regs[1])} теперь на первом месте в резерве"
    ) in said
    assert "/undo/" not in answer.content.decode(), "an undone removal offers no undo"
    page = client.get(f"/evenings/{evening.pk}/lineup/").content.decode()
    assert f"Снятие отменено: {nick(regs[1])}" in " ".join(re.sub(r"<[^>]+>", " ", page).split())
    # The next seat that frees up is the restored one's.
    client.post(
        f"/evenings/{evening.pk}/lineup/{regs[0].pk}/remove/",
        {"reason": "by_phone", "list": "seated"},
        headers=HTMX,
    )
    assert places(evening) == ([regs[1].pk, regs[2].pk], [])
    # A seat still free comes back as it was.
    client.post(
        f"/evenings/{evening.pk}/lineup/{regs[2].pk}/remove/",
        {"reason": "by_phone", "list": "seated"},
        headers=HTMX,
    )
    answer = client.post(
        f"/evenings/{evening.pk}/lineup/{regs[2].pk}/undo/",
        {"change": removal_of(regs[2]).pk, "list": "seated"},
        headers=HTMX,
    )
    said = " ".join(re.sub(r"<[^>]+>", " ", row(answer.content.decode(), regs[2])).split())
    assert f"Возвращено: {nick(regs[2])} — снова в списке, № 2." in said
    assert places(evening) == ([regs[1].pk, regs[2].pk], [])


def test_an_undo_after_its_minutes_is_refused_and_no_longer_offered() -> None:
    host, evening = make_host(), soon(capacity=2)
    regs = [s.registration for s in sign_up_many(evening, 2)]
    client = Client()
    client.force_login(host)
    lineup.lineup_remove(registration_id=regs[0].pk, reason="no_show", actor=host)
    change = removal_of(regs[0])
    assert change.undo_until is not None
    with time_machine.travel(change.undo_until - timedelta(seconds=1), tick=False):
        page = client.get(f"/evenings/{evening.pk}/lineup/").content.decode()
        assert f"/lineup/{regs[0].pk}/undo/" in page  # on the removal's line in the log
    with time_machine.travel(change.undo_until, tick=False):
        page = client.get(f"/evenings/{evening.pk}/lineup/").content.decode()
        assert "/undo/" not in page
        answer = client.post(
            f"/evenings/{evening.pk}/lineup/{regs[0].pk}/undo/",
            {"change": change.pk, "list": "seated"},
            headers=HTMX,
        )
    assert answer.status_code == 409
    body = answer.content.decode()
    said = body[body.index(f'id="r{regs[0].pk}"') :]
    assert (
        "Поздно: снятие можно вернуть только в течение 5 минут. Добавьте в список заново."
        in said[: said.index("</li>")]
    )
    assert Registration.objects.get(pk=regs[0].pk).status == RegistrationStatus.NO_SHOW
    assert not LineupChange.objects.filter(action=LineupAction.RESTORED).exists()


def test_an_undo_is_once_and_only_the_removal_it_names() -> None:
    host, evening = make_host(), soon(capacity=2)
    regs = [s.registration for s in sign_up_many(evening, 2)]
    lineup.lineup_remove(registration_id=regs[0].pk, reason="no_show", actor=host)
    first = removal_of(regs[0])
    undo(regs[0], host)
    with pytest.raises(Refused) as again:  # the other organiser's tap, a moment later
        undo(regs[0], host)
    assert (again.value.code, again.value.message) == (RefusalCode.CONFLICT, "Уже снова в списке.")
    # Removed again: told again (the removal's message is the log line's, not the place's),
    # and the first removal's stale «Вернуть» does not take the second one back.
    lineup.lineup_remove(registration_id=regs[0].pk, reason="no_show", actor=host)
    assert len([k for k in keys(regs[0].member) if k.startswith("removed:")]) == 2
    with pytest.raises(Refused) as stale:
        lineup.lineup_remove_undo(registration_id=regs[0].pk, change_id=first.pk, actor=host)
    assert stale.value.message == "Это снятие уже не вернуть: запись с тех пор изменилась."
    # Put back by a new sign-up meanwhile: nothing to take back.
    lineup.lineup_add_member(evening_id=evening.pk, member_id=regs[0].member_id or 0, actor=host)
    with pytest.raises(Refused):
        undo(regs[0], host)
    # Another registration's removal named: none such for this row.
    lineup.lineup_remove(registration_id=regs[1].pk, reason="no_show", actor=host)
    with pytest.raises(Refused) as other:
        lineup.lineup_remove_undo(
            registration_id=regs[0].pk, change_id=removal_of(regs[1]).pk, actor=host
        )
    assert other.value.code == RefusalCode.NOT_FOUND
    # A finished evening changes no more.
    Evening.objects.filter(pk=evening.pk).update(status="finished")
    with pytest.raises(Refused) as over:
        undo(regs[1], host)
    assert over.value.code == RefusalCode.CLOSED


def test_only_a_host_or_an_admin_takes_a_removal_back() -> None:
    host, evening = make_host(), soon(capacity=2)
    regs = [s.registration for s in sign_up_many(evening, 2)]
    lineup.lineup_remove(registration_id=regs[0].pk, reason="no_show", actor=host)
    member = Client()
    member.force_login(make_member())
    answer = member.post(
        f"/evenings/{evening.pk}/lineup/{regs[0].pk}/undo/",
        {"change": removal_of(regs[0]).pk},
        headers=HTMX,
    )
    assert answer.status_code == 403
    assert Registration.objects.get(pk=regs[0].pk).status == RegistrationStatus.NO_SHOW
    assert not LineupChange.objects.filter(action=LineupAction.RESTORED).exists()
    # No removal named, or not a number: refused in the row, nothing changed.
    organiser = Client()
    organiser.force_login(host)
    for body in ({}, {"change": "x"}):
        answer = organiser.post(
            f"/evenings/{evening.pk}/lineup/{regs[0].pk}/undo/", body, headers=HTMX
        )
        assert answer.status_code == 404 and "Такого снятия нет." in answer.content.decode()
    assert Registration.objects.get(pk=regs[0].pk).status == RegistrationStatus.NO_SHOW


def test_the_member_told_of_the_removal_is_told_they_are_back_in_their_language() -> None:
    host, evening = make_host(), soon(capacity=2)
    english, russian, waiting, gone = (make_member() for _ in range(4))
    User.objects.filter(pk=english.pk).update(language="en")
    for member in (english, russian):
        services.registration_create(
            member=member, evening_id=evening.pk, source=RegistrationSource.WEB
        )
    mine = {r.member_id: r for r in Registration.objects.filter(evening=evening)}
    lineup.lineup_remove(registration_id=mine[english.pk].pk, reason="no_show", actor=host)
    undo(mine[english.pk], host)
    assert told(english)[-1].startswith(
        "The organiser has taken back your removal: you are on the list again, no. 1 of 2."
    )
    services.registration_create(
        member=waiting, evening_id=evening.pk, source=RegistrationSource.WEB
    )
    mine = {r.member_id: r for r in Registration.objects.filter(evening=evening)}
    lineup.lineup_remove(registration_id=mine[waiting.pk].pk, reason="no_show", actor=host)
    undo(mine[waiting.pk], host)
    assert told(waiting)[-1].startswith(
        "Организатор отменил снятие: вы снова в резерве, позиция 1."
    )
    lineup.lineup_remove(registration_id=mine[russian.pk].pk, reason="by_phone", actor=host)
    # The seat went to the reserve's first (`waiting`), who was told so.
    assert told(waiting)[-1].startswith("Освободилось место — вы в игре!")
    undo(mine[russian.pk], host)
    assert told(russian)[-1].startswith(
        "Организатор отменил снятие, но ваше место уже отдано резерву"
    )
    assert [k.split(":")[0] for k in keys(russian)] == ["seat", "removed", "restored"]
    # Someone who left was not told of it, and is not told of the undo either.
    services.registration_create(member=gone, evening_id=evening.pk, source=RegistrationSource.WEB)
    place = Registration.objects.get(evening=evening, member=gone)
    before = keys(gone)
    lineup.lineup_remove(registration_id=place.pk, reason="left", actor=host)
    undo(place, host)
    assert keys(gone) == before
