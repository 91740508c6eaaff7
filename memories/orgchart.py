"""Parse and validate an org chart (the OrgMemory YAML or the nuvel-style ``org_graph.yaml``) into a plan.

Pure: no Django, no database. Every problem raises :class:`OrgChartError` naming the offending entry, before
anything is written, so a bad file never half-applies.
"""

from __future__ import annotations

import os
import re
import stat
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from memories.policy_rules import policy_errors
from memories.safe_yaml import YamlError, YamlLimits, decode_text, load_yaml

DEFAULT_LEVELS = ("org", "corporate", "country", "division", "team", "user")
#: What an API key may be granted, in display order (the one list: models, services, admin and API use it).
PERMISSIONS = ("read", "write", "delete", "admin")
# Anchored with \A…\Z, never ^…$: ``$`` also matches before a trailing newline, so "alice\n" would pass.
#: A level name: a lowercase word (the model validator uses it too).
LEVEL_PATTERN = r"\A[a-z][a-z0-9_]{0,31}\Z"
_LEVEL_RE = re.compile(LEVEL_PATTERN)
# A project sub-scope is a node of this reserved level under a user node or a team node (the level just above
# users): its key is the project's name, unique under its owner. It is never on a scope chain by itself — a
# request that names the project adds it (see memories.selectors.tenancy.project_nodes) — so a write, delete or
# search without a project never touches its memories, and a user's erasure takes the projects under their node.
# A chart never lists projects and may not use the name as a tree level.
PROJECT_LEVEL = "project"
#: A scope key or user id: 1–128 letters, digits and . _ @ + - (the model validator and the services use it too).
KEY_PATTERN = r"\A[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}\Z"
_KEY_RE = re.compile(KEY_PATTERN)
_SLUG_RE = re.compile(r"\A[a-z0-9][a-z0-9-]{0,63}\Z")
_POLICY_KEYS = frozenset(
    {"auto_provision_users", "writable_levels", "max_content_bytes", "tier_boost", "retention_days", "glossary"}
)


class OrgChartError(ValueError):
    """The org chart is malformed; the message names the offending entry."""


@dataclass(frozen=True)
class NodePlan:
    level: str
    key: str
    name: str
    parent: tuple[str, str] | None  # (level, key) of the parent, None for a root


@dataclass(frozen=True)
class ApiKeyPlan:
    name: str
    permissions: tuple[str, ...]
    scope: tuple[str, str] | None = None


@dataclass
class OrgChartPlan:
    tenant_slug: str
    tenant_name: str
    levels: tuple[str, ...]
    nodes: list[NodePlan] = field(default_factory=list)  # parents before children
    members: dict[str, tuple[str, str]] = field(default_factory=dict)  # user_id -> parent node (level, key)
    policies: dict[str, Any] = field(default_factory=dict)
    api_keys: list[ApiKeyPlan] = field(default_factory=list)

    @property
    def user_level(self) -> str:
        return self.levels[-1]


NAME_MAX = 200  # a tenant's or a node's name (their column's length)
KEY_NAME_MAX = 100  # an API key's name
#: the largest chart read (the onboarding wizard takes smaller ones); the YAML loader refuses a longer text
CHART_FILE_MAX_BYTES = 64 * 1024 * 1024


def parse_org_chart(text: str, *, max_chars: int = CHART_FILE_MAX_BYTES) -> OrgChartPlan:
    """Parse YAML text in either supported format into a validated :class:`OrgChartPlan`. The text is read by
    the one bounded YAML loader (``memories.safe_yaml``): a bomb, a loop or a deep nesting is an OrgChartError."""
    try:
        data = load_yaml(text, limits=YamlLimits(max_chars=max_chars))
    except YamlError as exc:
        where = "at " if str(exc).startswith("line ") else ": "
        raise OrgChartError(f"malformed YAML {where}{exc}".replace(" : ", ": ")) from None
    if not isinstance(data, dict):
        raise OrgChartError("the org chart must be a YAML mapping at the top level")
    if "org_id" in data and "users" in data:
        return _parse_nuvel(data)
    if "tenant" in data:
        return _parse_tree(data)
    raise OrgChartError("unknown format: expected `tenant:` + `tree:` (OrgMemory) or `org_id:` + `users:` (nuvel)")


