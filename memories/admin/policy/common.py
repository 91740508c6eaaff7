"""What every part of the policy admin shares: the names of the inputs, what a null field inherits, and a JSON
field's value in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memories.models import Policy
from memories.policy_rules import AUTHOR_KINDS
from memories.selectors import scope_chain_for_scope
from memories.services.tenancy import policy_effective, policy_fold

EVERY_LEVEL = "*"  # the writable-levels choice stored as null: every level, those added later included
JSON_FIELDS = ("writable_levels", "tier_boost", "retention_days", "glossary")
WHOLE_TENANT = "the whole tenant (its default policy)"  # a policy without a node
AUTHOR_HELP = {
    "agent": "writes through the API, MCP and ADK (every API key, on behalf of a member)",
    "admin": "writes in this admin and by imports",
}


def inherit_field(name: str) -> str:
    return f"inherit_{name}"


def entry_field(name: str, key: str) -> str:
    """The input of one key of a JSON field (``tier_boost__team``); levels are words, so the name is unambiguous."""
    return f"{name}__{key}"


def policy_inherited(*, policy: Policy) -> dict[str, Any]:
    """What each field of ``policy`` means when it is null: the built-in defaults for a tenant's default policy; for
    an override, the tenant policy with the overrides of the nodes above it."""
    if policy.scope_id is None:
        return policy_fold(tenant=policy.tenant, layers=[])
    above = scope_chain_for_scope(tenant=policy.tenant, scope=policy.scope_id)[1:]
    return policy_effective(tenant=policy.tenant, chain=above)


def as_mapping(value: Any) -> Mapping:
    return value if isinstance(value, Mapping) else {}


def describe(name: str, value: Any, *, glossary_shown: int = 5) -> str:
    """A JSON field's value in a line of words (what an inherit box says it inherits, what a view-only page shows);
    the glossary's first ``glossary_shown`` entries."""
    value = as_mapping(value)
    if name == "writable_levels":
        parts = []
        for author in AUTHOR_KINDS:
            allowed = value.get(author)
            shown = "every level" if allowed is None else (", ".join(map(str, allowed)) or "nowhere")
            parts.append(f"{author}: {shown}")
        return "; ".join(parts)
    if name == "tier_boost":
        return ", ".join(f"{level} {factor:g}" for level, factor in value.items()) or "none set (each level's default)"
    if name == "retention_days":
        return ", ".join(f"{key} {days} days" for key, days in value.items()) or "none (memories are kept)"
    shown = ", ".join(f"{key} → {expansion}" for key, expansion in list(value.items())[:glossary_shown])
    more = f" and {len(value) - glossary_shown} more" if len(value) > glossary_shown else ""
    return f"{shown}{more}" if value else "no acronyms"


def reasons_for(errors: list[str], key: str) -> list[str]:
    """The rule's reasons for one entry, without the ``key:`` they start with (the input is labelled already)."""
    return [message.removeprefix(f"{key}: ") for message in errors]
