"""How a fact is said (``STATEMENTS``), how a question asks about it (``FRAMES``: four frames with the words that
were said, then two, marked ``PARAPHRASE_MARK``, without them), and what is asked that nobody said (``ABSENT``)."""

from __future__ import annotations

PARAPHRASE_MARK = "~"

# --- statements, by "<kind>/<beat>" -------------------------------------------------------------------------------
# Ordered so that each half gets the same shapes: where a beat has statements whose evidence spans two turns, they
# sit at positions 2 and 3, one for each half.
STATEMENTS: dict[str, tuple[tuple[str, ...], ...]] = {
    "pet/adopt": (
        ("S*|We did it, we adopted a {breed} from the rescue centre! She's called {pet}.",),
        ("S*|[shares a photo of a {breed} in a tiny bandana] Our new {breed} is called {pet}, picked up yesterday.",),
        ("S*|[shares a photo of a {breed} asleep in a laundry basket] Everyone, meet {pet}, our new {species}.",
         "O|Oh my goodness, look at that face!"),
        ("O|So did you go back for that {species} at the shelter?",
         "S*|Went back on Sunday and brought him home. A {breed} called {pet}, he's perfect."),
    ),
    "pet/trick": (
        ("S*|{Pet} has learned a new trick and now {trick}. I'm equal parts proud and worried.",),
        ("S*|You won't believe {pet}'s latest trick. She {trick}.",),
        ("S*|Guess who {trick} now? {Pet}. New party trick, apparently.",),
        ("O|How's {pet} getting on?", "S*|Total menace. {Pet} {trick} now, it's her favourite trick."),
    ),
    "job/start": (
        ("S*|First week done as {role_a} at {company}! My feet are killing me but I love it.",),
        ("S*|Got the offer! I start at {company} as {role_a} in two weeks.",),
        ("O*|Wait, so what is it you actually do at {company}?", "S*|I'm {role_a}. Less glamorous than it sounds."),
        ("O*|How's the new job at {company} going?", "S*|Really good. Being {role_a} is everything I hoped."),
    ),
    "job/move": (
        ("S*|Handed in my notice at {company} today. The new job at {new_company} starts next month.",),
        ("S*|So I've left {company}. {New_company} offered me a new job I couldn't refuse.",),
        ("S*|First day at the new job today, {new_company} is a different world.",),
        ("O|Any news on the job front?", "S*|I took the new job at {new_company}! Last day at {company} is Friday."),
    ),
    "race/run": (
        ("S*|Ran {race} {when}, finished in {minutes} minutes! Best of all my races so far.",),
        ("S*|{When} I did {race} and the hills nearly finished me off. What a run.",),
        ("O*|Wasn't {race} coming up?", "S*|Done and dusted, that was {when}. {Minutes} minutes, my best run yet."),
        ("O*|How did {race} go?", "S*|{When} already feels like a dream. {Minutes} minutes, no walking, whole run!"),
    ),
    "trip/plan": (
        ("S*|Booked it! We're going to {place} in {month}.",),
        ("S*|We've rented a little cottage in {place} for {month}, I can't wait.",),
        ("S*|Holiday sorted: a week in {place} in {month}. Counting the days.",),
        ("O|Any holiday plans this year?", "S*|{Place} in {month}, the flights were a bargain."),
    ),
    "trip/change": (
        ("S*|Change of plan, the {place} trip fell through, so our holiday is in {new_place} instead.",),
        ("S*|Holiday update: the trip is to {new_place} now, not {place}. Long story involving a lost deposit.",),
        ("O*|Are you still doing {place} for the holiday?",
         "S*|We swapped it for {new_place} in the end, the ferry strike made it impossible."),
        ("O*|Still off to {place} on holiday?", "S*|Nope, the cottage owner cancelled. The trip is {new_place} now!"),
    ),
    "trip/photo": (
        ("S*|[shares a photo of {new_sight}] This was the view from our room in {new_place}.",),
        ("S*|Back from {new_place}! [shares a photo of {new_sight}] This was my favourite moment.",),
        ("O*|Any photos from {new_place}?", "S*|[shares a photo of {new_sight}] Did not disappoint."),
        ("O*|Pictures from {new_place} please!",
         "S*|[shares a photo of {new_sight}] Best I've got, the rest are blurry."),
    ),
    "craft/start": (
        ("S*|I finally started that {craft} course, first class was {when}!",),
        ("S*|First {craft} lesson {when}, I was hopeless and it was brilliant.",),
        ("O*|Did you ever sign up for {craft}?", "S*|I did, I went to my first class {when}. Loved it."),
        ("O*|Have you started {craft} yet?", "S*|{When} I had my first ever class. The teacher is a saint."),
    ),
    "craft/photo": (
        ("S*|[shares a photo of a {colour} {item}] My first proper {craft} piece, I'm ridiculously proud.",),
        ("S*|[shares a photo of a slightly wonky {colour} {item}] The {craft} teacher called it characterful.",),
        ("S*|[shares a photo of a {colour} {item} on the kitchen table] Made this in {craft} last week.",
         "O|That colour is gorgeous!"),
        ("O|Show me what you've been making!", "S*|[shares a photo of a {colour} {item}] Don't look at the edges."),
    ),
    "family/intro": (
        ("S*|My {relation} {relative} is staying with us this weekend, first time in ages.",),
        ("S*|{Relative}, my {relation}, is turning eighteen next week and I feel ancient.",),
        ("S*|Took my {relation} {relative} out for lunch, we laughed so much.",),
        ("O|Who was that on the phone earlier?", "S*|My {relation} {relative}, who is always on the phone on Sundays."),
    ),
    "family/news": (
        ("S*|Huge news: {relative} got a place at {school} to study {field}!",),
        ("S*|{Relative} is off to {school} in September to do {field}, we're so proud.",),
        ("O*|How did {relative} get on with the applications?",
         "S*|Accepted at {school}! A place on the {field} course, starting in autumn."),
        ("O*|Any news from {relative}?", "S*|Guess who's going to study {field}? {School} offered a place!"),
    ),
    "garden/plant": (
        ("S*|Spent the morning {at_plot} planting {plant}.",),
        ("S*|Put some {plant} in {at_plot} today, fingers crossed the slugs stay away.",),
        ("O*|What's going in {at_plot} this year?", "S*|{Plant}, finally. I've wanted to grow them for years."),
        ("O*|How's the {plot} looking?", "S*|[shares a photo of {plant} in a raised bed] Coming along!"),
    ),
    "book/read": (
        ("S*|I'm halfway through {book} by {author} and I can't put it down.",),
        ("S*|Stayed up till 2am finishing {book}. {Author} does it again.",),
        ("S*|Book club picked {book} by {author}, and for once I actually like it.",),
        ("O|Reading anything good?", "S*|{Book}, the new {author}. The end of part two wrecked me."),
    ),
    "home/old": (
        ("S*|Our flat in {area} gets amazing morning light, I'll never leave.",),
        ("S*|We've been in {area} three years now and I still love our street.",),
        ("S*|The walk from {area} into town is my favourite part of the day.",),
        ("O|Where are you living these days?", "S*|A little flat in {area}, above a bakery."),
    ),
    "home/new": (
        ("S*|The move is done! We live in {new_area} now and the boxes are everywhere.",),
        ("S*|Signed the lease on a new place in {new_area}, we live there from next week!",),
        ("O*|When's the big move?", "S*|Tomorrow! Last night in {area}, from then on we live in {new_area}."),
        ("O*|How's the new place?", "S*|{New_area} is so quiet compared to {area}, I love where we live now."),
    ),
    "weekly/old": (
        ("S*|Can't do {day}s, that's {activity} night.",),
        ("S*|{Activity} is every {day}, it's the best bit of my week.",),
        ("O*|Still going to {activity}?", "S*|Every {day}, I never miss it."),
        ("O*|Fancy a drink on {day}?", "S*|Can't, {day} evenings are sacred, it's {activity}."),
    ),
    "weekly/new": (
        ("S*|{Activity} has moved to {new_day}s, the hall got double-booked.",),
        ("S*|So {activity} is {new_day} evenings from now on, which messes up everything.",),
        ("S*|New schedule: {activity} switched from {day} to {new_day}.",),
        ("O|Are {day}s still off limits?", "S*|Not any more, {activity} is on {new_day}s now."),
    ),
    "milestone/past": (
        ("S*|{Event} was {when}, and I'm still recovering.",),
        ("S*|{When} was {event}. What a day.",),
        ("O*|Wasn't your {event_q} around now?", "S*|Yep, {when}. All went fine!"),
        ("O*|Did you get the {event_q} out of the way?", "S*|Yes, {when}. Huge relief."),
    ),
    "milestone/future": (
        ("S*|{Event} is {when}, wish me luck.",),
        ("S*|Reminder to self: {event}, {when}.",),
        ("O*|When's your {event_q}?", "S*|{When}. It's in the calendar in red."),
        ("O*|Is your {event_q} soon?", "S*|{When}! Bit nervous."),
    ),
    "food/tried": (
        ("S*|We finally tried {restaurant}. The {dish} was unreal.",),
        ("S*|[shares a photo of a plate of {dish}] {Restaurant} has ruined all other food for me.",),
        ("O*|How was dinner at {restaurant}?", "S*|Amazing, I had the {dish} and I'm still thinking about it."),
        ("O*|I'm going to {restaurant} on Friday, any tips?", "S*|Get the {dish}. Trust me."),
    ),
}  # fmt: skip

