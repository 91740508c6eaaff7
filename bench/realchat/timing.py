"""How the friends say when something happened or will happen, relative to the day they say it, and the day it
means (the answer of a temporal question). Pure."""

from __future__ import annotations

import random
from datetime import date, timedelta

from bench.realchat.vocabulary import WEEKDAYS

_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _day_month(day: date) -> str:
    return f"{day.day} {day.strftime('%B')}"


def past_when(rng: random.Random, today: date) -> tuple[str, date]:
    """A way to say a recent day (or today itself: then the answer is the session's date), and that day."""
    choice = rng.randrange(8)
    if choice == 0:
        return rng.choice(("today", "this morning")), today
    if choice == 1:
        return "yesterday", today - timedelta(days=1)
    if choice == 2:
        return "the day before yesterday", today - timedelta(days=2)
    if choice in (3, 4):
        weekday = rng.randrange(7)
        back = (today.weekday() - weekday) % 7 or 7
        return f"last {WEEKDAYS[weekday]}", today - timedelta(days=back)
    if choice == 5:
        back = rng.randint(3, 6)
        return f"{_NUMBER_WORDS[back]} days ago", today - timedelta(days=back)
    if choice == 6:
        return "a week ago", today - timedelta(days=7)
    day = today - timedelta(days=rng.randint(3, 12))
    return f"on {_day_month(day)}", day


def future_when(rng: random.Random, today: date) -> tuple[str, date]:
    """A way to say a coming day, and that day."""
    choice = rng.randrange(5)
    if choice == 0:
        return "tomorrow", today + timedelta(days=1)
    if choice == 1:
        return "the day after tomorrow", today + timedelta(days=2)
    if choice == 2:
        weekday = rng.randrange(7)
        ahead = (weekday - today.weekday()) % 7 or 7
        return f"next {WEEKDAYS[weekday]}", today + timedelta(days=ahead)
    if choice == 3:
        ahead = rng.randint(3, 6)
        return f"in {_NUMBER_WORDS[ahead]} days", today + timedelta(days=ahead)
    day = today + timedelta(days=rng.randint(3, 12))
    return f"on {_day_month(day)}", day
