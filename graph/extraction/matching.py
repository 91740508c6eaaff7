"""Turn a typed-pattern match over a clause skeleton into links (subjects x objects)."""

from __future__ import annotations

import bisect
import dataclasses
import re
from dataclasses import dataclass

from graph import vocabulary as v
from graph.extraction.entities import Mention
from graph.extraction.lexicon import CLAUSE_VERBS
from graph.extraction.patterns import Pattern
from graph.extraction.segment import Sentence, Token
from graph.extraction.selfref import SelfContext, names_event
from graph.extraction.types import EntityRef, Link

ENTITY_ID_RE = re.compile(r"<E(\d{1,4})>")
# "A and B", "A, and B"; "the A service and the B API" (a list whose names carry their head nouns)
_CONJUNCTION_RE = re.compile(r"> (?:[a-z]{1,20} )?(?:, )?(?:and|&|as well as) (?:the )?<")
_PERSON_PRONOUNS = frozenset({"she", "he"})
_ORG_DESCRIPTORS = frozenset({"it", "the company", "the startup", "the firm", "the fund", "the business"})
_EVENT_DESCRIPTORS = frozenset({"the meeting", "the session", "the call"})
# Words that may precede a subject list without making its first names the object of something else.
_LIST_OPENERS = frozenset(
    """, and but while when after before as since because although though then both that which who ( " so
    where whereas once""".split()
)
_FINITE_VERBS = CLAUSE_VERBS | frozenset(
    "is was are were has have had will would can could should may might must did does do".split()
)
_OWNER_VERBS = frozenset(
    """raised raises closed closes announced announces secured secures completed completes has had attracted
    attracts landed lands received receives won 's""".split()
)
_BOARD_WORDS = frozenset(
    "board observer independent non-executive chair chairman chairwoman chairperson trustee member".split()
)


@dataclass
class Clause:
    """One clause, its entities, and its skeleton (``parts`` joined by spaces, ``<E{n}>`` for entity n)."""

    sentence: Sentence
    sentence_tokens: list[Token]
    tokens: list[Token]
    mentions: list[Mention]
    entities: list[EntityRef]
    parts: list[str]
    part_spans: list[tuple[int, int]]  # original character span of each part
    offsets: list[int]  # offset of each part in the skeleton
    skeleton: str


def _part_index(clause: Clause, offset: int) -> int:
    return max(0, bisect.bisect_right(clause.offsets, offset) - 1)


def _group_parts(clause: Clause, match: re.Match[str], group: str) -> tuple[int, int]:
    return _part_index(clause, match.start(group)), _part_index(clause, max(match.start(group), match.end(group) - 1))


# --- matches -> links ------------------------------------------------------------------------------------


def _resolve(text: str | None, clause: Clause, ctx: SelfContext, *, keep: str = "all") -> list[EntityRef]:
    """Entities of a matched group; ``keep`` says which name of a comma list without "and" is the real one
    ("Before Forge, Adam worked at ..." is not a list: the subject is the last name, an object the first)."""
    if not text:
        return []
    ids = ENTITY_ID_RE.findall(text)
    if len(ids) > 1 and not _CONJUNCTION_RE.search(text):
        ids = ids[-1:] if keep == "last" else ids[:1]
    if ids:
        return [clause.entities[int(i)] for i in ids]
    if ctx.ref is None:
        return []
    if (text in _PERSON_PRONOUNS and ctx.kind == v.PERSON) or (text in _ORG_DESCRIPTORS and ctx.kind == v.ORG):
        return [ctx.ref]
    if text in _EVENT_DESCRIPTORS and ctx.kind == v.EVENT:
        return [ctx.ref]
    return []


def _trim_subjects(subjects: list[EntityRef], clause: Clause, match: re.Match[str]) -> list[EntityRef]:
    """In "X acquired Y and Z founded W" only Z founded W: a list after a plain word keeps its last name."""
    if len(subjects) < 2:
        return subjects
    first, _ = _group_parts(clause, match, "s")
    if first == 0:
        return subjects
    previous = clause.parts[first - 1]
    if previous in _LIST_OPENERS or previous.endswith("ly") or previous.isdigit():
        return subjects
    return subjects[-1:]


