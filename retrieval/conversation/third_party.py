"""Conversation turns about someone other than their speaker — pure, no Django.

In a chat people talk about others as much as about themselves: "My cousin changed jobs three times this year",
"Someone at the gym is going to Kyoto in the spring". Such a turn states a fact about the cousin, not about its
speaker, yet it shares the words of a question about the speaker ("Where does Dmitri work now?") and, said by
Dmitri, gets the participant boost too. Ranking damps it (``retrieval.ranking``, ``third_party_factor``) when the
question asks about a participant and names no relation itself ("Where does Dmitri's sister live?" is about one).

A turn is *about someone else* when its subject is a person other than the speaker — it opens with a determiner
or possessive ("my", "a", "the", "someone", …) and one of the first words is a relation or person noun
(:data:`RELATION_NOUNS`: kinship, friends, work, neighbours, generic persons) — and it says nothing of the speaker:
no first-person pronoun after its opening ("My sister stayed with us" involves the speaker and is not damped).
The rule is a lexicon of English relation and person nouns and the shape of an opening noun phrase, not any
conversation's phrasings (its measurements are in bench/HISTORY.md).
"""

from __future__ import annotations

import re
from itertools import islice

# kinship, partners, friends, work and school, home, generic persons (singular and plural; hyphenated in-laws)
RELATION_NOUNS = frozenset(
    """
    mother mum mom mummy mommy father dad daddy parent parents stepmother stepmum stepfather stepdad
    brother brothers sister sisters sibling siblings twin half-brother half-sister stepbrother stepsister
    son sons daughter daughters child children kid kids baby toddler teenager stepson stepdaughter
    grandmother grandma granny nan nana grandfather grandpa grandad granddad grandparent grandparents
    grandson granddaughter grandchild grandchildren grandkids
    aunt auntie aunty uncle cousin cousins niece nieces nephew nephews godmother godfather godson goddaughter
    in-law in-laws brother-in-law sister-in-law mother-in-law father-in-law son-in-law daughter-in-law
    husband wife spouse partner partners boyfriend girlfriend fiance fiancé fiancee fiancée ex
    friend friends mate mates buddy pal pals bestie acquaintance
    colleague colleagues coworker co-worker coworkers co-workers boss manager supervisor employee employees
    intern assistant client clients customer customers
    teacher teachers tutor professor lecturer coach trainer classmate classmates student students pupil
    doctor dentist nurse therapist vet
    neighbour neighbours neighbor neighbors flatmate flatmates roommate roommates housemate housemates
    landlord landlady tenant tenants babysitter nanny childminder
    guy guys man men woman women girl girls boy boys lady ladies bloke chap person people family
    someone somebody everyone everybody anyone anybody
    """.split()
)
# what opens a noun phrase naming a third person: "my cousin", "a friend from uni", "the guy downstairs",
# "someone at the gym", "one of my colleagues"
_OPENERS = frozenset("my our his her their your a an the one someone somebody everyone everybody".split())
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i’m|i've|i’ve|i'd|i’d|i'll|i’ll|me|myself|we|we're|we’re|we've|we’ve|we'd|"
                           r"we’d|we'll|we’ll|us|ours|ourselves|my|our)\b")  # fmt: skip
_WORD = re.compile(r"[\w'’-]+")
_LEAD_WORDS = 4  # the relation noun must be among the first words: the subject, not an object further on
# what is read of a turn: its opening, as ranking has it (the arms' rows carry a turn's first TURN_TEXT_CHARS
# characters, retrieval.selectors), so ranking and the truth passes judge a long turn alike
TURN_TEXT_CHARS = 400


def about_someone_else(text: str | None) -> bool:
    """Whether a conversation turn states something about a third person and nothing about its speaker (in its
    first :data:`TURN_TEXT_CHARS` characters)."""
    if not text:
        return False
    lowered = text[:TURN_TEXT_CHARS].casefold()
    matches = list(islice(_WORD.finditer(lowered), _LEAD_WORDS))  # the opening words only
    words = [m.group(0) for m in matches]
    if not words or words[0] not in _OPENERS:
        return False
    noun = next((i for i, word in enumerate(words) if word in RELATION_NOUNS), None)
    if noun is None:
        return False
    # the speaker is not in it: no first-person word after the opening noun phrase
    rest = lowered[matches[noun].end() :]
    return _FIRST_PERSON.search(rest) is None


def names_relation(question: str | None) -> bool:
    """Whether a question asks about a relation ("Dana's sister", "her colleagues"): then turns about others may
    be what it asks about."""
    return bool(relation_nouns(question))


def relation_nouns(text: str | None) -> set[str]:
    """The relation and person nouns ``text`` uses ("sister" in "Carmen, my little sister, turned thirty")."""
    return {word for word in _WORD.findall((text or "").casefold()) if word in RELATION_NOUNS}
