"""The words of the facts-that-change set: who and what the facts are about, how people and notes state them and
their changes, and how a later question asks for them.

Every pool is split: the development half (``dev``) and the held-back half (``held``) share no subject and no
value, so a held-back question names nothing the development half ever showed. A second development half
(``dev2``) asks the development frames about subjects and values of its own, of the shapes real ones take (names of
several words, with "of", "&", a dot or an acronym; titles with "of"; teams named by a plain word): what the
extractor and the planner must handle is then not taught by one half's values. The question frames are split by
their number (``generator.frame_half``).

Placeholders: ``{v}`` the value a statement states, ``{old}`` the value it replaces, ``{s}`` the subject (a
person's name, a system such as "billing service", a project such as "Orion"), ``{when}`` a dated phrase ("last
month", "in March") the generator resolves against the statement's own day, ``{team}`` the asker's team.
"""

from __future__ import annotations

# --- subjects and values, per half --------------------------------------------------------------------------------

# members: user ids of the org chart (a member's name is their user id, capitalised); two teams of four per half
MEMBERS = {
    "dev": (("north", ("dmitri", "esme", "kofi", "aiko")), ("south", ("bruno", "lena", "ravi", "helga"))),
    "dev2": (("upper", ("ottar", "wanjiru", "benoit", "ilka")), ("lower", ("caius", "nadira", "sorin", "tamsin"))),
    "held": (("east", ("yusuf", "sanna", "pedro", "mirela")), ("west", ("anders", "chiara", "femi", "hana"))),
}
# people the notes and conversations talk about (never members)
PEOPLE = {
    "dev": (
        "Ines", "Tomasz", "Marta", "Ana", "Jonas", "Priya", "Oskar", "Nadia", "Felix", "Carmen", "Wei", "Tariq",
        "Rosa", "Emeka", "Greta", "Idris", "Hugo", "Mina", "Sven", "Leila", "Bilal", "Yara", "Colm", "Dagny",
        "Anouk", "Matteo", "Ioana", "Kwabena",
    ),
    "dev2": (
        "Margit", "Olusegun", "Priscilla", "Goran", "Benedikt", "Aoife", "Rahul", "Chidi", "Magnus", "Zainab",
        "Louisa", "Kaito", "Desmond", "Annika", "Lorcan", "Hyun-woo", "Fenna", "Jarrah", "Beatriz", "Oluwaseun",
        "Tuomas", "Rosalind", "Emre", "Valentina", "Kwame", "Solveig", "Arjun", "Perpetua",
    ),
    "held": (
        "Ilse", "Rafael", "Nkechi", "Bogdan", "Selin", "Thiago", "Maren", "Dario", "Leona", "Kenji", "Amara",
        "Viktor", "Paloma", "Ruslan", "Saoirse", "Joaquim", "Ottilie", "Ayo", "Brigitte", "Kalani", "Mateus",
        "Svetlana", "Ewan", "Noor", "Lucien", "Zsofia", "Tobiah", "Akosua",
    ),
}  # fmt: skip
# names nobody in the set ever mentions (the "unknown subject" questions)
NOBODY = {
    "dev": ("Zoltan", "Gretchen", "Olu", "Fatima"),
    "dev2": ("Cosimo", "Henrietta", "Baptiste", "Ngozi"),
    "held": ("Bertrand", "Xiomara", "Radek", "Ulla"),
}
CITIES = {
    "dev": ("Boston", "Denver", "Lisbon", "Austin", "Porto", "Chicago", "Berlin", "Seattle", "Madrid", "Oslo",
            "Dublin", "Toronto", "Lyon", "Prague"),
    "dev2": ("New York", "San Francisco", "Hong Kong", "Kuala Lumpur", "Rio de Janeiro", "Cape Town", "St. Louis",
             "Reykjavik", "Seoul", "Cork", "Wellington", "Accra", "Sheffield", "Tbilisi"),
    "held": ("Valencia", "Leeds", "Montreal", "Gdansk", "Tallinn", "Rotterdam", "Bergen", "Adelaide", "Nagoya",
             "Cusco", "Bilbao", "Graz", "Halifax", "Turin"),
}  # fmt: skip
COMPANIES = {
    "dev": ("Acme", "Stripe", "Shopify", "Globex", "Spotify", "Datadog", "Initech", "Pixar", "Canva", "Netflix"),
    "dev2": (
        "Two Sigma",
        "Bank of America",
        "Booking.com",
        "IBM",
        "Ernst & Young",
        "Unilever",
        "Basecamp",
        "Atlassian",
        "Mailchimp",
        "Siemens",
    ),
    "held": ("Hooli", "Monzo", "Zalando", "Klarna", "Wayfair", "Etsy", "Rakuten", "Nubank", "Deliveroo", "Revolut"),
}
TITLES = {
    "dev": ("staff engineer", "engineering manager", "data analyst", "product designer", "head of sales",
            "principal engineer", "qa lead", "solutions architect"),
    "dev2": ("head of people", "vice president of engineering", "backend developer", "ux researcher",
             "account executive", "customer success manager", "finance director", "scrum master"),
    "held": ("site reliability engineer", "director of operations", "security analyst", "technical writer",
             "chief of staff", "brand marketer", "support lead", "data scientist"),
}  # fmt: skip
OWNER_TEAMS = {
    "dev": ("Payments", "Discovery", "Growth", "Identity", "Insights", "Checkout"),
    "dev2": ("Platform", "Core", "Infra", "Risk", "Data Platform", "Partnerships"),
    "held": ("Fulfilment", "Trust", "Onboarding", "Pricing", "Messaging", "Observability"),
}
SYSTEMS = {
    "dev": ("billing service", "search service", "notifications pipeline", "ledger service", "recommendations engine",
            "inventory service"),
    "dev2": ("shipping API", "SSO gateway", "data warehouse", "iOS app", "feature flag service",
             "GraphQL gateway"),
    "held": ("auth service", "events pipeline", "card gateway", "mobile API", "invoicing service",
             "fraud service"),
}  # fmt: skip
PROJECTS = {
    "dev": ("Orion", "Atlas", "Vega", "Nova", "Cygnus"),
    "dev2": ("Phoenix", "Mercury", "Horizon", "Kestrel", "Juniper"),
    "held": ("Lyra", "Helios", "Draco", "Sirius", "Perseus"),
}
# a project sub-scope whose notes only its askers see
PROJECT_NAME = {"dev": "skunkworks", "dev2": "tiger-team", "held": "moonshot"}

