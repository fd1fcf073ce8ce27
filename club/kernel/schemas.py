from typing import Any, Self

from ninja import Field, Schema
from pydantic import ModelWrapValidatorHandler, model_validator
from pydantic_core import PydanticCustomError

from club.kernel.errors import STATUS, RefusalCode
from games.rules.errors import RuleCode


class ErrorOut(Schema):
    """Every error answer of the API (club/doors/api.py's `on_error`): the message in the
    reader's language, the reason's code, and the refusal's details beside them (a game's
    `seq`, an upload's `offset`, a throttle's `retry_after`, ...)."""

    model_config = {"extra": "allow"}
    detail: str
    code: RefusalCode | RuleCode = Field(
        ...,
        description=(
            "Why: its HTTP status follows from it. An event the rules refuse carries the "
            "rule's own code (a RuleCode, with 422)."
        ),
    )


# Every endpoint documents the error answers it can give: JSON {"detail", "code", ...} each,
# under every status a refusal can carry.
ERRORS: dict[int, type[Schema]] = {status: ErrorOut for status in sorted(set(STATUS.values()))}


class ObjectBody(Schema):
    """A request body that must be a JSON object. ninja's Schema reads its fields off any
    value (its DjangoGetter), so a body of `[]` or `"x"` would pass as the defaults of a
    schema whose fields all have one: such a body is refused as «must be an object» (422,
    the API's error body), as a schema with a required field refuses it."""

    @model_validator(mode="wrap")
    @classmethod
    def _an_object(cls, value: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        if not isinstance(value, dict | cls):
            raise PydanticCustomError("dict_type", "Input should be a valid dictionary")
        return handler(value)
