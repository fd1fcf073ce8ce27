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
