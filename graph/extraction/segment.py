"""Explicit references, sentence/clause splitting and tokenisation.

Sentence rule (documented because entity spans must never cross it):

* a newline ends a sentence, except a soft wrap inside prose (the line stops mid-phrase, on a lowercase
  letter or a comma, and the next line is neither a list item nor a heading): bullets, timeline entries and
  paragraphs stay independent; entity names never run across a line break either way;
* ``.``, ``!`` or ``?`` (plus closing quotes/brackets) followed by whitespace ends a sentence when the next
  character is an uppercase letter, an opening quote/bracket or a markdown reference;
* except after a single ``.`` that closes an honorific or a Latin/reference abbreviation ("Dr.", "Mr.",
  "St.", "vs.", "e.g.", "approx.") or an initial ("J. Smith", "U.S.") -- those always precede more of the
  same sentence;
* corporate suffixes ("Inc.", "Corp.", "Ltd.", "Co.", "Jr.") are *not* exceptions: a suffix ends the name it
  belongs to, so "Acme Corp. Sequoia invested" is two sentences. The rare "Acme Inc. CEO Jane Doe said" is
  split too, which costs an apposition, never a wrong edge;
* a period inside a reference ``[Acme Inc.](x)`` never splits; sentences longer than ``MAX_SENTENCE_CHARS``
  are cut into windows at whitespace so that the bounded patterns stay linear on hostile input.

Clauses: inside a sentence ``;``, ``|`` and dashes used as punctuation (``—``, ``–``, spaced ``-``) end a
clause. Typed patterns and capitalised runs never cross a clause.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

MAX_SENTENCE_CHARS = 1200
MAX_NAME_CHARS = 200

_REFERENCE_RE = re.compile(
    r"(?<!!)\[(?P<text>[^\[\]\n]{1,200})\]\((?P<href>[^()\s]{1,300})\)"
    r"|\[\[(?P<wtarget>[^\[\]|\n]{1,300})(?:\|(?P<wname>[^\[\]\n]{1,200}))?\]\]"
)
_SENTENCE_END_RE = re.compile(r"[.!?]{1,5}[\"'”’)\]]{0,3}(?=\s)")
_PREVIOUS_WORD_RE = re.compile(r"([A-Za-z][A-Za-z.]{0,15})$")
_NEXT_CHAR_RE = re.compile(r"\s*(\S)")
_BULLET_RE = re.compile(r"\s{0,12}(?:[-*+•]|\d{1,3}[.)])\s")
_TOKEN_RE = re.compile(
    r"(?P<poss>['’]s\b)"
    r"|(?P<money>\$\d[\d.,]{0,20}(?:bn|[kmbKMB])?)"
    r"|(?P<word>[^\W_](?:[^\W_]|[&\-](?=[^\W_])|\.(?=[^\W_])|['’](?=[^\W_])(?![sS]\b)){0,59})"
    r"|(?P<punct>[^\s\w])"
)

# Abbreviations after which a "." never ends a sentence: they precede a name or more of the sentence.
NO_BREAK_ABBREVIATIONS: frozenset[str] = frozenset(
    """dr mr mrs ms mx prof rev hon st mt gen col capt lt sgt sen rep gov pres supt fr
    vs cf viz approx ca al fig figs no nos vol vols pp dept univ""".split()
)
_CLAUSE_PUNCT = frozenset({";", "|", "—", "–", "―"})


@dataclass(frozen=True, slots=True)
class Reference:
    """A markdown link ``[Name](target)`` or wikilink ``[[target|Name]]`` at ``start:end`` of the text."""

    start: int
    end: int
    name: str
    target: str


@dataclass(frozen=True, slots=True)
class Sentence:
    start: int
    end: int
    bullet: bool  # the line is a list item / timeline entry


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    start: int
    end: int
    kind: str  # "word" | "ref" | "poss" | "money" | "punct"
    target: str | None = None


def _clean_name(raw: str) -> str:
    return " ".join(raw.replace("*", " ").replace("_", " ").split())[:MAX_NAME_CHARS]


def find_references(text: str) -> list[Reference]:
    """Explicit references in ``text``, in order, non-overlapping.

    Link texts without any uppercase letter or digit ("[here](url)", "[this post](url)") are not names and are
    left to the ordinary tokeniser.
    """
    references: list[Reference] = []
    for match in _REFERENCE_RE.finditer(text):
        if match.group("text") is not None:
            name, target = _clean_name(match.group("text")), match.group("href")
        else:
            target = match.group("wtarget").strip()
            name = _clean_name(match.group("wname") or target)
        if name and any(ch.isupper() or ch.isdigit() for ch in name):
            references.append(Reference(match.start(), match.end(), name, target))
    return references


class ReferenceIndex:
    """Answers "is this offset inside a reference?" in O(log n)."""

    def __init__(self, references: list[Reference]) -> None:
        self._starts = [ref.start for ref in references]
        self._references = references

    def containing(self, pos: int) -> Reference | None:
        i = bisect.bisect_right(self._starts, pos) - 1
        if i >= 0 and self._references[i].start < pos < self._references[i].end:
            return self._references[i]
        return None

    def within(self, start: int, end: int) -> list[Reference]:
        lo = bisect.bisect_left(self._starts, start)
        hi = bisect.bisect_left(self._starts, end)
        return [ref for ref in self._references[lo:hi] if ref.end <= end]


def _ends_sentence(line: str, match: re.Match[str]) -> bool:
    following = _NEXT_CHAR_RE.match(line, match.end())
    if following is None:
        return True
    nxt = following.group(1)
    if not (nxt.isupper() or nxt in "[\"“‘'(*"):
        return False
    if match.group().rstrip("\"'”’)]") != ".":
        return True
    previous = _PREVIOUS_WORD_RE.search(line, max(0, match.start() - 16), match.start())
    if previous is None:
        return True
    word = previous.group(1)
    if len(word) == 1:  # an initial ("J. Smith")
        return False
    if "." in word:  # a dotted abbreviation ("U.S.", "e.g.", "Ph.D."), not a domain ("northwind.example.")
        return not all(len(part) <= 2 for part in word.split(".") if part)
    return word.lower() not in NO_BREAK_ABBREVIATIONS


def _windows(start: int, end: int, text: str, index: ReferenceIndex) -> list[tuple[int, int]]:
    windows: list[tuple[int, int]] = []
    while end - start > MAX_SENTENCE_CHARS:
        cut = text.rfind(" ", start + MAX_SENTENCE_CHARS // 2, start + MAX_SENTENCE_CHARS)
        if cut <= start:
            cut = start + MAX_SENTENCE_CHARS
        ref = index.containing(cut)
        if ref is not None:
            cut = ref.start if ref.start > start else ref.end
        windows.append((start, cut))
        start = cut
    windows.append((start, end))
    return windows


def split_sentences(text: str, index: ReferenceIndex) -> list[Sentence]:
    """Sentences of ``text`` as spans (see the module docstring for the rule)."""
    sentences: list[Sentence] = []
    for block_start, block in _blocks(text):
        bullet = _BULLET_RE.match(block) is not None
        start = 0
        for match in _SENTENCE_END_RE.finditer(block):
            if index.containing(block_start + match.start()) is not None or not _ends_sentence(block, match):
                continue
            sentences.extend(_make(text, block_start + start, block_start + match.end(), bullet, index))
            start = match.end()
        sentences.extend(_make(text, block_start + start, block_start + len(block), bullet, index))
    return sentences


def _blocks(text: str) -> list[tuple[int, str]]:
    """Lines, with soft-wrapped prose lines joined: (offset, text) per block."""
    spans: list[list[int]] = []  # [start, end] of each block
    previous = ""
    offset = 0
    for line in text.split("\n"):
        if spans and _continues(previous, line):
            spans[-1][1] = offset + len(line)
        elif line.strip():
            spans.append([offset, offset + len(line)])
        previous = line  # a blank line ends the paragraph: nothing continues it
        offset += len(line) + 1
    return [(start, text[start:end]) for start, end in spans]


def _continues(previous: str, line: str) -> bool:
    """A line continues the previous one (a soft wrap) only when the previous line stops mid-phrase (on a
    lowercase letter or a comma) and is not a heading or table row, and this line is plain prose: not blank,
    not a list item, heading, table row or quote."""
    before, after = previous.rstrip(), line.lstrip()
    if not before or not after or _BULLET_RE.match(line) or after[0] in "#|>*-+":
        return False
    if before.lstrip()[:1] in ("#", "|"):
        return False
    return (before[-1].islower() or before[-1] == ",") and (after[0].isalnum() or after[0] in "[(")


def _make(text: str, start: int, end: int, bullet: bool, index: ReferenceIndex) -> list[Sentence]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start >= end:
        return []
    return [Sentence(s, e, bullet) for s, e in _windows(start, end, text, index)]


def tokenize(text: str, sentence: Sentence, index: ReferenceIndex) -> list[Token]:
    """Tokens of one sentence; each reference is one ``ref`` token carrying its name and target."""
    tokens: list[Token] = []
    cursor = sentence.start
    for ref in index.within(sentence.start, sentence.end):
        tokens.extend(_plain_tokens(text, cursor, ref.start))
        tokens.append(Token(ref.name, ref.start, ref.end, "ref", ref.target))
        cursor = ref.end
    tokens.extend(_plain_tokens(text, cursor, sentence.end))
    return tokens


def _plain_tokens(text: str, start: int, end: int) -> list[Token]:
    tokens = []
    for match in _TOKEN_RE.finditer(text, start, end):
        kind = match.lastgroup or "punct"
        tokens.append(Token(match.group(), match.start(), match.end(), kind))
    return tokens


def split_clauses(text: str, tokens: list[Token]) -> list[list[Token]]:
    """Split a sentence's tokens into clauses at ``;``, ``|`` and dashes used as punctuation."""
    clauses: list[list[Token]] = [[]]
    for token in tokens:
        is_break = token.kind == "punct" and (
            token.text in _CLAUSE_PUNCT
            or (
                token.text == "-"
                and token.start > 0
                and text[token.start - 1] == " "
                and token.end < len(text)
                and text[token.end] == " "
            )
        )
        if is_break:
            clauses.append([])
        else:
            clauses[-1].append(token)
    return [clause for clause in clauses if clause]
