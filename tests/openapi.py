"""The API's OpenAPI document as the server serves it (``/api/schema/``), for tests that need the API's shapes.

Canned answers of a fake server (the ADK adapter's unit tests) are built from the documented examples and
validated against the documented schemas, so they cannot drift from what the API returns: a field renamed in a
serializer fails the schema's validation of the example it documents (``tests/api/test_openapi_examples.py``), and
a canned body made up in a test fails :meth:`OpenApi.validate`.

Validation is strict: an object that lists its properties accepts no others (the API's serializers send only the
fields they declare), so a canned body cannot carry a field the API does not send.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

from openapi_schema_validator import OAS30Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4

SCHEMA_URL = "/api/schema/"
_ROOT = "urn:orgmemory-openapi"


def _strict(node: Any) -> Any:
    if isinstance(node, dict):
        if node.get("type") == "object" and "properties" in node and "additionalProperties" not in node:
            node["additionalProperties"] = False
        for value in node.values():
            _strict(value)
    elif isinstance(node, list):
        for value in node:
            _strict(value)
    return node


class OpenApi:
    """One OpenAPI 3.0 document: its operations by ``operationId``, their examples, and validation of bodies."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self._operations = {
            operation["operationId"]: (method.upper(), path, operation)
            for path, methods in document["paths"].items()
            for method, operation in methods.items()
            if isinstance(operation, dict) and "operationId" in operation
        }
        strict = _strict(copy.deepcopy(document))
        self._registry = Registry().with_resource(_ROOT, Resource.from_contents(strict, default_specification=DRAFT4))

    @classmethod
    def served(cls) -> OpenApi:
        """The document the running app serves (Django's test client; no database needed)."""
        from django.test import Client

        response = Client().get(SCHEMA_URL, {"format": "json"})
        assert response.status_code == 200, f"{SCHEMA_URL} answered {response.status_code}"
        return cls(json.loads(response.content))

    # --- operations and examples ----------------------------------------------------------------------------------

    def operation(self, operation_id: str) -> tuple[str, str, dict[str, Any]]:
        """``(method, path, operation)`` of ``operation_id``."""
        return self._operations[operation_id]

    def _media(self, operation_id: str, status: int | str) -> dict[str, Any]:
        method, path, operation = self.operation(operation_id)
        response = operation["responses"].get(str(status))
        assert response is not None, f"{method} {path} documents no {status} response"
        return response.get("content", {}).get("application/json", {})

    def examples(self) -> Iterator[tuple[str, str, str, Any, dict[str, Any]]]:
        """Every documented example: ``(operation_id, "request" or the status, name, value, schema)``."""
        for operation_id, (_, _, operation) in self._operations.items():
            media = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
            for name, example in media.get("examples", {}).items():
                yield operation_id, "request", name, example["value"], media["schema"]
            for status, response in operation["responses"].items():
                media = response.get("content", {}).get("application/json", {})
                for name, example in media.get("examples", {}).items():
                    yield operation_id, status, name, example["value"], media["schema"]

    def example(self, operation_id: str, status: int | str = 200, name: str | None = None) -> Any:
        """A copy of the example documented for ``operation_id``'s ``status`` response: the one named ``name`` (its
        summary as written in the code, e.g. "with an answer"), or the only one."""
        examples = self._media(operation_id, status).get("examples", {})
        if name is None:
            assert len(examples) == 1, f"{operation_id} {status}: name one of {sorted(examples)}"
            (example,) = examples.values()
        else:
            matches = [e for key, e in examples.items() if name in (key, e.get("summary"))]
            assert matches, f"{operation_id} {status} documents no example {name!r}: {sorted(examples)}"
            example = matches[0]
        return copy.deepcopy(example["value"])

    # --- validation -----------------------------------------------------------------------------------------------

    def errors(self, body: Any, schema: dict[str, Any]) -> list[str]:
        """What is wrong with ``body`` under ``schema`` (a fragment of this document: ``$ref``s resolve in it)."""
        if "$ref" in schema:
            schema = {"$ref": _ROOT + schema["$ref"]}
        validator = OAS30Validator(schema, registry=self._registry)
        return [
            f"{'/'.join(str(part) for part in error.absolute_path) or '(body)'}: {error.message}"
            for error in validator.iter_errors(body)
        ]

    def validate(self, body: Any, operation_id: str, status: int | str = 200) -> Any:
        """Assert that ``body`` is a valid ``status`` response of ``operation_id``; returns it."""
        media = self._media(operation_id, status)
        problems = self.errors(body, media["schema"])
        assert not problems, f"not a {status} response of {operation_id}: {problems}"
        return body

    def validate_request(self, body: Any, operation_id: str) -> Any:
        """Assert that ``body`` is a valid JSON request body of ``operation_id``; returns it."""
        method, path, operation = self.operation(operation_id)
        media = operation.get("requestBody", {}).get("content", {}).get("application/json")
        assert media is not None, f"{method} {path} takes no JSON body"
        problems = self.errors(body, media["schema"])
        assert not problems, f"not a request of {operation_id}: {problems}"
        return body

    def validate_error(self, body: Any) -> Any:
        """Assert that ``body`` is the API's error envelope (``components/schemas/Error``); returns it."""
        problems = self.errors(body, {"$ref": "#/components/schemas/Error"})
        assert not problems, f"not an error envelope: {problems}"
        return body