# --- question frames, by "<kind>/<question>" ----------------------------------------------------------------------
FRAMES: dict[str, tuple[str, ...]] = {
    "pet/name": (
        "What is the name of {name}'s {breed}?", "What did {name} call the {breed} from the shelter?",
        "What's the name of {name}'s new {breed}?", "What is {name}'s {breed} called?",
        "~What did {name} name the newest member of the household?", "~What do {name} and family call their pet?",
    ),
    "pet/trick": (
        "What trick has {name}'s {breed} picked up?", "What trick does {name}'s {breed} do now?",
        "What trick did {name}'s {breed} learn?", "What has {name}'s {breed} started doing as a trick?",
        "~Which naughty habit has {name}'s animal picked up?", "~What mischief has {name}'s pet got into lately?",
    ),
    "job/role": (
        "What is {name}'s job at {company}?", "What does {name} do at {company}?",
        "What job did {name} get at {company}?", "What role does {name} have at {company}?",
        "~What is {name}'s line of work?", "~How does {name} earn a living?",
    ),
    "job/company": (
        "Where does {name} work as {role_a}?", "Which company did {name} join as {role_a}?",
        "Where did {name} start working as {role_a}?", "Who hired {name} as {role_a}?",
        "~Which firm employs {name}?", "~Who signs {name}'s pay cheques?",
    ),
    "job/now": (
        "Where is {name}'s new job?", "Which company gave {name} the new job?",
        "Where did {name} get a new job?", "Which company did {name} move to after {company}?",
        "~Who pays {name}'s wages these days?", "~Where did {name} end up after changing employers?",
    ),
    "race/when": (
        "When did {name} run {race}?", "When did {name} do {race}?",
        "What date was {race} that {name} ran?", "On which day did {name} take part in {race}?",
        "~When did {name} compete in that sporting event?", "~On what date did {name} take on the endurance event?",
    ),
    "race/list": (
        "Which races has {name} run?", "Which races did {name} run this year?",
        "Which races has {name} finished?", "What did {name} run, race-wise?",
        "~Which sporting events has {name} competed in?", "~In what endurance events has {name} tested themselves?",
    ),
    "trip/now": (
        "Where is {name} going on holiday?", "Where is {name}'s trip now?",
        "Where is {name} going instead of {place}?", "Which place is {name}'s holiday in?",
        "~What destination did {name} settle on in the end?", "~Where will {name} be travelling to this year?",
    ),
    "trip/photo": (
        "What did {name} share a photo of from {new_place}?", "What was in the photo {name} shared from {new_place}?",
        "What did {name} photograph in {new_place}?", "What was the view {name} had in {new_place}?",
        "~What was in the picture {name} sent after getting back?", "~What scenery did {name} capture while away?",
    ),
    "craft/when": (
        "When did {name} start the {craft} course?", "When was {name}'s first {craft} class?",
        "When did {name} go to the first {craft} lesson?", "What day did {name} have the first {craft} class?",
        "~When did {name} take up the new creative hobby?", "~On what date did {name} begin learning that handicraft?",
    ),
    "craft/colour": (
        "What colour is the {item} {name} made?", "What colour was the {item} in {name}'s photo?",
        "What colour {item} did {name} make in {craft}?", "What colour is {name}'s {craft} {item}?",
        "~Which shade did {name} pick for the handmade piece?", "~What hue was the object {name} crafted?",
    ),
    "family/name": (
        "What is the name of {name}'s {relation}?", "What is {name}'s {relation} called?",
        "Who is {name}'s {relation}?", "What's the name of the {relation} {name} mentioned?",
        "~Who is the relative {name} keeps mentioning?", "~Which relative did {name} spend time with?",
    ),
    "family/study": (
        "What is {name}'s {relation} going to study?", "Which subject will {name}'s {relation} study?",
        "What is {name}'s {relation} studying at {school}?", "What course did {name}'s {relation} get a place on?",
        "~What degree is {name}'s {relation} about to begin?", "~Which field is {name}'s {relation} heading into?",
    ),
    "garden/list": (
        "What has {name} planted {at_plot}?", "What is {name} growing {at_plot}?",
        "What did {name} plant {at_plot}?", "Which plants has {name} put in {at_plot}?",
        "~What's in the ground at {name}'s growing space?", "~Which crops and flowers has {name} been cultivating?",
    ),
    "book/title": (
        "Which book by {author} was {name} reading?", "What {author} book did {name} read?",
        "Which {author} novel did {name} mention?", "What book by {author} did {name} finish?",
        "~What novel was keeping {name} up at night?", "~Which title was on {name}'s bedside table?",
    ),
    "home/now": (
        "Where does {name} live now?", "Which area does {name} live in now?",
        "Where did {name} move to from {area}?", "Where is {name}'s new place?",
        "~In which neighbourhood can {name} currently be found?", "~What part of town is {name}'s address these days?",
    ),
    "weekly/day": (
        "What day is {name}'s {activity} on now?", "Which evening does {name} go to {activity}?",
        "When is {activity} for {name} now?", "What day of the week is {name}'s {activity}?",
        "~Which night is {name} busy with the regular club these days?",
        "~On what weekday does {name}'s group session meet at present?",
    ),
    "milestone/when": (
        "When was {name}'s {event_q}?", "When did {name} {verb}?",
        "What date was {name}'s {event_q}?", "On what day did {name} {verb}?",
        "~When was {name}'s {event_para}?", "~On which date did {name}'s {event_para} happen?",
    ),
    "food/dish": (
        "What did {name} have at {restaurant}?", "What dish did {name} love at {restaurant}?",
        "What did {name} order at {restaurant}?", "Which dish at {restaurant} does {name} recommend?",
        "~What meal impressed {name} when eating out?", "~Which plate did {name} rave about after a meal out?",
    ),
}  # fmt: skip

# --- never said: each asks about something no conversation contains ------------------------------------------------
ABSENT = (
    "What instrument does {name} play in the band?", "Which football club does {name} support?",
    "What tattoo did {name} get on holiday?", "When did {name} get married?",
    "What did {name} study at university?", "Which podcast does {name} host?",
    "How many grandchildren does {name} have?", "What did {name} win in the raffle?",
    "Where did {name} go skiing?", "What is {name}'s favourite board game?",
    "When did {name} break their wrist?", "Which band did {name} see at the festival?",
    "What colour did {name} paint the front door?", "What motorbike does {name} ride?",
    "Which language did {name} learn as a child?", "Who was {name}'s best man?",
)  # fmt: skip
