import pytest
from django.core.management import call_command
from django.utils import timezone
from pytest_django import Settings

from accounts.models import User
from club.models import Evening

pytestmark = pytest.mark.django_db


def test_demo_data_loads_the_club_once(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("demo_data")
    first = capsys.readouterr().out
    assert "admin / admin-demo" in first
    assert User.objects.count() == 22  # 20 members, a host and an admin
    admin = User.objects.get(nickname="admin")
    assert admin.is_superuser and admin.is_staff
    assert User.objects.get(nickname="Ведущий").has_perm("accounts.host_games")
    assert User.objects.filter(memberships__publication_consent=False).count() == 1
    assert User.objects.get(nickname="Ворон").check_password("mafia-demo")
    evening = Evening.objects.upcoming().get()
    assert evening.is_open_for_signup()
    from games.models import Game

    assert Game.objects.filter(ruleset="online", status="running").count() == 1
    # Last week's game, played to the end (the tournament's are today's).
    played = Game.objects.get(ruleset="club", tournament_table__isnull=True)
    assert played.status == "finished" and played.winner == "red"
    assert timezone.localtime(evening.starts_at).strftime("%w %H:%M") == "0 18:00"
    # Last week's evening was a club evening too: a Sunday at 18:00, over by now.
    assert played.evening is not None
    past = timezone.localtime(played.evening.starts_at)
    assert past.strftime("%w %H:%M") == "0 18:00" and past < timezone.localtime()

    call_command("demo_data")
    assert "already loaded" in capsys.readouterr().out
    assert User.objects.count() == 22
    assert Evening.objects.count() == 3  # last week's, next Sunday's, the tournament's


def test_demo_data_is_refused_in_production(settings: Settings) -> None:
    from django.core.management import CommandError

    settings.PRODUCTION = True
    with pytest.raises(CommandError):
        call_command("demo_data")
    assert not User.objects.exists()
