"""The news of two lives, one function per kind of fact: what each person says, in which sessions, what comes back
later, and what they are asked about (``lives``); and the questions about what nobody said (``never_said``)."""

from __future__ import annotations

from bench.realchat import vocabulary as v
from bench.realchat.chat import Ask, Chat, article
from bench.realchat.timing import future_when, past_when

_UPDATE_KINDS = ("job", "trip", "home", "weekly")
_TEMPORAL_KINDS = ("race", "craft", "milestone")
_OTHER_KINDS = ("pet", "family", "garden", "book", "food")
_SWAPPABLE = ("pet/name", "craft/colour", "family/name", "book/title", "food/dish", "trip/photo")


def _pet(c: Chat, s: str) -> None:
    species, breed = c.pick(c.lex.pets)
    fields = {"species": species, "breed": breed, "pet": c.pick(c.lex.pet_names), "trick": c.pick(c.lex.pet_tricks)}
    first = c.rng.randrange(0, c.n - 6)
    adopted = c.say(first, "pet/adopt", s, fields)
    trick = c.say(c.rng.randrange(first + 3, c.n), "pet/trick", s, fields)
    c.ask(Ask("single-hop", "pet/name", s, fields, adopted, answer=fields["pet"]))
    c.ask(Ask("multi-hop", "pet/trick", s, fields, adopted + trick, answer=fields["trick"]))
    c.surround("pet", s, fields, first + 1)


