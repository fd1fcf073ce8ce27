"""Django admin, one club at a time (#41, item 4; club/doors/admin_scope.py): every registered
admin model, under another club's address, lists, opens, changes, deletes and acts on none of
this club's rows; its choices, autocompletes and raw-id lookups offer none of its rows or
people; an admin of one club is refused at another's door; a platform admin sees each club
in its own admin and every club in the clubs' list."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.core.management import call_command
from django.db import models
from django.forms.models import model_to_dict
from django.test import Client

from accounts.models import User
from club.doors.admin_scope import (
    ClubPeopleAdmin,
    ClubRowsAdmin,
    ClubStackedInline,
    ClubTabularInline,
    PlatformOnlyAdmin,
    PlatformRowsAdmin,
    club_path,
    of_the_club,
)
from club.kernel.clubs import Club
from club.kernel.tenancy import club_scope
from tests.factories import PASSWORD, make_member

pytestmark = pytest.mark.django_db


def _registered() -> list[tuple[type[models.Model], admin.ModelAdmin[Any]]]:
    return list(admin.site._registry.items())


def test_every_admin_model_says_whose_rows_it_shows() -> None:
    """A new admin cannot slip in unscoped: each is a club's rows (with a path to its club),
    the platform's, or the accounts'; each inline, a club's rows."""
    from club.admin import ClubAdmin

    for model, model_admin in _registered():
        if isinstance(model_admin, ClubRowsAdmin):
            assert club_path(model) is not None, model
        else:
            assert isinstance(
                model_admin, PlatformRowsAdmin | PlatformOnlyAdmin | ClubPeopleAdmin | ClubAdmin
            ), model
            assert club_path(model) in (None, "pk"), model
        if not isinstance(model_admin, ClubRowsAdmin):
            continue  # an account's API keys are the account's; a league is above clubs
        for inline in model_admin.inlines:
            assert issubclass(inline, ClubTabularInline | ClubStackedInline), inline
            assert club_path(inline.model) is not None, inline


def _snapshot(club_id: int) -> dict[str, list[dict[str, Any]]]:
    """Every row of every club model of the club `club_id`, as the database holds it."""
    rows = {}
    for model, _model_admin in _registered():
        if club_path(model) not in (None, "pk"):
            ours = of_the_club(model._base_manager.order_by("pk"), club_id)
            rows[model._meta.label] = [model_to_dict(row) for row in ours]
    return rows


def _rows_the_demo_club_lacks() -> None:
    """A row of each club model the demo club has none of, in the first club."""
    from datetime import date

    from django.utils import timezone

    from club.models import Evening, Guest, LineupAction, LineupChange, Registration
    from games.models import Game
    from games.ratings.models import ScoringPreset, SeasonPreset
    from games.recordings.models import Recording, RecordingDeletion
    from history.models import HistoryClaim, HistoryImport
    from live.models import LinkKind, LiveLink
    from tournaments.models import Absence, JudgeConflict

    organiser = User.objects.get(nickname="admin")
    evening = Evening.objects.order_by("pk").first()
    registration = Registration.objects.order_by("pk").first()
    game = Game.objects.order_by("pk").first()
    assert evening is not None and registration is not None and game is not None
    guest = Guest.objects.create(name="Гость клуба А")
    HistoryImport.objects.create(author=organiser, filename="a.csv", sha256="0" * 64)
    HistoryClaim.objects.create(guest=guest, member=organiser)
    LineupChange.objects.create(evening=evening, action=LineupAction.ADDED, actor=organiser)
    preset = ScoringPreset.objects.order_by("pk").first()
    assert preset is not None
    SeasonPreset.objects.create(since=date(2030, 1, 1), preset=preset)
    Recording.objects.create(game=game, original_name="a.ogg", size=10, started_at=timezone.now())
    RecordingDeletion.objects.create(
        recording_id=1, game=game, size=10, deleted_at=timezone.now(), reason="admin"
    )
    Absence.objects.create(registration=registration, round=1)
    JudgeConflict.objects.create(judge=organiser, registration=registration)
    link = LiveLink(kind=LinkKind.OVERLAY, game=game, created_by=organiser)
    link.set_key(LiveLink.new_key())
    link.save()


