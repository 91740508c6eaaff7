"""What a policy may contain, as a pure check: no Django, no database.

One rule set for every way a policy is written (the admin form through ``Policy.clean``, onboarding, the org-chart
parser) and for reading one back (``policy_effective`` skips a stored field that breaks these rules, so a row
written before the rules existed, or by hand in SQL, degrades to the defaults instead of failing every search).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from orgmemory.text import text_problem

AUTHOR_KINDS = ("agent", "admin")  # imports write with the admin's rights
MEMORY_KINDS = ("fact", "policy", "preference", "event", "note")
TIER_BOOST_RANGE = (0.01, 10.0)  # a multiplier: 0 would hide a level, anything past 10 drowns every other signal
MAX_CONTENT_BYTES_RANGE = (1, 1024 * 1024)  # a request body is capped at 4 MiB, a batch holds up to 100
MAX_RETENTION_DAYS = 36_500  # a hundred years; a larger number overflows date arithmetic
GLOSSARY_MAX_ENTRIES = 500
GLOSSARY_MAX_KEY_CHARS = 32  # longer keys are not acronyms (the expansion ignores them)
GLOSSARY_MAX_VALUE_CHARS = 200

FIELDS = ("writable_levels", "auto_provision_users", "max_content_bytes", "tier_boost", "retention_days", "glossary")


def policy_field_errors(name: str, value: Any, *, levels: Sequence[str]) -> list[str]:
    """Why ``value`` is not a valid ``name`` field for a tenant with ``levels`` ([] when it is; None is always
    valid: the field inherits)."""
    if value is None:
        return []
    check = _CHECKS.get(name)
    return check(value, levels) if check else []


def policy_errors(values: Mapping[str, Any], *, levels: Sequence[str]) -> dict[str, list[str]]:
    """Every invalid field of ``values`` with its reasons; {} when all are valid."""
    errors = {name: policy_field_errors(name, values.get(name), levels=levels) for name in FIELDS if name in values}
    return {name: reasons for name, reasons in errors.items() if reasons}


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _writable_levels(value: Any, levels: Sequence[str]) -> list[str]:
    if not isinstance(value, Mapping):
        return ['must map an author kind to a list of levels, e.g. {"agent": ["user", "team"]}']
    errors = []
    for author, allowed in value.items():
        if author not in AUTHOR_KINDS:
            errors.append(f"{str(author)[:40]!r} is not an author kind ({', '.join(AUTHOR_KINDS)})")
        elif allowed is not None and not (isinstance(allowed, list) and all(isinstance(x, str) for x in allowed)):
            errors.append(f"{author}: must be a list of levels, or null for every level")
        elif allowed:
            unknown = [level for level in allowed if level not in levels]
            if unknown:
                errors.append(f"{author}: unknown level(s) {', '.join(repr(x[:40]) for x in unknown[:5])}")
    return errors


def _auto_provision(value: Any, levels: Sequence[str]) -> list[str]:
    return [] if isinstance(value, bool) else ["must be true or false"]


def _max_content_bytes(value: Any, levels: Sequence[str]) -> list[str]:
    low, high = MAX_CONTENT_BYTES_RANGE
    if not _is_count(value) or not low <= value <= high:
        return [f"must be a whole number of bytes from {low} to {high}"]
    return []


def _tier_boost(value: Any, levels: Sequence[str]) -> list[str]:
    if not isinstance(value, Mapping):
        return ['must map a level to a multiplier, e.g. {"org": 0.6}']
    low, high = TIER_BOOST_RANGE
    errors = []
    for level, factor in value.items():
        if level not in levels:
            errors.append(f"{str(level)[:40]!r} is not a level of this tenant ({', '.join(levels)})")
        elif not _is_number(factor) or not low <= factor <= high:
            errors.append(f"{level}: must be a number from {low} to {high}, got {str(factor)[:40]!r}")
    return errors


def _retention_days(value: Any, levels: Sequence[str]) -> list[str]:
    if not isinstance(value, Mapping):
        return ['must map a memory kind or a level to a number of days, e.g. {"event": 365}']
    errors = []
    for key, days in value.items():
        if key not in MEMORY_KINDS and key not in levels:
            errors.append(f"{str(key)[:40]!r} is neither a memory kind ({', '.join(MEMORY_KINDS)}) nor a level")
        elif not _is_count(days) or not 1 <= days <= MAX_RETENTION_DAYS:
            errors.append(f"{key}: must be a whole number of days from 1 to {MAX_RETENTION_DAYS}")
    return errors


def _glossary(value: Any, levels: Sequence[str]) -> list[str]:
    if not isinstance(value, Mapping):
        return ['must map an acronym to its expansion, e.g. {"k8s": "kubernetes"}']
    if len(value) > GLOSSARY_MAX_ENTRIES:
        return [f"has {len(value)} entries; at most {GLOSSARY_MAX_ENTRIES}"]
    errors = []
    for key, expansion in value.items():
        if not isinstance(key, str) or not key.strip() or len(key) > GLOSSARY_MAX_KEY_CHARS or text_problem(key):
            errors.append(f"{str(key)[:40]!r}: an acronym is 1–{GLOSSARY_MAX_KEY_CHARS} characters")
        elif not isinstance(expansion, str) or not expansion.strip() or len(expansion) > GLOSSARY_MAX_VALUE_CHARS:
            errors.append(f"{key}: the expansion must be text of 1–{GLOSSARY_MAX_VALUE_CHARS} characters")
        elif text_problem(expansion):
            errors.append(f"{key}: the expansion contains a NUL byte or is not valid UTF-8")
    return errors


_CHECKS = {
    "writable_levels": _writable_levels,
    "auto_provision_users": _auto_provision,
    "max_content_bytes": _max_content_bytes,
    "tier_boost": _tier_boost,
    "retention_days": _retention_days,
    "glossary": _glossary,
}