# --- statements --------------------------------------------------------------------------------------------------
# A member's own turns (the event's author is "user"): the first value, a change, a statement about the past, and
# traps that name a value without stating it. ``{when}`` phrases come from the generator (a month or a relative
# day, resolved against the session's day).

SELF_FIRST = {
    "lives_in": (
        "I live in {v}.",
        "Home is {v} for now, in a flat near the park.",
        "I've lived in {v} for a few years now, love it.",
        "We're renting a little place in {v} at the moment.",
        "I'm based in {v}, so mornings are early for our calls.",
    ),
    "works_at": (
        "I work at {v}.",
        "I've been at {v} for three years now.",
        "I'm on the data team at {v}, it's a good crowd.",
        "Work at {v} is busy this quarter, sorry for the late replies.",
    ),
    "job_title": (
        "I'm {a_v}.",
        "I work as {a_v}, mostly firefighting.",
        "Being {a_v} means a lot of meetings, honestly.",
    ),
    "reports_to": (
        "I report to {v}.",
        "My manager is {v}, and a good one.",
        "{V} is my manager, we do one-to-ones on Mondays.",
    ),
}
SELF_CHANGE = {
    "lives_in": (
        "I moved to {v} {when}.",
        "We finally moved into our new flat in {v} {when}, it's chaos.",
        "My new place in {v} has a garden, which the dog loves.",
        "Since I moved to {v} {when} I've been cycling everywhere.",
        "Big news: we moved from {old} to {v} {when}.",
        "Remember that I live in {v} now.",
    ),
    "works_at": (
        "I just joined {v}!",
        "I left {old} to join {v} {when}.",
        "My first week at {v} has been a blur.",
        "I've been meaning to tell you: I work at {v} now.",
        "Started at {v} {when}, everyone's lovely.",
    ),
    "job_title": (
        "I got promoted to {v} {when}!",
        "As of this month I'm officially {a_v}.",
        "Big news: I'm {a_v} now.",
        "They made me {v} {when}, still sinking in.",
    ),
    "reports_to": (
        "After the reorg I report to {v} now.",
        "{V} is my new manager.",
        "{V} took over my team, so {v} is my manager now.",
        "I no longer report to {old}; it's {v} now.",
    ),
}
# a value closed with nothing new
SELF_NEGATION = {
    "lives_in": ("I no longer live in {old}; between places for now.",
                 "I moved out of {old} {when}, living out of a suitcase."),
    "works_at": ("I left {old} {when}, taking a break for a while.", "I no longer work at {old}.",
                 "I quit {old} {when}; job hunting now."),
}  # fmt: skip
ECHO_NEGATION = ("Noted that you left {old}.", "Got it — no longer {old}.", "Understood, {old} is behind you.")
NOTE_NEGATION = {
    "lives_in": ("{s} no longer lives in {old}.", "{s} moved out of {old} {when} and is travelling for now."),
    "works_at": ("{s} no longer works at {old}.", "{s} left {old} {when}.", "{s} has left {old}; no new role yet."),
}
# said after the current value: history, not a change ("until" a year before the first statement)
SELF_PAST = {
    "lives_in": ("I lived in {v} until {year}.", "Before this I spent years in {v}, until {year}."),
    "works_at": ("I worked at {v} until {year}.", "I used to work at {v}, back until {year}."),
}
SELF_TRAPS = {
    "lives_in": (
        "I'd love to live in {v} one day.",
        "Thinking of moving to {v} next year, maybe.",
        "If I moved to {v} I'd finally learn to ski.",
        "Flying to {v} for a conference tomorrow.",
        "My sister moved to {v} in June, she loves it.",
    ),
    "works_at": (
        "I interviewed at {v} yesterday, fingers crossed.",
        "I'd kill to work at {v}.",
        "{V}'s API is down again, ugh.",
        "I have an offer from {v} but haven't decided.",
    ),
    "job_title": (
        "We're hiring {a_v}, know anyone?",
        "I want to become {a_v} one day.",
        "The {v} on my team is brilliant.",
    ),
    "reports_to": (
        "I should ask {v} about the budget.",
        "I reported the outage to {v} this morning.",
        "I'd rather report to {v}, to be honest.",
    ),
}
# the assistant's turn after a statement: it states nothing about the member
ECHOES = {
    "lives_in": ("Noted that you live in {v}.", "Got it — {v} it is.", "Noted: you're in {v} now."),
    "works_at": ("Noted that you work at {v}.", "Congratulations on {v}!", "Got it, you're at {v}."),
    "job_title": ("Noted that you're {a_v}.", "Congratulations, {v} suits you.", "Saved: your title is {v}."),
    "reports_to": ("Noted: you report to {v}.", "Got it, {v} is your manager.", "Saved that {v} manages you."),
}
ECHO_PAST = ("Noted, thanks for the background.", "Got it — good to know the history.", "Understood.")
FRIEND_REPLIES = ("Oh nice, congrats!", "That's huge, well done.", "No way! Tell me everything.", "Love that for you.")
NEWS_ECHOES = ("Noted, thanks for the update.", "Got it, I'll remember that.", "Thanks, noted.")
TRAP_REPLIES = ("Sounds exciting!", "Good luck with that.", "Ha, fair enough.", "Let me know how it goes.")