def read_org_chart(path: str | os.PathLike, *, max_bytes: int = CHART_FILE_MAX_BYTES) -> str:
    """The text of the chart file at ``path``, or OrgChartError: only a regular file (a FIFO or a device such as
    ``/dev/zero`` would block or never end), its size checked before reading, at most ``max_bytes`` + 1 bytes read,
    UTF-8 only."""
    try:
        info = os.stat(path)  # the operator names the file: a symlink they made is followed, to what it names
        if not stat.S_ISREG(info.st_mode):
            raise OrgChartError("not a regular file (a FIFO, a device or a folder): give the path of a YAML file")
        if info.st_size > max_bytes:
            raise OrgChartError(f"the file is {info.st_size:,} bytes; a chart may have at most {max_bytes:,}")
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        with os.fdopen(fd, "rb") as chart:
            opened = os.fstat(chart.fileno())
            if not stat.S_ISREG(opened.st_mode):  # swapped since the stat
                raise OrgChartError("not a regular file (a FIFO, a device or a folder): give the path of a YAML file")
            # as much as the size said (bounded by the limit), plus whatever it has grown by since, up to limit + 1
            data = chart.read(min(opened.st_size, max_bytes) + 1)
            if len(data) > opened.st_size:
                data += chart.read(max_bytes + 1 - len(data))
    except OSError as exc:
        raise OrgChartError(f"cannot read it: {exc.strerror}") from None
    if len(data) > max_bytes:
        raise OrgChartError(f"the file is larger than {max_bytes:,} bytes, the most a chart may have")
    try:
        return decode_text(data)
    except YamlError as exc:
        raise OrgChartError(str(exc)) from None


def _text(value: Any, where: str) -> str:
    """A scalar of the chart as text. A list or mapping is refused rather than turned into its ``str()``, which
    for a structure built of aliases is as large as its expansion."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise OrgChartError(f"{where} must be text, not {_show(value)}")
    return str(value)


def _named(value: Any, where: str, limit: int) -> str:
    """A display name of the chart: text of at most ``limit`` characters (the column that stores it)."""
    name = _text(value, where)
    if len(name) > limit:
        raise OrgChartError(f"{where} is {len(name):,} characters long; at most {limit} are allowed")
    return name


def _key(value: Any) -> str:
    """A key for a message's path (``users.albert``): as written when short text, else described."""
    return value if isinstance(value, str) and len(value) <= 40 else _show(value, 40)


def _show(value: Any, limit: int = 60) -> str:
    """A value for an error message: its repr, cut short (a message never carries a whole value)."""
    if isinstance(value, list | dict):
        return "a list" if isinstance(value, list) else "a mapping"
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


# --- the OrgMemory format ---------------------------------------------------------------------------------------


def _parse_tree(data: dict) -> OrgChartPlan:
    tenant = data.get("tenant")
    if not isinstance(tenant, dict) or not tenant.get("slug"):
        raise OrgChartError("`tenant` must be a mapping with at least `slug` (and `name`)")
    slug = _text(tenant["slug"], "tenant.slug")
    if not _SLUG_RE.match(slug):
        raise OrgChartError(f"tenant slug {_show(slug)} must be lowercase letters, digits and dashes")
    levels = _parse_levels(data.get("levels", list(DEFAULT_LEVELS)))
    _check_user_level_last(levels)
    plan = OrgChartPlan(
        tenant_slug=slug, tenant_name=_named(tenant.get("name") or slug, "tenant.name", NAME_MAX), levels=levels
    )
    tree = data.get("tree")
    if not isinstance(tree, list) or not tree:
        raise OrgChartError("`tree` must be a non-empty list of nodes")
    seen: dict[tuple[str, str], str] = {}
    for index, node in enumerate(tree):
        _walk(node, parent=None, path=f"tree[{index}]", plan=plan, seen=seen, above=())
    plan.policies = _parse_policies(data.get("policies"), levels)
    plan.api_keys = _parse_api_keys(data.get("api_keys"), plan)
    return plan


