"""bench.realchat: a deterministic set of chats between two friends, whose three halves (dev, dev2, held) share no
content, calibrated on a plain BM25's recall and on word overlap (pure), and its harness through the sessions and
search services."""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from datetime import date, datetime
from itertools import combinations, permutations

import pytest

from bench.realchat import phrasing, vocabulary
from bench.realchat.calibration import BAND_BM25_R10, BAND_SHARED_WORD, calibration, content_words, in_band
from bench.realchat.chat import Lexicon
from bench.realchat.dev2 import phrasing as dev2_phrasing
from bench.realchat.dev2 import vocabulary as dev2_vocabulary
from bench.realchat.generator import ANSWERABLE, FAMILIES, generate
from bench.realchat.vocabulary import HALVES, SPLIT_HALVES, half_of
from memories.temporal import tag_dates

_WORD_RE = re.compile(r"\w+")


@pytest.fixture(scope="module")
def halves():
    return {half: generate(half=half) for half in HALVES}


def _dump(data) -> str:
    return json.dumps(
        {"c": [asdict(c) for c in data.conversations], "q": [asdict(q) for q in data.questions]}, default=str
    )


def _texts(data) -> set[str]:
    return {e["text"] for c in data.conversations for s in c.sessions for e in s.events}


_SHARED = {"HALVES", "SPLIT_HALVES", "WEEKDAYS", "MONTHS"}  # not pools: every half uses them whole


def _names(module) -> set[str]:
    return {name for name in dir(module) if name.isupper() and isinstance(getattr(module, name), tuple | dict)}


def _pools():
    """Every pool of the vocabulary and the phrasing, by name (a dict of tuples gives one pool per key), with each
    half's share of it: dev's and held's of the one tuple, and dev2's pool of the same name."""
    for module, own in ((vocabulary, dev2_vocabulary), (phrasing, dev2_phrasing)):
        for name in sorted(_names(module) - _SHARED):
            value, mine = getattr(module, name), getattr(own, name)
            pools = value.items() if isinstance(value, dict) else [(None, value)]
            for key, pool in pools:
                label = f"{module.__name__}.{name}" + (f"[{key}]" if key else "")
                shares = {half: half_of(pool, half) for half in SPLIT_HALVES}
                yield label, pool, {**shares, "dev2": mine[key] if key else mine}


def _shape(statement: tuple[str, ...]) -> tuple[str, ...]:
    """Who says each turn of a statement and which turns are evidence (``S*``, ``O``, ...)."""
    return tuple(turn.split("|", 1)[0] for turn in statement)


# --- determinism and the split ----------------------------------------------------------------------------------


def test_the_same_arguments_give_the_same_set_and_another_seed_another(halves):
    for half, data in halves.items():
        assert _dump(generate(half=half)) == _dump(data)
        assert _dump(generate(12, half=half)) != _dump(data)


def test_every_pool_splits_into_three_disjoint_halves():
    assert half_of(("a", "b", "c", "d", "e"), "dev") == ("a", "c", "e")
    assert half_of(("a", "b", "c", "d", "e"), "held") == ("b", "d")
    for wrong in ("test", "dev2"):  # dev2 takes no share of the split pools: it has its own
        with pytest.raises(ValueError):
            half_of(("a",), wrong)
    with pytest.raises(ValueError):
        generate(half="test")
    assert HALVES == ("dev", "dev2", "held")
    # dev2 has every pool the split modules have, under the same names and keys, and nothing else
    for module, own in ((vocabulary, dev2_vocabulary), (phrasing, dev2_phrasing)):
        assert _names(own) == _names(module) - _SHARED, own.__name__
        for name in _names(own):
            if isinstance(getattr(own, name), dict):
                assert getattr(own, name).keys() == getattr(module, name).keys(), name
    for name, pool, shares in _pools():
        assert len(set(pool)) == len(pool), f"{name} repeats an entry"
        assert len(set(shares["dev2"])) == len(shares["dev2"]), f"{name} repeats an entry in dev2"
        # about as long as the development share, never shorter: dev2 draws as much as dev does
        assert len(shares["dev"]) <= len(shares["dev2"]) <= 2 * len(shares["dev"]), name
        for one, other in combinations(HALVES, 2):
            assert not set(shares[one]) & set(shares[other]), f"{name}: {one} and {other} share an entry"


