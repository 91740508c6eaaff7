"""One visibility rule (``memories.visibility``), every rendering the same on real PostgreSQL: for a matrix of
memories — superseded before and after a moment, expired, not yet valid, no longer valid, at another scope, of
another tenant, recorded after the moment, and rows sitting exactly on each boundary — the Django ``Q``, the SQL
text, the queryset methods, the read selector, the search statements' predicates (memory, posting and
history forms, ``as_of_sql``) and the one-row check select the rows the rule says, live and as of several moments."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from memories import visibility
from memories.models import Memory, MemoryKind
from memories.selectors.memory import memories_visible
from memories.selectors.tenancy import scope_chain_for
from retrieval import selectors as search_sql
from tests.conftest import remember

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)

# name: (times relative to now in days, the moments (days) as of which it is visible). "live" is the present;
# every row not named "other_*" is at a scope of albert's chain. superseded rows point at the "newer" row.
MATRIX = {
    "plain": ({"created_at": -30}, {"live", -20, -10, -5, -1}),
    "newer": ({"created_at": -8}, {"live", -5, -1}),
    "superseded_long_ago": ({"created_at": -30, "superseded_at": -15}, {-20}),
    "superseded_lately": ({"created_at": -30, "superseded_at": -3}, {-20, -10, -5}),
    "superseded_at_moment": ({"created_at": -30, "superseded_at": -10}, {-20}),
    "expired": ({"created_at": -30, "expires_at": -2}, {-20, -10, -5}),
    "expires_later": ({"created_at": -30, "expires_at": 5}, {"live", -20, -10, -5, -1}),
    "expired_at_moment": ({"created_at": -30, "expires_at": -5}, {-20, -10}),
    "valid_from_future": ({"created_at": -30, "valid_from": 3}, set()),
    "valid_from_at_moment": ({"created_at": -30, "valid_from": -10}, {"live", -10, -5, -1}),
    "valid_until_past": ({"created_at": -30, "valid_until": -4}, {-20, -10, -5}),
    "valid_until_at_moment": ({"created_at": -30, "valid_until": -10}, {-20}),
    "valid_window_now": ({"created_at": -30, "valid_from": -6, "valid_until": 6}, {"live", -5, -1}),
    "recorded_after": ({"created_at": -4}, {"live", -1}),
    "recorded_at_moment": ({"created_at": -5}, {"live", -5, -1}),
    "other_scope": ({"created_at": -30}, set()),
    "other_tenant": ({"created_at": -30}, set()),
}
MOMENTS = ("live", -20, -10, -5, -1)
TEXTS = {
    name: f"{name.replace('_', ' ')} note number {index}: " + " ".join(f"w{index}x{n}" for n in range(6))
    for index, name in enumerate(MATRIX)
}


@pytest.fixture
def matrix(acme, globex, django_capture_on_commit_callbacks):
    now = timezone.now().replace(microsecond=0)
    rows: dict[str, Memory] = {}
    with django_capture_on_commit_callbacks(execute=True):
        for name in MATRIX:
            tenant, scope = (globex, "team:platform") if name == "other_tenant" else (acme, "team:platform")
            if name == "other_scope":
                scope = "team:sales"
            rows[name] = remember(tenant, TEXTS[name], scope=scope)
    for name, (times, _) in MATRIX.items():
        fields = {field: now + days * DAY for field, days in times.items()}
        if "superseded_at" in fields:
            fields["superseded_by_id"] = rows["newer"].pk
        Memory.objects.filter(pk=rows[name].pk).update(**fields)
    chain = [scope.pk for scope in scope_chain_for(tenant=acme, user_id="albert")]
    return {"now": now, "rows": rows, "ids": {row.pk: name for name, row in rows.items()}, "chain": chain}


_SELECT = "SELECT m.id FROM memories_memory m WHERE "
_SCOPED = _SELECT + "m.tenant_id = %(tenant)s AND m.scope_id = ANY(%(chain)s)"


def _expected(moment) -> set[str]:
    return {name for name, (_, seen) in MATRIX.items() if moment in seen}


def _names(matrix, ids) -> set[str]:
    return {matrix["ids"][pk] for pk in ids if pk in matrix["ids"]}


def _sql_ids(sql: str, params: dict) -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [row[0] for row in cursor.fetchall()]


def _params(acme, matrix, moment) -> dict:
    params = {"tenant": acme.pk, "chain": matrix["chain"], "kinds": list(MemoryKind.values)}
    if moment != "live":
        params["as_of"] = matrix["now"] + moment * DAY
    return params


@pytest.mark.parametrize("moment", MOMENTS)
def test_the_q_and_the_sql_select_the_rows_the_rule_names(acme, matrix, moment):
    as_of = None if moment == "live" else matrix["now"] + moment * DAY
    expected = _expected(moment)
    params = _params(acme, matrix, moment)

    chain = matrix["chain"]
    sql_as_of = None if as_of is None else visibility.AS_OF
    search_form = search_sql.LIVE_MEMORY if as_of is None else search_sql.AS_OF_MEMORY
    ours = Memory.objects.filter(tenant=acme, scope_id__in=chain)
    selected = {
        "Q": Memory.objects.filter(visibility.visible_q(tenant=acme, chain_ids=chain, as_of=as_of)),
        "queryset": ours.live() if as_of is None else ours.as_of(as_of),
        "selector": memories_visible(tenant=acme, chain_ids=chain, as_of=as_of),
        "sql": _sql_ids(_SELECT + visibility.visible_sql("m", as_of=sql_as_of), params),
        "search predicate": _sql_ids(_SELECT + search_form, params),
        "as_of_sql": _sql_ids(search_sql.as_of_sql(_SELECT + search_sql.LIVE_MEMORY), params) if as_of else [],
    }
    if as_of is None:
        del selected["as_of_sql"]
    names = {
        form: _names(matrix, ids if isinstance(ids, list) else ids.values_list("pk", flat=True))
        for form, ids in selected.items()
    }
    assert names == dict.fromkeys(selected, expected)


@pytest.mark.parametrize("moment", MOMENTS)
def test_the_keyword_arm_reads_the_same_rows_from_its_postings_and_history(acme, matrix, moment):
    """Postings carry only current memories with their expiry and validity start; as of a moment, the versions
    superseded since come from the history form."""
    params = _params(acme, matrix, moment)
    posting_sql = (
        f"SELECT DISTINCT p.memory_id FROM retrieval_posting p WHERE p.tenant_id = %(tenant)s"
        f" AND p.scope_id = ANY(%(chain)s) AND {search_sql.LIVE_POSTING}"
    )
    if moment == "live":
        assert _names(matrix, _sql_ids(posting_sql, params)) == _expected(moment)
        return
    from_postings = _sql_ids(search_sql.as_of_sql(posting_sql), params)
    from_history = _sql_ids(f"{_SELECT}{visibility.superseded_after_sql('m')} AND {search_sql.AS_OF_MEMORY}", params)
    assert _names(matrix, from_postings) | _names(matrix, from_history) == _expected(moment)
    assert not set(from_postings) & set(from_history)


def test_in_force_ignores_the_validity_window_and_current_ignores_expiry(acme, matrix):
    in_force = {
        "plain", "newer", "expires_later", "valid_from_future", "valid_from_at_moment", "valid_until_past",
        "valid_until_at_moment", "valid_window_now", "recorded_after", "recorded_at_moment",
    }  # fmt: skip
    current = in_force | {"expired", "expired_at_moment"}
    ours = Memory.objects.filter(tenant=acme, scope_id__in=matrix["chain"])
    params = _params(acme, matrix, "live") | {"now": timezone.now()}  # the write path's dedup passes "now"

    def by_sql(predicate: str) -> set[str]:
        return _names(matrix, _sql_ids(f"{_SCOPED} AND {predicate}", params))

    assert _names(matrix, ours.filter(visibility.in_force_q()).values_list("pk", flat=True)) == in_force
    assert _names(matrix, ours.in_force().values_list("pk", flat=True)) == in_force
    assert _names(matrix, ours.filter(visibility.current_q()).values_list("pk", flat=True)) == current
    assert by_sql(visibility.in_force_sql("m")) == in_force
    assert by_sql(visibility.in_force_sql("m", now="%(now)s")) == in_force
    assert by_sql(visibility.current_sql("m")) == current


def test_one_loaded_row_is_live_exactly_when_the_queries_say_so(acme, matrix):
    live = _expected("live")
    for name, row in matrix["rows"].items():
        if name.startswith("other_"):
            continue
        assert Memory.objects.get(pk=row.pk).is_live is (name in live), name