def _walk(
    node: Any, *, parent: NodePlan | None, path: str, plan: OrgChartPlan, seen: dict, above: tuple[int, ...]
) -> None:
    """Add ``node`` and its subtree to ``plan``. ``above`` holds the ids of the mappings on the path from the root:
    a YAML alias (``*name``) can make a node its own descendant, which must read as a cycle, not recurse."""
    if not isinstance(node, dict):
        raise OrgChartError(f"{path}: a node must be a mapping with `level` and `key`")
    if id(node) in above:
        raise OrgChartError(f"{path}: cycle in the tree: this node contains itself (a YAML alias loops back)")
    level, key = node.get("level"), node.get("key")
    if level is None or key is None:
        raise OrgChartError(f"{path}: a node needs both `level` and `key`")
    level, key = _text(level, f"{path}.level"), _text(key, f"{path}.key")
    where = f"{path} ({_key(level)}:{_key(key)})"
    if level not in plan.levels:
        raise OrgChartError(f"{where}: unknown level {_show(level)}; the levels are {', '.join(plan.levels)}")
    if level == plan.user_level:
        raise OrgChartError(f"{where}: user-level nodes are created from `members`, not listed in the tree")
    if not _KEY_RE.match(key):
        raise OrgChartError(f"{where}: key {_show(key)} must be letters, digits and . _ @ + - (at most 128)")
    if parent is not None and plan.levels.index(level) <= plan.levels.index(parent.level):
        raise OrgChartError(
            f"{where}: level {level!r} is not below its parent's level {parent.level!r} ({parent.level}:{parent.key})"
        )
    if (level, key) in seen:
        raise OrgChartError(f"{where}: duplicate key {level}:{key} (first at {seen[(level, key)]})")
    seen[(level, key)] = path
    unknown = set(node) - {"level", "key", "name", "children", "members"}
    if unknown:
        raise OrgChartError(f"{where}: unknown field(s) {', '.join(sorted(_key(k) for k in unknown))}")
    plan_node = NodePlan(
        level=level,
        key=key,
        name=_named(node.get("name") or key, f"{where}.name", NAME_MAX),
        parent=(parent.level, parent.key) if parent else None,
    )
    plan.nodes.append(plan_node)
    members = node.get("members") or []
    if not isinstance(members, list):
        raise OrgChartError(f"{where}: `members` must be a list of user ids")
    for index, user_id in enumerate(members):
        _add_member(plan, _text(user_id, f"{where}.members[{index}]"), (level, key), where)
    children = node.get("children") or []
    if not isinstance(children, list):
        raise OrgChartError(f"{where}: `children` must be a list of nodes")
    for index, child in enumerate(children):
        _walk(child, parent=plan_node, path=f"{path}.children[{index}]", plan=plan, seen=seen, above=(*above, id(node)))


def _add_member(plan: OrgChartPlan, user_id: str, parent: tuple[str, str], where: str) -> None:
    if not _KEY_RE.match(user_id):
        raise OrgChartError(f"{where}: member id {_show(user_id)} must be letters, digits and . _ @ + - (at most 128)")
    if user_id in plan.members:
        first = plan.members[user_id]
        raise OrgChartError(f"{where}: member {_show(user_id)} is listed twice (also under {first[0]}:{first[1]})")
    plan.members[user_id] = parent


# --- the nuvel org_graph.yaml format ----------------------------------------------------------------------------


