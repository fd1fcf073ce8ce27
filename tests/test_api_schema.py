"""Schemathesis over the whole API schema, as each kind of caller (a visitor without a
token, a member, a host, an admin): generated input never gets a 5xx or a response that
breaks the schema."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from pytest_django import Settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from accounts.services import api_token_create
from tests.examples import examples
from tests.factories import make_member
from tests.games.recording import make_host

if TYPE_CHECKING:  # schemathesis names its OpenAPI case for type checkers only
    from schemathesis.specs.openapi.schemas import OpenApiCase

schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())


def _caller(role: str) -> dict[str, str]:
    if role == "visitor":
        return {}
    if role == "host":
        member = make_host(nickname="Схема-ведущий")
    else:
        member = make_member(
            nickname=f"Схема-{role}", is_staff=role == "admin", is_superuser=role == "admin"
        )
    return {"Authorization": f"Bearer {api_token_create(member=member).key}"}


@pytest.fixture(params=["visitor", "member", "host", "admin"])
def headers(
    request: pytest.FixtureRequest, db: None, settings: Settings
) -> Iterator[dict[str, str]]:
    settings.RATELIMIT_ENABLE = False
    # As Django's test client does: keep the test's connection (and its transaction) open
    # across the requests instead of closing it when each one finishes.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield _caller(request.param)
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(max_examples=examples(25), deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_keeps_its_schema(case: OpenApiCase, headers: dict[str, str]) -> None:
    # A schema-valid body may still be refused for what it says (no such member, a game
    # for ten players): the club's rules are not all in the schema, so that check is off.
    case.call_and_validate(headers=headers, excluded_checks=[positive_data_acceptance])
