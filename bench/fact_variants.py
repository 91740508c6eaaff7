"""The facts of the eight attributes said in the many shapes people give them, each variant stating what its plain
sentence states, in families:

- grammar: one statement varied by who says it (the writer, a named person, a pronoun after the name, a chat's line
  as exported), an adverb before the verb, the tense, and for things the passive, a contracted "is", a list's dash and
  the day's written forms;
- words: the same fact in the other words people use for it ("I'm a Szeged local", "I answer to Dorka");
- records: a record's field under the labels and separators forms use ("Location - Szeged", "Owner ...... Tisza Ops");
- clauses: two of a person's predicates joined in one sentence (coordinated, a relative, "a man named … who", a
  directory's line with an aside);
- people: two people's facts in one sentence ("Bence lives in Szeged, Dorka in Pécs", "…, as does Dorka");
- changes: a value that changed, the value now read as holding and the one before as ended, and a value that
  ended with no new one said (a job lost, a pet put down, a manager who is no longer one);
- names: a system and its owner written as code, chats and catalogues write them (a repository's path, a version, a
  handle, a channel), and an owner said beside the thing's name, in a file's lines, or after whom to ask.
- speech: a person's predicate said aloud or typed in a hurry (a filler, a stutter, a tag, a topic named first: "As for
  Bence, he …", "Oh, Bence? He …") or reported ("Bence told me he …", "According to Bence, he …"), and a value after
  a filler;
- learners: each fact in a learner's English (a dropped article, "I am work", "Bence he lives", "I work like …");
- past: a value said to have held before with nothing said of now ("I previously lived in", "was formerly", "my old
  boss N", "N, formerly of X", "we had a dog called …") or said to hold no longer ("isn't at X any more", "is no
  longer April 6"), to be read as ended;
- lists: several people with one predicate, several things with one owner, several pets or languages, and gapped
  pairs ("Zirc ships April 6, Kestle May 4"), each listed fact read;
- discourse: a person named in one sentence and spoken of by pronoun in the next, after what the sentence opens with
  ("This is Bence. Originally from Győr, he …"), or brought in by whom they are to someone ("Dorka's husband, Bence,
  …");
- phrases: a person's facts said in the phrase that names them, the clause about something else ("Tisza Analytics'
  Bence", "Head of support Bence", "Szeged-based Bence", "Hungarian-speaking Bence").

Beside them, controls — the same predicates hedged, wished or asked, tasks that are no systems, fields whose labels name
no attribute — must state nothing, and near misses (a visit, an origin, a plan, a past, someone else's, a client) must
not state the speaker's fact as holding. Pure (no Django): ``eval_fact_variants`` scores the extractor on them.

The labelled sets measure wordings as labellers wrote them; this measures whether a reading survives the shapes any
speaker gives a fact, which no set holds often enough to show. The names are made up.
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
    family: str = "grammar"  # "grammar": one wording varied; "words": the same fact in other words
    ended: bool = False  # a value the statement says held before: read as closed or negated, not as holding
    holds: bool = True  # False for a near miss: the words of the fact, which must not be read as holding


def _each_sentence(table, family: str, *, ended: bool = False) -> Iterator[Variant]:
    """A variant of each sentence of a table of (attribute, whom or what, value, the sentences)."""
    for attribute, subject, value, sentences in table:
        for text in sentences:
            yield Variant(text, attribute, subject, value, family=family, ended=ended)


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
_DAYS = (
    *("6 April", "April 6", "April 6th", "the 6th of April", "Apr 6", "6 Apr", "Monday 6 April", "Monday, April 6"),
    *("2026-04-06", "6.4.2026"),
)
_DUE_FORMS = (
    "The Kestle launch is {adverb}due on {day}.",
    "The Kestle launch is {adverb}scheduled for {day}.",
    "The Kestle launch has {adverb}slipped to {day}.",
    "The Kestle launch — {day}.",
    "Go-live for Kestle is {day}.",
    "Kestle 2.0 ships on {day}.",
    "The Kestle launch must be ready by {day}.",
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


# the same facts in the other words people use for them: (attribute, whom or what, value, the wordings)
_OTHER_WORDS = (
    (
        "lives_in",
        SPEAKER,
        "Szeged",
        (
            "I'm based in Szeged.",
            "I reside in Szeged.",
            "My home is in Szeged.",
            "I've made Szeged my home.",
            "I'm a Szeged resident.",
            "I'm a Szeged local.",
            "I rent a flat in Szeged.",
            "We bought a house in Szeged.",
            "I relocated to Szeged last year.",
            "I settled in Szeged after university.",
            "I call Szeged home.",
            "Our place in Szeged has a garden.",
            "I live over in Szeged.",
            "I live in the centre of Szeged.",
            "I live in downtown Szeged.",
            "I live on the outskirts of Szeged.",
            "I've been in Szeged since 2020.",
            "My Szeged apartment has a balcony.",
            "My neighbours in Szeged are lovely.",
            "Greetings from Szeged, where I now live!",
            "Since moving to Szeged I cycle everywhere.",
            "I commute into Budapest from Szeged.",
        ),
    ),
    (
        "works_at",
        SPEAKER,
        "Tisza Analytics",
        (
            "I'm employed by Tisza Analytics.",
            "I joined Tisza Analytics in 2021.",
            "I'm a Tisza Analytics employee.",
            "I've been at Tisza Analytics since 2021.",
            "I freelance for Tisza Analytics.",
            "I consult for Tisza Analytics.",
            "I teach at Tisza Analytics.",
            "I'm interning at Tisza Analytics.",
            "I got a job at Tisza Analytics.",
            "I landed a job at Tisza Analytics.",
            "I've worked at Tisza Analytics for years.",
            "I've worked for Tisza Analytics for about six years now.",
            "My employer, Tisza Analytics, is great.",
            "I left Kestle for Tisza Analytics.",
            "I started my new role at Tisza Analytics.",
            "Since joining Tisza Analytics I've learned a lot.",
            "We at Tisza Analytics love data.",
            "Here at Tisza Analytics we ship weekly.",
            "I'm on the Tisza Analytics payroll.",
            "As a Tisza Analytics engineer, I see a lot of dashboards.",
        ),
    ),
    (
        "job_title",
        SPEAKER,
        "head of support",
        (
            "I'm Tisza Analytics's head of support.",
            "My title is head of support.",
            "I was promoted to head of support.",
            "I took over as head of support.",
            "I stepped up as head of support.",
            "I serve as head of support at Tisza Analytics.",
            "I became head of support in May.",
            "I was appointed head of support.",
            "I joined Tisza Analytics as head of support.",
            "I was hired as head of support.",
            "In my new role as head of support, I hire a lot.",
            "I've been head of support since 2021.",
        ),
    ),
    (
        "reports_to",
        SPEAKER,
        "Dorka Fehér",
        (
            "My line manager is Dorka Fehér.",
            "I report directly to Dorka Fehér.",
            "I report into Dorka Fehér.",
            "Dorka Fehér manages me.",
            "I work under Dorka Fehér.",
            "My team lead is Dorka Fehér.",
            "I answer to Dorka Fehér.",
            "I'm managed by Dorka Fehér.",
            "I got moved under Dorka Fehér.",
            "My supervisor is Dorka Fehér.",
            "Dorka Fehér supervises me.",
            "I'm one of Dorka Fehér's reports.",
            "I'm Dorka Fehér's direct report.",
            "Dorka Fehér is who I report to.",
        ),
    ),
    (
        "speaks",
        SPEAKER,
        "Hungarian",
        (
            "I'm fluent in Hungarian.",
            "I'm a native Hungarian speaker.",
            "Hungarian is my first language.",
            "Hungarian is my mother tongue.",
            "I'm conversational in Hungarian.",
            "I know Hungarian.",
            "I get by in Hungarian.",
            "I'm bilingual in English and Hungarian.",
            "I speak a bit of Hungarian.",
        ),
    ),
    (
        "owned_by",
        "Zirc exporter",
        "Tisza Ops",
        (
            "The Zirc exporter belongs to Tisza Ops.",
            "Tisza Ops is responsible for the Zirc exporter.",
            "The Zirc exporter falls under Tisza Ops.",
            "The Zirc exporter is Tisza Ops's responsibility.",
            "The Zirc exporter's maintainer is Tisza Ops.",
            "The Zirc exporter owner is Tisza Ops.",
            "Tisza Ops inherited the Zirc exporter.",
            "The Zirc exporter is managed by Tisza Ops.",
            "Tisza Ops manages the Zirc exporter.",
            "The Zirc exporter is handled by Tisza Ops.",
            "Tisza Ops supports the Zirc exporter.",
            "Tisza Ops owns and runs the Zirc exporter.",
            "Tisza Ops is the team behind the Zirc exporter.",
            "We handed the Zirc exporter over to Tisza Ops.",
            "Tisza Ops picked up the Zirc exporter.",
            "Tisza Ops has custody of the Zirc exporter.",
            "Tisza Ops is now on point for the Zirc exporter.",
            "The Zirc exporter lives with Tisza Ops now.",
            "Tisza Ops is accountable for the Zirc exporter.",
            "Tisza Ops are the custodians of the Zirc exporter.",
            "Tisza Ops stewards the Zirc exporter.",
            "Tisza Ops runs point on the Zirc exporter.",
        ),
    ),
    (
        "has_pet",
        SPEAKER,
        "Bodri",
        (
            "We got a puppy, Bodri.",
            "I adopted a kitten named Bodri.",
            "My rescue greyhound, Bodri, loves the park.",
            "I'm the proud owner of a corgi named Bodri.",
            "We adopted Bodri from the shelter.",
            "We brought home a kitten called Bodri.",
            "I walk my dog Bodri every morning.",
            "Meet Bodri, my new kitten!",
            "New family member: Bodri, a beagle.",
            "I'm a dog mum to Bodri.",
        ),
    ),
    (
        "due_date",
        "Kestle",
        "2026-04-06",
        (
            "The Kestle launch lands on April 6.",
            "The Kestle launch goes live on April 6.",
            "The Kestle launch is slated for April 6.",
            "Kestle launch ETA: April 6.",
            "Target date for the Kestle launch: April 6.",
            "The Kestle launch got moved to April 6.",
            "The Kestle launch was postponed to April 6.",
            "We're targeting April 6 for the Kestle launch.",
        ),
    ),
)
# the other words said of someone named, then again of "he" or "his" after the name: (attribute, value, named, his)
_OTHER_WORDS_OF_SOMEONE = (
    ("lives_in", "Szeged", "Bence Vass's home is in Szeged.", "His home is in Szeged."),
    ("lives_in", "Szeged", "Bence Vass rents a flat in Szeged.", "He rents a flat in Szeged."),
    (
        "lives_in",
        "Szeged",
        "Bence Vass and his wife bought a house in Szeged.",
        "He and his wife bought a house in Szeged.",
    ),
    ("lives_in", "Szeged", "Bence Vass is a Szeged local.", "He's a Szeged local."),
    (
        "works_at",
        "Tisza Analytics",
        "Bence Vass's employer, Tisza Analytics, is great.",
        "His employer is Tisza Analytics.",
    ),
    ("works_at", "Tisza Analytics", "Bence Vass freelances for Tisza Analytics.", "He consults for Tisza Analytics."),
    ("works_at", "Tisza Analytics", "Bence Vass teaches at Tisza Analytics.", "He's interning at Tisza Analytics."),
    ("job_title", "head of support", "Bence Vass's title is head of support.", "His title is head of support."),
    ("job_title", "head of support", "Bence Vass stepped up as head of support.", "He serves as head of support."),
    ("reports_to", "Dorka Fehér", "Bence Vass's team lead is Dorka Fehér.", "His supervisor is Dorka Fehér."),
    ("reports_to", "Dorka Fehér", "Bence Vass answers to Dorka Fehér.", "He got moved under Dorka Fehér."),
    ("speaks", "Hungarian", "Bence Vass is conversational in Hungarian.", "He gets by in Hungarian."),
    (
        "has_pet",
        "Bodri",
        "Bence Vass's rescue greyhound, Bodri, loves the park.",
        "His rescue greyhound, Bodri, snores.",
    ),
    ("has_pet", "Bodri", "Bence Vass adopted Bodri from the shelter.", "He's the proud owner of a corgi named Bodri."),
)
# the other words hedged, asked, or said of a task rather than a system: each states nothing
_OTHER_WORDS_CONTROLS = (
    ("works_at", "I'd love to freelance for Tisza Analytics."),
    ("lives_in", "We might make Szeged our home."),
    ("speaks", "I'm learning Hungarian."),
    ("owned_by", "Bence Vass manages the budget."),
    ("owned_by", "The weekly rota is handled by Dorka Fehér."),
    ("owned_by", "Is Tisza Ops the team behind the Zirc exporter?"),
    ("reports_to", "Would I answer to Dorka Fehér?"),
    ("lives_in", "Name: Bence Vass\nFavourite city - Szeged"),
    ("works_at", "Since joining Tisza Analytics was never the plan, I stayed put."),
    ("owned_by", "Bence Vass picked up the kids."),
    ("job_title", "Bence Vass has been my manager since Monday."),
    ("has_pet", "I've had a dog before."),
    ("works_at", "Name - Bence Vass\nDream employer — Tisza Analytics"),
)


def word_variants() -> Iterator[Variant]:
    """Each attribute's fact in the other words people say it with, written by the speaker or of someone named."""
    yield from _each_sentence(_OTHER_WORDS, "words")
    for attribute, value, named, his in _OTHER_WORDS_OF_SOMEONE:
        yield Variant(named, attribute, "Bence Vass", value, family="words")
        yield Variant(f"Bence Vass joined the choir in May. {his}", attribute, "Bence Vass", value, family="words")


