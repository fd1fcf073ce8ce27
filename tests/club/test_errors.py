"""The one error contract: a refusal's code names its reason and gives its status, and every
JSON door answers `{"detail", "code", ...details}` with that status."""

import json
import logging
import textwrap
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.test import Client, RequestFactory
from mypy import api as mypy_api
from ninja.errors import AuthenticationError, HttpError, ValidationError

from club.doors.api import on_error
from club.kernel import parsing
from club.kernel.errors import STATUS, RefusalCode, Refused
from games.rules.errors import RuleCode

ROOT = Path(__file__).resolve().parents[2]


def test_every_code_has_one_status_and_it_is_a_client_error() -> None:
    assert set(STATUS) == set(RefusalCode)
    assert all(400 <= status < 500 for status in STATUS.values())
    for code in RefusalCode:
        refusal = Refused("No.", code)
        assert (refusal.code, refusal.status) == (code, STATUS[code])


def test_a_refusal_cannot_be_made_without_a_code(tmp_path: Path) -> None:
    """Every refusal names its reason: without one it does not type-check, nor run."""
    with pytest.raises(TypeError):
        Refused("No.")  # type: ignore[call-arg]
    sample = tmp_path / "sample.py"
    sample.write_text(
        textwrap.dedent(
            """
            from club.kernel.errors import RefusalCode, Refused

            Refused("No.", RefusalCode.INVALID)
            Refused("No.")
            """
        )
    )
    out, _err, status = mypy_api.run(
        [str(sample), "--follow-imports=silent", "--no-incremental", "--config-file="]
    )
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert status == 1 and len(errors) == 1 and "sample.py:5" in errors[0], out


def _answer(exc: Exception) -> tuple[int, dict[str, Any]]:
    response = on_error(RequestFactory().post("/api/v1/anything"), exc)
    return response.status_code, json.loads(response.content)


@pytest.mark.parametrize("code", list(RefusalCode))
def test_the_api_answers_every_code_with_its_status_and_the_code(code: RefusalCode) -> None:
    status, body = _answer(Refused("Нельзя.", code, seq=7))
    assert status == STATUS[code]
    assert body == {"detail": "Нельзя.", "code": code.value, "seq": 7}


def test_a_detail_cannot_hide_the_message_or_the_code() -> None:
    _status, body = _answer(Refused("Нельзя.", RefusalCode.STALE, detail="x", code="y"))
    assert (body["detail"], body["code"]) == ("Нельзя.", "stale")


def _cannot_parse() -> HttpError:
    try:
        try:
            raise ValueError("not JSON")
        except ValueError as error:
            raise HttpError(400, "Cannot parse request body") from error
    except HttpError as wrapped:
        return wrapped


def _unstorable() -> HttpError:
    try:
        try:
            parsing.loads(b'{"a": "\\u0000"}')
        except parsing.Unreadable as error:
            raise HttpError(400, "Cannot parse request body") from error
    except HttpError as wrapped:
        return wrapped
    raise AssertionError("a NUL was read")


@pytest.mark.parametrize(
    ("failure", "status", "code"),
    [
        (ValidationError([{"loc": ("body", "payload", "n"), "msg": "bad"}]), 422, "invalid"),
        (AuthenticationError(), 401, "unauthenticated"),
        (_cannot_parse(), 400, "unreadable"),
        (_unstorable(), 422, "invalid"),
        (HttpError(403, "CSRF check Failed"), 403, "forbidden"),
        (HttpError(429, "Too many requests."), 429, "throttled"),
        (Http404(), 404, "not_found"),
        (PermissionDenied(), 403, "forbidden"),
    ],
)
def test_every_other_failure_has_the_same_shape(failure: Exception, status: int, code: str) -> None:
    answer_status, body = _answer(failure)
    assert (answer_status, body["code"]) == (status, code)
    assert isinstance(body["detail"], str) and body["detail"]
    assert "Cannot parse" not in body["detail"] and "CSRF check Failed" not in body["detail"]


def test_a_bug_is_logged_and_answered_as_json_with_code_internal(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.ERROR, logger="club.doors.api"):
        status, body = _answer(ZeroDivisionError("a bug"))
    assert (status, body["code"]) == (500, "internal")
    assert "ZeroDivisionError" in caplog.text


def test_the_schema_documents_the_error_body_and_every_code() -> None:
    schema = Client().get("/api/v1/openapi.json").json()
    error = schema["components"]["schemas"]["ErrorOut"]
    assert set(error["required"]) == {"detail", "code"}
    codes = schema["components"]["schemas"]["RefusalCode"]["enum"]
    assert sorted(codes) == sorted(code.value for code in RefusalCode)
    rules = schema["components"]["schemas"]["RuleCode"]["enum"]  # an event the rules refused
    assert sorted(rules) == sorted(code.value for code in RuleCode)
    answers = schema["paths"]["/api/v1/games/{game_id}/events"]["post"]["responses"]
    assert {str(status) for status in STATUS.values()} <= set(answers)


def test_mypy_rejects_a_free_string_for_a_code(tmp_path: Path) -> None:
    """The codes are an enumeration: a raise with a string of its own does not type-check."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        textwrap.dedent(
            """
            from club.kernel.errors import RefusalCode, Refused

            Refused("No.", RefusalCode.NOT_FOUND)
            Refused("No.", "not_found")
            """
        )
    )
    out, _err, status = mypy_api.run(
        [
            str(sample),
            "--follow-imports=silent",
            "--no-incremental",
            "--config-file=",
        ]
    )
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert status == 1 and len(errors) == 1, out
    assert "sample.py:5" in errors[0] and "RefusalCode" in errors[0]
