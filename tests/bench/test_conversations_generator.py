"""bench.conversations.generator: a deterministic, labelled, hard conversational development set."""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from datetime import UTC, date, datetime

import pytest

from bench.conversations.generator import FAMILIES, frame_half, generate
from memories.temporal import tag_dates

_STOP = set(
    "a an the of to in on at for and or is are was were be been do does did has have had what which who whom when "
    "where why how s i you my your it its this that these those with from by as now these days there their them".split()
)


@pytest.fixture(scope="module")
def dataset():
    return generate(7)


def _dump(data) -> str:
    return json.dumps(
        {"c": [asdict(c) for c in data.conversations], "q": [asdict(q) for q in data.questions]}, default=str
    )


def test_the_same_seed_gives_the_same_set_and_another_seed_another(dataset):
    assert _dump(generate(7)) == _dump(dataset)
    assert _dump(generate(8)) != _dump(dataset)


def test_size_at_least_20_conversations_of_15_sessions_days_to_weeks_apart(dataset):
    assert len(dataset.conversations) == 20
    for chat in dataset.conversations:
        assert len(chat.sessions) == 15
        days = [s.day for s in chat.sessions]
        gaps = {(b - a).days for a, b in zip(days, days[1:], strict=False)}
        assert min(gaps) >= 2 and max(gaps) <= 21
        assert len(set(chat.speakers)) == 2


def test_sessions_are_in_the_sessions_api_shape(dataset):
    session_ids = set()
    for chat in dataset.conversations:
        for body in chat.payloads():
            assert set(body) == {"app_name", "user_id", "session_id", "events"}
            assert body["user_id"] == chat.user_id
            session_ids.add(body["session_id"])
            stamps = []
            for event in body["events"]:
                assert set(event) == {"id", "author", "timestamp", "text"}
                assert event["author"] in chat.speakers
                assert isinstance(event["timestamp"], float) and event["text"].strip()
                stamps.append(event["timestamp"])
            assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps)
            day = datetime.fromtimestamp(stamps[0], tz=UTC).date()
            assert day == next(s.day for s in chat.sessions if s.session_id == body["session_id"])
    assert len(session_ids) == sum(len(c.sessions) for c in dataset.conversations)


def test_every_evidence_id_exists_in_its_own_conversation(dataset):
    events = dataset.events_by_id()
    for question in dataset.questions:
        for event_id in question.evidence + question.superseded:
            assert event_id in events
            assert event_id.startswith(question.conversation_id + "-")


def test_evidence_texts_are_unique_in_a_conversation_so_dedup_never_merges_them(dataset):
    events = dataset.events_by_id()
    for chat in dataset.conversations:
        wanted = {i for q in dataset.questions if q.conversation_id == chat.conversation_id for i in q.evidence}
        wanted |= {i for q in dataset.questions if q.conversation_id == chat.conversation_id for i in q.superseded}
        texts = [e["text"] for s in chat.sessions for e in s.events]
        for event_id in wanted:
            assert texts.count(events[event_id]["text"]) == 1, events[event_id]["text"]


def test_every_family_has_both_halves_and_at_least_six_frames(dataset):
    for family in FAMILIES:
        asked = [q for q in dataset.questions if q.family == family]
        frames = {q.frame for q in asked}
        assert len(frames) >= 6, family
        assert {q.half for q in asked} == {"dev", "held"}, family
        assert len(asked) >= 40, family


def test_frames_split_by_the_fixed_rule(dataset):
    assert frame_half("single-hop/pet/0") == "dev"
    assert frame_half("single-hop/pet/3") == "held"
    for question in dataset.questions:
        assert question.half == frame_half(question.frame)
        assert question.frame.split("/")[0] == question.family
    kinds = {q.frame.rsplit("/", 1)[0] for q in dataset.questions}
    for kind in kinds:
        halves = {q.half for q in dataset.questions if q.frame.startswith(kind + "/")}
        assert halves == {"dev", "held"}, kind


def test_abstention_questions_have_no_evidence_and_the_others_do(dataset):
    for question in dataset.questions:
        if question.family == "abstention":
            assert question.evidence == () and question.superseded == ()
        else:
            assert question.evidence


def test_multi_session_evidence_spans_sessions(dataset):
    for question in dataset.questions:
        if question.family == "multi-session":
            sessions = {event_id.rsplit("-", 1)[0] for event_id in question.evidence}
            assert len(sessions) >= 2, question


def test_knowledge_update_pairs_are_ordered_in_time(dataset):
    events = dataset.events_by_id()
    updates = [q for q in dataset.questions if q.family == "knowledge-update"]
    assert updates
    for question in updates:
        assert question.superseded
        newest_old = max(events[i]["timestamp"] for i in question.superseded)
        oldest_new = min(events[i]["timestamp"] for i in question.evidence)
        assert newest_old < oldest_new
        stated = " ".join(events[i]["text"] for i in question.evidence).casefold()
        assert question.answer and question.answer.casefold() in stated


def test_temporal_questions_carry_gold_dates_the_evidence_states(dataset):
    events = dataset.events_by_id()
    when = [q for q in dataset.questions if q.frame.startswith("temporal/when/")]
    windows = [q for q in dataset.questions if q.family == "temporal" and q.gold_window]
    assert len(when) >= 60 and len(windows) >= 20
    stated = 0
    for question in when:
        gold = date.fromisoformat(question.gold_date)
        for event_id in question.evidence:
            event = events[event_id]
            reference = datetime.fromtimestamp(event["timestamp"], tz=UTC)
            if any(m.start == gold == m.end for m in tag_dates(event["text"], reference=reference)):
                stated += 1
                break
    assert stated == len(when)
    for question in when:
        assert question.gold_date < question.as_of[:10]  # asked after it happened
    for question in windows:
        start, end = date.fromisoformat(question.gold_window["start"]), date.fromisoformat(question.gold_window["end"])
        assert start <= end
        assert question.gold_window["start"] < question.as_of[:10]