def _trim_objects(objects: list[EntityRef], clause: Clause, match: re.Match[str], group: str) -> list[EntityRef]:
    """In "founded Acme and Bob joined Beta" the list ends before "Bob": a name before a verb is a subject."""
    if len(objects) < 2:
        return objects
    _, last = _group_parts(clause, match, group)
    if last + 1 < len(clause.parts) and clause.parts[last + 1] in _FINITE_VERBS:
        return objects[:-1]
    return objects


def _owner(clause: Clause, ctx: SelfContext, exclude: list[EntityRef], relationship: str) -> list[EntityRef]:
    """The organisation a round / board / job belongs to: the clause's organisation subject, else the text's
    (but a round mentioned on an investor's own page is somebody else's round)."""
    if len(clause.parts) > 1 and clause.parts[1] in _OWNER_VERBS:
        ids = ENTITY_ID_RE.fullmatch(clause.parts[0])
        if ids is not None:
            entity = clause.entities[int(ids.group(1))]
            if entity not in exclude and entity.kind != v.PERSON and not (entity == ctx.ref and ctx.kind != v.ORG):
                return [entity]
    if ctx.kind == v.ORG and ctx.ref is not None and not (ctx.investor and relationship == v.INVESTED_IN):
        return [ctx.ref]
    return []


def _event(clause: Clause, ctx: SelfContext) -> list[EntityRef]:
    if ctx.kind != v.EVENT or ctx.ref is None:
        return []
    if clause.sentence.bullet and not names_event(ctx, [t.text for t in clause.sentence_tokens]):
        return []
    return [ctx.ref]


def _classify_role(role: str, prep: str | None) -> str | None:
    """The relationship a role phrase states ("founder" -> founded, "advisor" -> advises, "partner at" ->
    works_at); ``None`` for board seats, which say nothing reliable about employment or investment."""
    words = role.split()
    if any(w.startswith(("founder", "co-founder", "cofounder")) for w in words):
        relationship = v.FOUNDED
    elif any(w.startswith(("advisor", "adviser", "advisory")) for w in words):
        relationship = v.ADVISES
    elif any(w in ("investor", "investors", "backer", "angel", "lp") for w in words):
        relationship = v.INVESTED_IN
    elif any(w in _BOARD_WORDS for w in words):
        return None
    elif any(w in ("student", "graduate", "alumnus", "alumna") for w in words):
        relationship = v.ATTENDED
    elif words and words[-1] in ("partner", "partners") and prep in ("of", "with", "to"):
        relationship = v.PARTNER_OF  # "a design partner of Globex", unlike "a partner at Sequoia"
    else:
        relationship = v.WORKS_AT
    # "an engineer in Austin" / "an engineer to the board" state no employment
    allowed = {"in": (v.INVESTED_IN,), "to": (v.ADVISES, v.PARTNER_OF), "behind": (v.FOUNDED,)}
    if prep in allowed and relationship not in allowed[prep]:
        return None
    return relationship


def _surface(clause: Clause, match: re.Match[str], group: str) -> str:
    first, last = _group_parts(clause, match, group)
    return _original(clause, clause.part_spans[first][0], clause.part_spans[last][1])


def _original(clause: Clause, start: int, end: int) -> str:
    words = [t.text for t in clause.tokens if start <= t.start and t.end <= end]
    while words and words[0].casefold() in ("a", "an", "the", "its", "their", "one", "of"):
        words = words[1:]
    return " ".join(words)


def _relationship(
    pattern: Pattern, match: re.Match[str], clause: Clause
) -> tuple[str | None, tuple[tuple[str, str], ...]]:
    if pattern.relationship != "role":
        return pattern.relationship, ()
    role = match.group("role") if "role" in match.re.groupindex else None
    if not role:
        return v.WORKS_AT, ()  # "X joined Acme", "Acme hired X"
    relationship = _classify_role(role, match.groupdict().get("prep"))
    if relationship in (v.WORKS_AT, v.ADVISES):
        return relationship, (("position", _surface(clause, match, "role")),)
    return relationship, ()