# a record's fields as forms, profiles and catalogues write them: (attribute, whom or what, value, the record's subject
# line, its labels, the value as the record writes it)
_RECORDS = (
    (
        "lives_in",
        "Bence Vass",
        "Szeged",
        "Name{sep}Bence Vass",
        ("Location", "Based in", "City", "Home town"),
        "Szeged",
    ),
    (
        "works_at",
        "Bence Vass",
        "Tisza Analytics",
        "Name{sep}Bence Vass",
        ("Employer", "Company", "Organisation", "Org"),
        "Tisza Analytics",
    ),
    (
        "job_title",
        "Bence Vass",
        "head of support",
        "Name{sep}Bence Vass",
        ("Title", "Role", "Position"),
        "Head of Support",
    ),
    (
        "reports_to",
        "Bence Vass",
        "Dorka Fehér",
        "Name{sep}Bence Vass",
        ("Manager", "Reports to", "Supervisor"),
        "Dorka Fehér",
    ),
    ("speaks", "Bence Vass", "Hungarian", "Name{sep}Bence Vass", ("Languages", "Speaks"), "Hungarian"),
    ("has_pet", "Bence Vass", "Bodri", "Name{sep}Bence Vass", ("Pets", "Dog"), "Bodri (beagle)"),
    (
        "owned_by",
        "Zirc exporter",
        "Tisza Ops",
        "Service{sep}Zirc exporter",
        ("Owner", "Owned by", "Maintainer"),
        "Tisza Ops",
    ),
    (
        "due_date",
        "Kestle",
        "2026-04-06",
        "Project{sep}Kestle launch",
        ("Due date", "Launch date", "Target date"),
        "6 April",
    ),
)
# a field's separator: a colon, a dash of each length, a tab after the colon, a form's dotted leader
_SEPARATORS = (": ", " - ", " – ", " — ", ":\t", " ........ ")


