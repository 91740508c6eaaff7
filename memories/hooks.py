"""Extension points of the memory store. Apps built on it (the graph) register here from their
``AppConfig.ready``, so that ``memories`` never imports them (docs/ARCHITECTURE.md, "Layering"):

- **erasure shares** — ``user_erase`` calls each registered function with the memories about to be erased
  (``erasure_share_register``); it reads what it owns about them before the delete and returns a ``finish``
  callable that runs after it (e.g. forget entity names nothing mentions any more) and reports counts and the
  erased rows whose admin log entries must lose their text;
- **index steps** — what ``reindex`` (and ``bench_ingest``) can rebuild per memory: ``embeddings`` (registered by
  this app) and ``links`` (by the graph), each a service over ids with the memory field holding its state;
- **vault links** — what ``export_memories --format obsidian`` writes beside each memory: the typed links and
  entities the graph read for them;
- **tier boost defaults** — the multiplier per level the search applies where a policy sets none (the ranking owns
  them), which the policy admin shows beside each level's input.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from memories.models import Tenant


@dataclass(frozen=True)
class ErasureShare:
    """What one app erased with a user's memories: counts for the erasure's result (``links``, ``entities``) and
    ``{model: [pk, …]}`` of rows it deleted (their ``LogEntry`` rows lose their text)."""

    counts: dict[str, int] = field(default_factory=dict)
    erased: dict[type, list[int]] = field(default_factory=dict)


#: ``(tenant, memory_ids) -> finish``: called inside the erasure's transaction before the memories are deleted;
#: ``finish()`` is called after the delete and returns the app's ErasureShare.
ErasureStart = Callable[..., Callable[[], ErasureShare]]


@dataclass(frozen=True)
class IndexStep:
    """One rebuildable index of a memory: ``run(memory_ids=[…])`` rebuilds it for those memories (idempotent)
    and leaves ``Memory.<state_field>`` ready or failed."""

    name: str
    state_field: str
    run: Callable[..., Any]


#: ``(memory_ids) -> (links, entities)``: ``links`` as ``(memory_id, subject_id, relationship, object_id)`` rows in
#: memory then link order, ``entities`` as ``(pk, name, kind)`` rows of every entity those links name.
VaultLinks = Callable[[Sequence[int]], tuple[list[tuple[int, int, str, int | None]], list[tuple[int, str, str]]]]

_erasure_starts: dict[str, ErasureStart] = {}
_index_steps: dict[str, IndexStep] = {}
_vault_links: list[VaultLinks] = []
_tier_boost_defaults: dict[str, float] = {}


def erasure_share_register(name: str, start: ErasureStart) -> None:
    _erasure_starts[name] = start


def erasure_shares_start(*, tenant: Tenant, memory_ids: list[int]) -> list[Callable[[], ErasureShare]]:
    """Each registered app's ``finish`` for erasing ``memory_ids`` (call them after deleting the memories)."""
    return [start(tenant=tenant, memory_ids=memory_ids) for start in _erasure_starts.values()]


def index_step_register(step: IndexStep) -> None:
    _index_steps[step.name] = step


def index_steps() -> dict[str, IndexStep]:
    """The registered index steps by name (``embeddings``, ``links``), in registration order."""
    return dict(_index_steps)


def vault_links_register(reader: VaultLinks) -> None:
    _vault_links[:] = [reader]


def vault_links(memory_ids: Sequence[int]) -> tuple[list[tuple[int, int, str, int | None]], list[tuple[int, str, str]]]:
    """The links and entities to write beside ``memory_ids`` in a vault; none when no app registered a reader."""
    if not _vault_links:
        return [], []
    return _vault_links[0](memory_ids)


def tier_boost_defaults_register(defaults: Mapping[str, float]) -> None:
    _tier_boost_defaults.clear()
    _tier_boost_defaults.update(defaults)


def tier_boost_default(level: str) -> float:
    """The search's multiplier for ``level`` where no policy sets one: the registered default, else 1.0 (the
    ranking's factor for a level it has no default for)."""
    return _tier_boost_defaults.get(level, 1.0)
