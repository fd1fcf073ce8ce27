from ninja import Field, Schema

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
