"""Fact extraction against a labelled set: precision and recall per attribute (``graph.extraction.facts``).

Pure: runs without Django (``-p no:django``). tests/graph/fact_statements.json holds statements and non-statements,
each labelled with the facts a careful reader says it asserts — written from its "rules" (at the top of the file),
not from the extractor; tests/graph/fact_statements_more.json is a second such set, by another labeller, with its
own people, places and constructions (chat spelling, passives, reported speech, coordination);
tests/graph/fact_statements_third.json a third, by a labeller who read neither the extractor nor its output, in
the shapes real speech and team notes take (meeting minutes, Slack notes, rambling turns, several people's news in
one turn, dates written every way). Each statement goes
through ``extract_facts`` with its speaker and reference day; an extracted fact is right when a labelled fact of the
statement matches it (subject, attribute, value after the rules' normalisation, negation, and the dates where
labelled), each labelled fact matched once.
tests/graph/fact_statements_fifth.json, a fifth, is written in the genres an organisation's written traffic takes
(directory and CRM entries, signatures, standup and status notes, bios, voice notes, non-native English): it was
read for what is general after the first three, and is asserted at the recall it reaches (``RECALL_FLOOR``) so that
nothing read from it is lost; tests/graph/fact_statements_seventh.json, a seventh, likewise, in chat turns (a member
and an assistant over many sessions, friends asking and answering, group chats); tests/graph/fact_statements_eighth.json
an eighth, mostly near misses (what looks like a statement and, by the rules, states nothing);
tests/graph/fact_statements_ninth.json a ninth, of long texts (transcripts, newsletters, diaries, long e-mails) with
facts among other content; tests/graph/fact_statements_eleventh.json an eleventh (a member and an assistant across
sessions, people news, handovers, trackers, terse notes; nearly half near misses), scored once as a fresh set, then
read likewise; tests/graph/fact_statements_twelfth.json (people's informal writing: threads, e-mails with quoted
replies, posts, family texts, forums, transcripts, voice notes) and tests/graph/fact_statements_thirteenth.json
(workplace writing: announcements, post-mortems, tickets, profiles, minutes, CRM notes, status reports), by two more
labellers who read neither the extractor nor its output, likewise; tests/graph/fact_statements_fifteenth.json (chat
channels, family texts, voice notes, minutes, post-mortems, CRM and directory entries, letters), by another, scored
once as a fresh set, then read likewise; tests/graph/fact_statements_seventeenth.json (assistant sessions, direct
messages, channel threads, HR forms, team pages, release notes, call notes, newsletters, e-mails with quoted replies,
voice notes, learners' English), likewise; tests/graph/fact_statements_eighteenth.json (incident reviews, kickoff notes
and RACI tables, release trains and roadmaps in Markdown, career posts, bios, neighbours' and family chats,
transcripts, minutes, tickets, recruiter notes, retirement notices, forum posts; songs, fiction and role-play that
state nothing), likewise; tests/graph/fact_statements_nineteenth.json (calendar invites, signatures, CVs, tickets,
commit messages, CODEOWNERS, catalogues, neighbourhood chats, second-language writing) and
tests/graph/fact_statements_twentyfirst.json (design docs and RFC headers, status reports, tickets, service READMEs and
catalogues, announcements, out-of-office replies; weighted towards ownership and due dates) and
tests/graph/fact_statements_twentythird.json (channel threads, handoff notes, retros, minutes, catalogues, changelogs,
colleagues' small talk; weighted towards ownership, due dates and pets), likewise, and
tests/graph/fact_statements_twentyninth.json (class notes, relocation forums, customer update e-mails, adopters'
updates, team directories, planning documents, flatmates' and guild chats, job-change posts, school e-mails, handover
memos, maintainers' notes) and tests/graph/fact_statements_thirtysecond.json (a theatre company's e-mails, an
open-source tracker, wedding and co-op chats, CRM and intake notes, newsletters, a game studio's Discord, crew
scheduling, collection-care notes, stand-ups, choir rosters, pet-sitters' notes, an aquarium forum, an investor
update) and tests/graph/fact_statements_thirtyfourth.json (a lab's chat, a vet's front desk, a dispatchers' group, a
family group, a language-exchange forum with posts in other languages, helpdesk tickets, a football club's volunteers,
council minutes, candidate notes, a directory exported as key=value records, HR forms) and
tests/graph/fact_statements_thirtysixth.json (an open-source project's issues and maintainers' chat, a sports club's
committee e-mails, an estate agent's client notes, parent–teacher messages, a wedding-planning chat, a logistics
operations chat, a museum's staff newsletter, podcast transcripts, community profiles, alumni class notes, a fire
brigade's roster, stand-ups) and tests/graph/fact_statements_thirtyeighth.json (a dental practice's front desk, a
council's IT change log, a rowing club's group, an agency's client e-mails, an orchestra's newsletter, a pharmacy's
handover, a housing co-op's directory and minutes, a delivery startup's ops chat, a retirement home's bulletin, job
profiles and cover letters, an incident channel, a garden's notice board, two old friends' messages), scored once as
a fresh set, then read likewise. The issue's bar holds on the first three.
tests/graph/fact_statements_fourth.json, tests/graph/fact_statements_sixth.json,
tests/graph/fact_statements_tenth.json (chat threads, announcements, tickets, posts, transcripts, quoted e-mails) and
tests/graph/fact_statements_fourteenth.json (assistant sessions, texts between two people, workplace notes, long
personal e-mails) and tests/graph/fact_statements_sixteenth.json (group chats, handover notes, newsletters, tickets,
transcripts, posts), tests/graph/fact_statements_twentieth.json, tests/graph/fact_statements_twentysecond.json
(a member and an assistant, friends' and families' texts, forums, pets' news, volunteer groups; weighted towards pets,
ownership and due dates) and tests/graph/fact_statements_twentyfourth.json (assistant sessions, friends' chats,
journals and newsletters, small companies' updates; weighted likewise) and the later held sets bench.fact_statements
lists (tests/graph/fact_statements_thirtieth.json: tenants' letters, club bulletins, all-hands and podcast
transcripts, card comments, pipeline notes, vets' and insurers' notes, intake forms, dictated notes, translated
English, ownership spreadsheets, a family newsletter; tests/graph/fact_statements_thirtyfirst.json the last: clinic IT
threads, a school newsletter, job posts, speeches, co-op minutes, changelogs, voice memos, expat forums, lost-pet
posts, org-update e-mails, club rosters, support chats, family-history forums, volunteer rotas, a lab wiki;
tests/graph/fact_statements_thirtythird.json: an ops channel, a restaurant group's chat, second-language English,
newsroom notices, a startup's updates, a keepers' forum, council memos, travel posts, a library wiki, club minutes,
change-advisory notes, a family thread, a freelancer's notes, a service catalogue, farewell posts;
tests/graph/fact_statements_thirtyfifth.json: ward handovers, HR change exports, a game studio's chat, a bakery
franchise's managers, law-firm notices, a sailing club's newsletter, support chats, CRM notes, a relocation forum, a
board-game group, a doctoral student's notes, a mutual-aid group; tests/graph/fact_statements_thirtyseventh.json: a
hotel's shift log, a university department's newsletter, a farming co-op's chat, a theatre's call sheets, investor
updates, a choir's mailing list, condo board minutes, a network-operations chat, family-history notes, neighbourhood
posts, airline crew messages, a paper's celebrations and farewells, emergency-contact and onboarding forms), by
labellers of their own, are held back:
only their form is checked here (``manage.py eval_fact_statements --half held`` scores them, as figures). Run with
``-s`` to see the tables and the misses.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import pytest

from bench.fact_statements import (
    ATTRIBUTES,
    HELD_BACK,
    PARTIAL_DAY,
    SET_NAMES,
    SETS_DIR,
    Score,
    fact_matches,
    normalise,
    score_set,
    score_statement,
    statements,
    table,
)
from bench.fact_statements import load as _load

SETS = tuple(SETS_DIR / name for name in SET_NAMES)
EVERY_SET = SETS + tuple(SETS_DIR / name for name in HELD_BACK if (SETS_DIR / name).exists())
FACT_KEYS = {"subject", "attribute", "value", "negated", "valid_from", "valid_until", "past", "accept"}
MIN_PRECISION, MIN_RECALL, MIN_ATTRIBUTE_PRECISION = 0.9, 0.7, 0.85
ATTRIBUTE_FLOOR = 10  # labelled facts an attribute needs before its own precision is asserted
# below the bar: what open wording reaches in the genres of the sets read after the first three
RECALL_FLOOR = {
    "fact_statements_fifth": 0.80,
    "fact_statements_seventh": 0.75,
    "fact_statements_eighth": 0.88,
    "fact_statements_ninth": 0.75,
    "fact_statements_eleventh": 0.71,
    "fact_statements_twelfth": 0.69,
    "fact_statements_thirteenth": 0.75,
    "fact_statements_fifteenth": 0.54,
    "fact_statements_seventeenth": 0.78,
    "fact_statements_eighteenth": 0.58,
    "fact_statements_nineteenth": 0.73,
    "fact_statements_twentyfirst": 0.56,
    "fact_statements_twentythird": 0.68,
    "fact_statements_twentyfifth": 0.78,
    "fact_statements_twentyseventh": 0.60,
    "fact_statements_thirtyfourth": 0.59,
    "fact_statements_thirtysixth": 0.59,
    "fact_statements_thirtyeighth": 0.52,
}
# a set read after it was scored fresh whose precision stays below the bar: asserted at what it reaches, so
# that nothing read from it is lost (its misreadings, in bench/HISTORY.md, are left for a later pass)
PRECISION_FLOOR = {
    "fact_statements_eighteenth": 0.91,
    "fact_statements_thirtysixth": 0.93,
    "fact_statements_thirtyeighth": 0.82,
}
ATTRIBUTE_PRECISION_FLOOR = {
    ("fact_statements_eighteenth", "due_date"): 0.77,
    # since the scorer counts a value labelled as holding that the extractor closed as wrong, this set's employers
    # show a post that ended where its holder still works ("I was CTO here at N until 2023, then …")
    ("fact_statements_twentyfifth", "works_at"): 0.78,
    ("fact_statements_twentyninth", "owned_by"): 0.86,
    # read after it was scored fresh; its days are still often misread where a ticket names two ("launch is Friday,
    # ready Thursday") or a name holds a quarter ("the Q1 campaign"): asserted at what it reaches
    ("fact_statements_thirtyfourth", "due_date"): 0.74,
    # read after it was scored fresh; a notice's heading or a version number is still often read as the project
    # ("Save the date: the X launches …", "Meeting notes: (1) The 5.0 release …"), and what is due to a supplier
    # ("final numbers due to the caterer") as one: asserted at what it reaches
    ("fact_statements_thirtysixth", "due_date"): 0.73,
    # read after it was scored fresh; its labeller names a thing by the name in its record's line ("Customer Portal
    # 4.2", "X-ray sensor #2", "Marigold" for "the double 'Marigold'"), and a rotation or a hub is no employer
    ("fact_statements_thirtyeighth", "owned_by"): 0.68,
    ("fact_statements_thirtyeighth", "due_date"): 0.74,
    ("fact_statements_thirtyeighth", "works_at"): 0.83,
}

# --- the labelled set ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", EVERY_SET, ids=lambda path: path.stem)
def test_the_labelled_set_is_well_formed_and_large_enough(path):
    data = _load(path)
    assert data["rules"] and all(isinstance(rule, str) for rule in data["rules"])
    statements = data["statements"]
    assert len(statements) >= 200
    assert sum(1 for s in statements if not s["facts"]) >= 0.3 * len(statements)  # non-statements
    seen = set()
    counts = dict.fromkeys(ATTRIBUTES, 0)
    for statement in statements:
        assert set(statement) == {"text", "speaker", "reference", "facts"}, statement
        assert statement["text"].strip() and (statement["speaker"] is None or statement["speaker"].strip())
        date.fromisoformat(statement["reference"])
        key = (statement["text"], statement["speaker"])
        assert key not in seen, key
        seen.add(key)
        for fact in statement["facts"]:
            assert set(fact) <= FACT_KEYS and {"subject", "attribute", "value"} <= set(fact), fact
            assert fact["attribute"] in ATTRIBUTES, fact
            counts[fact["attribute"]] += 1
            for key in ("valid_from", "valid_until"):
                assert PARTIAL_DAY.match(fact.get(key, "2000")), fact
            if fact["attribute"] == "due_date":
                date.fromisoformat(fact["value"])
            if fact["attribute"] == "job_title":
                assert fact["value"] == fact["value"].lower(), fact
            if statement["speaker"] is None:
                assert fact["subject"] in statement["text"], fact  # nobody's first person
    assert all(count >= 5 for count in counts.values()), counts  # every attribute, at least a few times


def test_the_matching_follows_the_rules():
    @dataclass
    class Got:
        subject: str
        attribute: str
        value: str
        valid_from: date | None = None
        valid_until: date | None = None
        negated: bool = False

    label = {"subject": "billing service", "attribute": "owned_by", "value": "Payments team"}
    assert fact_matches(label, Got("the Billing service", "owned_by", "the Payments team"))
    assert fact_matches(label, Got("Billing", "owned_by", "Payments"))
    assert not fact_matches(label, Got("Billing", "owned_by", "Growth"))
    assert not fact_matches(label, Got("Billing", "owned_by", "Payments", negated=True))
    dated = {"subject": "Dmitri", "attribute": "lives_in", "value": "Denver", "valid_from": "2025-08"}
    assert fact_matches(dated, Got("Dmitri", "lives_in", "Denver", valid_from=date(2025, 8, 1)))
    assert not fact_matches(dated, Got("Dmitri", "lives_in", "Denver", valid_from=date(2025, 9, 14)))
    past = {"subject": "Kofi", "attribute": "lives_in", "value": "Chicago", "past": True}
    assert not fact_matches(past, Got("Kofi", "lives_in", "Chicago"))
    assert fact_matches(past, Got("Kofi", "lives_in", "Chicago", valid_until=date(2025, 4, 3)))
    # a value labelled as holding, read as one that had ended by the day it was said, is not the labelled fact
    said_on = date(2025, 9, 14)
    assert fact_matches(label, Got("Billing", "owned_by", "Payments"), said_on=said_on)
    assert not fact_matches(label, Got("Billing", "owned_by", "Payments", valid_until=said_on), said_on=said_on)
    assert fact_matches(label, Got("Billing", "owned_by", "Payments", valid_until=date(2025, 12, 31)), said_on=said_on)
    assert fact_matches(past, Got("Kofi", "lives_in", "Chicago", valid_until=said_on), said_on=said_on)
    pet = {"subject": "Dmitri", "attribute": "has_pet", "value": "Biscuit", "accept": ["dog"]}
    assert fact_matches(pet, Got("Dmitri", "has_pet", "a dog"))
    assert normalise("Orion's GA") == normalise("the Orion launch") == "orion"
    # a person the statement names in full may be labelled, or read, by a first or last name alone
    full = {"subject": "Kasia Nowak", "attribute": "speaks", "value": "Polish"}
    said = "Welcome Kasia Nowak! Kasia speaks Polish."
    assert fact_matches(full, Got("Kasia", "speaks", "Polish"), said)
    assert fact_matches({**full, "subject": "Kasia"}, Got("Kasia Nowak", "speaks", "Polish"), said)
    assert not fact_matches(full, Got("Kasia", "speaks", "Polish"), "Kasia speaks Polish.")
    assert not fact_matches(full, Got("Anna", "speaks", "Polish"), said)

    score = Score()
    score_statement(score, "x", [label], [Got("Billing", "owned_by", "Payments"), Got("Billing", "owned_by", "Ops")])
    score_statement(score, "y", [dated], [Got("Dmitri", "likes", "Denver")])
    assert (score.by_attribute["owned_by"].right, score.by_attribute["owned_by"].extracted) == (1, 2)
    assert score.by_attribute["lives_in"].recall == 0.0 and score.out_of_scope == 1
    assert score.overall.precision == 0.5 and score.overall.recall == 0.5


# --- the extractor ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module", params=SETS, ids=lambda path: path.stem)
def extracted(request) -> Score:
    score = score_set(statements(request.param))
    print("\n" + table(score))
    return score


def test_fact_extraction_precision_and_recall_overall(extracted, request):
    overall = extracted.overall
    name = request.node.callspec.params["extracted"].stem
    assert overall.precision >= PRECISION_FLOOR.get(name, MIN_PRECISION), table(extracted)
    assert overall.recall >= RECALL_FLOOR.get(name, MIN_RECALL), table(extracted)


@pytest.mark.parametrize("attribute", ATTRIBUTES)
def test_fact_extraction_precision_per_attribute(extracted, attribute, request):
    tally = extracted.by_attribute[attribute]
    name = request.node.callspec.params["extracted"].stem
    floor = ATTRIBUTE_PRECISION_FLOOR.get((name, attribute), MIN_ATTRIBUTE_PRECISION)
    if tally.labelled >= ATTRIBUTE_FLOOR:
        assert tally.precision >= floor, table(extracted)