def test_another_clubs_admin_shows_and_touches_none_of_this_clubs_rows() -> None:
    call_command("demo_data", stdout=open("/dev/null", "w"))  # noqa: SIM115
    _rows_the_demo_club_lacks()
    b = Club.objects.create(slug="b", name="B")
    platform = User.objects.get(nickname="admin")
    assert platform.is_superuser
    client = Client()
    client.force_login(platform)
    first_id = Club.objects.order_by("pk").values_list("pk", flat=True)[0]
    before = _snapshot(first_id)
    nicknames = list(User.objects.exclude(is_superuser=True).values_list("nickname", flat=True))
    checked = 0
    missing: list[str] = []
    for model, model_admin in _registered():
        path = club_path(model)
        if path in (None, "pk"):
            continue
        meta = model._meta
        base = f"/c/b/admin/{meta.app_label}/{meta.model_name}/"
        listing = client.get(base)
        assert listing.status_code == 200, base
        # None of this club's rows (the other club's own may be there: a forecast it keeps).
        listed = [row.pk for row in listing.context["cl"].result_list]
        mine = of_the_club(model._base_manager.filter(pk__in=listed), first_id)
        assert not mine.exists(), base
        ours = list(model._base_manager.all()[:3])
        if not ours:
            missing.append(meta.label)
            continue
        checked += 1
        for row in ours:
            for suffix in ("change/", "delete/", "history/"):
                opened = client.get(f"{base}{row.pk}/{suffix}")
                # Django's «doesn't exist» (a redirect to the index) or a refusal.
                assert opened.status_code in (302, 403, 404), f"{base}{row.pk}/{suffix}"
            client.post(f"{base}{row.pk}/delete/", {"post": "yes"})
        for action in model_admin.get_actions(_request(platform, b)):
            answer = client.post(
                base,
                {
                    "action": action,
                    "_selected_action": [row.pk for row in ours],
                    "confirmed": "yes",
                    "post": "yes",
                },
            )
            text = answer.content.decode(errors="replace")
            if answer.get("Content-Disposition"):  # an export: none of this club's rows
                assert not [name for name in nicknames if name in text], (base, action)
    assert missing == [], f"the demo club has none of {missing}: the test would prove nothing"
    assert _snapshot(first_id) == before


def _request(user: User, club: Club) -> Any:
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    request.user = user
    request.club = club  # type: ignore[attr-defined]
    return request


def test_another_clubs_choices_offer_none_of_this_clubs_rows_or_people(
    admin_client_: Client,
) -> None:
    from club.models import Guest, Registration, RegistrationSource
    from club.services import registration_create
    from tests.factories import make_evening

    evening = make_evening()
    ours = make_member(nickname="Свой")
    registration = registration_create(
        member=ours, evening_id=evening.pk, source=RegistrationSource.WEB
    ).registration
    b = Club.objects.create(slug="b", name="B")
    with club_scope(b):
        guest = Guest.objects.create(name="Гость Б")
    # The autocomplete of a guest's member (the accounts' list under the club's people).
    found = admin_client_.get(
        "/c/b/admin/autocomplete/",
        {"app_label": "club", "model_name": "guest", "field_name": "member", "term": "Свой"},
    ).json()
    # A platform admin's accounts list holds everyone, but a choice is the club's people.
    page = admin_client_.get(f"/c/b/admin/club/guest/{guest.pk}/change/")
    assert page.status_code == 200
    form = page.context["adminform"].form
    with club_scope(b):
        assert ours not in form.fields["member"].queryset
    linked = admin_client_.post(f"/c/b/admin/club/guest/{guest.pk}/change/", {"member": ours.pk})
    assert linked.status_code == 200  # the form again, with the error
    with club_scope(b):
        assert Guest.objects.get(pk=guest.pk).member is None
    assert isinstance(found["results"], list)
    # A raw id of this club's sign-up, typed into the other club's absence form.
    absence = admin_client_.get("/c/b/admin/tournaments/absence/add/")
    assert absence.status_code == 200
    choices = absence.context["adminform"].form.fields["registration"].queryset
    with club_scope(b):  # the choices are read when the page's request is over
        assert registration not in choices
    assert Registration.all_clubs.filter(pk=registration.pk).exists()


def test_a_club_admin_is_refused_at_another_clubs_door() -> None:
    staff = make_member(nickname="Орг", is_staff=True)  # the first club's admin
    Club.objects.create(slug="b", name="B")
    client = Client()
    client.force_login(staff)
    assert client.get("/admin/").status_code == 200  # their own club's
    for url in ("/c/b/admin/", "/c/b/admin/club/evening/", "/c/b/admin/club/club/"):
        answer = client.get(url)
        assert answer.status_code == 302 and "/c/b/admin/login/" in answer["Location"], url
    login = Client().post(
        "/c/b/admin/login/", {"username": "Орг", "password": PASSWORD, "next": "/c/b/admin/"}
    )
    assert login.status_code == 200  # the form again: not this club's admin
    assert "_auth_user_id" not in login.wsgi_request.session


def test_the_clubs_list_is_the_platform_admins_and_a_club_admin_edits_only_their_own(
    admin_client_: Client,
) -> None:
    first = Club.current()
    staff = Client()
    staff.force_login(make_member(nickname="Орг", is_staff=True, is_superuser=False))
    b = Club.objects.create(slug="b", name="Клуб Б")
    # A single club's list opens its row, as before there were clubs.
    Club.objects.filter(pk=b.pk).delete()
    assert admin_client_.get("/admin/club/club/").status_code == 302
    b = Club.objects.create(slug="b", name="Клуб Б")
    clubs = admin_client_.get("/admin/club/club/")
    assert clubs.status_code == 200 and clubs.context["cl"].result_count == 2
    assert "/c/b/admin/club/club/" in clubs.content.decode()
    # Another club's row is edited in that club's own admin.
    moved = admin_client_.get(f"/admin/club/club/{b.pk}/change/")
    assert moved.status_code == 302 and moved["Location"] == f"/c/b/admin/club/club/{b.pk}/change/"
    own = staff.get("/admin/club/club/")
    assert own.status_code == 302 and own["Location"].endswith(f"/club/club/{first.pk}/change/")
    other = staff.get(f"/admin/club/club/{b.pk}/change/")
    assert other.status_code == 302 and f"/{b.pk}/" not in other["Location"]
    assert staff.get("/admin/club/club/add/").status_code == 403
