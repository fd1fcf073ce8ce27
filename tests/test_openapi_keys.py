"""The published OpenAPI document is valid JSON without duplicated keys: Swagger UI (the
/api/v1/docs page) reads it as YAML and refuses a document with one."""

import json

from django.test import Client


def test_the_schema_has_no_duplicated_keys() -> None:
    duplicated: list[str] = []

    def pairs(items: list[tuple[str, object]]) -> dict[str, object]:
        keys = [key for key, _value in items]
        duplicated.extend(key for key in set(keys) if keys.count(key) > 1)
        return dict(items)

    body = Client().get("/api/v1/openapi.json").content
    json.loads(body, object_pairs_hook=pairs)
    assert duplicated == []