def record_variants() -> Iterator[Variant]:
    """Each attribute as a record's field under the labels forms use, with each separator, as a line or a bullet."""
    for attribute, subject, value, heading, labels, written in _RECORDS:
        for label in labels:
            for sep in _SEPARATORS:
                for bullet in ("", "- "):
                    text = (
                        f"{heading.format(sep=sep)}\n{bullet}{label}{sep}{written}\n{bullet}Notes{sep}met at the fair"
                    )
                    yield Variant(text, attribute, subject, value, family="records")


# two predicates of one person in one sentence: (attribute, value, the predicate, the predicate in the perfect)
_PREDICATES_OF_BENCE = (
    ("lives_in", "Szeged", "lives in Szeged", "has lived in Szeged since 2020"),
    ("works_at", "Tisza Analytics", "works at Tisza Analytics", "has worked at Tisza Analytics since 2020"),
    ("reports_to", "Dorka Fehér", "reports to Dorka Fehér", "has reported to Dorka Fehér since 2020"),
    ("speaks", "Hungarian", "speaks Hungarian", "has spoken Hungarian since childhood"),
    (
        "job_title",
        "head of support",
        "is head of support at Kestle Labs",
        "has been head of support at Kestle since 2020",
    ),
    ("has_pet", "Bodri", "has a dog named Bodri", "has had a dog named Bodri since 2020"),
)
# the sentences that join them: coordinated, in a relative clause, after "named", on a directory's line with an aside
_JOINED = (
    "Bence Vass {first} and {second}.",
    "Bence Vass {first_perfect} and {second}.",
    "Bence Vass, who {first}, {second}.",
    "My cousin Bence Vass, who {first_perfect}, {second}.",
    "We met Bence Vass, who {first} and {second}.",
    "I spoke with a man named Bence Vass who {first} and {second}.",
    "Bence Vass (ex-Kestle) — {first}; {second}.",
)


def clause_variants() -> Iterator[Variant]:
    """Each pair of a person's predicates joined in one sentence; each predicate is a variant of its own."""
    for first, second in ((a, b) for a in _PREDICATES_OF_BENCE for b in _PREDICATES_OF_BENCE if a != b):
        if second[0] == "job_title":
            continue  # ("…; is head of support": a verb without its subject after a semicolon is no sentence)
        for joined in _JOINED:
            text = joined.format(first=first[2], first_perfect=first[3], second=second[2])
            for attribute, value, *_ in (first, second):
                yield Variant(text, attribute, "Bence Vass", value, family="clauses")


# two people in one sentence, each with a fact of their own: (the sentence, (attribute, whom, value) of each)
_TWO_PEOPLE = (
    ("Bence Vass and Dorka Fehér both live in Szeged.", ("lives_in", "Szeged"), ("lives_in", "Szeged")),
    ("Bence Vass lives in Szeged, Dorka Fehér in Pécs.", ("lives_in", "Szeged"), ("lives_in", "Pécs")),
    ("Bence Vass lives in Szeged and Dorka Fehér in Pécs.", ("lives_in", "Szeged"), ("lives_in", "Pécs")),
    (
        "Bence Vass moved to Szeged in May and Dorka Fehér to Pécs in June.",
        ("lives_in", "Szeged"),
        ("lives_in", "Pécs"),
    ),
    (
        "Bence Vass works at Tisza Analytics while Dorka Fehér works at Kestle Labs.",
        ("works_at", "Tisza Analytics"),
        ("works_at", "Kestle Labs"),
    ),
    (
        "Bence Vass works at Tisza Analytics, Dorka Fehér at Kestle Labs.",
        ("works_at", "Tisza Analytics"),
        ("works_at", "Kestle Labs"),
    ),
    (
        "Bence Vass is head of support, Dorka Fehér head of sales.",
        ("job_title", "head of support"),
        ("job_title", "head of sales"),
    ),
    ("Both Bence Vass and Dorka Fehér speak Hungarian.", ("speaks", "Hungarian"), ("speaks", "Hungarian")),
    ("Bence Vass speaks Hungarian, as does Dorka Fehér.", ("speaks", "Hungarian"), ("speaks", "Hungarian")),
    ("Bence Vass speaks Hungarian; so does Dorka Fehér.", ("speaks", "Hungarian"), ("speaks", "Hungarian")),
    ("Bence Vass reports to Réka Tóth, as does Dorka Fehér.", ("reports_to", "Réka Tóth"), ("reports_to", "Réka Tóth")),
    (
        "Bence Vass has a cat named Mák and Dorka Fehér has a dog named Bodri.",
        ("has_pet", "Mák"),
        ("has_pet", "Bodri"),
    ),
)
# a person introduced by what they are to someone, commas around the name: (the sentence, attribute, value)
_INTRODUCED = (
    ("My sister, Dorka Fehér, moved to Pécs last year.", "lives_in", "Pécs"),
    ("His sister, Dorka Fehér, works at Kestle Labs.", "works_at", "Kestle Labs"),
    ("Their main contact, Dorka Fehér, speaks Hungarian.", "speaks", "Hungarian"),
    ("Their lead engineer, Dorka Fehér, reports to Réka Tóth.", "reports_to", "Réka Tóth"),
)


def people_variants() -> Iterator[Variant]:
    """Two people's facts in one sentence (both, gapped, "as does", "so does"), and a person introduced by what they
    are to someone."""
    for text, first, second in _TWO_PEOPLE:
        yield Variant(text, first[0], "Bence Vass", first[1], family="people")
        yield Variant(text, second[0], "Dorka Fehér", second[1], family="people")
    for text, attribute, value in _INTRODUCED:
        yield Variant(text, attribute, "Dorka Fehér", value, family="people")


