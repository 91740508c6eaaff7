"""Typed relationship patterns, matched over a clause *skeleton*.

A skeleton is the clause with every entity replaced by ``<E{n}>`` and every other token lowercased, joined
by single spaces: "Alice and Bob founded the Acme Corp." -> ``<E0> and <E1> founded the <E2> .``. Patterns
are plain regexes over that string; every quantifier is bounded and no group nests an unbounded repeat, so a
match attempt costs O(pattern) per start position and a clause (capped at ``MAX_SENTENCE_CHARS``) is linear.

Each pattern says where its subject and object come from:

* ``group`` -- the ``s`` / ``o`` named group (an entity list, or a pronoun/descriptor resolved to the text's
  own entity when that is reliable: "she"/"he" on a page about a person, "it"/"the company" on a page about an
  organisation, "the meeting" on a page about an event);
* ``self_person`` -- headline-style timeline entries without a subject ("Joined Acme as CTO") on a page about
  a person;
* ``owner`` -- the organisation a funding round / advisory board / job belongs to: the clause's own subject
  when it is a non-person entity ("Acme closed a round led by X"), else the text's own organisation;
* ``self_event`` -- the text's own event (meeting pages), only outside timeline entries or when the entry names it.
"""

from __future__ import annotations

from graph.extraction.patterns.fragments import Pattern
from graph.extraction.patterns.funding import FUNDING
from graph.extraction.patterns.people import PEOPLE
from graph.extraction.patterns.relations import RELATIONS
from graph.extraction.patterns.systems import SYSTEMS

PATTERNS: tuple[Pattern, ...] = (*PEOPLE, *FUNDING, *RELATIONS, *SYSTEMS)

__all__ = ["PATTERNS", "Pattern"]
