import pytest
from django.test import Client

from accounts.models import User
from tests.factories import make_member


@pytest.fixture
def member(db: None) -> User:
    return make_member()


@pytest.fixture
def member_client(member: User) -> Client:
    client = Client()
    client.force_login(member)
    return client


@pytest.fixture
def admin_member(db: None) -> User:
    return make_member(nickname="Админ", is_staff=True, is_superuser=True)


@pytest.fixture
def admin_client_(admin_member: User) -> Client:
    client = Client()
    client.force_login(admin_member)
    return client


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings) -> None:
    # PBKDF2's real cost is a security feature, not something the tests need to pay for.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_club_settings() -> None:
    # Each test's database starts from the migration's row; forget what the last one cached.
    from club.models import _settings_cache

    _settings_cache.clear()