def _parse_nuvel(data: dict) -> OrgChartPlan:
    org_id = _text(data["org_id"], "org_id")
    if not _SLUG_RE.match(org_id):
        raise OrgChartError(f"org_id {_show(org_id)} must be lowercase letters, digits and dashes")
    users = data.get("users")
    if not isinstance(users, dict) or not users:
        raise OrgChartError("`users` must be a non-empty mapping of user id → {chain: [...]}")
    raw_levels = data.get("levels")
    levels = _parse_levels(raw_levels if raw_levels is not None else list(DEFAULT_LEVELS))
    chains: dict[str, list[tuple[str, str]]] = {}
    for user_id, entry in users.items():
        user_id = _text(user_id, "a key of `users`")
        where = f"users.{_key(user_id)}"
        chain = entry.get("chain") if isinstance(entry, dict) else None
        if not isinstance(chain, list) or not chain:
            raise OrgChartError(f"{where}: needs a non-empty `chain` list of {{level, id}}, leaf first")
        pairs = []
        for index, link in enumerate(chain):
            if not isinstance(link, dict) or "level" not in link or "id" not in link:
                raise OrgChartError(f"{where}.chain[{index}]: each link needs `level` and `id`")
            pairs.append(
                (_text(link["level"], f"{where}.chain[{index}].level"), _text(link["id"], f"{where}.chain[{index}].id"))
            )
        chains[user_id] = pairs
    # nuvel files list levels leaf first; ours are root first. Orient by the chains, which are leaf first.
    root_levels = Counter(pairs[-1][0] for pairs in chains.values())
    root_level = root_levels.most_common(1)[0][0]
    if root_level != levels[0] and root_level == levels[-1]:
        levels = tuple(reversed(levels))
    _check_user_level_last(levels)
    plan = OrgChartPlan(
        tenant_slug=org_id, tenant_name=_named(data.get("name") or org_id, "name", NAME_MAX), levels=levels
    )
    parents: dict[tuple[str, str], tuple[str, str] | None] = {}
    for user_id, pairs in chains.items():
        where = f"users.{_key(user_id)}"
        if pairs[0][0] == plan.user_level:
            if pairs[0][1] != user_id:
                raise OrgChartError(f"{where}: the chain's user link {_show(pairs[0][1])} is not the user")
            pairs = pairs[1:]
        if not pairs:
            raise OrgChartError(f"{where}: the chain has no node above the user")
        for index, (level, key) in enumerate(pairs):
            if level not in levels:
                raise OrgChartError(
                    f"{where}.chain[{index}]: unknown level {_show(level)}; the levels are {', '.join(levels)}"
                )
            if level == plan.user_level:
                raise OrgChartError(
                    f"{where}.chain[{index}]: {level}:{key} is a user-level link above the user; a chain has one "
                    f"user link, first (leaf first), and nothing sits below a user"
                )
            if not _KEY_RE.match(key):
                raise OrgChartError(f"{where}.chain[{index}]: id {_show(key)} must be letters, digits and . _ @ + -")
            parent = pairs[index + 1] if index + 1 < len(pairs) else None
            if parent == (level, key):
                raise OrgChartError(f"{where}.chain[{index}]: cycle: {level}:{key} is its own parent")
            if parent is not None and levels.index(parent[0]) >= levels.index(level):
                raise OrgChartError(
                    f"{where}.chain[{index}]: level {level!r} is not below its parent's level {parent[0]!r} "
                    f"({parent[0]}:{parent[1]})"
                )
            known = parents.get((level, key), "unset")
            if known != "unset" and known != parent:
                raise OrgChartError(
                    f"{where}.chain[{index}]: {level}:{key} has conflicting parents "
                    f"({_tag(known)} elsewhere, {_tag(parent)} here)"
                )
            parents[(level, key)] = parent
        _add_member(plan, user_id, pairs[0], where)
    _check_acyclic(parents)
    ordered = sorted(parents, key=lambda node: (levels.index(node[0]), node[1]))
    plan.nodes = [NodePlan(level=level, key=key, name=key, parent=parents[(level, key)]) for level, key in ordered]
    plan.policies = _parse_policies(data.get("policies"), levels)
    plan.api_keys = _parse_api_keys(data.get("api_keys"), plan)
    return plan


def _check_acyclic(parents: dict[tuple[str, str], tuple[str, str] | None]) -> None:
    for start in parents:
        seen = {start}
        node = parents.get(start)
        while node is not None:
            if node in seen:
                raise OrgChartError(f"cycle in the org chart through {_tag(node)}")
            seen.add(node)
            node = parents.get(node)


def _tag(node: tuple[str, str] | None) -> str:
    return "no parent" if node is None else f"{node[0]}:{node[1]}"


# --- shared sections --------------------------------------------------------------------------------------------


def _check_user_level_last(levels: tuple[str, ...]) -> None:
    """Members are the leaves: with a level named ``user``, nothing may come after it (the last level is the one
    every member's own node gets)."""
    if "user" in levels and levels[-1] != "user":
        below = levels[levels.index("user") + 1 :]
        raise OrgChartError(
            f"levels: {', '.join(repr(level) for level in below)} below `user`; the user level must be the last "
            f"(members are the leaves of the tree)"
        )


