import pytest

from accounts.models import User
from club.models import Evening
from tests.games.recording import evening_with_players, make_host


@pytest.fixture
def table(db: None) -> tuple[User, Evening, list[User]]:
    """A host, and an evening with twelve members signed up."""
    host = make_host()
    evening, players = evening_with_players()
    return host, evening, players
