"""One statement in the grammar people vary it by, crossed: who says it (the writer, a named person, a pronoun after the
name, a chat's line as exported), an adverb before the verb, the tense (simple, progressive, perfect), and for things
the passive, a contracted "is", a list's dash and the day's written forms — each variant must state what the plain
sentence states. Beside them, the same predicates hedged, wished or asked, which must state nothing. Pure (no
Django): ``eval_fact_variants`` scores the extractor on them.

The labelled sets measure wordings as labellers wrote them; this measures whether a reading survives the small changes
of grammar any speaker makes, which no set holds often enough to show. The names are made up.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

REFERENCE = date(2026, 3, 10)
SPEAKER = "Ilona Kiss"
ADVERBS = ("", "now ", "currently ", "still ", "also ", "mostly ", "actually ", "really ")


@dataclass(frozen=True)
class Variant:
    text: str
    attribute: str
    subject: str  # who or what the fact is about ("" for a control, which states nothing)
    value: str


_ORG = "Tisza Analytics"
# (attribute, value, first person, third person, -ing form)
_PERSON_PREDICATES = (
    ("lives_in", "Szeged", "live in Szeged", "lives in Szeged", "living in Szeged"),
    *(
        (
            "works_at",
            "Tisza Analytics",
            f"work {at} Tisza Analytics",
            f"works {at} Tisza Analytics",
            f"working {at} Tisza Analytics",
        )
        for at in ("at", "for")
    ),
    (
        "job_title",
        "head of support",
        "work as head of support at Tisza Analytics",
        "works as head of support at Tisza Analytics",
        "working as head of support at Tisza Analytics",
    ),
    (
        "job_title",
        "data engineer",
        "work as a data engineer at Tisza Analytics",
        "works as a data engineer at Tisza Analytics",
        "working as a data engineer at Tisza Analytics",
    ),
    ("reports_to", "Dorka Fehér", "report to Dorka Fehér", "reports to Dorka Fehér", "reporting to Dorka Fehér"),
    ("speaks", "Hungarian", "speak Hungarian", "speaks Hungarian", None),
)
# (how the subject is written, whom it names, "be" and "have" for it, a sentence before it)
_SUBJECTS = (
    ("I", SPEAKER, "am", "'ve", ""),
    ("Bence Vass", "Bence Vass", "is", " has", ""),
    ("he", "Bence Vass", "is", "'s", "Bence Vass joined the choir in May. "),
)
_HEDGES = ("probably ", "might ", "hopes to ", "would love to ", "wants to ")


# a chat's line as exported: who speaks, written around a first-person statement ({said})
_CHAT_LINES = (
    "Bence Vass: {said}",
    "[10:02] Bence Vass: {said}",
    "Bence Vass (10:02): {said}",
    "<Bence Vass> {said}",
    "Bence Vass wrote: {said}",
    "Bence Vass — 10:02\n{said}",
)


def chat_variants() -> Iterator[Variant]:
    """The first-person predicates said on a chat's line, the voice named only by the line (no speaker)."""
    for attribute, value, first, _third, _ing in _PERSON_PREDICATES:
        for line in _CHAT_LINES:
            yield Variant(line.format(said=f"I {first}."), attribute, "Bence Vass", value)


def person_variants() -> Iterator[Variant]:
    for attribute, value, first, third, ing in _PERSON_PREDICATES:
        for written, whom, be, have, before in _SUBJECTS:
            simple = first if written == "I" else third
            opening = written[0].upper() + written[1:] if not before else written.capitalize()
            for adverb in ADVERBS:
                forms = [f"{opening} {adverb}{simple}."]
                if ing:
                    forms += [
                        f"{opening} {be} {adverb}{ing}.",
                        f"{opening}{have} {adverb}been {ing} since 2021.",
                    ]
                for form in forms:
                    yield Variant(f"{before}{form}", attribute, whom, value)