def _subjects(
    pattern: Pattern, match: re.Match[str], clause: Clause, ctx: SelfContext, relationship: str
) -> list[EntityRef]:
    group = match.groupdict().get("s")
    subject_first = group is not None and match.start("s") == match.start()
    subjects = _resolve(group, clause, ctx, keep="last" if subject_first else "first")
    if subject_first and ENTITY_ID_RE.search(group or ""):
        if clause.skeleton.startswith(" 's", match.end("s")):  # "Johnson's graduate research": a possessor
            return []
        subjects = _trim_subjects(subjects, clause, match)
    if pattern.subject == "self_person":
        return [ctx.ref] if ctx.kind == v.PERSON and ctx.ref is not None else []
    if pattern.subject == "owner":
        return _owner(clause, ctx, [], relationship)
    return subjects


def _objects(
    pattern: Pattern,
    match: re.Match[str],
    clause: Clause,
    ctx: SelfContext,
    subjects: list[EntityRef],
    relationship: str,
) -> list[EntityRef]:
    groups = match.groupdict()
    if groups.get("o"):
        return _trim_objects(_resolve(groups["o"], clause, ctx), clause, match, "o")
    if groups.get("od"):
        return _resolve(groups["od"], clause, ctx)
    if pattern.object == "owner":
        return _owner(clause, ctx, subjects, relationship)
    if pattern.object == "self_event":
        return _event(clause, ctx)
    return []


def links_from_match(pattern: Pattern, match: re.Match[str], clause: Clause, ctx: SelfContext) -> list[Link]:
    """The links one match states: every resolved subject x every resolved object, self-loops dropped, each
    with the pattern's confidence and the match's character span."""
    relationship, metadata = _relationship(pattern, match, clause)
    if relationship is None:
        return []
    subjects = _subjects(pattern, match, clause, ctx, relationship)
    objects = _objects(pattern, match, clause, ctx, subjects, relationship)
    hired = match.groupdict().get("h")
    if hired:  # "Acme hired X (as CTO)": X works at Acme -- only when Acme is known to be an organisation
        if any(s.kind == v.PERSON or (s.kind == v.UNKNOWN and s != ctx.ref) for s in subjects):
            return []
        subjects, objects = _resolve(hired, clause, ctx), subjects
    if pattern.object == "self_event":  # only people attend; a one-word name is too ambiguous to count
        subjects = [s for s in subjects if s.kind == v.PERSON or (s.kind == v.UNKNOWN and len(s.norm.split()) >= 2)]
    if relationship in (v.WORKS_AT, v.ACQUIRED) and any(o.kind == v.PERSON for o in objects):
        return []  # "joined Bob for dinner", "acquired Alice" are not employment / acquisitions
    spec = v.BY_VALUE[relationship]
    if spec.strict:  # the same words relate other kinds of things: keep only ends that fit the signature
        subjects = [s for s in subjects if v.fits(s.kind, spec.subjects)]
        objects = [o for o in objects if v.fits(o.kind, spec.objects)]
    span = (
        clause.part_spans[_part_index(clause, match.start())][0],
        clause.part_spans[_part_index(clause, max(match.start(), match.end() - 1))][1],
    )
    return [
        Link(
            _refine(subject, relationship, is_subject=True),
            relationship,
            _refine(obj, relationship, is_subject=False),
            pattern.confidence,
            span,
            metadata,
        )
        for subject in subjects
        for obj in objects
        if subject.norm and obj.norm and subject.norm != obj.norm
    ]


def _refine(entity: EntityRef, relationship: str, *, is_subject: bool) -> EntityRef:
    """Fill an unknown kind from the role the entity plays (a founder is a person, an employer a company): the
    vocabulary's ``refine_subject`` / ``refine_object``."""
    if entity.kind != v.UNKNOWN:
        return entity
    spec = v.BY_VALUE[relationship]
    kind = spec.refine_subject if is_subject else spec.refine_object
    return dataclasses.replace(entity, kind=kind) if kind else entity