# a named person talking in a member's session (the event's author is their name)
FRIEND_FIRST = {
    "lives_in": ("I live in {v}, remember?", "I'm still in {v}, same old flat."),
    "works_at": ("I'm still at {v}, same old team.", "Work at {v} is fine, thanks for asking."),
}
FRIEND_CHANGE = {
    "lives_in": ("I moved to {v} {when}, come and visit!", "We finally moved to {v} {when}."),
    "works_at": ("I just started at {v}, by the way.", "I left {old} to join {v} {when}."),
}
# the member tells two people's news in one turn
TWO_PEOPLE = (
    "Catching up: {p1} moved to {c} {when} and {p2} just started at {co}.",
    "Big month: {p2} joined {co} and {p1} relocated to {c}.",
)
TWO_PEOPLE_FIRST = ("{p1} lives in {c}, and {p2} works at {co}.", "{p2} is at {co} these days; {p1} lives in {c} now.")

# notes (memories written at a team or the org scope), third person
NOTE_FIRST = {
    "lives_in": ("{s} is based in {v}.", "{s} lives in {v}.", "{s} works remotely from {v}."),
    "works_at": ("{s} works at {v}.", "{s} is at {v} these days.", "Our contact {s} works for {v}."),
    "job_title": ("{s} is {a_v}.", "{s} works as {a_v}.", "{s}, our {v}, runs the weekly review."),
    "reports_to": ("{s} reports to {v}.", "{s}'s manager is {v}.", "{v} manages {s}."),
    "owned_by": ("The {s} is owned by the {v} team.", "The {v} team owns the {s}.", "{v} owns the {s}."),
    "due_date": ("The {s} launch is set for {d}.", "{s} launches on {d}.", "The {s} release is due on {d}."),
}
NOTE_CHANGE = {
    "lives_in": (
        "{s} relocated to {v} {when}.",
        "{s} moved to {v} {when}.",
        "{s}, who moved to {v} {when}, will host the offsite.",
    ),
    "works_at": ("{s} left {old} to join {v}.", "{s} has joined {v}.", "{s} took a job with {v} {when}."),
    "job_title": (
        "{s} was promoted to {v} {when}.",
        "{s} took over as {v}.",
        "Congratulations to {s}, our new {v}!",
    ),
    "reports_to": (
        "{s} now reports to {v}.",
        "After the reorg, {s} reports to {v} instead of {old}.",
        "Starting today, {s} reports to {v}.",
        "{v} is {s}'s manager now.",
    ),
    "owned_by": (
        "Ownership of the {s} moved to the {v} team.",
        "The {v} team took over the {s}.",
        "{old} handed the {s} over to the {v} team {when}.",
        "The {v} team owns the {s} now.",
    ),
    "due_date": (
        "The {s} launch slipped to {d}.",
        "{s} slipped again; the new date is {d}.",
        "We pushed the {s} launch to {d}.",
        "The {s} launch has been delayed to {d}.",
        "Reminder for the {s} retro: with the launch now on {d}, QA starts a week earlier.",
    ),
}
# an admin's (curated) statement and an agent's later, conflicting one
CURATED = {
    "owned_by": ("The {s} is owned by the {v} team.", "Ownership: the {s} belongs to the {v} team."),
    "reports_to": ("{s} reports to {v}.", "Org chart: {s}'s manager is {v}."),
}
AGENT_CONFLICT = {
    "owned_by": ("The {v} team owns the {s} now.", "The {v} team took the {s} over last week."),
    "reports_to": ("{s} reports to {v} now.", "{v} manages {s} these days."),
}

