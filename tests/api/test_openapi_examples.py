"""Every example the served OpenAPI document gives is valid under the schema it illustrates (strictly: no field
the schema does not declare, every required one present). Tests that answer with documented examples — the ADK
adapter's fake server — therefore answer with the API's real shapes."""

from __future__ import annotations


def test_every_documented_example_validates_against_its_schema(openapi):
    checked, problems = 0, []
    for operation_id, status, name, value, schema in openapi.examples():
        checked += 1
        problems += [f"{operation_id} {status} {name}: {error}" for error in openapi.errors(value, schema)]

    assert problems == []
    assert checked >= 40  # every operation documents its answers (and the shared error envelope's)


def test_strict_validation_refuses_a_missing_field_an_extra_field_and_a_wrong_type(openapi):
    hit = openapi.example("search", 200, "with an answer")["results"][0]

    assert sorted(openapi.errors({"results": [hit]}, {"$ref": "#/components/schemas/SearchOutput"})) == [
        "(body): 'confidence' is a required property",
        "(body): 'degraded' is a required property",
        "(body): 'no_relevant_memory' is a required property",
    ]
    body = openapi.example("search", 200, "with an answer")
    body["results"][0]["relevance"] = 0.9
    body["results"][0]["id"] = "412"
    assert sorted(openapi.errors(body, {"$ref": "#/components/schemas/SearchOutput"})) == [
        "results/0/id: '412' is not of type 'integer'",
        "results/0: Additional properties are not allowed ('relevance' was unexpected)",
    ]
