"""``extract_links``: text -> typed links and mentions. Pure: no Django, no I/O."""

from __future__ import annotations

import re

from graph import vocabulary
from graph.extraction.entities import Mention, capitalised_words, clause_start, find_mentions, guess_kind
from graph.extraction.matching import Clause, links_from_match
from graph.extraction.normalize import normalize_entity_name
from graph.extraction.patterns import PATTERNS
from graph.extraction.segment import (
    ReferenceIndex,
    Sentence,
    Token,
    find_references,
    split_clauses,
    split_sentences,
    tokenize,
)
from graph.extraction.selfref import SelfContext, self_context
from graph.extraction.types import EntityRef, Link

MAX_TEXT_CHARS = 1_000_000  # longer inputs are truncated: memories are far shorter, this only bounds abuse
EXPLICIT_MENTION_CONFIDENCE = 0.5
PHRASE_MENTION_CONFIDENCE = 0.3


def extract_links(text: str, *, self_name: str | None = None) -> list[Link]:
    """Extract typed links and mentions from ``text``.

    Contract: never raises on any string; returns links sorted by span start, deduplicated on
    ``(subject.norm, relationship, object.norm)`` keeping the highest confidence; every ``object`` is an
    :class:`EntityRef` except for ``"mentioned"`` links; spans lie within ``text``; no entity or match spans a
    sentence boundary. ``self_name`` names the entity the text is about (a page or memory title): pronouns and
    descriptors ("She founded ...", "The company was founded by ...", headline-style timeline entries) are
    resolved to it only where that is reliable, i.e. when the text's kind (person / organisation / event)
    fits the pronoun. Entities that take part in a typed link get no separate ``mentioned`` link.
    """
    if not text or not text.strip():
        return []
    text = text[:MAX_TEXT_CHARS]
    index = ReferenceIndex(find_references(text))
    raw = []
    for sentence in split_sentences(text, index):
        sentence_tokens = tokenize(text, sentence, index)
        raw.extend((sentence, sentence_tokens, clause) for clause in split_clauses(text, sentence_tokens))
    capitalised: set[str] = set()
    for _, _, tokens in raw:
        capitalised |= capitalised_words(tokens)
    ctx = self_context(text, self_name)
    lowercase = set(_LOWER_WORD_RE.findall(text))
    links: list[Link] = []
    mention_links: list[Link] = []
    for sentence, sentence_tokens, tokens in raw:
        clause = _build_clause(text, sentence, sentence_tokens, tokens, capitalised, ctx)
        if clause.entities:  # every pattern relates at least one named entity
            for pattern in PATTERNS:
                if (pattern.bullet_only and not sentence.bullet) or (
                    pattern.object == "self_event" and ctx.kind != vocabulary.EVENT
                ):
                    continue
                if pattern.needs.search(clause.skeleton) is None:
                    continue
                for match in pattern.regex.finditer(clause.skeleton):
                    links.extend(links_from_match(pattern, match, clause, ctx))
        for mention, entity in zip(clause.mentions, clause.entities, strict=True):
            if (
                not (mention.weak or mention.fragment)
                and entity.norm
                and not _common_word(mention, entity, ctx, text, lowercase)
            ):
                confidence = EXPLICIT_MENTION_CONFIDENCE if mention.explicit else PHRASE_MENTION_CONFIDENCE
                span = (tokens[mention.first].start, tokens[mention.last].end)
                mention_links.append(Link(entity, vocabulary.MENTIONED, None, confidence, span))
    linked = {link.subject.norm for link in links} | {link.object.norm for link in links if link.object}
    links.extend(link for link in mention_links if link.subject.norm not in linked)
    return _dedup(links)


_DESCRIPTOR_RE = re.compile(r"(?:^|[\s-])[a-z]+-\S|\S-[a-z]+(?:$|\s)")
_NUMBERED_NOUN_RE = re.compile(r"([A-Z][a-z]+) (?:I{1,3}|IV|VI{0,3}|IX|X)")
_LOWER_WORD_RE = re.compile(r"(?<![\w-])[a-z][a-z]+(?![\w-])")