# a value that changed: (attribute, whom or what, the value now, the value before, the sentences saying so)
_CHANGES = (
    (
        "lives_in",
        SPEAKER,
        "Szeged",
        "Pécs",
        (
            "I moved from Pécs to Szeged.",
            "I used to live in Pécs but now I live in Szeged.",
            "I left Pécs for Szeged.",
            "After ten years in Pécs, I moved to Szeged.",
            "We swapped Pécs for Szeged.",
            "I lived in Pécs until 2024; now I live in Szeged.",
            "I relocated from Pécs to Szeged last spring.",
        ),
    ),
    (
        "works_at",
        SPEAKER,
        "Tisza Analytics",
        "Kestle Labs",
        (
            "I left Kestle Labs and joined Tisza Analytics.",
            "I moved from Kestle Labs to Tisza Analytics.",
            "I switched from Kestle Labs to Tisza Analytics.",
            "After six years at Kestle Labs, I joined Tisza Analytics.",
            "I quit Kestle Labs; I'm at Tisza Analytics now.",
            "I used to work at Kestle Labs, now I work at Tisza Analytics.",
            "I'm no longer at Kestle Labs — I work at Tisza Analytics now.",
            "I joined Tisza Analytics from Kestle Labs.",
            "I went from Kestle Labs to Tisza Analytics in May.",
        ),
    ),
    (
        "reports_to",
        SPEAKER,
        "Dorka Fehér",
        "Réka Tóth",
        (
            "I used to report to Réka Tóth; now I report to Dorka Fehér.",
            "My manager changed from Réka Tóth to Dorka Fehér.",
            "Dorka Fehér replaced Réka Tóth as my manager.",
            "I no longer report to Réka Tóth; Dorka Fehér is my manager now.",
            "I report to Dorka Fehér now, not Réka Tóth.",
        ),
    ),
    (
        "owned_by",
        "Zirc exporter",
        "Tisza Ops",
        "Vashegy Platform",
        (
            "Ownership of the Zirc exporter moved from Vashegy Platform to Tisza Ops.",
            "Tisza Ops took over the Zirc exporter from Vashegy Platform.",
            # (one who hands a thing on is not said to have owned it: the one before is said outright)
            "The Zirc exporter was handed from Vashegy Platform to Tisza Ops.",
            "Vashegy Platform no longer owns the Zirc exporter; they gave it to Tisza Ops.",
            "The Zirc exporter is no longer owned by Vashegy Platform; Tisza Ops owns it now.",
            "Zirc exporter: Vashegy Platform → Tisza Ops.",
            "The Zirc exporter is owned by Tisza Ops now, not Vashegy Platform.",
        ),
    ),
    (
        "job_title",
        SPEAKER,
        "head of support",
        "data engineer",
        (
            "I was promoted from data engineer to head of support.",
            "I went from data engineer to head of support.",
            "I used to be a data engineer; now I'm head of support.",
            "I was a data engineer until May, now I'm head of support.",
        ),
    ),
    (
        "due_date",
        "Kestle",
        "2026-04-06",
        "2026-03-30",
        (
            "The Kestle launch slipped from March 30 to April 6.",
            "The Kestle launch moved from March 30 to April 6.",
            "The Kestle launch is now April 6 (was March 30).",
            "We pushed the Kestle launch from March 30 to April 6.",
        ),
    ),
)


# a value that ended without a new one said: (attribute, whom or what, the value, the sentences)
_ENDINGS = (
    (
        "works_at",
        SPEAKER,
        "Tisza Analytics",
        (
            "I quit Tisza Analytics.",
            "I left Tisza Analytics last month.",
            "I was let go from Tisza Analytics.",
            "I got laid off from Tisza Analytics.",
            "I was made redundant at Tisza Analytics.",
            "I retired from Tisza Analytics.",
            "I parted ways with Tisza Analytics.",
            "Tisza Analytics let me go.",
            "My last day at Tisza Analytics was Friday.",
            "I'm an ex-Tisza Analytics engineer.",
            "I don't work at Tisza Analytics anymore.",
        ),
    ),
    (
        "lives_in",
        SPEAKER,
        "Szeged",
        ("I moved out of Szeged.", "I no longer live in Szeged.", "I lived in Szeged until 2024."),
    ),
    (
        "reports_to",
        SPEAKER,
        "Dorka Fehér",
        (
            "I no longer report to Dorka Fehér.",
            "Dorka Fehér isn't my manager any more.",
            "Dorka Fehér is no longer my boss.",
            "I stopped reporting to Dorka Fehér.",
        ),
    ),
    (
        "owned_by",
        "Zirc exporter",
        "Tisza Ops",
        (
            "Tisza Ops no longer owns the Zirc exporter.",
            "Tisza Ops gave up the Zirc exporter.",
            "Tisza Ops handed off the Zirc exporter.",
            "The Zirc exporter is no longer owned by Tisza Ops.",
        ),
    ),
    (
        "has_pet",
        SPEAKER,
        "Bodri",
        (
            "Our dog Bodri died last week.",
            "We had to put Bodri down.",
            "RIP Bodri, our beloved dog.",
            "We said goodbye to Bodri, our old cat.",
            "We rehomed Bodri.",
        ),
    ),
    ("job_title", SPEAKER, "head of support", ("I stepped down as head of support.", "I quit as head of support.")),
)


def change_variants() -> Iterator[Variant]:
    """A value that changed, said the ways people say a change: each sentence is a variant for the value now and one
    for the value before, which must be read as ended."""
    for attribute, subject, now, before, sentences in _CHANGES:
        for text in sentences:
            yield Variant(text, attribute, subject, now, family="changes")
            yield Variant(text, attribute, subject, before, family="changes", ended=True)
    yield from _each_sentence(_ENDINGS, "changes", ended=True)


# how a system and its owner are written: (the thing as written, its name) and (the owner as written, its name)
_THINGS_WRITTEN = (
    ("zirc-exporter", "zirc-exporter"),
    ("`zirc-exporter`", "zirc-exporter"),
    ("the zirc_exporter service", "zirc_exporter"),
    ("the zirc/exporter repo", "zirc/exporter"),
    ("Zirc v2", "Zirc"),
    ("Zirc API v3", "Zirc"),
    ("Zirc 2.0", "Zirc"),
    ("the Zirc dashboards", "Zirc"),
    ("the Zirc billing pipeline", "Zirc"),
    ("the Zirc on-call rota", "Zirc"),
)
_OWNERS_WRITTEN = (
    ("Tisza Ops", "Tisza"),
    ("@tisza-ops", "tisza-ops"),
    ("#tisza-ops", "tisza-ops"),
    ("the Tisza Ops team", "Tisza"),
    ("team-tisza", "team-tisza"),
    ("Dorka Fehér", "Dorka"),
    ("@dorka", "dorka"),
)


