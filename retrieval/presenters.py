"""Plain-data views of a SearchResult, shared by the API, the admin playground and the `search` command."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from memories.instructions import WARNING_CODE as INSTRUCTION_WARNING
from memories.services.trust import provenance
from retrieval.services import SearchResult


def iso(value: datetime) -> str:
    """ISO 8601 with "Z" for UTC, as DRF renders date-times."""
    text = value.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def trust_fields(memory, contradicts: list[int]) -> dict[str, Any]:
    """What a result or recall item says of its memory's standing: the open contradictions with other shown
    memories, whether it is a proposal, whether it reads like instructions to a model, and its provenance."""
    return {
        "contradicts": list(contradicts),
        "status": memory.status,
        "possible_instruction": any(
            isinstance(w, dict) and w.get("code") == INSTRUCTION_WARNING for w in memory.warnings or []
        ),
        "provenance": provenance(memory),
    }


def result_as_dict(result: SearchResult, *, content_chars: int | None = None) -> dict[str, Any]:
    rows = []
    for hit in result.hits:
        memory = hit.memory
        content = memory.content if content_chars is None else memory.content[:content_chars]
        row = {
            "id": memory.pk,
            "content": content,
            "title": memory.title,
            "kind": memory.kind,
            "scope": {"level": memory.home_scope.level, "key": memory.home_scope.key, "tag": memory.home_scope.tag},
            "project": memory.project,
            "score": round(hit.score, 6),
            "author": memory.author,
            "created_at": iso(memory.created_at),
            "event_dates": memory.event_dates or [],
            "valid_from": iso(memory.valid_from) if memory.valid_from else None,
            "valid_until": iso(memory.valid_until) if memory.valid_until else None,
            "metadata": memory.metadata,
            "source": {
                "app_name": memory.source_app,
                "session_id": memory.source_session,
                "event_id": memory.source_event_id,
            },
        }
        row.update(trust_fields(memory, hit.contradicts))
        if hit.explain is not None:
            row["explain"] = hit.explain
        if hit.context is not None:
            row["context"] = [
                {"id": turn.id, "author": turn.author, "text": turn.text, "timestamp": iso(turn.timestamp)}
                for turn in hit.context
            ]
        rows.append(row)
    data: dict[str, Any] = {
        "results": rows,
        "degraded": list(result.degraded),
        "no_relevant_memory": result.no_relevant_memory,
        "confidence": result.confidence,
    }
    if result.answer is not None:
        data["answer"] = {
            "text": result.answer.text,
            "citations": [{"index": index, "memory_id": memory_id} for index, memory_id in result.answer.citations],
            "used_llm": result.answer.used_llm,
            "kind": result.answer.kind or ("llm" if result.answer.used_llm else "none"),
        }
        if result.answer.kind:
            data["answer"]["kind"] = result.answer.kind
        if result.answer.fact is not None:
            data["answer"]["fact"] = result.answer.fact
    if result.gaps is not None:
        data["gaps"] = {
            "stale_entities": list(result.gaps.stale_entities),
            "unknown_terms": list(result.gaps.unknown_terms),
            "contradictions": [list(pair) for pair in result.gaps.contradictions],
            "confidence": result.gaps.confidence,
        }
    if result.relational is not None and result.plan is not None:
        data["relational"] = {
            "relationship": result.relational.relationship,
            "seed": result.relational.seed,
            "direction": result.relational.direction,
            "seeds": [mention.name for mention in result.plan.seeds],
            "path": [{"relationship": hop.relationship, "direction": hop.direction} for hop in result.plan.hops],
            "truncated": result.plan.truncated,
        }
    return data