def _job(c: Chat, s: str) -> None:
    role, company = c.pick(c.lex.jobs)
    fields = {"role": role, "role_a": article(role), "company": company}
    first = c.rng.randrange(0, c.n // 2)
    started = c.say(first, "job/start", s, fields)
    if c.rng.random() < 0.6:
        fields["new_company"] = c.pick(c.lex.new_employers)
        moved = c.say(c.rng.randrange(first + 3, c.n), "job/move", s, fields)
        c.ask(Ask("knowledge-update", "job/now", s, fields, moved, started, answer=fields["new_company"]))
        c.ask(Ask("single-hop", "job/role", s, fields, started, answer=role))
    else:
        key = c.rng.choice(("job/role", "job/company"))
        c.ask(Ask("single-hop", key, s, fields, started, answer=role if key == "job/role" else company))
    c.surround("job", s, fields, first + 1)


def _race(c: Chat, s: str) -> None:
    first = c.rng.randrange(0, c.n - 4)
    sessions = (first, c.rng.randrange(first + 2, c.n))
    evidence, races = [], []
    for session in sessions:
        when, day = past_when(c.rng, c.days[session])
        race, minutes = c.pick(c.lex.races)
        fields = {"race": race, "when": when, "minutes": str(round(minutes * c.rng.uniform(0.85, 1.15)))}
        said = c.say(session, "race/run", s, fields)
        evidence += said
        races.append((fields, said, day))
    fields, said, day = c.rng.choice(races)
    c.ask(Ask("temporal", "race/when", s, fields, said, answer=day.isoformat(), gold_date=day))
    names = ", ".join(f["race"] for f, _, _ in races)
    c.ask(Ask("multi-hop", "race/list", s, {}, evidence, answer=names))
    c.surround("race", s, races[0][0], first + 1)


def _trip(c: Chat, s: str) -> None:
    (place, _), (new_place, new_sight) = c.pick(c.lex.trips), c.pick(c.lex.trips)
    fields = {"place": place, "new_place": new_place, "new_sight": new_sight, "month": c.rng.choice(v.MONTHS)}
    first = c.rng.randrange(0, c.n - 8)
    second = c.rng.randrange(first + 2, c.n - 3)
    planned = c.say(first, "trip/plan", s, fields)
    changed = c.say(second, "trip/change", s, fields)
    photo = c.say(c.rng.randrange(second + 1, c.n), "trip/photo", s, fields)
    c.ask(Ask("knowledge-update", "trip/now", s, fields, changed, planned, answer=new_place))
    c.ask(Ask("single-hop", "trip/photo", s, fields, photo, answer=new_sight))
    c.surround("trip", s, fields, first + 1)


def _craft(c: Chat, s: str) -> None:
    craft, item = c.pick(c.lex.crafts)
    first = c.rng.randrange(0, c.n - 5)
    when, day = past_when(c.rng, c.days[first])
    fields = {"craft": craft, "item": item, "colour": c.pick(c.lex.colours), "when": when}
    started = c.say(first, "craft/start", s, fields)
    photo = c.say(c.rng.randrange(first + 2, c.n), "craft/photo", s, fields)
    c.ask(Ask("temporal", "craft/when", s, fields, started, answer=day.isoformat(), gold_date=day))
    c.ask(Ask("single-hop", "craft/colour", s, fields, photo, answer=fields["colour"]))
    c.surround("craft", s, fields, first + 1)


def _family(c: Chat, s: str) -> None:
    school, study = c.pick(c.lex.schools), c.pick(c.lex.fields)
    fields = {"relation": c.pick(c.lex.relations), "relative": c.pick(c.lex.relatives), "school": school,
              "field": study}  # fmt: skip
    first = c.rng.randrange(0, c.n - 5)
    intro = c.say(first, "family/intro", s, fields)
    news = c.say(c.rng.randrange(first + 3, c.n), "family/news", s, fields)
    c.ask(Ask("single-hop", "family/name", s, fields, intro, answer=fields["relative"]))
    c.ask(Ask("multi-hop", "family/study", s, fields, intro + news, answer=study))
    c.surround("family", s, fields, first + 1)


def _garden(c: Chat, s: str) -> None:
    plot, at_plot = c.pick(c.lex.plots)
    sessions = sorted(c.rng.sample(range(c.n), 2))
    evidence, plants = [], []
    for session in sessions:
        plants.append(c.pick(c.lex.plants))
        evidence += c.say(session, "garden/plant", s, {"plot": plot, "at_plot": at_plot, "plant": plants[-1]})
    fields = {"plot": plot, "at_plot": at_plot, "plant": plants[0]}
    c.ask(Ask("multi-hop", "garden/list", s, fields, evidence, answer=", ".join(plants)))
    c.surround("garden", s, fields, sessions[0] + 1)


def _book(c: Chat, s: str) -> None:
    book, author = c.pick(c.lex.books)
    fields = {"book": book, "author": author}
    session = c.rng.randrange(c.n)
    c.ask(Ask("single-hop", "book/title", s, fields, c.say(session, "book/read", s, fields), answer=book))
    c.surround("book", s, fields, session + 1)


def _home(c: Chat, s: str) -> None:
    fields = {"area": c.pick(c.lex.areas), "new_area": c.pick(c.lex.areas)}
    first = c.rng.randrange(0, c.n // 2)
    old = c.say(first, "home/old", s, fields)
    new = c.say(c.rng.randrange(first + 3, c.n), "home/new", s, fields)
    c.ask(Ask("knowledge-update", "home/now", s, fields, new, old, answer=fields["new_area"]))
    c.surround("home", s, fields, first + 1)


def _weekly(c: Chat, s: str) -> None:
    day, new_day = c.rng.sample(c.lex.weekly_days, 2)
    fields = {"activity": c.pick(c.lex.activities), "day": day, "new_day": new_day}
    first = c.rng.randrange(0, c.n // 2)
    old = c.say(first, "weekly/old", s, fields)
    new = c.say(c.rng.randrange(first + 3, c.n), "weekly/new", s, fields)
    c.ask(Ask("knowledge-update", "weekly/day", s, fields, new, old, answer=new_day))
    c.surround("weekly", s, fields, first + 1)


def _milestone(c: Chat, s: str) -> None:
    for session in c.rng.sample(range(c.n - 1), 2):
        event, event_q, verb, event_para = c.pick(c.lex.milestones)
        future = c.rng.random() < 0.35
        when, day = (future_when if future else past_when)(c.rng, c.days[session])
        fields = {"event": event, "event_q": event_q, "verb": verb, "event_para": event_para, "when": when}
        said = c.say(session, "milestone/future" if future else "milestone/past", s, fields)
        c.ask(Ask("temporal", "milestone/when", s, fields, said, answer=day.isoformat(), gold_date=day))
    c.surround("milestone", s, fields, session + 1)


def _food(c: Chat, s: str) -> None:
    fields = {"restaurant": c.pick(c.lex.restaurants), "dish": c.pick(c.lex.dishes)}
    session = c.rng.randrange(c.n)
    c.ask(Ask("single-hop", "food/dish", s, fields, c.say(session, "food/tried", s, fields), answer=fields["dish"]))
    c.surround("food", s, fields, session + 1)


_KINDS = {"pet": _pet, "job": _job, "race": _race, "trip": _trip, "craft": _craft, "family": _family,
          "garden": _garden, "book": _book, "home": _home, "weekly": _weekly, "milestone": _milestone,
          "food": _food}  # fmt: skip


def lives(c: Chat) -> None:
    """Five kinds of news for each person: one that changes later, one with a date, two others, one of any."""
    for name in c.names:
        kinds = [c.rng.choice(_UPDATE_KINDS), c.rng.choice(_TEMPORAL_KINDS), *c.rng.sample(_OTHER_KINDS, 2)]
        kinds.append(c.rng.choice([k for k in _KINDS if k not in kinds]))
        for kind in kinds:
            _KINDS[kind](c, name)


def never_said(c: Chat, count: int) -> None:
    """Half ask one friend about a fact of the other's that they never had; the rest about things nobody said."""
    for _ in range(count):
        subject = c.rng.choice(c.names)
        had = {key for key, _, _ in c.facts[subject]}
        swaps = [(key, f) for key, _, f in c.facts[c.other(subject)] if key in _SWAPPABLE and key not in had]
        if swaps and c.rng.random() < 0.5:
            key, fields = c.rng.choice(swaps)
            c.asks.append(Ask("never-said", key, subject, fields, []))
        else:
            c.asks.append(Ask("never-said", "never-said/absent", subject, {}, []))
