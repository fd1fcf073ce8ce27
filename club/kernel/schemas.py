from ninja import Schema


class ErrorOut(Schema):
    detail: str


# Every endpoint documents the error answers it can give: JSON {"detail": ...} each.
ERRORS: dict[int, type[Schema]] = {status: ErrorOut for status in (400, 401, 403, 404, 409, 422)}