def test_dev2_says_things_in_the_shapes_dev_does():
    """The same statement shapes (who speaks, which turns are evidence) and the same number of echoing frames and of
    paraphrases per question kind: a second development half, not another design."""
    dev, dev2 = Lexicon("dev"), Lexicon("dev2")
    for key, statements in dev.statements.items():
        assert sorted(map(_shape, dev2.statements[key])) == sorted(map(_shape, statements)), key
    for key in dev.echo:
        assert (len(dev2.echo[key]), len(dev2.paraphrase[key])) == (len(dev.echo[key]), len(dev.paraphrase[key]))


def test_the_halves_share_no_person_and_no_text(halves):
    for half, data in halves.items():
        people = {name for c in data.conversations for name in c.speakers}
        assert len(people) == 2 * len(data.conversations)  # nobody is in two conversations
        assert {q.half for q in data.questions} == {half}
    for one, other in permutations(HALVES, 2):
        # no person of one half speaks in another, nor is named as a word anywhere in it: no text of another half
        # names one half's person, relative or pet
        lex = Lexicon(one)
        named = {n.lower() for n in (*lex.people, *lex.relatives, *lex.pet_names)}
        words = {w for text in _texts(halves[other]) for w in _WORD_RE.findall(text.lower())}
        assert not named & words, (one, other, named & words)
        assert not set(lex.people) & {name for c in halves[other].conversations for name in c.speakers}
    for one, other in combinations(HALVES, 2):
        # no statement, distractor, small talk or question of one half is said or asked in another
        assert not _texts(halves[one]) & _texts(halves[other]), (one, other)
        assert not {q.text for q in halves[one].questions} & {q.text for q in halves[other].questions}


def test_written_apart_from_the_other_conversational_set(halves):
    from bench.conversations import vocabulary as other
    from bench.conversations.generator import generate as generate_other

    theirs = {*other.FIRST_NAMES, *(n for names in other.RELATIVE_NAMES.values() for n in names)}
    for module in (vocabulary, dev2_vocabulary):
        assert not theirs & {*module.PEOPLE, *module.RELATIVES, *module.PET_NAMES}
    their_texts = {e["text"] for c in generate_other(7).conversations for s in c.sessions for e in s.events}
    for data in halves.values():
        assert not _texts(data) & their_texts


# --- the shape of the chats -------------------------------------------------------------------------------------


def test_two_friends_talk_over_many_sessions_weeks_apart(halves):
    for data in halves.values():
        assert len(data.conversations) == 12
        for chat in data.conversations:
            assert len(chat.sessions) == 18 and len(set(chat.speakers)) == 2
            days = [s.day for s in chat.sessions]
            gaps = [(b - a).days for a, b in zip(days, days[1:], strict=False)]
            assert min(gaps) >= 5 and max(gaps) <= 33 and sum(gaps) / len(gaps) >= 10
            turns = [e for s in chat.sessions for e in s.events]
            assert 200 <= len(turns) <= 400
            for speaker in chat.speakers:  # both speak, much: two people, not a member and an assistant
                assert sum(e["author"] == speaker for e in turns) >= len(turns) // 3
            assert any(text.startswith("[shares a photo of") or " [shares a photo of" in text
                       for text in (e["text"] for e in turns))  # fmt: skip


def test_sessions_are_in_the_sessions_api_shape_with_iso_timestamps(halves):
    for data in halves.values():
        for chat in data.conversations:
            for body, session in zip(chat.payloads(), chat.sessions, strict=True):
                assert set(body) == {"app_name", "user_id", "session_id", "events"}
                assert body["user_id"] == chat.user_id
                stamps = [datetime.fromisoformat(e["timestamp"]) for e in body["events"]]
                assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps)
                assert {stamp.date() for stamp in stamps} == {session.day}
                for event in body["events"]:
                    assert set(event) == {"id", "author", "timestamp", "text"}
                    assert event["author"] in chat.speakers and event["text"].strip()