# (the thing, its owner, the sentences saying so; {adverb} where one may stand)
_OWNED = ("Zirc exporter", "Tisza Ops")
_OWNED_FORMS = (
    "The Zirc exporter is {adverb}owned by Tisza Ops.",
    "The Zirc exporter is {adverb}maintained by Tisza Ops.",
    "The Zirc exporter is {adverb}looked after by Tisza Ops.",
    "The Zirc exporter's {adverb}run by Tisza Ops.",
    "The Zirc exporter has {adverb}been owned by Tisza Ops since 2021.",
    "Tisza Ops {adverb}owns the Zirc exporter.",
    "Tisza Ops {adverb}maintains the Zirc exporter.",
    "Tisza Ops {adverb}looks after the Zirc exporter.",
)
_OWNED_LINES = (
    "The Zirc exporter — owned by Tisza Ops.",
    "The Zirc exporter (owner: Tisza Ops) pages too often.",
    "The Zirc exporter's new owner is Tisza Ops.",
    "Ownership of the Zirc exporter moved to Tisza Ops.",
    "Tisza Ops took over the Zirc exporter last month.",
)
_DAYS = ("6 April", "April 6", "April 6th", "the 6th of April", "Apr 6", "6 Apr", "Monday 6 April", "Monday, April 6")
_DUE_FORMS = (
    "The Kestle launch is {adverb}due on {day}.",
    "The Kestle launch is {adverb}scheduled for {day}.",
    "The Kestle launch has {adverb}slipped to {day}.",
    "The Kestle launch — {day}.",
    "Go-live for Kestle is {day}.",
    "Kestle 2.0 ships on {day}.",
)
_PET_FORMS = (
    "I {adverb}have a dog named Bodri.",
    "We {adverb}have a cat called Bodri.",
    "My dog Bodri {adverb}hates the rain.",
    "Bodri, my dog, {adverb}hates the rain.",
)


def thing_variants() -> Iterator[Variant]:
    thing, owner = _OWNED
    for adverb in ADVERBS:
        for form in _OWNED_FORMS:
            yield Variant(form.format(adverb=adverb), "owned_by", thing, owner)
        for form in _PET_FORMS:
            yield Variant(form.format(adverb=adverb), "has_pet", SPEAKER, "Bodri")
    for form in _OWNED_LINES:
        yield Variant(form, "owned_by", thing, owner)
    for day in _DAYS:
        for form in _DUE_FORMS:
            for adverb in ("", "now ") if "{adverb}" in form else ("",):
                yield Variant(form.format(adverb=adverb, day=day), "due_date", "Kestle", "2026-04-06")


def said_by() -> Iterator[tuple[Variant, str | None]]:
    """Every variant with who says it: the writer for a statement, nobody for a chat's line (its line names the
    voice)."""
    yield from ((variant, SPEAKER) for variant in [*person_variants(), *thing_variants()])
    yield from ((variant, None) for variant in chat_variants())


def controls() -> Iterator[Variant]:
    """The person predicates hedged, wished or asked: each states nothing."""
    for attribute, _value, first, third, _ing in _PERSON_PREDICATES:
        for hedge in _HEDGES:
            yield Variant(f"Bence Vass {hedge}{first}.", attribute, "", "")
        yield Variant(f"I'd {first} if I could.", attribute, "", "")
        yield Variant(f"Does Bence Vass {first}?", attribute, "", "")
        yield Variant(f"If Bence Vass {third}, we could meet.", attribute, "", "")


def read(variant: Variant, facts) -> bool:
    """Whether the extracted ``facts`` hold the variant's fact (the thing's or the person's, its value, not negated);
    for a control, whether they hold nothing of its attribute."""
    if not variant.subject:
        return not any(fact.attribute == variant.attribute for fact in facts)
    return any(
        fact.attribute == variant.attribute
        and not fact.negated
        and variant.value.casefold() in str(fact.value).casefold()
        and variant.subject.split()[-1].casefold() in str(fact.subject).casefold()
        for fact in facts
    )