# an owner said beside the thing's name, in a file's lines, or after whom to ask
_OWNER_SHAPES = (
    "Tisza Ops (owners of the Zirc exporter) are on call.",
    "Tisza Ops, the Zirc exporter's owners, are on call.",
    "The Zirc exporter's owners, Tisza Ops, are on call.",
    "The Zirc exporter is Tisza Ops' baby.",
    "Anything about the Zirc exporter, ask Tisza Ops — they own it.",
    "/services/zirc-exporter/ @tisza-ops\n/docs/ @tisza-docs",
    "Owners:\n- Zirc exporter: Tisza Ops\n- Kestle gateway: Vashegy Platform",
    "| Service | Owner |\n|---|---|\n| Zirc exporter | Tisza Ops |",
    "DRI for the Zirc exporter: Tisza Ops",
)


def name_variants() -> Iterator[Variant]:
    """A system's owner, each written the ways code, chats and catalogues write them: a package's or a repository's
    name, a version, a handle, a channel, a team's or a person's name."""
    for thing, thing_name in _THINGS_WRITTEN:
        for owner, owner_name in _OWNERS_WRITTEN:
            for form in ("{thing} is owned by {owner}.", "{owner} owns {thing}."):
                text = form.format(thing=thing, owner=owner)
                yield Variant(f"{text[:1].upper()}{text[1:]}", "owned_by", thing_name, owner_name, family="names")
    for text in _OWNER_SHAPES:
        yield Variant(text, "owned_by", "zirc" if "zirc-exporter" in text else "Zirc exporter", "tisza", family="names")


# a person's predicate as it is said aloud or typed in a hurry: fillers, a stutter, a tag, an opener, no capital or
# full stop ({said}: the first-person predicate; the third person's in the named forms)
_SPOKEN_FIRST = (
    "Um, I {said}.",
    "I, uh, {said}.",
    "So yeah, I {said} now.",
    "I- I {said}.",
    "I {said}, you know.",
    "Well, I {said}, so that's that.",
    "ok so I {said} lol",
    "yeah I {said} haha",
    "tbh I {said} these days",
    "I mean, I {said}.",
    "Honestly? I {said}.",
    "Oh and I {said} nowadays, by the way.",
)
_SPOKEN_NAMED = (
    "Bence Vass, uh, {said}.",
    "Oh, Bence Vass? He {said}.",
    "Bence Vass — he {said}.",
    "As for Bence Vass, he {said}.",
    "And Bence Vass {said} these days.",
    "so Bence Vass {said} now",
)
# the value itself after a filler or a correction of its own word ("I live in, um, Szeged")
_SPOKEN_VALUES = (
    ("lives_in", "Szeged", "I live in, um, Szeged."),
    ("lives_in", "Szeged", "I live in, like, Szeged now."),
    ("works_at", "Tisza Analytics", "I work at, uh, Tisza Analytics."),
    ("works_at", "Tisza Analytics", "I work for — what's it called — Tisza Analytics."),
    ("reports_to", "Dorka Fehér", "I report to, erm, Dorka Fehér."),
    ("speaks", "Hungarian", "I speak, uh, Hungarian."),
    ("owned_by", "Tisza Ops", "The Zirc exporter is, um, owned by Tisza Ops."),
    ("owned_by", "Tisza Ops", "Tisza Ops, uh, owns the Zirc exporter."),
    ("due_date", "2026-04-06", "The Kestle launch is, uh, April 6."),
    ("due_date", "2026-04-06", "so the Kestle launch is on april 6 now"),
    ("has_pet", "Bodri", "I have a, um, a dog named Bodri."),
    ("has_pet", "Bodri", "we got a dog!! his name is Bodri"),
)

# a person's predicate reported by the person or by someone else ({said}: the third person's predicate)
_REPORTED = (
    "Bence Vass told me he {said}.",
    "Bence Vass mentioned that he {said}.",
    "According to Bence Vass, he {said}.",
    "Bence Vass says he {said}.",
    "Bence Vass let us know he {said}.",
    "Bence Vass wrote that he {said}.",
    "Dorka Fehér said Bence Vass {said}.",
)


def speech_variants() -> Iterator[Variant]:
    """The person predicates said aloud or typed in a hurry, of the speaker and of someone named."""
    for attribute, value, first, third, _ing in _PERSON_PREDICATES:
        for form in _SPOKEN_FIRST:
            yield Variant(form.format(said=first), attribute, SPEAKER, value, family="speech")
        for form in _SPOKEN_NAMED:
            yield Variant(form.format(said=third), attribute, "Bence Vass", value, family="speech")
        for form in _REPORTED:
            yield Variant(form.format(said=third), attribute, "Bence Vass", value, family="speech")
    for attribute, value, text in _SPOKEN_VALUES:
        subject = {"owned_by": "Zirc exporter", "due_date": "Kestle"}.get(attribute, SPEAKER)
        yield Variant(text, attribute, subject, value, family="speech")


# the facts in a learner's English: a dropped article or ending, the present for the perfect, "since" and "before"
# where a native writer would put other words: (attribute, whom or what, value, the sentences)
_LEARNERS = (
    (
        "lives_in",
        SPEAKER,
        "Szeged",
        (
            "I am living in Szeged since 2021.",
            "Me I live in Szeged.",
            "Since 2021 I live in Szeged.",
            "In Szeged I live now.",
            "I am in Szeged since three years.",
            "Now I am living in Szeged with my family.",
        ),
    ),
    (
        "lives_in",
        "Bence Vass",
        "Szeged",
        ("Bence Vass live in Szeged.", "My colleague Bence Vass he live in Szeged.", "Bence Vass is live in Szeged."),
    ),
    (
        "works_at",
        SPEAKER,
        "Tisza Analytics",
        (
            "I am work at Tisza Analytics.",
            "I working at Tisza Analytics.",
            "I am working in Tisza Analytics since 2021.",
            "Now I work in Tisza Analytics.",
            "My job is in Tisza Analytics.",
            "I work at Tisza Analytics from 2021.",
        ),
    ),
    (
        "works_at",
        "Bence Vass",
        "Tisza Analytics",
        ("Bence Vass work at Tisza Analytics.", "Bence Vass he join Tisza Analytics."),
    ),
    (
        "job_title",
        SPEAKER,
        "data engineer",
        (
            "I am data engineer at Tisza Analytics.",
            "I work like data engineer.",
            "I am working as data engineer.",
            "My job is data engineer.",
            "I am work as data engineer in Tisza Analytics.",
        ),
    ),
    ("job_title", "Bence Vass", "data engineer", ("Bence Vass is data engineer.", "Bence Vass work as data engineer.")),
    (
        "reports_to",
        SPEAKER,
        "Dorka Fehér",
        ("My boss is Dorka Fehér since 2021.", "I report to Dorka Fehér since 2021.", "My chief is Dorka Fehér."),
    ),
    (
        "speaks",
        SPEAKER,
        "Hungarian",
        ("I am speaking Hungarian.", "I speak Hungarian and little English.", "Hungarian I speak good."),
    ),
    (
        "owned_by",
        "Zirc exporter",
        "Tisza Ops",
        (
            "Owner of Zirc exporter is Tisza Ops.",
            "Tisza Ops is owner of Zirc exporter.",
            "Zirc exporter is of Tisza Ops.",
        ),
    ),
    (
        "due_date",
        "Kestle",
        "2026-04-06",
        (
            "Kestle launch is on 6 April.",
            "Kestle launch must be ready until 6 April.",
            "Deadline of Kestle launch is 6 April.",
        ),
    ),
    ("has_pet", SPEAKER, "Bodri", ("I have dog, his name is Bodri.", "I have one dog, name is Bodri.")),
)