# small talk: no attribute is stated
SESSION_OPENINGS = (
    ("Morning!", "Good morning — what can I do for you?"),
    ("Hey, quick one.", "Sure, go ahead."),
    ("Hi again.", "Hi! How can I help today?"),
    ("Got a minute?", "Always. What's up?"),
)
SESSION_CLOSINGS = (
    ("Thanks, that's all.", "Anytime!"),
    ("Perfect, cheers.", "Glad to help."),
    ("Ok, gotta run.", "Talk soon."),
)
FILLERS = (
    ("Can you draft a reply to the landlord about the boiler?", "Sure — here's a short, polite draft."),
    ("Remind me to call the dentist on Thursday.", "Reminder set for Thursday."),
    ("What's a good book for a long flight?", "A long novel works; maybe something you've been putting off."),
    ("Summarise the notes from this morning's standup.", "Three items: the release checklist, hiring, the offsite."),
    ("I need a birthday present idea for my nephew.", "A kite or a build-it-yourself robot kit?"),
    ("How do I say thank you in Japanese?", "Arigatō gozaimasu."),
    ("Write a haiku about Mondays.", "Coffee cools too fast / the inbox grows like moss / Monday holds its breath"),
    ("Any tips for a first marathon?", "Start slow, eat early, and don't try new shoes on race day."),
    ("Convert 30 miles to kilometres.", "About 48 kilometres."),
    ("What's the capital of Australia?", "Canberra."),
)
# a system or a project named without any attribute (a known subject whose owner or date nobody states)
MENTIONS = {
    "owned_by": ("The {s} was rewritten in Go last quarter.", "Latency on the {s} looked fine in the last review."),
    "due_date": ("The {s} kickoff was fun; the slides are in the drive.", "Design reviews for {s} happen on Tuesdays."),
}
NOTE_FILLERS = (
    "Remember to file expenses by the last Friday of the month.",
    "The quarterly planning doc is in the shared drive.",
    "Standups move to 9:45 during the summer.",
    "Please review the on-call handbook before your first rotation.",
    "The offsite agenda will go out next week.",
    "New laptops are ordered through the IT portal.",
    "The retro template was updated; use the new one.",
    "Office plants are watered on Wednesdays.",
)
OTHER_TENANT_NOTES = (
    "The cafeteria closes early on Fridays.",
    "Badge photos are taken at reception.",
    "The lobby is being repainted this month.",
)