def test_families_sizes_and_evidence(halves):
    for data in halves.values():
        assert 150 <= len(data.questions) <= 250
        events = data.events_by_id()
        for family in FAMILIES:
            assert sum(q.family == family for q in data.questions) >= 20, family
        for question in data.questions:
            assert question.family in FAMILIES
            if question.family == "never-said":
                assert question.evidence == () and question.superseded == () and question.answer == ""
                continue
            assert question.evidence and question.answer
            for event_id in question.evidence + question.superseded:
                assert event_id.startswith(question.conversation_id + "-s")
                assert event_id in events
        multi = [q for q in data.questions if q.family == "multi-hop"]
        assert all(len(q.evidence) >= 2 for q in multi)
        across = [q for q in multi if len({i.rsplit("-", 1)[0] for i in q.evidence}) >= 2]
        assert len(across) == len(multi)  # every multi-hop question needs turns of two sessions
        photos = [q for q in data.questions if any("[shares a photo of" in events[i]["text"] for i in q.evidence)]
        assert len(photos) >= 15


def test_evidence_turns_are_never_repeated_in_their_conversation(halves):
    for data in halves.values():
        events = data.events_by_id()
        for chat in data.conversations:
            texts = [e["text"] for s in chat.sessions for e in s.events]
            wanted = {i for q in data.questions if q.conversation_id == chat.conversation_id
                      for i in q.evidence + q.superseded}  # fmt: skip
            for event_id in wanted:
                assert texts.count(events[event_id]["text"]) == 1, events[event_id]["text"]


def test_a_knowledge_update_is_said_after_what_it_replaces_and_states_the_new_value(halves):
    for data in halves.values():
        events = data.events_by_id()
        updates = [q for q in data.questions if q.family == "knowledge-update"]
        for question in updates:
            assert question.superseded
            last_old = max(datetime.fromisoformat(events[i]["timestamp"]) for i in question.superseded)
            first_new = min(datetime.fromisoformat(events[i]["timestamp"]) for i in question.evidence)
            assert (first_new - last_old).days >= 14
            stated = " ".join(events[i]["text"] for i in question.evidence).casefold()
            assert question.answer.casefold() in stated


def test_the_answer_of_a_temporal_question_is_a_day_its_evidence_states(halves):
    """Relative to the session's date ("last Sunday", "three days ago", "this morning"), read by the project's
    date tagger from the evidence turn itself."""
    for data in halves.values():
        events = data.events_by_id()
        temporal = [q for q in data.questions if q.family == "temporal"]
        assert temporal and all(q.gold_date for q in temporal)
        for question in temporal:
            gold = date.fromisoformat(question.gold_date)
            assert gold.isoformat() < question.as_of[:10]
            stated = [
                mention
                for event_id in question.evidence
                for mention in tag_dates(
                    events[event_id]["text"], reference=datetime.fromisoformat(events[event_id]["timestamp"])
                )
                if mention.start == mention.end == gold
            ]
            assert stated, question


# --- calibration ------------------------------------------------------------------------------------------------


def test_content_words_leave_out_stop_words_and_the_speakers():
    assert content_words("What did Marisol's lurcher learn?", ["Marisol"]) == {"lurcher", "learn"}
    assert content_words("Where is the new job?") == {"new", "job"}


def test_every_half_is_calibrated_like_real_multi_session_chats(halves):
    """A plain BM25 over the turns finds roughly half of the evidence at 10, and most questions share a content word
    with an evidence turn; the paraphrased ones mostly do not."""
    for data in halves.values():
        report = calibration(data)
        assert BAND_BM25_R10[0] <= report["bm25_r10"] <= BAND_BM25_R10[1], report["bm25_r10"]
        assert BAND_SHARED_WORD[0] <= report["shared_word"] <= BAND_SHARED_WORD[1], report["shared_word"]
        assert in_band(report)
        assert report["echoed"]["shared_word"] >= 0.95 and report["paraphrased"]["shared_word"] <= 0.35
        assert 0.2 <= report["paraphrased"]["n"] / report["n"] <= 0.3
        assert report["n"] == sum(q.family in ANSWERABLE for q in data.questions)


