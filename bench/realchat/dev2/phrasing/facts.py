"""How a fact is said in the second development half (``STATEMENTS``: two per beat, of the shapes of ``dev``'s two),
how a question asks about it (``FRAMES``: two frames with the words that were said, then one, marked
``PARAPHRASE_MARK``, without them), and what is asked that nobody said (``ABSENT``)."""

from __future__ import annotations

# --- statements, by "<kind>/<beat>" -------------------------------------------------------------------------------
STATEMENTS: dict[str, tuple[tuple[str, ...], ...]] = {
    "pet/adopt": (
        ("S*|It's official, {pet} the {breed} is ours! Two years old and already running the house.",),
        ("S*|[shares a photo of {pet} peering out of a cardboard box] Our new {breed}, just home from the rescue.",
         "O|I'm going to need daily updates on {pet}."),
    ),
    "pet/trick": (
        ("S*|{Pet} has a new party piece: she {trick}. No idea who taught her that.",),
        ("S*|Guess what {pet} learned this week? The {species} {trick} now, very pleased with itself.",),
    ),
    "job/start": (
        ("S*|Signed the contract today, I'm starting as {role_a} at {company} next month!",),
        ("O*|So is it official, you're at {company} now?",
         "S*|Yep, {role_a} there since Monday. Still learning where the loos are."),
    ),
    "job/move": (
        ("S*|Big news, I'm leaving {company}. {New_company} made me an offer and I said yes.",),
        ("S*|Last day at {company} today, cake and tears. I start at {new_company} on Monday.",),
    ),
    "race/run": (
        ("S*|Finished {race} {when}! {Minutes} minutes. Of all the races I've done, that one hurt the most.",),
        ("O*|{Race} was one of the races you'd entered, wasn't it?",
         "S*|Crossed the line {when} in {minutes} minutes, legs like jelly but so happy."),
    ),
    "trip/plan": (
        ("S*|We've booked {month} in {place}! Flights and everything, no backing out now.",),
        ("S*|Decided where the holiday's going this year: {place}, first two weeks of {month}.",),
    ),
    "trip/change": (
        ("S*|The {place} plan is off, the airline cancelled the route. We're doing {new_place} instead.",),
        ("O*|Is the {place} trip still on?", "S*|No, we switched to {new_place}, cheaper and a shorter flight."),
    ),
    "trip/photo": (
        ("S*|[shares a photo of {new_sight}] Home from {new_place}, and I'd go straight back.",),
        ("O*|Go on then, show me {new_place}.",
         "S*|[shares a photo of {new_sight}] Worth every minute of the delayed flight."),
    ),
    "craft/start": (
        ("S*|Went to my very first {craft} workshop {when}, and I came home buzzing.",),
        ("O*|How was the {craft} taster you booked?", "S*|Class one was {when} and I'm completely hooked already."),
    ),
    "craft/photo": (
        ("S*|[shares a photo of a {colour} {item}] Made it myself at {craft}! Please admire it.",),
        ("S*|[shares a photo of a lopsided {colour} {item}] Week three of {craft} and this is the result.",
         "O|Lopsided is a style choice!"),
    ),
    "family/intro": (
        ("S*|My {relation} {relative} is coming to stay for a week, so the spare room is finally getting cleared.",),
        ("S*|Had a long walk with {relative}, my {relation}, who is suddenly taller than me.",),
    ),
    "family/news": (
        ("S*|{Relative} got the offer from {school}: {field}, starting this autumn!",),
        ("O*|Has {relative} heard back from {school} yet?", "S*|Yes, accepted! {Field} it is, the whole family cried."),
    ),
    "garden/plant": (
        ("S*|Spent the afternoon planting {plant} {at_plot}, muddy knees and a happy heart.",),
        ("O*|What are you growing {at_plot} these days?", "S*|{Plant} this year, and I'm weirdly emotional about it."),
    ),
    "book/read": (
        ("S*|Just finished {book} by {author}, I need a week to recover.",),
        ("S*|Started {book} on the train, {author} has me hooked already.",),
    ),
    "home/old": (
        ("S*|Ten years in {area} and I still get lost in the back streets.",),
        ("S*|Sat out on the front step in {area} tonight, the whole road was out chatting.",),
    ),
    "home/new": (
        ("S*|Keys collected! We've left {area}, and as of this weekend we're living in {new_area}.",),
        ("O*|Is the move from {area} happening?",
         "S*|Done, we're in {new_area} now. I miss the old corner pub already."),
    ),
    "weekly/old": (
        ("S*|{Day}s are for {activity}, I haven't missed one in two years.",),
        ("O*|Want to meet up on {day}?", "S*|Can't, that's my {activity} slot, it's non-negotiable."),
    ),
    "weekly/new": (
        ("S*|Heads up, {activity} has moved to {new_day}s because the leader changed jobs.",),
        ("S*|{Activity} isn't on {day}s any more, it's {new_day}s from now on.",),
    ),
    "milestone/past": (
        ("S*|{Event}: done {when}, ticked off the list at last.",),
        ("O*|Remind me, when was the {event_q}?", "S*|It was {when}, and it all went smoothly."),
    ),
    "milestone/future": (
        ("S*|Diary note: {event} is {when}, one more thing to remember.",),
        ("O*|Have you got a date for the {event_q} yet?", "S*|{When}, apparently. I'll believe it when it happens."),
    ),
    "food/tried": (
        ("S*|Finally got a table at {restaurant}, and the {dish} lived up to the hype.",),
        ("O*|Thinking of booking {restaurant}, what's good there?", "S*|The {dish}, no question. I dream about it."),
    ),
}  # fmt: skip

