"""Entity mentions inside one clause: explicit references and conservative capitalised runs."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from graph import vocabulary as v
from graph.extraction.lexicon import (
    CLAUSE_VERBS,
    COMPANY_SUFFIXES,
    DEPARTMENT_WORDS,
    DESCRIPTOR_NOUNS,
    EVENT_NAME_RE,
    FUNCTION_WORDS,
    JARGON_WORDS,
    MONTHS,
    NAME_PARTICLES,
    OF_HEADS,
    ORG_WORDS,
    SEASONS,
    SOFT_WORDS,
    TITLE_WORDS,
    WEEKDAYS,
)
from graph.extraction.segment import Token

MAX_NAME_WORDS = 5  # a longer capitalised run is a headline in title case, not a name
MAX_RUN_WORDS = 7
MAX_WORD_CHARS = 40
_DATE_RE = re.compile(r"\d{1,4}(?:[-/.]\d{1,2}){0,2}(?:[-/.]\d{2,4})?")
_OPENERS = frozenset({'"', "“", "‘", "'", "(", "[", ":", "*", "-", "•", "+", "#", ">"})
_ATTRIBUTIVE_SUFFIX_RE = re.compile(
    r"(?<=\w)-(?:[a-z]{2,20}(?:ed|ing)|backed|based|led|funded|owned|founded|affiliated|style|born|made|native|era)$"
)
_NON_NAME_WORDS = MONTHS | WEEKDAYS | SEASONS | JARGON_WORDS
_PERSON_TARGET_RE = re.compile(r"^(?:people|person|persons|users?|contacts?|team)/", re.IGNORECASE)
_COMPANY_TARGET_RE = re.compile(r"^(?:companies|company|orgs?|organi[sz]ations?|firms?|funds?)/", re.IGNORECASE)
_PLACE_TARGET_RE = re.compile(r"^(?:places?|locations?|cities|city|countries)/", re.IGNORECASE)
_PRODUCT_TARGET_RE = re.compile(r"^(?:products?|tools?)/", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Mention:
    """A candidate entity occupying clause tokens ``first..last`` (inclusive)."""

    name: str
    first: int
    last: int
    target: str | None
    explicit: bool
    # a lone clause-initial word never seen capitalised elsewhere: usable by patterns, never mentioned
    weak: bool
    # a word left of a job title ("Operating" in "Chief Operating Officer"): usable by patterns, never mentioned
    fragment: bool = False


def is_capitalised(word: str) -> bool:
    """A name-like word: "Acme", "NEA", "iPhone" (but not "3M"-style numbers or lowercase words)."""
    if not word or not word[0].isalpha():
        return False
    if word[0].isupper():
        return True
    return any(ch.isupper() for ch in word[1:])


def _bare(word: str) -> str:
    return word.casefold().replace("’", "'")


def is_date_like(token: Token) -> bool:
    return token.kind == "word" and _DATE_RE.fullmatch(token.text) is not None


def clause_start(tokens: list[Token]) -> int:
    """Index of the first meaningful token: bullet markers, emphasis and leading dates are skipped."""
    i = 0
    while i < len(tokens) and (
        (tokens[i].kind == "punct" and tokens[i].text in _OPENERS | {"*", "_"}) or is_date_like(tokens[i])
    ):
        i += 1
    return i


def _is_name_word(token: Token) -> bool:
    return (
        token.kind == "word" and len(token.text) < MAX_WORD_CHARS and is_capitalised(token.text)
    ) and not token.text.isdigit()


_PLURAL_ACRONYM_RE = re.compile(r"[A-Z][A-Z0-9]{1,5}s")  # "QBRs", "SLOs", "DMs": a plural, so a common noun


def _is_stop(word: str) -> bool:
    bare = _bare(word)
    if bare.split("-", 1)[0] in JARGON_WORDS:  # "AI-native", "B2B-focused"
        return True
    # a plural of a word that is never a name ("Fridays", "Mondays") or of an acronym is not a name either
    if bare.endswith("s") and (bare[:-1] in _NON_NAME_WORDS or _PLURAL_ACRONYM_RE.fullmatch(word)):
        return True
    return (
        bare in _NON_NAME_WORDS
        or bare in TITLE_WORDS
        or bare in FUNCTION_WORDS
        or bare in DESCRIPTOR_NOUNS
        or len(bare) == 1
    )


_QUOTES = frozenset({'"', "“", "”"})
MIN_TITLE_WORDS = 3


def quoted_titles(tokens: list[Token]) -> set[int]:
    """Indices of the tokens inside a quoted title in title case ("The Feed is a Trap", "Founders to Watch in
    Cybersecurity"): the name of a talk, essay or list, whose capitalised words are not names of their own."""
    inside: set[int] = set()
    opened: int | None = None
    for i, token in enumerate(tokens):
        if token.kind != "punct" or token.text not in _QUOTES:
            continue
        if opened is None:
            opened = i
            continue
        words = [t for t in tokens[opened + 1 : i] if t.kind == "word" and t.text[:1].isalpha()]
        capitalised = [t for t in words if t.text[0].isupper()]
        if len(words) >= MIN_TITLE_WORDS and 2 * len(capitalised) > len(words):
            inside.update(range(opened + 1, i))
        opened = None
    return inside


def capitalised_words(tokens: list[Token]) -> set[str]:
    """Casefolded capitalised words of a clause in non-initial positions (evidence that a word is a name)."""
    words: set[str] = set()
    start = clause_start(tokens)
    while start < len(tokens) and _bare(tokens[start].text) in FUNCTION_WORDS:
        start += 1  # "The End": the first word after leading function words is still sentence-initial
    titles = quoted_titles(tokens)
    for i, token in enumerate(tokens):
        if token.kind == "ref":
            words.update(_bare(w) for w in token.text.split())
        elif i > start and i not in titles and _is_name_word(token) and tokens[i - 1].text not in _OPENERS:
            words.add(_bare(token.text))
    return words


def find_mentions(
    text: str,
    tokens: list[Token],
    *,
    capitalised_elsewhere: set[str],
    self_words: set[str],
    bullet: bool = False,
) -> list[Mention]:
    """Entity mentions of one clause, in order, non-overlapping.

    Explicit references always count. A capitalised run counts after removing titles, jargon, months and
    function words from it; a lone word at the start of the clause (where every word is capitalised) counts
    only if it also appears capitalised mid-sentence somewhere in the text or names the text's own entity,
    otherwise it is kept as a *weak* candidate that typed patterns may use but that is never mentioned --
    except in list items / timeline entries, whose first word is typically a verb ("Ships v2", "Formalizes
    advisory role with ..."), where it is dropped.
    """
    mentions: list[Mention] = []
    start = clause_start(tokens)
    titles = quoted_titles(tokens)
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if i in titles and token.kind != "ref":
            i += 1
            continue
        if token.kind == "ref":
            mentions.append(Mention(token.text, i, i, token.target, explicit=True, weak=False))
            i += 1
            continue
        if not _is_name_word(token):
            i += 1
            continue
        run = _run(text, tokens, i)
        if _in_path(tokens, run):
            i = run[-1] + 1
            continue
        if len([k for k in run if tokens[k].kind == "word" and tokens[k].text[:1].isupper()]) <= MAX_RUN_WORDS:
            found = _split_run(tokens, run, start, capitalised_elsewhere, self_words)
            mentions.extend(m for m in found if not (bullet and m.weak))
        i = run[-1] + 1
    return mentions


_PATH_SEPARATORS = frozenset({"›", "»"})


def _in_path(tokens: list[Token], run: list[int]) -> bool:
    """A step of a menu or folder path ("Time Off › Holidays"): a label on a screen, not a name."""
    before = tokens[run[0] - 1].text if run[0] > 0 else ""
    after = tokens[run[-1] + 1].text if run[-1] + 1 < len(tokens) else ""
    return before in _PATH_SEPARATORS or after in _PATH_SEPARATORS


def _adjacent(text: str, left: Token, right: Token) -> bool:
    """Two words of one name: one or two spaces apart, never across a line break."""
    gap = text[left.end : right.start]
    return len(gap) in (1, 2) and gap.isspace() and "\n" not in gap


def _run(text: str, tokens: list[Token], i: int) -> list[int]:
    """Indices of the maximal capitalised run starting at ``i`` (connectors included)."""
    run = [i]
    j = i
    while j + 1 < len(tokens) and _adjacent(text, tokens[j], tokens[j + 1]):
        nxt = tokens[j + 1]
        if _is_name_word(nxt):
            run.append(j + 1)
            j += 1
            continue
        connector = (
            nxt.text == "&" or nxt.text in NAME_PARTICLES or (nxt.text == "of" and _bare(tokens[j].text) in OF_HEADS)
        )
        if connector and j + 2 < len(tokens) and _adjacent(text, nxt, tokens[j + 2]) and _is_name_word(tokens[j + 2]):
            run.extend((j + 1, j + 2))
            j += 2
            continue
        break
    return run


def _split_run(
    tokens: list[Token], run: list[int], start: int, capitalised_elsewhere: set[str], self_words: set[str]
) -> list[Mention]:
    first = run[0]
    if (
        first >= 2
        and tokens[first - 1].text == "of"
        and _bare(tokens[first - 2].text) in TITLE_WORDS
        and _bare(tokens[run[-1]].text) in DEPARTMENT_WORDS
    ):
        return []  # "Head of Protein Engineering": a department, not a name
    pieces: list[list[int]] = [[]]
    for position, k in enumerate(run):
        word = tokens[k].text
        if not _is_name_word(tokens[k]):  # a connector ("of", "&", "van") stays inside the name
            pieces[-1].append(k)
            continue
        is_series = _bare(word) == "series" and position + 1 < len(run)
        previous_series = position > 0 and _bare(tokens[run[position - 1]].text) == "series"
        # "New York", "First Round Capital": an adjective opening a longer name is part of it
        soft = position == 0 and _bare(word) in SOFT_WORDS and len(run) > 1 and not _is_stop(tokens[run[1]].text)
        # "Company founded by ..." opens with a descriptor; in "Fast Company" the descriptor ends the name
        closing_descriptor = position > 0 and _bare(word) in DESCRIPTOR_NOUNS
        stop = _is_stop(word) and not soft and not closing_descriptor
        if stop or is_series or previous_series or _is_department(tokens, run, position):
            pieces.append([])
        else:
            pieces[-1].append(k)
    mentions = []
    # "The End": what is left of a clause-initial run after its function words is still clause-initial
    initial = run[0] == start or (run[0] > 0 and tokens[run[0] - 1].text in _OPENERS)
    for piece in pieces:
        # connectors may not open or close a name
        while piece and not _is_name_word(tokens[piece[0]]):
            piece.pop(0)
        while piece and not _is_name_word(tokens[piece[-1]]):
            piece.pop()
        if not piece or len(piece) > MAX_NAME_WORDS:
            continue
        mention = _mention(tokens, piece, initial, capitalised_elsewhere, self_words)
        initial = False
        if mention is not None:
            mentions.append(replace(mention, fragment=True) if _inside_job_title(tokens, run, piece) else mention)
    return mentions


def _inside_job_title(tokens: list[Token], run: list[int], piece: list[int]) -> bool:
    """One word left of a job title once its title words are split off: "Operating" in "Chief Operating
    Officer", "Officers" in "Chief Revenue Officers" (a plural title word), the event noun of "CEO Summit"."""
    if len(piece) != 1:
        return False
    bare = _bare(tokens[piece[0]].text)
    if bare.endswith("s") and bare[:-1] in TITLE_WORDS and bare not in COMPANY_SUFFIXES:
        return True
    at = run.index(piece[0])
    before = _bare(tokens[run[at - 1]].text) if at > 0 else ""
    after = _bare(tokens[run[at + 1]].text) if at + 1 < len(run) else ""
    if at > 0 and EVENT_NAME_RE.fullmatch(bare) and (_is_stop(before) or before in DEPARTMENT_WORDS):
        return True  # "Summit" of "CEO Summit", "Industrial AI Summit": the event noun alone names nothing
    return before in TITLE_WORDS and after in TITLE_WORDS


def _is_department(tokens: list[Token], run: list[int], position: int) -> bool:
    """ "Engineering" in "VP of Engineering" / "Growth" in "Growth Lead" is part of a title, not a name."""
    if _bare(tokens[run[position]].text) not in DEPARTMENT_WORDS:
        return False
    k = run[position]
    if position > 0 and _bare(tokens[run[position - 1]].text) in TITLE_WORDS:
        return True  # "VP Engineering"
    following = run[position + 1 :]
    if following and all(_bare(tokens[f].text) in DEPARTMENT_WORDS | TITLE_WORDS for f in following):
        return any(_bare(tokens[f].text) in TITLE_WORDS for f in following)
    back = k
    while back - 1 >= 0 and _bare(tokens[back - 1].text) in DEPARTMENT_WORDS | {"and", "&"}:
        back -= 1
    return back >= 2 and tokens[back - 1].text in ("of", "for") and _bare(tokens[back - 2].text) in TITLE_WORDS


def _mention(
    tokens: list[Token],
    piece: list[int],
    initial: bool,
    capitalised_elsewhere: set[str],
    self_words: set[str],
) -> Mention | None:
    first, last = piece[0], piece[-1]
    if initial and _bare(tokens[first].text) in CLAUSE_VERBS:
        if len(piece) == 1:
            return None
        first = piece[1]
    words = [tokens[k].text for k in range(first, last + 1)]
    words[-1] = _ATTRIBUTIVE_SUFFIX_RE.sub("", words[-1])  # "Sequoia-backed" names Sequoia
    name = " ".join(words)
    weak = False
    if initial and first == last:
        bare = _bare(name)
        if bare not in capitalised_elsewhere and bare not in self_words:
            following = tokens[last + 1].text if last + 1 < len(tokens) else ""
            # "Following the call, ..." opens with a verb form; "Billing service ..." with a name its head noun types
            if bare.endswith(("ed", "ing", "ly")) and following not in v.KIND_HEAD_NOUNS:
                return None
            weak = True
    return Mention(name, first, last, None, explicit=False, weak=weak)


def guess_kind(name: str, target: str | None) -> str:
    """Best-effort kind from a link target's folder or a name's suffix; "unknown" when there is no signal."""
    if target:
        if _PERSON_TARGET_RE.match(target):
            return v.PERSON
        if _COMPANY_TARGET_RE.match(target):
            return v.COMPANY
        if _PLACE_TARGET_RE.match(target):
            return v.PLACE
        if _PRODUCT_TARGET_RE.match(target):
            return v.PRODUCT
    words = [_bare(w).strip(".,") for w in name.split()]
    if words and words[-1] in COMPANY_SUFFIXES:
        return v.COMPANY
    if any(w in ORG_WORDS for w in words):
        return v.ORG
    return v.UNKNOWN