# --- questions ---------------------------------------------------------------------------------------------------
# families: now (the current value; also curated, never-said, unknown-subject and private questions), self (a
# member asking about themselves), before, as-of (asked with SearchOptions(as_of=...): plain present tense),
# as-of-date (the question names the month). A frame's half is its number's parity (generator.frame_half).

FRAMES = {
    "now": {
        "lives_in": (
            "Where does {s} live now?",
            "Where is {s} living these days?",
            "Which city is {s} based in at the moment?",
            "What's {s}'s current city?",
            "Where does {s} call home now?",
            "Where's {s} living at the moment?",
            "In which city does {s} live today?",
            "Which town is {s} in nowadays?",
        ),
        "works_at": (
            "Where does {s} work now?",
            "Who is {s}'s employer these days?",
            "Which company is {s} at now?",
            "Who does {s} work for at the moment?",
            "What company does {s} work for today?",
            "Where is {s} employed now?",
            "Which firm employs {s} currently?",
            "Who's paying {s}'s salary these days?",
        ),
        "job_title": (
            "What is {s}'s job title now?",
            "What's {s}'s current role?",
            "What position does {s} hold these days?",
            "What is {s}'s title at the moment?",
            "What role is {s} in today?",
            "What does {s} do now, title-wise?",
            "Which job title does {s} currently have?",
            "What's {s}'s official title now?",
        ),
        "reports_to": (
            "Who is {s}'s manager?",
            "Who does {s} report to now?",
            "Who manages {s} these days?",
            "Who is {s}'s boss at the moment?",
            "Whom does {s} currently report to?",
            "Who's {s}'s line manager now?",
            "Who is {s}'s manager at present?",
            "Who does {s} answer to now?",
        ),
        "owned_by": (
            "Who owns the {s}?",
            "Which team is responsible for the {s} now?",
            "Who is the owner of the {s} these days?",
            "Who looks after the {s} now?",
            "Which team owns the {s} at the moment?",
            "Who's in charge of the {s} today?",
            "Who is accountable for the {s} currently?",
            "Which team runs the {s} now?",
        ),
        "due_date": (
            "When is the {s} launch?",
            "What's the current date for the {s} launch?",
            "When does {s} launch now?",
            "When is {s} due?",
            "What is the {s} deadline now?",
            "When will {s} ship?",
            "What date is the {s} launch planned for?",
            "When is {s} going live?",
        ),
    },
    "self": {
        "lives_in": (
            "Where do I live now?",
            "Which city am I living in these days?",
            "Where's home for me at the moment?",
            "Remind me where I live.",
        ),
        "works_at": (
            "Where do I work now?",
            "Which company am I at these days?",
            "Who's my employer at the moment?",
            "Remind me who I work for.",
        ),
        "job_title": (
            "What's my job title now?",
            "What's my current role?",
            "What title do I have at the moment?",
            "Remind me of my position.",
        ),
        "reports_to": (
            "Who is my manager now?",
            "Who do I report to these days?",
            "Who's my boss at the moment?",
            "Remind me who manages me.",
        ),
    },
    "before": {
        "lives_in": (
            "Where did {s} live before?",
            "Where was {s} living before the move?",
            "Which city did {s} use to live in?",
            "Where was {s} based previously?",
            "Where did {s} live before moving?",
            "What was {s}'s previous city?",
        ),
        "works_at": (
            "Where did {s} work before?",
            "Who was {s}'s previous employer?",
            "Which company did {s} use to work for?",
            "Where was {s} employed before the current job?",
            "What was {s}'s old company?",
            "Who did {s} work for previously?",
        ),
        "job_title": (
            "What was {s}'s title before?",
            "What role did {s} have before the promotion?",
            "What was {s}'s previous job title?",
            "What position did {s} hold before?",
            "What did {s} do before the current role?",
            "What was {s}'s old title?",
        ),
        "reports_to": (
            "Who was {s}'s manager before?",
            "Who did {s} report to before the reorg?",
            "Who used to manage {s}?",
            "Who was {s}'s previous boss?",
            "Whom did {s} report to previously?",
            "Who was {s}'s old line manager?",
        ),
        "owned_by": (
            "Who owned the {s} before?",
            "Which team used to own the {s}?",
            "Who was responsible for the {s} previously?",
            "Who owned the {s} before the handover?",
            "Which team had the {s} before?",
            "Who was the previous owner of the {s}?",
        ),
        "due_date": (
            "When was the {s} launch planned before it slipped?",
            "What was the previous date for the {s} launch?",
            "When was {s} due before the delay?",
            "What was the old {s} deadline?",
            "Before the last slip, when was {s} supposed to launch?",
            "What date had {s} been planned for earlier?",
        ),
    },
    "as-of": {
        "lives_in": (
            "Where does {s} live?",
            "Which city is {s} based in?",
            "Where is {s} living?",
            "Where's {s}'s home?",
            "In which city does {s} live?",
            "Where is {s} based?",
        ),
        "works_at": (
            "Where does {s} work?",
            "Who is {s}'s employer?",
            "Which company is {s} at?",
            "Who does {s} work for?",
            "Which firm employs {s}?",
            "Where is {s} employed?",
        ),
        "job_title": (
            "What is {s}'s job title?",
            "What's {s}'s role?",
            "What position does {s} hold?",
            "What is {s}'s title?",
            "What does {s} work as?",
            "Which role does {s} have?",
        ),
        "reports_to": (
            "Who is {s}'s manager?",
            "Who does {s} report to?",
            "Who manages {s}?",
            "Who is {s}'s boss?",
            "Whom does {s} report to?",
            "Who is {s}'s line manager?",
        ),
        "owned_by": (
            "Who owns the {s}?",
            "Which team is responsible for the {s}?",
            "Who's the owner of the {s}?",
            "Who runs the {s}?",
            "Which team owns the {s}?",
            "Who looks after the {s}?",
        ),
        "due_date": (
            "When is the {s} launch?",
            "When is {s} due?",
            "When does {s} launch?",
            "What's the {s} deadline?",
            "What date is {s} planned for?",
            "When will {s} ship?",
        ),
    },  # fmt: skip
    "as-of-date": {
        "lives_in": (
            "Where did {s} live in {m}?",
            "Where was {s} living in {m}?",
            "Which city was {s} based in back in {m}?",
            "In {m}, where did {s} live?",
            "Where was {s}'s home in {m}?",
            "As of {m}, which city was {s} in?",
        ),
        "works_at": (
            "Where did {s} work in {m}?",
            "Who was {s}'s employer in {m}?",
            "Which company was {s} at in {m}?",
            "In {m}, who did {s} work for?",
            "Where was {s} employed back in {m}?",
            "As of {m}, which company employed {s}?",
        ),
        "job_title": (
            "What was {s}'s job title in {m}?",
            "What role did {s} have in {m}?",
            "In {m}, what was {s}'s title?",
            "What position did {s} hold back in {m}?",
            "As of {m}, what was {s}'s role?",
            "What was {s} working as in {m}?",
        ),
        "reports_to": (
            "Who was {s}'s manager in {m}?",
            "Who did {s} report to in {m}?",
            "In {m}, who managed {s}?",
            "Who was {s}'s boss back in {m}?",
            "As of {m}, whom did {s} report to?",
            "Who was {s}'s line manager in {m}?",
        ),
        "owned_by": (
            "Who owned the {s} in {m}?",
            "Which team was responsible for the {s} in {m}?",
            "In {m}, who owned the {s}?",
            "Who looked after the {s} back in {m}?",
            "As of {m}, which team owned the {s}?",
            "Who ran the {s} in {m}?",
        ),
        "due_date": (
            "In {m}, when was the {s} launch planned for?",
            "What was the {s} launch date as of {m}?",
            "Back in {m}, when was {s} due?",
            "When was {s} supposed to launch, as planned in {m}?",
            "As of {m}, what was the {s} deadline?",
            "What launch date did {s} have in {m}?",
        ),
    },
}