def _parse_levels(raw: Any) -> tuple[str, ...]:
    if not isinstance(raw, list) or len(raw) < 2:
        raise OrgChartError("`levels` must be a list of at least two level names, root first")
    levels = tuple(_text(level, f"levels[{index}]") for index, level in enumerate(raw))
    for level in levels:
        if not _LEVEL_RE.match(level):
            raise OrgChartError(f"level {_show(level)} must be a lowercase word (a-z, 0-9, _)")
        if level == PROJECT_LEVEL:
            raise OrgChartError(f"level {level!r} is reserved for project sub-scopes; name the level otherwise")
    if len(set(levels)) != len(levels):
        raise OrgChartError(f"`levels` lists a level twice: {', '.join(levels)}")
    return levels


def _parse_policies(raw: Any, levels: tuple[str, ...]) -> dict[str, Any]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise OrgChartError("`policies` must be a mapping")
    unknown = set(raw) - _POLICY_KEYS
    if unknown:
        raise OrgChartError(f"policies: unknown field(s) {', '.join(sorted(_key(k) for k in unknown))}")
    policies = dict(raw)
    writable = policies.get("writable_levels")
    if writable is not None:
        if not isinstance(writable, dict):
            raise OrgChartError("policies.writable_levels must map an author kind (agent, admin) to levels")
        for author, allowed in writable.items():
            if not isinstance(allowed, list | None):
                raise OrgChartError(f"policies.writable_levels.{_key(author)} must be a list of levels")
            for level in allowed or []:
                if level not in levels:
                    raise OrgChartError(f"policies.writable_levels.{_key(author)}: unknown level {_show(level)}")
    tier = policies.get("tier_boost")
    if tier is not None:
        if not isinstance(tier, dict):
            raise OrgChartError("policies.tier_boost must map levels to positive numbers")
        for level, factor in tier.items():
            if level not in levels or not isinstance(factor, int | float) or factor <= 0:
                raise OrgChartError(f"policies.tier_boost.{_key(level)}: needs a known level and a positive number")
    size = policies.get("max_content_bytes")
    if size is not None and (not isinstance(size, int) or size < 1):
        raise OrgChartError("policies.max_content_bytes must be a positive integer")
    glossary = policies.get("glossary")
    if glossary is not None and not (
        isinstance(glossary, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in glossary.items())
    ):
        raise OrgChartError("policies.glossary must map acronyms to expansions (strings)")
    errors = policy_errors(policies, levels=levels)  # the rules every policy write follows (Policy.clean)
    if errors:
        name, reasons = next(iter(errors.items()))
        raise OrgChartError(f"policies.{name}: {reasons[0]}")
    return policies


def _parse_api_keys(raw: Any, plan: OrgChartPlan) -> list[ApiKeyPlan]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise OrgChartError("`api_keys` must be a list")
    keys, names = [], set()
    node_tags = {(node.level, node.key) for node in plan.nodes}
    for index, entry in enumerate(raw):
        where = f"api_keys[{index}]"
        if not isinstance(entry, dict) or not entry.get("name"):
            raise OrgChartError(f"{where}: needs a `name`")
        name = _named(entry["name"], f"{where}.name", KEY_NAME_MAX)
        if name in names:
            raise OrgChartError(f"{where}: duplicate API key name {_show(name)}")
        names.add(name)
        raw_permissions = entry.get("permissions") or ["read"]
        if not isinstance(raw_permissions, list):
            raise OrgChartError(f"{where}.permissions must be a list of {', '.join(PERMISSIONS)}")
        permissions = tuple(_text(p, f"{where}.permissions") for p in raw_permissions)
        bad = set(permissions).difference(PERMISSIONS)
        if bad:
            raise OrgChartError(f"{where}: unknown permission(s) {', '.join(_key(p) for p in sorted(bad))}")
        scope = None
        if entry.get("scope"):
            level, _, key = _text(entry["scope"], f"{where}.scope").partition(":")
            if (level, key) not in node_tags:
                raise OrgChartError(f"{where}: scope {_show(entry['scope'])} is not a node of this chart")
            scope = (level, key)
        keys.append(ApiKeyPlan(name=name, permissions=permissions, scope=scope))
    return keys
