"""Which club a request, a query and a task work for (club/kernel/tenancy.py): the first
club keeps its addresses, another club answers under /c/<slug>/, and each reads only itself."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from club.kernel import tenancy
from club.kernel.clubs import Club
from club.kernel.tenancy import NoClubInScope, club_scope
from club.models import Evening, Registration
from tests.factories import make_evening, sign_up_many

pytestmark = pytest.mark.django_db


@pytest.fixture
def second_club() -> Club:
    return Club.objects.create(slug="north", name="Северный клуб", venue="Маяк")


def test_a_single_club_site_needs_no_scope_and_keeps_its_addresses() -> None:
    (only,) = tenancy.club_ids(fresh=True)
    evening = make_evening()
    assert evening.club_id == only == Club.current().pk
    assert reverse("evening", args=[evening.pk]) == f"/evenings/{evening.pk}/"
    assert Client().get(f"/evenings/{evening.pk}/").status_code == 200


def test_rows_belong_to_the_club_in_scope_and_each_club_reads_only_its_own(
    second_club: Club,
) -> None:
    first = Club.objects.order_by("pk").first()
    assert first is not None
    with club_scope(first):
        ours = make_evening(venue="Первый зал")
        sign_up_many(ours, 1)
    with club_scope(second_club):
        theirs = make_evening(venue="Маяк")
        sign_up_many(theirs, 1)
        assert theirs.club_id == second_club.pk
        assert list(Evening.objects.values_list("pk", flat=True)) == [theirs.pk]
        assert Registration.objects.get().evening_id == theirs.pk
        assert not Evening.objects.filter(pk=ours.pk).exists()
    with club_scope(first):
        assert list(Evening.objects.values_list("pk", flat=True)) == [ours.pk]
    # Reading across clubs is said out loud.
    assert Evening.all_clubs.count() == 2


def test_a_queryset_built_once_reads_the_club_in_scope_when_it_runs(second_club: Club) -> None:
    every_evening = Evening.objects.all()  # as a form's choices are built at import
    with club_scope(second_club):
        theirs = make_evening()
        assert list(every_evening.all()) == [theirs]
    with club_scope(tenancy.first_club_id()):
        assert list(every_evening.all()) == []


def test_with_several_clubs_and_no_scope_a_query_is_refused_not_guessed(
    second_club: Club,
) -> None:
    with pytest.raises(NoClubInScope):
        list(Evening.objects.all())
    with pytest.raises(NoClubInScope):
        make_evening()


def test_another_club_answers_under_its_prefix_and_its_links_stay_inside(
    second_club: Club,
) -> None:
    with club_scope(second_club):
        theirs = make_evening()
        assert reverse("evening", args=[theirs.pk]) == f"/c/north/evenings/{theirs.pk}/"
    ours = make_evening_in_first_club()
    client = Client()
    page = client.get(f"/c/north/evenings/{theirs.pk}/")
    assert page.status_code == 200
    body = page.content.decode()
    assert "Маяк" in body and f"next=/c/north/evenings/{theirs.pk}/" in body
    # Each club's evening is not there at the other's address.
    assert client.get(f"/evenings/{theirs.pk}/").status_code == 404
    assert client.get(f"/c/north/evenings/{ours.pk}/").status_code == 404
    assert client.get(f"/evenings/{ours.pk}/").status_code == 200
    # The prefix without its slash, and a club that does not exist.
    assert client.get("/c/north")["Location"] == "/c/north/"
    assert client.get("/c/nowhere/").status_code == 404


def make_evening_in_first_club() -> Evening:
    with club_scope(tenancy.first_club_id()):
        return make_evening(venue="Первый зал")


def test_a_club_deleted_forgets_its_slug(second_club: Club) -> None:
    assert Club.by_slug("north") == second_club
    second_club.delete()
    assert Club.by_slug("north") is None
    assert len(tenancy.club_ids()) == 1