# --- question frames, by "<kind>/<question>" ----------------------------------------------------------------------
FRAMES: dict[str, tuple[str, ...]] = {
    "pet/name": (
        "What name did {name} give the {breed}?", "What is the {breed} {name} adopted called?",
        "~What's the name of the animal that moved in with {name}?",
    ),
    "pet/trick": (
        "What has {name}'s {breed} learned to do?", "What new party piece does {name}'s {breed} have?",
        "~What silly habit has {name}'s animal developed?",
    ),
    "job/role": (
        "What was {name} taken on to do at {company}?", "Which post did {name} take up at {company}?",
        "~What's {name}'s profession?",
    ),
    "job/company": (
        "Which employer took {name} on as {role_a}?", "At which organisation is {name} {role_a}?",
        "~Where does {name} clock in every morning?",
    ),
    "job/now": (
        "Where did {name} go after leaving {company}?", "Which firm lured {name} away from {company}?",
        "~Who is {name}'s employer since the career change?",
    ),
    "race/when": (
        "What date did {name} cross the line at {race}?", "When was {race} for {name}?",
        "~What was the date of {name}'s latest competitive outing on foot?",
    ),
    "race/list": (
        "{Name} has done a couple of races. Which ones?", "What races has {name} entered this year?",
        "~In which competitions has {name} pinned on a number?",
    ),
    "trip/now": (
        "Where is {name}'s holiday now that {place} is off?", "Which trip did {name} book instead of {place}?",
        "~Which country or region is {name} flying out to after the rethink?",
    ),
    "trip/photo": (
        "What did {name}'s picture of {new_place} show?", "Which sight from {new_place} did {name} show a picture of?",
        "~What did {name}'s snapshot from the time away capture?",
    ),
    "craft/when": (
        "Which day was {name}'s {craft} debut?", "On which day did {name} try {craft} for the first time?",
        "~On what date did {name}'s new making-things hobby begin?",
    ),
    "craft/colour": (
        "Which colour did {name} choose for the {craft} {item}?",
        "In {name}'s photo of the {craft} {item}, what colour was it?",
        "~Which colour did {name}'s latest handiwork come out in?",
    ),
    "family/name": (
        "Who is the {relation} {name} talked about?", "What do they call {name}'s {relation}?",
        "~Which family member came up when {name} was chatting?",
    ),
    "family/study": (
        "Which course at {school} did {name}'s {relation} get into?",
        "What subject is {name}'s {relation} starting this autumn?",
        "~Which discipline will {name}'s {relation} spend the next few years on?",
    ),
    "garden/list": (
        "What's sprouting {at_plot} thanks to {name}?", "What did {name} get into the soil {at_plot}?",
        "~What has {name} been raising from seed lately?",
    ),
    "book/title": (
        "Which novel of {author}'s did {name} pick up?", "What was the {author} title {name} talked about?",
        "~Which paperback has had {name} gripped lately?",
    ),
    "home/now": (
        "Now that {name} has left {area}, where's home?", "Where is {name} living now, after {area}?",
        "~Which district does {name} call home at the moment?",
    ),
    "weekly/day": (
        "What time of the week is {activity} for {name} since the change?",
        "What's the new slot for {name}'s {activity}?",
        "~When in the week is {name} unavailable because of the standing commitment?",
    ),
    "milestone/when": (
        "When did {name}'s {event_q} take place?", "What was the date when {name} had to {verb}?",
        "~On the calendar, where did {name}'s {event_para} land?",
    ),
    "food/dish": (
        "What did {name} eat at {restaurant} that was so good?",
        "What should you order at {restaurant}, according to {name}?",
        "~What was the standout plate on {name}'s evening out?",
    ),
}  # fmt: skip

# --- never said: each asks about something no conversation contains ------------------------------------------------
ABSENT = (
    "What was {name}'s first car?", "Which city was {name} born in?", "Who taught {name} to swim?",
    "What did {name} call the sailing boat?", "What is {name} allergic to?",
    "What did {name} dress up as for the fancy dress party?", "Which political party did {name} join?",
    "Which surgeon operated on {name}'s shoulder?",
)  # fmt: skip