def learner_variants() -> Iterator[Variant]:
    """Each attribute's fact as a learner of English writes it."""
    yield from _each_sentence(_LEARNERS, "learners")


# a value that held before and holds no longer, said without the value now: (attribute, whom or what, value, the
# sentences), each to be read as ended
_PAST = (
    (
        "lives_in",
        SPEAKER,
        "Szeged",
        (
            "I used to live in Szeged.",
            "I lived in Szeged before.",
            "I previously lived in Szeged.",
            "Back when I lived in Szeged, I cycled everywhere.",
            "I was living in Szeged until last year.",
            "Szeged was my home until 2024.",
            "I lived in Szeged for ten years before the move.",
        ),
    ),
    (
        "lives_in",
        "Bence Vass",
        "Szeged",
        ("Bence Vass used to live in Szeged.", "Bence Vass, formerly of Szeged, called."),
    ),
    (
        "works_at",
        SPEAKER,
        "Tisza Analytics",
        (
            "I formerly worked at Tisza Analytics.",
            "I was at Tisza Analytics before.",
            "Before that I worked at Tisza Analytics.",
            "In my previous job at Tisza Analytics I ran the data team.",
            "I spent six years at Tisza Analytics before going freelance.",
            "I worked at Tisza Analytics until 2024.",
        ),
    ),
    (
        "works_at",
        "Bence Vass",
        "Tisza Analytics",
        ("Bence Vass used to work at Tisza Analytics.", "Bence Vass, formerly of Tisza Analytics, joined Kestle Labs."),
    ),
    (
        "job_title",
        SPEAKER,
        "data engineer",
        (
            "I was a data engineer before.",
            "I used to be a data engineer.",
            "I was formerly a data engineer.",
            "Before that I was a data engineer.",
        ),
    ),
    ("job_title", "Bence Vass", "data engineer", ("Bence Vass used to be a data engineer.",)),
    (
        "reports_to",
        SPEAKER,
        "Dorka Fehér",
        (
            "I used to report to Dorka Fehér.",
            "My former manager, Dorka Fehér, sent me a card.",
            "My old boss Dorka Fehér called today.",
            "I reported to Dorka Fehér until May.",
        ),
    ),
    ("reports_to", "Bence Vass", "Dorka Fehér", ("Bence Vass used to report to Dorka Fehér.",)),
    (
        "owned_by",
        "Zirc exporter",
        "Tisza Ops",
        (
            "Tisza Ops used to own the Zirc exporter.",
            "The Zirc exporter was owned by Tisza Ops until May.",
            "The Zirc exporter previously belonged to Tisza Ops.",
            "The Zirc exporter was formerly maintained by Tisza Ops.",
        ),
    ),
    ("has_pet", SPEAKER, "Bodri", ("We used to have a dog called Bodri.", "I had a dog named Bodri as a kid.")),
)

# a value said to hold no longer, with a negation: (attribute, whom or what, value, the sentences), each to be read as
# ended or negated, never as holding
_NO_LONGER = (
    (
        "lives_in",
        "Bence Vass",
        "Szeged",
        (
            "Bence Vass doesn't live in Szeged anymore.",
            "Bence Vass isn't in Szeged any more.",
            "Bence Vass no longer lives in Szeged.",
        ),
    ),
    ("lives_in", SPEAKER, "Szeged", ("I'm not living in Szeged anymore.", "Not in Szeged any more.")),
    (
        "works_at",
        "Bence Vass",
        "Tisza Analytics",
        (
            "Bence Vass isn't at Tisza Analytics any more.",
            "Bence Vass is no longer with Tisza Analytics.",
            "Bence Vass doesn't work for Tisza Analytics anymore.",
        ),
    ),
    (
        "works_at",
        SPEAKER,
        "Tisza Analytics",
        ("No longer with Tisza Analytics.", "I'm not working at Tisza Analytics anymore."),
    ),
    (
        "reports_to",
        SPEAKER,
        "Dorka Fehér",
        ("Dorka Fehér's not my manager now.", "I don't report to Dorka Fehér anymore."),
    ),
    (
        "reports_to",
        "Bence Vass",
        "Dorka Fehér",
        ("Dorka Fehér is no longer Bence Vass's manager.", "Bence Vass doesn't report to Dorka Fehér anymore."),
    ),
    (
        "owned_by",
        "Zirc exporter",
        "Tisza Ops",
        ("Tisza Ops doesn't own the Zirc exporter anymore.", "The Zirc exporter isn't owned by Tisza Ops any more."),
    ),
    ("has_pet", SPEAKER, "Bodri", ("We don't have Bodri anymore.", "We no longer have Bodri.")),
    (
        "job_title",
        "Bence Vass",
        "head of support",
        ("Bence Vass is no longer head of support.", "Bence Vass isn't head of support any more."),
    ),
    (
        "due_date",
        "Kestle",
        "2026-04-06",
        ("The Kestle launch is no longer April 6.", "The Kestle launch isn't April 6 any more."),
    ),
)


def past_variants() -> Iterator[Variant]:
    """A value said to have held before, with no value now said: read as ended."""
    yield from _each_sentence(_PAST, "past", ended=True)
    yield from _each_sentence(_NO_LONGER, "past", ended=True)


# a person named in one sentence and spoken of in the next: how the first brings them in, and what the second opens
# with before its pronoun ({said}: the third person's predicate)
_BROUGHT_IN = (
    "Bence Vass sang with the choir in May.",
    "This is Bence Vass.",
    "Meet Bence Vass!",
    "We hired Bence Vass last week.",
    "Bence Vass came by the office today.",
)
_OPENERS = ("He {said}.", "Originally from Győr, he {said}.", "These days he {said}.", "A keen cyclist, he {said}.")
# a sentence between that speaks of them without turning to anyone else
_BETWEEN = ("Everyone likes him.", "I work with him.", "The team threw him a party.", "Tisza Analytics hired him.")
# someone brought in by whom they are to someone named: (the sentence; {said} as above)
_RELATED = (
    "Dorka Fehér's husband, Bence Vass, {said}.",
    "Dorka Fehér's husband Bence Vass {said}.",
    "Dorka Fehér joined in May. Her husband, Bence Vass, {said}.",
)


def discourse_variants() -> Iterator[Variant]:
    """A person's predicate said in the sentence after the one that names them, or of someone brought in by whom
    they are to another."""
    for attribute, value, _first, third, _ing in _PERSON_PREDICATES:
        for first in _BROUGHT_IN:
            for opener in _OPENERS:
                text = f"{first} {opener.format(said=third)}"
                yield Variant(text, attribute, "Bence Vass", value, family="discourse")
        for between in _BETWEEN:
            text = f"Bence Vass came by the office today. {between} He {third}."
            yield Variant(text, attribute, "Bence Vass", value, family="discourse")
        for related in _RELATED:
            yield Variant(related.format(said=third), attribute, "Bence Vass", value, family="discourse")