def _common_word(mention: Mention, entity: EntityRef, ctx: SelfContext, text: str, lowercase: set[str]) -> bool:
    """A lone capitalised word the same text also writes in lower case ("Cloud ... the cloud", "Pending ...
    pending") is a common word capitalised by its position, not a name, unless the text links it; so is an acronym
    the text spells out in lower case ("managed detection and response (MDR)")."""
    if mention.explicit or entity is ctx.ref:
        return False
    if _DESCRIPTOR_RE.search(entity.name):
        return True  # "PLG-specific", "ex-Googlers", "pre-Phase": a descriptor built on a name, not a name
    numbered = _NUMBERED_NOUN_RE.fullmatch(entity.name)
    if numbered is not None:  # "Fund VII", "Phase II": a numbered common noun ("the fund", "this phase")
        word = numbered.group(1).casefold()
        return word in lowercase or f"{word}s" in lowercase
    if " " in entity.name:
        return False
    if entity.name.isupper():
        return _spelled_out(entity.name, text)
    if not entity.name[1:].islower():
        return False
    word = entity.name.casefold()
    return word in lowercase or word.removesuffix("s") in lowercase or f"{word}s" in lowercase


def _spelled_out(acronym: str, text: str) -> bool:
    for match in re.finditer(r"((?:[a-z][a-z-]* ){1,8})\(" + re.escape(acronym) + r"\)", text):
        initials = "".join(w[0] for w in match.group(1).split() if w not in {"and", "of", "the", "for", "to"})
        if initials.endswith(acronym.casefold()):
            return True
    return False


def _dedup(links: list[Link]) -> list[Link]:
    best: dict[tuple[str, str, str], Link] = {}
    for link in links:
        key = (link.subject.norm, link.relationship, link.object.norm if link.object else "")
        if key not in best or link.confidence > best[key].confidence:
            best[key] = link
    return sorted(best.values(), key=lambda x: (x.span, x.relationship, x.object.norm if x.object else ""))


def _build_clause(
    text: str,
    sentence: Sentence,
    sentence_tokens: list[Token],
    tokens: list[Token],
    capitalised: set[str],
    ctx: SelfContext,
) -> Clause:
    mentions = find_mentions(
        text, tokens, capitalised_elsewhere=capitalised, self_words=set(ctx.words), bullet=sentence.bullet
    )
    entities = [_entity(m, ctx, _next_word(tokens, m.last)) for m in mentions]
    by_first = {m.first: (i, m) for i, m in enumerate(mentions)}
    parts: list[str] = []
    spans: list[tuple[int, int]] = []
    i = clause_start(tokens)
    while i < len(tokens):
        if i in by_first:
            n, mention = by_first[i]
            parts.append(f"<E{n}>")
            spans.append((tokens[mention.first].start, tokens[mention.last].end))
            i = mention.last + 1
            continue
        token = tokens[i]
        if token.kind == "poss":
            parts.append("'s")
        elif token.kind == "money":
            parts.append("$")
        elif token.kind == "punct":
            parts.append({"“": '"', "”": '"', "‘": "'", "’": "'"}.get(token.text, token.text))
        else:
            parts.append(token.text.casefold().replace("’", "'"))
        spans.append((token.start, token.end))
        i += 1
    offsets, position = [], 0
    for part in parts:
        offsets.append(position)
        position += len(part) + 1
    return Clause(sentence, sentence_tokens, tokens, mentions, entities, parts, spans, offsets, " ".join(parts))


def _next_word(tokens: list[Token], last: int) -> str:
    following = tokens[last + 1] if last + 1 < len(tokens) else None
    return following.text if following is not None and following.kind == "word" else ""


def _entity(mention: Mention, ctx: SelfContext, next_word: str = "") -> EntityRef:
    norm = normalize_entity_name(mention.name)
    if ctx.ref is not None and (
        norm == ctx.ref.norm or norm in ctx.aliases or (mention.first == mention.last and norm in ctx.words)
    ):
        return ctx.ref
    kind = guess_kind(mention.name, mention.target)
    if kind == vocabulary.UNKNOWN:
        # "the Platform team", "the Billing service": a lower-case head noun after the name says what it is
        kind = vocabulary.KIND_HEAD_NOUNS.get(next_word, kind)
    return EntityRef(mention.name, norm, kind, mention.target)
