"""``OrgMemoryService``: ADK's ``BaseMemoryService`` over the OrgMemory REST API.

See docs/ARCHITECTURE.md § Google ADK adapter."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

try:
    from google.adk.memory.base_memory_service import BaseMemoryService, SearchMemoryResponse
    from google.adk.memory.memory_entry import MemoryEntry
    from google.genai import types
except ImportError as exc:  # pragma: no cover - exercised in a subprocess without ADK
    raise ImportError(
        "retrieval.adk needs the Google ADK: install the optional extra with `pip install 'orgmemory[adk]'` "
        "(google-adk>=2.13,<3)."
    ) from exc

from retrieval.adk.client import (
    DEFAULT_RETRY_DELAY,
    DEFAULT_TIMEOUT,
    OrgMemoryError,
    OrgMemoryHttp,
    resolve_api_key,
    resolve_base_url,
)

if TYPE_CHECKING:
    from google.adk.events.event import Event
    from google.adk.sessions.session import Session

DEFAULT_TOP_K = 10
MAX_TOP_K = 50
# the API takes up to 1,000 events per call, but without a broker the server embeds them before it answers: smaller
# calls stay well inside the client's timeout (and a retried chunk re-sends only its own events)
EVENTS_PER_REQUEST = 100
MEMORIES_PER_REQUEST = 100  # the API's batch limit
ENTITIES_PER_LOOKUP = 100  # the entities a name is looked up among (the API's largest page; exact names first)
NO_SESSION_ID = "__unknown_session_id__"  # ADK's own placeholder when events come without a session
# keys of a MemoryEntry's (or add_memory's) custom_metadata that are first-class fields of a memory
# the write's own fields when an entry's custom_metadata has them (the time fields: ISO 8601)
MEMORY_FIELDS = ("scope", "kind", "title", "valid_from", "valid_until", "reference_time")


@dataclass(frozen=True)
class Citation:
    index: int  # the n of [n] in the answer text
    memory_id: int


@dataclass(frozen=True)
class OrgMemoryAnswer:
    """A cited answer synthesized from the top memories (``used_llm`` False: the deterministic fallback)."""

    text: str
    citations: tuple[Citation, ...]
    used_llm: bool
    results: list[MemoryEntry] = field(default_factory=list)


@dataclass(frozen=True)
class OrgMemoryFact:
    """One fact about an entity: ``subject`` --``attribute``--> ``value`` (a name as written, a lower-case title, or
    an ISO day), held from ``valid_from`` until ``valid_until`` (ISO days; None: open), stated by memory
    ``memory_id``. ``current``: it holds now (or at the ``as_of`` asked); ``curated``: an admin, an import or an
    approved proposal stated it."""

    subject: str
    attribute: str
    value: str
    valid_from: str | None
    valid_until: str | None
    current: bool
    memory_id: int
    confidence: float
    curated: bool

    @classmethod
    def from_json(cls, subject: str, fact: Mapping[str, Any]) -> OrgMemoryFact:
        return cls(
            subject=subject,
            attribute=str(fact["attribute"]),
            value=str(fact["value"]),
            valid_from=fact.get("valid_from"),
            valid_until=fact.get("valid_until"),
            current=bool(fact.get("current", False)),
            memory_id=int(fact["memory_id"]),
            confidence=float(fact.get("confidence") or 0.0),
            curated=bool(fact.get("curated", False)),
        )


@dataclass(frozen=True)
class RecallItem:
    id: int  # the memory id cited in the line
    kind: str
    scope: str  # the scope tag
    line: str
    pinned: bool  # an on-topic policy (listed first)
    fact: OrgMemoryFact | None = None  # a line saying what holds now of an entity the task names


@dataclass(frozen=True)
class OrgMemoryRecall:
    """A prompt-ready block (``POST /recall``): what holds now of the entities the task names (``- Dmitri Volkov
    lives in Denver (since 1 August 2025) [#12]``), then lines ``- [kind #id] text``, on-topic policies first, within
    the budget. ``block`` is empty when nothing relevant is known (``no_relevant_memory``)."""

    block: str
    items: tuple[RecallItem, ...]
    used_chars: int
    budget_chars: int
    no_relevant_memory: bool

    @property
    def facts(self) -> tuple[OrgMemoryFact, ...]:
        """The current facts the block states, in its order."""
        return tuple(item.fact for item in self.items if item.fact is not None)


def event_text(event: Event) -> str:
    """The text an event contributes to memory: its text parts without thoughts, function calls or responses
    (ADK's own joining rule: user parts are separate words, model parts are chunks of one string). Partial
    (streaming) events give ``""``: their final event carries the whole text."""
    content = event.content
    if event.partial or content is None or not content.parts:
        return ""
    splitter = " " if event.author == "user" else ""
    return splitter.join(part.text for part in content.parts if part.text and not part.thought).strip()


def session_events_payload(events: Sequence[Event]) -> list[dict[str, Any]]:
    """``[{id, author, timestamp, text}]`` for the events that carry text (the server dedups on the id)."""
    payload = []
    for event in events:
        text = event_text(event)
        if text and event.id:
            payload.append({"id": event.id, "author": event.author, "timestamp": event.timestamp, "text": text})
    return payload


def memory_item(entry: MemoryEntry, *, app_name: str, defaults: Mapping[str, object] | None = None) -> dict[str, Any]:
    """One item of ``POST /api/v1/memories``: the entry's text; ``scope``, ``kind``, ``title`` and ``session_id``
    from its custom_metadata (over ``defaults``); the entry id as ``event_id`` (so re-adding it is idempotent);
    author, timestamp and the other metadata keys in ``metadata``."""
    text = " ".join(part.text for part in entry.content.parts or [] if part.text and not part.thought).strip()
    if not text:
        raise ValueError(f"memory entry {entry.id!r} has no text part to store")
    metadata: dict[str, Any] = {**(defaults or {}), **entry.custom_metadata}
    item: dict[str, Any] = {"content": text, "app_name": app_name}
    for name in MEMORY_FIELDS:
        if metadata.get(name) is not None:
            item[name] = metadata.pop(name)
    if metadata.get("session_id"):
        item["session_id"] = str(metadata.pop("session_id"))
    if entry.id:
        item["event_id"] = entry.id
    if entry.author:
        metadata["author"] = entry.author
    if entry.timestamp:
        metadata["timestamp"] = entry.timestamp
        # the entry's time is what its relative dates ("yesterday") refer to, when it reads as ISO 8601
        moment = _iso(entry.timestamp)
        if "reference_time" not in item and moment is not None and _is_iso(moment):
            item["reference_time"] = moment
    if metadata:
        item["metadata"] = metadata
    return item


def _is_iso(text: str) -> bool:
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return False
    return True


def _iso(timestamp: Any) -> str | None:
    if isinstance(timestamp, int | float) and not isinstance(timestamp, bool):
        return datetime.fromtimestamp(timestamp, tz=UTC).isoformat()
    return timestamp if isinstance(timestamp, str) and timestamp else None


def memory_entry(hit: Mapping[str, Any]) -> MemoryEntry:
    """A search result as a MemoryEntry: ``id`` the memory id (what ``delete_memory`` takes); ``author`` and
    ``timestamp`` the ADK event's when the memory came from a session (its metadata), else the memory's author and
    creation time; ``custom_metadata`` the scope tag and level, kind, score, title and memory id, the provenance
    (author type, source, key name, session id), and — when they apply — the ids it contradicts, a non-active status
    (``proposed``, ``curated``) and ``possible_instruction``."""
    metadata = hit.get("metadata") if isinstance(hit.get("metadata"), Mapping) else {}
    scope = hit.get("scope") if isinstance(hit.get("scope"), Mapping) else {}
    provenance = hit.get("provenance") if isinstance(hit.get("provenance"), Mapping) else {}
    custom = {
        "memory_id": hit.get("id"),
        "scope": scope.get("tag"),
        "scope_level": scope.get("level"),
        "kind": hit.get("kind"),
        "score": hit.get("score"),
        "title": hit.get("title") or "",
        "created_at": hit.get("created_at"),
        "orgmemory_author": hit.get("author"),
        "author_type": provenance.get("author_type"),
        "source": provenance.get("source"),
        "key_name": provenance.get("key_name"),
        "session_id": provenance.get("session_id"),
        "contradicts": hit.get("contradicts") or None,
        "status": hit.get("status") if hit.get("status") not in (None, "active") else None,
        "possible_instruction": True if hit.get("possible_instruction") else None,
    }
    return MemoryEntry(
        id=str(hit["id"]),
        author=str(metadata.get("author") or hit.get("author") or "") or None,
        timestamp=_iso(metadata.get("timestamp")) or _iso(hit.get("created_at")),
        content=types.Content(parts=[types.Part(text=str(hit.get("content") or ""))]),
        custom_metadata={key: value for key, value in custom.items() if value is not None},
    )


def _recall_fact(fact: Any) -> OrgMemoryFact | None:
    if not isinstance(fact, Mapping):
        return None
    return OrgMemoryFact.from_json(str(fact.get("subject") or ""), fact)


def _chunks(items: list[Any], size: int) -> list[list[Any]]:
    return [items[start : start + size] for start in range(0, len(items), size)]


class OrgMemoryService(BaseMemoryService):
    """ADK memory backed by OrgMemory: what an agent remembers for a user is shared along the organisation's
    hierarchy (the user's own scope, their team, division, org) and searched with OrgMemory's hybrid ranking.

    Configured by arguments or the ``ORGMEMORY_URL`` / ``ORGMEMORY_API_KEY`` environment variables (ValueError
    naming the variable when missing). Every API failure raises ``OrgMemoryError``; connection errors are retried
    once. Safe to share between event loops (one HTTP client per loop); ``await aclose()`` when done.

    ``project`` scopes the service to one project sub-scope (as adk-rust's ``supports_project_scoping``): sessions
    and memories it writes go into that project under their scope, its searches, answers and recalls see the
    user's chain plus that project, and it deletes only that project's memories. Without it, no call ever touches
    a project's memories.
    """

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        top_k: int = DEFAULT_TOP_K,
        retry_delay: float = DEFAULT_RETRY_DELAY,
        project: str | None = None,
    ) -> None:
        if not 1 <= top_k <= MAX_TOP_K:
            raise ValueError(f"top_k must be between 1 and {MAX_TOP_K}, got {top_k!r}")
        if project is not None and (not isinstance(project, str) or not project.strip()):
            raise ValueError(f"project must be a non-empty string or None, got {project!r}")
        self.top_k = top_k
        self.project = project
        self._http = OrgMemoryHttp(
            base_url=resolve_base_url(base_url),
            api_key=resolve_api_key(api_key),
            timeout=timeout,
            retry_delay=retry_delay,
        )

    @property
    def base_url(self) -> str:
        return self._http.base_url

    @property
    def timeout(self) -> float:
        return self._http.timeout

    def __repr__(self) -> str:
        project = f", project={self.project!r}" if self.project else ""
        return f"OrgMemoryService(base_url={self.base_url!r}{project})"  # never the key

    def _scoped(self, payload: dict[str, Any]) -> dict[str, Any]:
        """``payload`` with the service's project, if it has one."""
        return {**payload, "project": self.project} if self.project else payload

    # --- writes ---------------------------------------------------------------------------------------------

    async def add_session_to_memory(self, session: Session) -> None:
        """Store the session's text events as ``event`` memories at the user's own scope (``POST /sessions``).
        Idempotent: the server skips event ids it already stored, so a session may be added after every turn."""
        await self._ingest(
            app_name=session.app_name, user_id=session.user_id, session_id=session.id, events=session.events
        )

    async def add_events_to_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        events: Sequence[Event],
        session_id: str | None = None,
        custom_metadata: Mapping[str, object] | None = None,
    ) -> None:
        """Store a delta of events (same rules as ``add_session_to_memory``). ``custom_metadata`` is not used:
        the sessions endpoint keeps only each event's author and timestamp."""
        await self._ingest(app_name=app_name, user_id=user_id, session_id=session_id or NO_SESSION_ID, events=events)

    async def _ingest(self, *, app_name: str, user_id: str, session_id: str, events: Sequence[Event]) -> None:
        payload = session_events_payload(events)
        for chunk in _chunks(payload, EVENTS_PER_REQUEST):
            await self._http.request(
                "POST",
                "/sessions",
                json=self._scoped(
                    {"app_name": app_name, "user_id": user_id, "session_id": session_id, "events": chunk}
                ),
            )

    async def add_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        memories: Sequence[MemoryEntry],
        custom_metadata: Mapping[str, object] | None = None,
    ) -> None:
        """Write explicit memories (``POST /memories``, batch form). ``scope`` (a tag such as ``team:platform``),
        ``kind`` and ``title`` in an entry's custom_metadata, or in ``custom_metadata`` for every entry, become
        the memory's fields; other keys go to its metadata. Without ``scope`` a memory is private to the user."""
        items = [memory_item(entry, app_name=app_name, defaults=custom_metadata) for entry in memories]
        for chunk in _chunks(items, MEMORIES_PER_REQUEST):
            await self._http.request("POST", "/memories", json=self._scoped({"user_id": user_id, "memories": chunk}))

    async def delete_memory(self, *, app_name: str, user_id: str, memory_id: str | None = None) -> None:
        """Delete one memory by the id ``search_memory`` returned (needs the key's ``delete`` permission). No id:
        nothing to do. A memory the user cannot see is ``OrgMemoryError`` 404."""
        if not memory_id:
            return
        await self._http.request(
            "DELETE", f"/memories/{quote(str(memory_id), safe='')}", params=self._scoped({"user_id": user_id})
        )

    # --- reads ----------------------------------------------------------------------------------------------

    async def search_memory(self, *, app_name: str, user_id: str, query: str) -> SearchMemoryResponse:
        """The memories on the user's scope chain that best match ``query`` (``POST /search``), best first."""
        if not query or not query.strip():
            return SearchMemoryResponse()
        body = await self._search(app_name=app_name, user_id=user_id, query=query, top_k=self.top_k)
        return SearchMemoryResponse(memories=[memory_entry(hit) for hit in body.get("results", [])])

    async def answer(self, *, app_name: str, user_id: str, query: str, top_k: int | None = None) -> OrgMemoryAnswer:
        """A cited answer to ``query`` from the user's visible memories (``POST /search`` with ``synthesize``):
        the server's LLM when one is configured, else its deterministic answer (``used_llm`` False)."""
        body = await self._search(
            app_name=app_name, user_id=user_id, query=query, top_k=top_k or self.top_k, synthesize=True
        )
        answer = body.get("answer") or {}
        return OrgMemoryAnswer(
            text=str(answer.get("text") or ""),
            citations=tuple(
                Citation(index=int(cite["index"]), memory_id=int(cite["memory_id"]))
                for cite in answer.get("citations", [])
            ),
            used_llm=bool(answer.get("used_llm", False)),
            results=[memory_entry(hit) for hit in body.get("results", [])],
        )

    async def recall(
        self,
        *,
        user_id: str,
        task: str,
        budget_chars: int | None = None,
        budget_tokens: int | None = None,
        kinds: Sequence[str] = (),
    ) -> OrgMemoryRecall:
        """What the user's chain knows about ``task`` as a block to put in a prompt (``POST /recall``): give
        exactly one budget (characters 200–20,000 or tokens 50–5,000). For a ``preload_memory``-style callback::

            async def preload(callback_context, llm_request):
                task = callback_context.user_content.parts[0].text
                recall = await memory.recall(user_id=callback_context.user_id, task=task, budget_tokens=500)
                if recall.block:
                    llm_request.append_instructions(["What the organisation knows (cite #ids):\n" + recall.block])
        """
        request: dict[str, Any] = {"user_id": user_id, "task": task}
        if budget_chars is not None:
            request["budget_chars"] = budget_chars
        if budget_tokens is not None:
            request["budget_tokens"] = budget_tokens
        if kinds:
            request["kinds"] = list(kinds)
        body = await self._http.request("POST", "/recall", json=self._scoped(request)) or {}
        return OrgMemoryRecall(
            block=str(body.get("block") or ""),
            items=tuple(
                RecallItem(
                    id=int(item["id"]),
                    kind=str(item.get("kind") or ""),
                    scope=str(item.get("scope") or ""),
                    line=str(item.get("line") or ""),
                    pinned=bool(item.get("pinned", False)),
                    fact=_recall_fact(item.get("fact")),
                )
                for item in body.get("items", [])
            ),
            used_chars=int(body.get("used_chars") or 0),
            budget_chars=int(body.get("budget_chars") or 0),
            no_relevant_memory=bool(body.get("no_relevant_memory", False)),
        )

    async def facts(
        self, *, user_id: str, entity: int | str, attribute: str | None = None, as_of: str | None = None
    ) -> tuple[OrgMemoryFact, ...]:
        """What holds of an entity now, then what held before, as the user may see it (``GET
        /entities/{id}/facts``): current values first, then history, newest first. ``entity``: its id, or its name —
        the visible entity with exactly that name, else the only one the name matches (``GET /entities?q=``); none
        is ``OrgMemoryError`` 404 ``entity_not_found``, several 400 ``ambiguous_entity`` with the candidates in
        ``details``. ``attribute``: one only (``lives_in``, ``works_at``, …); ``as_of``: ISO 8601, the facts as they
        stood then. The facts of the user's scope chain (a project's are not among them)."""
        if isinstance(entity, int) or entity.strip().isdigit():
            entity_id = int(entity)
        else:
            entity_id = await self._entity_id(user_id=user_id, name=entity)
        params: dict[str, Any] = {"user_id": user_id}
        if attribute:
            params["attribute"] = attribute
        if as_of:
            params["as_of"] = as_of
        body = await self._http.request("GET", f"/entities/{entity_id}/facts", params=params) or {}
        subject = str((body.get("entity") or {}).get("name") or "")
        return tuple(OrgMemoryFact.from_json(subject, fact) for fact in body.get("results", []))

    async def _entity_id(self, *, user_id: str, name: str) -> int:
        params = {"user_id": user_id, "q": name, "page_size": ENTITIES_PER_LOOKUP}
        body = await self._http.request("GET", "/entities", params=params) or {}
        found = body.get("results", [])
        exact = [row for row in found if str(row.get("name", "")).casefold() == name.strip().casefold()]
        chosen = exact or found
        if len(chosen) == 1:
            return int(chosen[0]["id"])
        if not chosen:
            raise OrgMemoryError(
                status=404,
                code="entity_not_found",
                message=f"no entity named {name!r} visible to {user_id}",
                method="GET",
                path="/entities",
            )
        candidates = [{"id": row["id"], "name": row.get("name"), "kind": row.get("kind")} for row in chosen]
        raise OrgMemoryError(
            status=400,
            code="ambiguous_entity",
            message=f"{len(chosen)} entities visible to {user_id} match {name!r}: pass one of their ids",
            details={"candidates": candidates},
            method="GET",
            path="/entities",
        )

    async def _search(
        self, *, app_name: str, user_id: str, query: str, top_k: int, synthesize: bool = False
    ) -> dict[str, Any]:
        request: dict[str, Any] = {"user_id": user_id, "query": query, "top_k": top_k, "app_name": app_name}
        if synthesize:
            request["synthesize"] = True
        return await self._http.request("POST", "/search", json=self._scoped(request)) or {}

    # --- lifecycle ------------------------------------------------------------------------------------------

    async def aclose(self) -> None:
        """Close the HTTP clients (the service stays usable: a later call opens a new one)."""
        await self._http.aclose()

    async def __aenter__(self) -> OrgMemoryService:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()