# a fact said inside the noun phrase that names someone, the clause about something else: (the sentence, then
# (attribute, value) of each fact its phrase states of Bence Vass)
_IN_THE_NAME = (
    ("Tisza Analytics' Bence Vass gave the talk.", ("works_at", "Tisza Analytics")),
    ("Bence Vass of Tisza Analytics gave the talk.", ("works_at", "Tisza Analytics")),
    (
        "Bence Vass, Tisza Analytics' head of support, gave the talk.",
        ("works_at", "Tisza Analytics"),
        ("job_title", "head of support"),
    ),
    (
        "Tisza Analytics head of support Bence Vass gave the talk.",
        ("works_at", "Tisza Analytics"),
        ("job_title", "head of support"),
    ),
    ("Head of support Bence Vass gave the talk.", ("job_title", "head of support")),
    ("Data engineer Bence Vass gave the talk.", ("job_title", "data engineer")),
    ("Szeged-based Bence Vass gave the talk.", ("lives_in", "Szeged")),
    (
        "Bence Vass, a Szeged-based data engineer, gave the talk.",
        ("lives_in", "Szeged"),
        ("job_title", "data engineer"),
    ),
    ("Hungarian-speaking Bence Vass gave the talk.", ("speaks", "Hungarian")),
    ("Bence Vass's Szeged flat is lovely.", ("lives_in", "Szeged")),
)


def phrase_variants() -> Iterator[Variant]:
    """A person's facts said in the phrase that names them ("Tisza Analytics' Bence Vass", "Szeged-based Bence")."""
    for text, *stated in _IN_THE_NAME:
        for attribute, value in stated:
            yield Variant(text, attribute, "Bence Vass", value, family="phrases")


# facts listed: several subjects with one predicate, several values of one subject, each gapped pair (the sentence,
# then (attribute, whom or what, value) for each fact it lists)
_LISTS = (
    (
        "Bence Vass, Dorka Fehér and Ilka Nagy all live in Szeged.",
        *(("lives_in", who, "Szeged") for who in ("Bence Vass", "Dorka Fehér", "Ilka Nagy")),
    ),
    (
        "Bence Vass, Dorka Fehér, and Ilka Nagy report to Réka Tóth.",
        *(("reports_to", who, "Réka Tóth") for who in ("Bence Vass", "Dorka Fehér", "Ilka Nagy")),
    ),
    (
        "Bence Vass, Dorka Fehér and Ilka Nagy work at Tisza Analytics.",
        *(("works_at", who, "Tisza Analytics") for who in ("Bence Vass", "Dorka Fehér", "Ilka Nagy")),
    ),
    (
        "Bence Vass, Dorka Fehér and Ilka Nagy speak Hungarian.",
        *(("speaks", who, "Hungarian") for who in ("Bence Vass", "Dorka Fehér", "Ilka Nagy")),
    ),
    (
        "The Zirc exporter, the Kestle gateway and the Vashegy API are owned by Tisza Ops.",
        *(("owned_by", thing, "Tisza Ops") for thing in ("Zirc exporter", "Kestle gateway", "Vashegy API")),
    ),
    (
        "Tisza Ops owns the Zirc exporter, the Kestle gateway and the Vashegy API.",
        *(("owned_by", thing, "Tisza Ops") for thing in ("Zirc exporter", "Kestle gateway", "Vashegy API")),
    ),
    (
        "Our three cats — Mák, Bors and Pötty — are fine.",
        *(("has_pet", SPEAKER, name) for name in ("Mák", "Bors", "Pötty")),
    ),
    (
        "Our cats, Mák, Bors and Pötty, are fine.",
        *(("has_pet", SPEAKER, name) for name in ("Mák", "Bors", "Pötty")),
    ),
    ("I have three cats: Mák, Bors and Pötty.", *(("has_pet", SPEAKER, name) for name in ("Mák", "Bors", "Pötty"))),
    (
        "Bence Vass speaks Hungarian, German and a little English.",
        *(("speaks", "Bence Vass", language) for language in ("Hungarian", "German", "English")),
    ),
    ("Zirc ships April 6, Kestle May 4.", ("due_date", "Zirc", "2026-04-06"), ("due_date", "Kestle", "2026-05-04")),
    (
        "Zirc launches on April 6 and Kestle on May 4.",
        ("due_date", "Zirc", "2026-04-06"),
        ("due_date", "Kestle", "2026-05-04"),
    ),
    (
        "Tisza Ops owns the Zirc exporter and Vashegy Platform the Kestle gateway.",
        ("owned_by", "Zirc exporter", "Tisza Ops"),
        ("owned_by", "Kestle gateway", "Vashegy Platform"),
    ),
    (
        "Bence Vass is head of support and Dorka Fehér head of sales.",
        ("job_title", "Bence Vass", "head of support"),
        ("job_title", "Dorka Fehér", "head of sales"),
    ),
)


def list_variants() -> Iterator[Variant]:
    """Facts listed in one sentence: each fact of the list a variant of its own."""
    for text, *listed in _LISTS:
        for attribute, subject, value in listed:
            yield Variant(text, attribute, subject, value, family="lists")


def written() -> Iterator[Variant]:
    """Every variant the speaker writes, family by family (a chat's lines name their own voice: ``chat_variants``)."""
    for family in (
        person_variants,
        thing_variants,
        word_variants,
        record_variants,
        clause_variants,
        people_variants,
        change_variants,
        name_variants,
        speech_variants,
        learner_variants,
        past_variants,
        list_variants,
        discourse_variants,
        phrase_variants,
    ):
        yield from family()


def said_by() -> Iterator[tuple[Variant, str | None]]:
    """Every variant with who says it: the writer for a statement, nobody for a chat's line (its line names the
    voice)."""
    yield from ((variant, SPEAKER) for variant in written())
    yield from ((variant, None) for variant in chat_variants())


