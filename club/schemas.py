from typing import Protocol

from ninja import Schema
from ninja.errors import HttpError


class ErrorOut(Schema):
    detail: str


# Every endpoint documents the error answers it can give: JSON {"detail": ...} each.
ERRORS: dict[int, type[Schema]] = {status: ErrorOut for status in (400, 401, 403, 404, 409, 422)}


# A service's refusal (GameRefused, RecordingRefused, OnlineRefused: a `code` and a
# `message` for the user) as the API's answer.
REFUSAL_STATUS = {"forbidden": 403, "not_found": 404, "stale": 409, "conflict": 409, "invalid": 422}


class Refusal(Protocol):
    code: str
    message: str


def refused(refusal: Refusal) -> HttpError:
    return HttpError(REFUSAL_STATUS.get(refusal.code, 422), refusal.message)