def test_questions_paraphrase_rather_than_copy_the_evidence(dataset):
    events = dataset.events_by_id()
    overlaps = []
    for question in dataset.questions:
        if not question.evidence:
            continue
        if question.answer and question.family != "temporal":
            assert question.answer.casefold() not in question.text.casefold()
        names = {n.casefold() for c in dataset.conversations for n in c.speakers}
        words = {w for w in re.findall(r"\w+", question.text.casefold()) if w not in _STOP and w not in names}
        evidence = {w for i in question.evidence for w in re.findall(r"\w+", events[i]["text"].casefold())}
        overlaps.append(len(words & evidence) / max(1, len(words)))
    assert sum(overlaps) / len(overlaps) < 0.35


# --- the harness (bench.conversations.evaluate) ----------------------------------------------------------------


def test_scoring_counts_the_share_of_evidence_and_the_first_hit():
    from bench.conversations.evaluate import current_first, evidence_recall, reciprocal_rank, states_date

    ranked = ["e9", "e2", "e7", "e1"]
    assert evidence_recall(ranked, ("e2", "e1"), 2) == 0.5
    assert evidence_recall(ranked, ("e2", "e1"), 10) == 1.0
    assert reciprocal_rank(ranked, ("e7", "e1")) == 1 / 3
    assert reciprocal_rank(ranked, ("e5",)) == 0.0
    assert current_first(ranked, ("e2",), ("e7",)) is True
    assert current_first(ranked, ("e7",), ("e9",)) is False
    assert current_first(ranked, ("e2",), ("e5",)) is True  # the superseded turn is not in the list
    assert current_first(ranked, ("e5",), ()) is False
    assert states_date("Dana went to the support group on 7 May 2025 [1].", "2025-05-07") is True
    assert states_date("Dana went on May 7, 2025.", "2025-05-07") is True
    assert states_date("Dana went in May.", "2025-05-07") is False


@pytest.mark.django_db
def test_the_harness_ingests_through_the_sessions_service_and_asks_as_each_member():
    from bench.conversations.evaluate import ingest, run_baseline, run_config, score, tenant_for
    from memories.models import Memory

    small = generate(3, conversations=2, sessions=8)
    tenant = tenant_for(small, slug="eval-conversations-test")
    event_of, stats = ingest(tenant, small, quiet=True)

    turns = [e for c in small.conversations for s in c.sessions for e in s.events]
    stored = Memory.objects.filter(tenant=tenant)
    assert stats["turns"] == len(turns)
    assert stats["memories"] == stored.count() == len(event_of)
    assert set(stored.values_list("source_session", flat=True)) == {
        s.session_id for c in small.conversations for s in c.sessions
    }
    # every evidence turn is stored as its own memory, and in its conversation's member's scope
    evidence = {i for q in small.questions for i in q.evidence + q.superseded}
    assert evidence <= set(event_of.values())
    by_event = {event_id: pk for pk, event_id in event_of.items()}
    for question in small.questions[:5]:
        for event_id in question.evidence:
            memory = stored.get(pk=by_event[event_id])
            assert memory.scope.members.get().user_id == question.user_id

    questions = small.questions
    keyword = run_config(tenant, questions, event_of, ("keyword",), quiet=True)
    baseline = run_baseline(small, questions, set(event_of.values()), speaker=False)
    for question, ranked in zip(questions, keyword.ranked, strict=True):
        assert all(key.startswith(question.conversation_id + "-") for key in ranked)  # never another member's
    for question, ranked in zip(questions, baseline.ranked, strict=True):
        assert all(key.startswith(question.conversation_id + "-") for key in ranked)
    table = score(questions, baseline)
    assert set(table) == {"dev", "held", "all"}
    assert table["all"]["answerable"]["n"] == sum(1 for q in questions if q.family != "abstention")
    assert 0.0 <= table["all"]["answerable"]["r10"] <= 1.0


def test_the_date_read_from_the_hits_is_the_first_single_day_in_rank_order():
    from bench.conversations.evaluate import date_from_hits

    thursday = datetime(2025, 5, 8, 18, tzinfo=UTC).timestamp()
    events = {
        "a": {"text": "Haha, no way", "timestamp": thursday},
        "b": {"text": "We went last week, then again yesterday.", "timestamp": thursday},
        "c": {"text": "It was on 2 May.", "timestamp": thursday},
    }
    assert date_from_hits(["a", "b", "c"], events) == "2025-05-07"  # "last week" is a range, skipped
    assert date_from_hits(["c", "b"], events) == "2025-05-02"
    assert date_from_hits(["a", "missing"], events) is None


def test_the_abstention_ceiling_is_the_best_threshold_on_the_confidence():
    from bench.conversations.evaluate import abstention_ceiling

    # never-said at 0.1, 0.2, 0.5; answerable at 0.3 .. 1.2: a threshold of 0.3 refuses two of three, none answerable
    answerable = [0.3 + 0.1 * i for i in range(10)]
    assert abstention_ceiling([0.1, 0.2, 0.5], answerable) == {"auc": 0.917, "best": 0.667}
    # one answerable refusal in ten is allowed (<= 0.1): a threshold of 0.4 also refuses 0.3
    assert abstention_ceiling([0.1, 0.35, 0.5], answerable)["best"] == 0.667
    assert abstention_ceiling([0.1, 0.2], [0.05] * 10) == {"auc": 0.0, "best": 0.0}
    assert abstention_ceiling([], answerable) == {"auc": 0.0, "best": 0.0}