# the words of a fact that does not hold for the speaker: a visit, an origin, a plan, a past, someone else's, a
# question, a client (attribute, value, the sentences)
_NEAR_MISSES = (
    (
        "lives_in",
        "Szeged",
        (
            "I'm in Szeged for a conference this week.",
            "I'm from Szeged originally.",
            "I grew up in Szeged.",
            "My friend who lives in Szeged sent me this.",
            "The Kestle office in Szeged is huge.",
            "I'm flying to Szeged tomorrow.",
            "I lived in Szeged for a year back in 2015.",
            "I'm moving to Szeged next month.",
            "My sister lives in Szeged.",
            "I stayed in Szeged for two nights.",
            "I commute to Szeged for work.",
        ),
    ),
    (
        "works_at",
        "Tisza Analytics",
        (
            "We had a meeting with Tisza Analytics.",
            "I have an interview at Tisza Analytics tomorrow.",
            "I used to work at Tisza Analytics.",
            "My wife works at Tisza Analytics.",
            "Tisza Analytics offered me a job.",
            "I'm at Tisza Analytics for a workshop today.",
            "I consulted for Tisza Analytics in 2019.",
            "I left Tisza Analytics in May.",
            "I start at Tisza Analytics next Monday.",
            "We partner with Tisza Analytics.",
        ),
    ),
    (
        "reports_to",
        "Dorka Fehér",
        (
            "Dorka Fehér reports to me.",
            "I reported the bug to Dorka Fehér.",
            "My manager's manager is Dorka Fehér.",
            "Dorka Fehér is my mentor.",
            "Dorka Fehér was my manager at Kestle.",
        ),
    ),
    (
        "speaks",
        "Hungarian",
        (
            "I love Hungarian food.",
            "My Hungarian colleague is great.",
            "I'm taking Hungarian classes.",
            "I'm Hungarian.",
        ),
    ),
    (
        "has_pet",
        "Bodri",
        ("My neighbour's dog Bodri barks.", "I'm dog-sitting Bodri this week.", "I saw a dog named Bodri in the park."),
    ),
    (
        "job_title",
        "head of support",
        ("I applied for head of support.", "I was head of support until 2022.", "I report to the head of support."),
    ),
)

# the shapes of speech, a learner's English and the past around words that state nothing: a hedge, a wish, a dream, a
# visit, a question, a name given (attribute, the sentence)
_SHAPED_CONTROLS = (
    ("lives_in", "Um, I might, uh, move to Szeged."),
    ("lives_in", "so yeah I'm thinking of moving to Szeged lol"),
    ("works_at", "I am want to work at Tisza Analytics."),
    ("works_at", "My dream is work in Tisza Analytics."),
    ("lives_in", "I once visited Szeged."),
    ("lives_in", "I used to want to live in Szeged."),
    ("has_pet", "Dreamt I had a dog named Bodri."),
    ("has_pet", "I had a cat sit on my keyboard."),
    ("job_title", "I had a dog named Bodri as a kid."),
    ("job_title", "Bence Vass was elected treasurer?"),
    ("job_title", "Bence Vass is your manager, right?"),
    ("reports_to", "My old boss at Kestle Labs? No idea."),
    ("lives_in", "Bence Vass said he might move to Szeged."),
    ("works_at", "Bence Vass denied that he works at Tisza Analytics."),
    ("reports_to", "Bence Vass asked whether he reports to Dorka Fehér."),
    ("lives_in", "Bence Vass, Dorka Fehér and Ilka Nagy might move to Szeged."),
    ("lives_in", "Szeged, Pécs and Eger are lovely in spring."),
    ("due_date", "Zirc ships fast, Kestle slowly."),
    ("has_pet", "My neighbours' three cats — Mák, Bors and Pötty — visit daily."),
    ("owned_by", "Tisza Ops wants the Zirc exporter and Vashegy Platform the Kestle gateway."),
    ("lives_in", "This is Bence Vass. He'd love to live in Szeged."),
    ("works_at", "We interviewed Bence Vass. Originally from Győr, he might join Tisza Analytics."),
    ("lives_in", "Bence Vass called. If you ask me, he should live in Szeged."),
    ("owned_by", "Bence Vass lives with Dorka Fehér."),
    ("owned_by", "Dorka Fehér is accountable for the budget."),
    ("works_at", "Bence Vass of Szeged gave the talk."),
    ("job_title", "Welcome Bence Vass to the team!"),
    ("works_at", "My Tisza Analytics colleague's talk was great."),
    ("lives_in", "Based in Szeged, he works remotely."),
    ("speaks", "German-speaking customers make up half the queue."),
    ("reports_to", "Dorka Fehér reports to Bence Vass's deputy."),
    ("reports_to", "Bence Vass is Dorka Fehér's manager's manager."),
    ("has_pet", "I have a Python script called Zirc."),
    ("has_pet", "I bought a new puffer jacket."),
    ("due_date", "My flight is delayed to Friday."),
    ("due_date", "The Zirc API moved to the Tisza Ops team on Monday."),
)
# a "he" or "she" after a sentence that turned to someone else: either could be meant, so the pronoun's sentence
# states nothing
_TURNED_TO_SOMEONE_ELSE = (
    ("works_at", "Bence Vass lives in Szeged. I met Dorka Fehér and Ilka Nagy yesterday. She works at Kestle."),
    ("works_at", "Bence Vass lives in Szeged. Yesterday Dorka Fehér and Ilka Nagy came over. She works at Kestle."),
    ("works_at", "Bence Vass lives in Szeged. His sister called yesterday. She works at Kestle."),
    ("works_at", "Bence Vass lives in Szeged. The new hire starts Monday. He works at Kestle."),
    ("works_at", "Bence Vass lives in Szeged. We also hired a designer. She works at Kestle."),
    ("speaks", "Bence Vass lives in Szeged. Our new designer starts Monday. She speaks French."),
    ("works_at", "I spoke with Bence Vass and his wife. She works at Kestle."),
    ("lives_in", "Thanks to Bence Vass and Dorka Fehér for the help! She moved to Pécs."),
    ("lives_in", "This is Bence Vass, and this is Dorka Fehér. She lives in Pécs."),
    ("speaks", "Bence Vass lives in Szeged. Kestle hired him last year. He speaks German."),
)


def controls() -> Iterator[Variant]:
    """The person predicates hedged, wished or asked: each states nothing."""
    for attribute, _value, first, third, _ing in _PERSON_PREDICATES:
        for hedge in _HEDGES:
            yield Variant(f"Bence Vass {hedge}{first}.", attribute, "", "")
        yield Variant(f"I'd {first} if I could.", attribute, "", "")
        yield Variant(f"Does Bence Vass {first}?", attribute, "", "")
        yield Variant(f"If Bence Vass {third}, we could meet.", attribute, "", "")
    for attribute, text in _OTHER_WORDS_CONTROLS:
        yield Variant(text, attribute, "", "", family="words")
    for attribute, text in (*_SHAPED_CONTROLS, *_TURNED_TO_SOMEONE_ELSE):
        yield Variant(text, attribute, "", "", family="controls")
    for attribute, value, sentences in _NEAR_MISSES:
        for text in sentences:
            yield Variant(text, attribute, SPEAKER, value, family="near misses", holds=False)


def read(variant: Variant, facts) -> bool:
    """Whether the extracted ``facts`` hold the variant's fact (the thing's or the person's, its value, not negated;
    for a value that ended, closed or negated); for a control, whether they hold nothing of its attribute."""
    if not variant.subject:
        return not any(fact.attribute == variant.attribute for fact in facts)
    if not variant.holds:
        return not any(
            fact.attribute == variant.attribute
            and not fact.negated
            and fact.valid_until is None
            and variant.value.casefold() in str(fact.value).casefold()
            and variant.subject.split()[-1].casefold() in str(fact.subject).casefold()
            for fact in facts
        )
    return any(
        fact.attribute == variant.attribute
        and (fact.negated or fact.valid_until is not None if variant.ended else not fact.negated)
        and variant.value.casefold() in str(fact.value).casefold()
        and variant.subject.split()[-1].casefold() in str(fact.subject).casefold()
        for fact in facts
    )
