"""Which memories a read may see — the rule stated once, rendered as a Django ``Q``, as SQL text for a table alias,
and as a check of one loaded row, so the ORM reads, every search arm and the Python checks cannot drift apart.

A memory is

- *current* while no newer version supersedes it (the unique index of live texts and the postings hold only these);
- *in force* while current and not expired (what dedup, contradictions and the dashboards count);
- *live* while in force and valid: its validity window (open ends unbounded) holds the moment — what search,
  recall and every read for a member return.

*As of* a moment T the same rule is read at T: recorded at or before T, not yet superseded then (current, or
superseded after T), not expired at T and valid at T — a version superseded since answers as of its time.

*Visible* adds the caller: of the tenant, at a scope of the caller's chain.

The SQL forms take the moment as SQL text: ``now()`` (the default), a parameter such as ``%(now)s`` or, for the
as-of form, ``%(as_of)s`` (:data:`AS_OF`). Tenant and chain are the parameters ``%(tenant)s`` and ``%(chain)s``
(an array of scope ids) unless the caller names others.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q

NOW = "now()"
AS_OF = "%(as_of)s"
TENANT = "%(tenant)s"
CHAIN = "%(chain)s"


@dataclass(frozen=True)
class _Bound:
    """A time column that is open (NULL) or compares ``op`` with the moment."""

    column: str
    op: str  # ">" (the moment is before it) or "<=" (it is at or before the moment)

    def q(self, moment: datetime, prefix: str) -> Q:
        return Q(**{f"{prefix}{self.column}__isnull": True}) | self.compare_q(moment, prefix)

    def sql(self, alias: str, moment: str) -> str:
        return f"({alias}.{self.column} IS NULL OR {self.compare_sql(alias, moment)})"

    def compare_q(self, moment: datetime, prefix: str) -> Q:
        """The comparison alone (the column set)."""
        return Q(**{f"{prefix}{self.column}__{_LOOKUP[self.op]}": moment})

    def compare_sql(self, alias: str, moment: str) -> str:
        return f"{alias}.{self.column} {self.op} {moment}"

    def holds(self, row: Any, moment: datetime) -> bool:
        value = getattr(row, self.column)
        return value is None or _COMPARE[self.op](value, moment)


_LOOKUP = {">": "gt", "<=": "lte"}
_COMPARE: dict[str, Callable[[Any, Any], bool]] = {">": operator.gt, "<=": operator.le}

# the parts of the rule (every form below is built from these)
EXPIRY = _Bound("expires_at", ">")
VALID_FROM = _Bound("valid_from", "<=")
VALID_UNTIL = _Bound("valid_until", ">")
_SUPERSEDED_AT = _Bound("superseded_at", ">")  # as of T: superseded after T is still current then
_RECORDED = _Bound("created_at", "<=")  # as of T (never NULL: only its comparison is used)
_VALIDITY = (VALID_FROM, VALID_UNTIL)


# --- Django Q ------------------------------------------------------------------------------------------------------


def current_q(*, as_of: datetime | None = None, prefix: str = "") -> Q:
    """Not superseded (as of T: not superseded by then). ``prefix`` reaches the memory through a relation
    (``"memory__"``)."""
    now_current = Q(**{f"{prefix}superseded_by__isnull": True})
    if as_of is None:
        return now_current
    return now_current | _SUPERSEDED_AT.compare_q(as_of, prefix)


def in_force_q(*, now: datetime | None = None, prefix: str = "") -> Q:
    """Current and not expired at ``now`` (default: the present)."""
    return current_q(prefix=prefix) & EXPIRY.q(now or _now(), prefix)


def live_q(*, as_of: datetime | None = None, prefix: str = "") -> Q:
    """Live now, or as it stood at ``as_of``."""
    if as_of is None:
        moment = _now()
        return in_force_q(now=moment, prefix=prefix) & _all_q(_VALIDITY, moment, prefix)
    return (
        _RECORDED.compare_q(as_of, prefix)
        & current_q(as_of=as_of, prefix=prefix)
        & _all_q((EXPIRY, *_VALIDITY), as_of, prefix)
    )


def visible_q(*, tenant: Any, chain_ids: Sequence[int], as_of: datetime | None = None, prefix: str = "") -> Q:
    """Live (or as of ``as_of``), of ``tenant`` (an instance or id) and at a scope of ``chain_ids``."""
    return (
        Q(**{f"{prefix}tenant": tenant})
        & Q(**{f"{prefix}scope_id__in": list(chain_ids)})
        & live_q(as_of=as_of, prefix=prefix)
    )


def _all_q(bounds: Sequence[_Bound], moment: datetime, prefix: str) -> Q:
    q = Q()
    for bound in bounds:
        q &= bound.q(moment, prefix)
    return q


def _now() -> datetime:
    from django.utils import timezone

    return timezone.now()


# --- SQL text ------------------------------------------------------------------------------------------------------


def current_sql(alias: str, *, as_of: str | None = None) -> str:
    """Not superseded (as of ``as_of``: not superseded by then)."""
    if as_of is None:
        return f"{alias}.superseded_by_id IS NULL"
    return f"({alias}.superseded_by_id IS NULL OR {_SUPERSEDED_AT.compare_sql(alias, as_of)})"


def superseded_after_sql(alias: str, *, as_of: str = AS_OF) -> str:
    """Superseded, but after ``as_of``: the versions only an as-of read still sees (they have no postings)."""
    return f"{alias}.superseded_by_id IS NOT NULL AND {_SUPERSEDED_AT.compare_sql(alias, as_of)}"


def in_force_sql(alias: str, *, now: str = NOW) -> str:
    """Current and not expired at ``now``."""
    return f"{current_sql(alias)} AND {EXPIRY.sql(alias, now)}"


def live_sql(alias: str, *, as_of: str | None = None, now: str = NOW) -> str:
    """Live at ``now``, or, with ``as_of``, as it stood then."""
    if as_of is None:
        return f"{in_force_sql(alias, now=now)}\n    AND {bounds_sql(alias, _VALIDITY, now)}"
    return (
        f"{current_sql(alias, as_of=as_of)} AND {_RECORDED.compare_sql(alias, as_of)}\n"
        f"    AND {bounds_sql(alias, (EXPIRY, *_VALIDITY), as_of)}"
    )


def visible_sql(alias: str, *, as_of: str | None = None, tenant: str = TENANT, chain: str = CHAIN) -> str:
    """Live (or as of ``as_of``), of the tenant ``tenant`` and at a scope of the array ``chain``."""
    return f"{alias}.tenant_id = {tenant} AND {alias}.scope_id = ANY({chain}) AND {live_sql(alias, as_of=as_of)}"


def recorded_sql(alias: str, *, as_of: str = AS_OF) -> str:
    """Recorded at or before ``as_of``."""
    return _RECORDED.compare_sql(alias, as_of)


def bounds_sql(alias: str, bounds: Sequence[_Bound], moment: str) -> str:
    """The given time bounds of the rule at ``moment`` on a row carrying those columns — a memory, or a row that
    copies a memory's time columns (a search posting)."""
    return " AND ".join(bound.sql(alias, moment) for bound in bounds)


# --- one loaded row ------------------------------------------------------------------------------------------------


def is_in_force(memory: Any, *, now: datetime | None = None) -> bool:
    """Whether a loaded memory is in force at ``now`` (default: the present): current and not expired."""
    return memory.superseded_by_id is None and EXPIRY.holds(memory, now or _now())


def is_live(memory: Any, *, now: datetime | None = None) -> bool:
    """Whether a loaded memory is live at ``now`` (default: the present)."""
    moment = now or _now()
    return memory.superseded_by_id is None and all(bound.holds(memory, moment) for bound in (EXPIRY, *_VALIDITY))
