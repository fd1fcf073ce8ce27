"""Schemathesis over the whole API schema: generated input never gets a 5xx or a response
that breaks the schema."""

from collections.abc import Iterator

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings

from accounts.services import api_token_create
from tests.factories import make_member

schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())


@pytest.fixture
def token(db: None) -> Iterator[str]:
    # As Django's test client does: keep the test's connection (and its transaction) open
    # across the requests instead of closing it when each one finishes.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield api_token_create(member=make_member(nickname="Схема")).key
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_keeps_its_schema(case, token: str) -> None:
    case.call_and_validate(headers={"Authorization": f"Bearer {token}"})
