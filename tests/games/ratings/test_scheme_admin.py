"""Admins change the scoring by adding a version in Django admin; every game is rescored."""

import pytest
from django.test import Client
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.models import User
from games.ratings.models import ScoringPreset, ScoringScheme
from games.rules.scoring import Scheme

pytestmark = pytest.mark.django_db
ADD = "/admin/ratings/scoringscheme/add/?preset="


def add(preset: str = "club") -> str:
    return ADD + str(ScoringPreset.objects.get(code=preset).pk)


def form(preset: str = "club", **points: float) -> dict[str, object]:
    fields = Scheme().to_dict() | points
    fields["tie_breakers"] = ", ".join(fields["tie_breakers"])
    return {"note": "Saves matter more", "preset": ScoringPreset.objects.get(code=preset).pk} | (
        fields
    )


def test_a_new_version_is_stored_and_every_game_is_rescored_after_the_commit(
    admin_client_: Client,
    admin_member: User,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    queued: list[tuple[str, tuple[object, ...]]],
) -> None:
    page = admin_client_.get(add())
    assert page.status_code == 200
    assert 'value="0.4"' in page.content.decode()  # starts from the current version
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client_.post(add(), form(doctor_save=0.8))
    assert response.status_code == 302
    latest = ScoringScheme.objects.current()
    assert (latest.preset.code, latest.version, latest.created_by) == ("club", 2, admin_member)
    assert latest.scheme().doctor_save == 0.8
    assert queued == [("games.ratings.tasks.games_rescore", ())]


def test_points_out_of_range_are_refused_and_nothing_changes(admin_client_: Client) -> None:
    response = admin_client_.post(add(), form(win=50))
    assert response.status_code == 200
    assert "errornote" in response.content.decode()
    assert ScoringScheme.objects.filter(preset__code="club").count() == 1


def test_a_version_games_were_scored_by_cannot_be_edited_or_deleted(admin_client_: Client) -> None:
    v1 = ScoringScheme.objects.get(preset__code="club", version=1)
    change = f"/admin/ratings/scoringscheme/{v1.pk}/change/"
    assert admin_client_.get(change).status_code == 200  # shown, read-only
    admin_client_.post(change, {"note": "rewritten"})
    assert ScoringScheme.objects.get(pk=v1.pk).note != "rewritten"
    assert admin_client_.post(f"/admin/ratings/scoringscheme/{v1.pk}/delete/").status_code == 403