# --- the harness (bench.realchat.evaluate) ----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_harness_ingests_through_the_sessions_service_and_asks_as_each_member():
    from bench.conversations.evaluate import ingest, run_baseline, run_config, tenant_for
    from bench.realchat.evaluate import GROUPS, evidence_searchable, score
    from memories.models import Memory

    small = generate(3, half="dev", conversations=2, sessions=12)
    tenant = tenant_for(small, slug="eval-realchat-test")
    event_of, stats = ingest(tenant, small, quiet=True)

    stored = Memory.objects.filter(tenant=tenant)
    assert stats["memories"] == stored.count() == len(event_of)
    assert {m.metadata["author"] for m in stored} == {n for c in small.conversations for n in c.speakers}
    # every evidence turn is a live memory of its own, in its conversation's member's scope
    assert evidence_searchable(tenant, small, event_of) == {
        "live": len({i for q in small.questions for i in q.evidence}),
        "evidence": len({i for q in small.questions for i in q.evidence}),
    }
    by_event = {event_id: pk for pk, event_id in event_of.items()}
    for question in small.questions[:5]:
        for event_id in question.evidence:
            assert stored.get(pk=by_event[event_id]).scope.members.get().user_id == question.user_id

    keyword = run_config(tenant, small.questions, event_of, ("keyword",), quiet=True)
    baseline = run_baseline(small, small.questions, set(event_of.values()), speaker=False)
    for run in (keyword, baseline):
        for question, ranked in zip(small.questions, run.ranked, strict=True):
            assert all(key.startswith(question.conversation_id + "-") for key in ranked)  # never another member's
    table = score(small.questions, baseline)
    assert set(GROUPS) <= set(table)
    assert table["answerable"]["n"] == sum(q.family in ANSWERABLE for q in small.questions)
    assert table["answerable"]["n"] == table["echoed"]["n"] + table["paraphrased"]["n"]
    assert table["never-said"]["n"] == sum(q.family == "never-said" for q in small.questions)


def test_several_seeds_pool_into_one_report_weighted_by_their_questions():
    from bench.realchat.evaluate import GROUPS, format_report, pooled

    def report(seed, r5, n):
        row = {"r5": r5, "r10": r5, "mrr": r5, "n": n}
        family = {"n": n, "bm25_r5": r5, "bm25_r10": r5, "shared_word": 0.5}
        table = {group: row for group in GROUPS} | {
            "never-said": {"abstained": 1.0, "false_refusals": 0.0, "n": 1},
            "update_order": {"current_first": r5, "n": n},
        }
        return {
            "half": "dev",
            "seed": seed,
            "calibration": {
                "half": "dev", "conversations": 2, "sessions": 4, "turns": 10, "questions": n + 1, **family,
                "families": {f: family for f in ANSWERABLE}, "paraphrased": family, "echoed": family, "never_said": 1,
            },
            "ingest": {
                "turns": 10, "memories": 10, "write_s": 1.0, "embed_s": 1.0, "links_s": 1.0,
                "evidence_searchable": {"live": n, "evidence": n},
            },
            "table": {name: table for name in ("rank_bm25", "full")},
            "latency": {name: {"p50_ms": 10.0, "p95_ms": 20.0} for name in ("rank_bm25", "full")},
            "seconds": {"search": 1.0, "total": 2.0},
        }  # fmt: skip

    one, other = report(11, 0.9, 30), report(12, 0.5, 10)
    assert pooled([one]) is one
    both = pooled([one, other])
    assert both["seed"] == "11,12"
    assert both["table"]["full"]["answerable"] == {"r5": 0.8, "r10": 0.8, "mrr": 0.8, "n": 40}
    assert both["calibration"]["bm25_r10"] == 0.8 and both["calibration"]["questions"] == 42
    assert both["ingest"]["evidence_searchable"] == {"live": 40, "evidence": 40}
    assert "half dev, seed 11,12" in format_report(both)
