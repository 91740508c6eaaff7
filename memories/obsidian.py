"""An Obsidian vault as an export/import format: one note per memory, one per entity.

Layout of the vault::

    memories/000123-deploy-days.md   front matter (id, scope, kind, title, author, user_id, created/updated,
                                     source, metadata, …), the content exactly as stored, then the memory's
                                     links as [[wikilinks]] to entity notes after a marker line
    entities/Nimbus Labs.md          the entity (id, kind) and its typed links, each citing the memory

Import reads the memory notes back into the records ``import_memories`` takes (the same checks and write path as
JSONL); entity notes are not read (links are extracted again from the content on import). The note text
functions are pure; ``export_vault`` and ``vault_records`` touch the database or the disk.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import tempfile
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from memories.hooks import vault_links
from memories.records import memory_as_record
from memories.safe_yaml import YamlError, YamlLimits, decode_text, load_yaml

NOTE_TYPE = "orgmemory-memory"
ENTITY_TYPE = "orgmemory-entity"
MEMORIES_DIR = "memories"
ENTITIES_DIR = "entities"
# between the content and the generated links; an HTML comment, so Obsidian shows nothing for it
LINKS_MARKER = "<!-- orgmemory:links (generated; not part of the memory) -->"
# front matter keys that are the import record's fields (the rest — id, updated, type — describe the export)
RECORD_FIELDS = (
    "external_id",
    "user_id",
    "scope",
    "project",
    "kind",
    "title",
    "metadata",
    "author",
    "app_name",
    "session_id",
    "event_id",
    "created_at",
    "expires_at",
    "valid_from",
    "valid_until",
    "reference_time",
)
#: the largest note read (as large as an import line); a larger one is refused before it is opened
NOTE_MAX_BYTES = 4 * 1024 * 1024
#: front matter holds the record's fields, never the content
FRONT_MATTER_LIMITS = YamlLimits(max_chars=1024 * 1024)
_UNSAFE = re.compile(r'[\\/:*?"<>|#^\[\]\x00-\x1f]')


class NoteError(ValueError):
    """A memory note that cannot be read; the message says why."""


@dataclass(frozen=True)
class LinkRef:
    """One link of a memory: ``subject —relationship→ object`` (object None for a mention or ``about``)."""

    memory_id: int
    subject_id: int
    relationship: str
    object_id: int | None


@dataclass(frozen=True)
class EntityRef:
    id: int
    name: str
    kind: str
    stem: str  # the note's file name without ``.md``


# --- names ----------------------------------------------------------------------------------------------------


def safe_stem(text: str, *, limit: int = 80) -> str:
    """A file-name stem Obsidian and every OS accept: no path or link syntax characters, no leading dot."""
    text = unicodedata.normalize("NFC", text)
    text = _UNSAFE.sub("-", text)
    text = " ".join(text.split()).strip(" .-")
    return text[:limit].rstrip(" .-") or "untitled"


def memory_stem(memory_id: int, title: str, content: str) -> str:
    words = title or " ".join(content.split()[:8])
    slug = re.sub(r"[^\w]+", "-", words.casefold()).strip("-")[:60].strip("-")
    return f"{memory_id:06d}-{slug}" if slug else f"{memory_id:06d}"


def entity_stems(entities: Iterable[tuple[int, str]]) -> dict[int, str]:
    """Entity id → note stem: the safe name, with the id added when two names would share a file."""
    entities = sorted(entities)
    counts: dict[str, int] = defaultdict(int)
    for _, name in entities:
        counts[safe_stem(name).casefold()] += 1
    stems = {}
    for entity_id, name in entities:
        stem = safe_stem(name)
        stems[entity_id] = f"{stem} ({entity_id})" if counts[stem.casefold()] > 1 else stem
    return stems


def wikilink(folder: str, stem: str, label: str) -> str:
    label = label.replace("|", "/").replace("]", ")").replace("[", "(")
    return f"[[{folder}/{stem}|{label}]]"


# --- notes (pure) ---------------------------------------------------------------------------------------------


def _front_matter(data: dict[str, Any]) -> str:
    return "---\n" + yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=10_000) + "---\n"


def memory_note(
    *,
    memory_id: int,
    record: dict[str, Any],
    content: str,
    updated_at: str,
    links: list[LinkRef],
    entities: dict[int, EntityRef],
) -> str:
    """The note of one memory. ``record`` is the JSONL export's record without ``content`` (None values are
    left out); the content follows the front matter exactly as stored."""
    front: dict[str, Any] = {"type": NOTE_TYPE, "id": memory_id}
    front.update({key: record[key] for key in RECORD_FIELDS if record.get(key) is not None})
    front["updated_at"] = updated_at
    named = [entities[i] for i in dict.fromkeys(i for link in links for i in (link.subject_id, link.object_id) if i)]
    if named:
        front["entities"] = [wikilink(ENTITIES_DIR, entity.stem, entity.name) for entity in named]
    lines = []
    for link in links:
        subject = entities[link.subject_id]
        if link.object_id is None:
            verb = "about" if link.relationship == "about" else "mentions"
            lines.append(f"- {verb} {wikilink(ENTITIES_DIR, subject.stem, subject.name)}")
        else:
            target = entities[link.object_id]
            lines.append(
                f"- {wikilink(ENTITIES_DIR, subject.stem, subject.name)} {link.relationship} "
                f"{wikilink(ENTITIES_DIR, target.stem, target.name)}"
            )
    text = _front_matter(front) + content
    if lines:
        text += "\n\n" + LINKS_MARKER + "\n" + "\n".join(dict.fromkeys(lines)) + "\n"
    return text


def entity_note(
    *, entity: EntityRef, links: list[LinkRef], entities: dict[int, EntityRef], memory_stems: dict[int, str]
) -> str:
    """The note of one entity: its typed links in both directions and its mentions, each citing the memory."""
    front = {"type": ENTITY_TYPE, "entity_id": entity.id, "name": entity.name, "kind": entity.kind}
    lines = [f"# {entity.name}", ""]
    for link in links:
        cite = wikilink(MEMORIES_DIR, memory_stems[link.memory_id], f"#{link.memory_id}")
        if link.object_id is None:
            lines.append(f"- {'about' if link.relationship == 'about' else 'mentioned'} in {cite}")
        elif link.subject_id == entity.id:
            other = entities[link.object_id]
            lines.append(f"- {link.relationship} {wikilink(ENTITIES_DIR, other.stem, other.name)} ({cite})")
        else:
            other = entities[link.subject_id]
            lines.append(f"- {wikilink(ENTITIES_DIR, other.stem, other.name)} {link.relationship} this ({cite})")
    return _front_matter(front) + "\n".join(lines) + "\n"


def parse_memory_note(text: str) -> dict[str, Any] | None:
    """A memory note → the import record (``content`` included), or None for a note that is not a memory (an
    entity note, a note of the user's own). NoteError for a memory note that cannot be read."""
    if not text.startswith("---\n"):
        return None
    end = text.find("\n---\n", 3)
    if end < 0:
        return None
    try:
        front = load_yaml(text[4 : end + 1], limits=FRONT_MATTER_LIMITS)
    except YamlError as exc:
        raise NoteError(f"the front matter is not valid YAML: {exc}") from None
    if not isinstance(front, dict) or front.get("type") != NOTE_TYPE:
        return None
    body = text[end + len("\n---\n") :]
    content, marker, _ = body.rpartition("\n\n" + LINKS_MARKER + "\n")
    record = {key: front[key] for key in RECORD_FIELDS if front.get(key) is not None}
    record["content"] = content if marker else body
    return record


# --- database and disk --------------------------------------------------------------------------------------


class VaultError(ValueError):
    """The export's target folder holds something it must not write through; nothing was written."""


def export_vault(*, memories, directory: Path) -> tuple[int, int]:
    """Write the notes of ``memories`` (a queryset of one tenant's memories) and of the entities they link into
    ``directory``; returns (memory notes, entity notes). Existing notes of the same names are replaced, each
    atomically (a temporary file renamed over it). VaultError, before anything is written, when a note's path or
    one of the two folders is a symlink or a special file: the export never writes through a link to elsewhere."""
    memories = list(memories.select_related("scope__parent", "author_member").order_by("id"))
    links_of: dict[int, list[LinkRef]] = defaultdict(list)
    rows, found = vault_links([m.pk for m in memories])  # the graph's links and entities (memories.hooks)
    for memory_id, subject_id, relationship, object_id in rows:
        links_of[memory_id].append(LinkRef(memory_id, subject_id, relationship, object_id))
    stems = entity_stems((pk, name) for pk, name, _ in found)
    entities = {pk: EntityRef(pk, name, kind, stems[pk]) for pk, name, kind in found}
    memory_stems = {memory.pk: memory_stem(memory.pk, memory.title, memory.content) for memory in memories}
    targets = [
        *(directory / MEMORIES_DIR / f"{stem}.md" for stem in memory_stems.values()),
        *(directory / ENTITIES_DIR / f"{entity.stem}.md" for entity in entities.values()),
    ]
    _check_targets(directory, targets)
    (directory / MEMORIES_DIR).mkdir(parents=True, exist_ok=True)
    (directory / ENTITIES_DIR).mkdir(parents=True, exist_ok=True)
    _check_targets(directory, [])  # the folders, as created (a link made meanwhile is refused too)
    for memory in memories:
        note = memory_note(
            memory_id=memory.pk,
            record=memory_as_record(memory),
            content=memory.content,
            updated_at=memory.updated_at.isoformat(),
            links=links_of.get(memory.pk, []),
            entities=entities,
        )
        _write_atomically(directory / MEMORIES_DIR / f"{memory_stems[memory.pk]}.md", note)
    by_entity: dict[int, list[LinkRef]] = defaultdict(list)
    for links in links_of.values():
        for link in links:
            for entity_id in dict.fromkeys((link.subject_id, link.object_id)):
                if entity_id:
                    by_entity[entity_id].append(link)
    for entity in entities.values():
        note = entity_note(entity=entity, links=by_entity[entity.id], entities=entities, memory_stems=memory_stems)
        _write_atomically(directory / ENTITIES_DIR / f"{entity.stem}.md", note)
    return len(memories), len(entities)


def _check_targets(directory: Path, targets: list[Path]) -> None:
    refused = []
    for path in [directory / MEMORIES_DIR, directory / ENTITIES_DIR, *targets]:
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            continue
        folder = path.parent == directory
        if stat.S_ISLNK(info.st_mode):
            refused.append(f"{path.relative_to(directory)} is a symlink")
        elif folder and not stat.S_ISDIR(info.st_mode):
            refused.append(f"{path.relative_to(directory)} is not a folder")
        elif not folder and not stat.S_ISREG(info.st_mode):
            refused.append(f"{path.relative_to(directory)} is {_file_kind(info.st_mode)}, not a note")
    if refused:
        listed = "; ".join(refused[:5]) + (f"; and {len(refused) - 5} more" if len(refused) > 5 else "")
        raise VaultError(f"{listed}: the export does not write through links or special files; nothing was written")


def _write_atomically(path: Path, text: str) -> None:
    """``text`` into ``path`` through a new temporary file in the same folder (created exclusively, so it is never
    an existing link) renamed over it: a rename replaces a name, it never follows what the name pointed to."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".orgmemory-", suffix=".tmp")
    try:
        os.fchmod(fd, 0o644)  # what write_text would give under the usual umask (mkstemp makes it owner-only)
        with os.fdopen(fd, "w", encoding="utf-8") as note:
            note.write(text)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def vault_lines(directory: Path) -> tuple[list[str], list[bytes], list[tuple[int, str]]]:
    """The memory notes under ``directory`` (sorted by path; other notes are skipped) as ``import_memories``
    input: their paths, one JSONL line each (numbered from 1 like a file's lines), and (number, reason) for notes
    that cannot be read (their line is empty, which the importer skips).

    Only regular files inside the vault are read: a symlink (to a note, a folder, ``/etc/passwd`` or a device) is
    refused without being followed, and so is any special file (a FIFO, a device, a socket), which could block the
    read or never end; a note's size is checked before it is read, and no more than ``NOTE_MAX_BYTES`` + 1 bytes
    are ever read. Each refusal is one bad note; the others are still imported."""
    paths: list[str] = []
    lines: list[bytes] = []
    unreadable: list[tuple[int, str]] = []
    root = os.path.realpath(directory)
    for relative, problem in _vault_entries(root):
        if problem is None:
            try:
                record = parse_memory_note(_read_note(root, relative))
                line = None if record is None else json.dumps(record, ensure_ascii=False, default=str).encode()
            except NoteError as exc:
                problem = str(exc)
            except (ValueError, TypeError) as exc:  # what json.dumps refuses; the loader returns plain data
                problem = f"the front matter cannot be read: {exc}"
            else:
                if line is not None:
                    paths.append(relative)
                    lines.append(line)
                continue
        paths.append(relative)
        lines.append(b"")
        unreadable.append((len(lines), f"{relative}: {problem}"))
    return paths, lines, unreadable


def _vault_entries(root: str) -> list[tuple[str, str | None]]:
    """(path relative to the vault, why it is refused or None) for every ``.md`` entry and every symlinked folder
    under ``root``, sorted by path. The walk never follows a symlink, so it never leaves the vault."""
    entries: list[tuple[str, str | None]] = []
    for folder, folders, files in os.walk(root, followlinks=False):
        for name in [*folders]:
            if os.path.islink(os.path.join(folder, name)):
                entries.append((os.path.relpath(os.path.join(folder, name), root), _SYMLINK_REFUSED))
        for name in files:
            if name.endswith(".md"):
                path = os.path.join(folder, name)
                entries.append((os.path.relpath(path, root), _refusal(path)))
    return sorted(entries)


_SYMLINK_REFUSED = "a symlink: not followed (a vault's notes are its own files; copy the target in instead)"


def _refusal(path: str) -> str | None:
    try:
        info = os.lstat(path)
    except OSError as exc:
        return f"cannot be read: {exc.strerror}"
    if stat.S_ISLNK(info.st_mode):
        return _SYMLINK_REFUSED
    if not stat.S_ISREG(info.st_mode):
        return f"{_file_kind(info.st_mode)}, not a regular file: not read"
    if info.st_size > NOTE_MAX_BYTES:
        return f"the note is {info.st_size:,} bytes; a note may have at most {NOTE_MAX_BYTES:,}: not read"
    return None


def _file_kind(mode: int) -> str:
    for test, kind in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISDIR, "a folder"),
    ):
        if test(mode):
            return kind
    return "a special file"


def _read_note(root: str, relative: str) -> str:
    """The text of one note checked by :func:`_refusal`, read again safely: opened without following a symlink
    and without blocking (so a file swapped for a FIFO or a symlink since the walk is refused, not waited on),
    checked to be a regular file inside the vault, and read up to the limit plus one byte."""
    path = os.path.join(root, relative)
    if os.path.commonpath([root, os.path.realpath(path)]) != root:
        raise NoteError("resolves outside the vault: not read")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise NoteError(f"cannot be opened ({exc.strerror}): not read") from None
    with os.fdopen(fd, "rb") as note:
        info = os.fstat(note.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise NoteError(f"{_file_kind(info.st_mode)}, not a regular file: not read")
        # as much as the size said (bounded by the limit), plus whatever it has grown by since, up to limit + 1
        data = note.read(min(info.st_size, NOTE_MAX_BYTES) + 1)
        if len(data) > info.st_size:
            data += note.read(NOTE_MAX_BYTES + 1 - len(data))
    if len(data) > NOTE_MAX_BYTES:
        raise NoteError(f"the note is larger than {NOTE_MAX_BYTES:,} bytes: not read")
    return decode_note(data)


def decode_note(data: bytes) -> str:
    """A note's bytes as text: UTF-8 (a UTF-8 byte-order mark is dropped), else a NoteError saying why not."""
    try:
        return decode_text(data)
    except YamlError as exc:
        raise NoteError(str(exc).replace("the file is", "the note is", 1)) from None
