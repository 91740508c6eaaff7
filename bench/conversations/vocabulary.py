"""The words of the generated chats: people, facts, how friends state them, how a later question asks for them.

Statements are written the way people talk (indirect, across turns, with pronouns and relative dates); questions
paraphrase them (synonyms, other word forms), so that sharing words with the question is not enough to find the
answer. Distractors reuse the facts' words in other contexts for the same reason.

Placeholders: ``{name}`` is the person the fact is about, ``{other}`` the friend they talk to; the rest are the
fact's own fields. A statement's turns are ``(speaker, text, evidence)`` with speaker ``"S"`` (the subject) or
``"O"`` (the other).
"""

from __future__ import annotations

FIRST_NAMES = (
    "Maya", "Jon", "Priya", "Tomás", "Aisha", "Lukas", "Nadia", "Kwame", "Elena", "Ravi", "Sofia", "Dmitri",
    "Hana", "Oliver", "Leila", "Mateo", "Ingrid", "Samir", "Chloe", "Bongani", "Yara", "Felix", "Mei", "Arjun",
    "Zoe", "Emeka", "Clara", "Tariq", "Freya", "Diego", "Amara", "Niko", "Rosa", "Idris", "Lena", "Kenji",
    "Beatriz", "Owen", "Farah", "Pavel", "Greta", "Malik", "Ines", "Theo",
)  # fmt: skip
RELATIVE_NAMES = {
    "sister": ("Anneke", "Carmen", "Esther", "Gabi", "Imke", "Kalinda", "Mirela", "Noor", "Orla", "Rhiannon"),
    "brother": ("Bilal", "Dev", "Fionn", "Hugo", "Jasper", "Lorcan", "Piet", "Quentin", "Soren", "Ugo"),
    "cousin": ("Tamsin", "Vesna", "Wren", "Xavi", "Robin", "Sasha", "Alex", "Jude"),
}

# --- single-hop facts ------------------------------------------------------------------------------------------

JOBS = (
    ("paediatric nurse", "Northgate Children's Hospital"), ("data analyst", "Kestrel Analytics"),
    ("structural engineer", "Ashby & Crane"), ("sous-chef", "Copperleaf Bistro"),
    ("primary school teacher", "Brightwater Primary"), ("UX designer", "Sable Robotics"),
    ("pharmacist", "Fennel Street Pharmacy"), ("veterinary nurse", "Oakridge Animal Clinic"),
    ("paralegal", "Hartwell & Price"), ("sound engineer", "Tidewater Studios"),
    ("landscape architect", "Greenline Partners"), ("physiotherapist", "Harbourview Clinic"),
    ("bookkeeper", "Marlow Freight"), ("lab technician", "Corvid Biotech"), ("museum curator", "the Pinecrest Museum"),
    ("air traffic controller", "Westmoor Airport"), ("copywriter", "Blue Heron Media"),
    ("dental hygienist", "Bluebell Dental"),
)  # fmt: skip
JOB_STATEMENTS = (
    (("O", "How are the first weeks going?", False),
     ("S", "Honestly better than I hoped. Everyone at {company} is lovely and being a {role} there suits me.", True)),
    (("S", "Signed the contract with {company} this morning! {Role}, starting on the first.", True),
     ("O", "Congratulations {name}, you deserve it.", False)),
    (("O", "You look wiped out.", False),
     ("S", "Twelve-hour shift. That's the {role} life at {company} for you.", True)),
    (("S", "My manager at {company} wants me to train the new {role}s next month, which is flattering.", True),),
    (("O", "Remind me where you work these days?", False),
     ("S", "{Company}. I'm {role_a} there, three years in September.", True)),
)  # fmt: skip
EMPLOYER_FRAMES = (
    "Where does {name} work?",
    "Which company does {name} work for?",
    "Who is {name}'s employer?",
    "Which organisation is {name} on the payroll of?",
    "What's the name of the place that employs {name}?",
    "At which firm or institution does {name} hold a position?",
)
ROLE_FRAMES = (
    "What is {name}'s job?",
    "What does {name} work as?",
    "What does {name} do for a living?",
    "What is {name}'s occupation?",
    "What is {name}'s profession?",
    "In what capacity is {name} employed?",
)

PETS = (
    ("greyhound", "dog", "Biscuit"), ("tabby kitten", "cat", "Pickle"), ("border collie", "dog", "Juniper"),
    ("lop-eared rabbit", "rabbit", "Clementine"), ("Maine Coon", "cat", "Waffles"), ("beagle", "dog", "Otis"),
    ("grey parrot", "parrot", "Captain"), ("whippet", "dog", "Noodle"), ("ragdoll", "cat", "Mochi"),
    ("dachshund", "dog", "Pretzel"),
)  # fmt: skip
PET_STATEMENTS = (
    (("S", "We went to the shelter \"just to look\" and came home with a {breed}.", True),
     ("O", "Ha! Of course you did. Name?", False),
     ("S", "The kids settled on {pet}. It suits the little menace.", True)),
    (("S", "{pet} chewed through the charger cable again. {Breed}s are supposed to be calm, apparently.", True),),
    (("S", "Our {species}, {pet}, has decided the sofa is hers now.", True),),
    (("O", "Is that fur on your jumper?", False),
     ("S", "Yep, {pet}. Our {breed} sheds like it's a competitive sport.", True)),
)  # fmt: skip
PET_FRAMES = (
    "What is the name of {name}'s {species}?",
    "What is {name}'s pet called?",
    "What is {name}'s {species} called?",
    "What name did {name}'s household give their {species}?",
    "What's the name of the animal {name} adopted?",
    "What do they call {name}'s {species} at home?",
)

INSTRUMENTS = ("cello", "ukulele", "saxophone", "bass guitar", "violin", "drum kit", "accordion", "harp")
INSTRUMENT_STATEMENTS = (
    (("S", "My fingertips are wrecked. Forty minutes of {instrument} scales with my teacher.", True),),
    (("O", "Still doing the lessons?", False),
     ("S", "Every Wednesday. I can play a whole piece on the {instrument} now without stopping.", True)),
    (("S", "Bought a second-hand {instrument} off a neighbour, I've wanted to learn since I was twelve.", True),),
    (("S", "I'm learning the {instrument}! Lessons every Wednesday, my teacher is very patient.", True),),
)  # fmt: skip
INSTRUMENT_FRAMES = (
    "Which instrument is {name} learning?",
    "What instrument does {name} take lessons in?",
    "Which musical instrument has {name} taken up?",
    "What instrument is {name} practising?",
    "What does {name} play?",
    "Which instrument is {name} studying?",
)

HOMETOWNS = ("Aberdeen", "Ghent", "Porto", "Kraków", "Galway", "Bergen", "Trieste", "Cork", "Utrecht", "Tampere")
HOMETOWN_STATEMENTS = (
    (("S", "Going back to {town} for my gran's ninetieth. I haven't been home since Christmas.", True),),
    (("O", "Where did you say your parents are?", False),
     ("S", "Still in {town}, same house I grew up in. Dad refuses to move.", True)),
    (("S", "Nothing beats the harbour in {town} where I was a kid. This city feels flat compared to it.", True),),
)  # fmt: skip
HOMETOWN_FRAMES = (
    "Where did {name} grow up?",
    "Where is {name}'s family home?",
    "Where is {name} originally from?",
    "What is {name}'s hometown?",
    "In which town did {name} spend childhood?",
    "Where do {name}'s parents live?",
)

ALLERGENS = ("peanuts", "shellfish", "sesame", "kiwi", "eggs", "walnuts", "mustard", "celery")
ALLERGY_STATEMENTS = (
    (("O", "Want some of my satay?", False),
     ("S", "Can't, {allergen} put me in A&E once. I carry the pen everywhere now.", True)),
    (("S", "The caterer swore there were no {allergen} in it and my lips still swelled up.", True),),
    (("S", "Reading every label is exhausting, {allergen} hide in everything.", True),),
    (("S", "I'm allergic to {allergen}, so the tasting menu was mostly me staring at bread.", True),),
)  # fmt: skip
ALLERGY_FRAMES = (
    "What food allergy does {name} have?",
    "What can't {name} eat?",
    "What is {name} allergic to?",
    "Which food triggers a reaction in {name}?",
    "What ingredient must {name} avoid for medical reasons?",
    "What gives {name} an allergic reaction?",
)

CARS = ("Škoda estate", "Volvo V60", "electric Renault Zoe", "Mazda MX-5", "Toyota Prius", "Land Rover Defender",
        "Fiat 500", "Subaru Outback")  # fmt: skip
CAR_STATEMENTS = (
    (("S", "Traded the old hatchback in, we're driving a {car} now. The boot is enormous.", True),),
    (("O", "How's the new motor?", False),
     ("S", "The {car}? Smooth. I keep finding excuses to go for a drive.", True)),
)  # fmt: skip
CAR_FRAMES = (
    "What car does {name} drive?",
    "What is {name} driving these days?",
    "What vehicle does {name} own?",
    "What kind of car does {name} have?",
    "Which car did {name} buy?",
    "What does {name} get around in?",
)

# --- multi-session facts ----------------------------------------------------------------------------------------

SIBLING_RELATIONS = ("sister", "brother", "cousin")
SIBLING_JOBS = ("midwife", "firefighter", "commercial pilot", "barrister", "marine biologist", "baker", "GP")
SIBLING_INTRO = (
    (("S", "My {relation} {relative} is staying with us this week, the spare room is finally useful.", True),),
    (("S", "{relative}, my little {relation}, turned thirty on Sunday. Dim sum to celebrate.", True),),
    (("O", "Who was that on the phone?", False),
     ("S", "{relative}, my {relation}. We talk every Sunday.", True)),
)  # fmt: skip
SIBLING_JOB = (
    (("S", "{relative} passed the final assessment, so it's official: {relative_job}!", True),),
    (("O", "How's {relative} getting on?", False),
     ("S", "Loving it. Being a {relative_job} was always the dream.", True)),
)  # fmt: skip
SIBLING_FRAMES = (
    "What is {name}'s {relation}'s job?",
    "What did {name}'s {relation} qualify as?",
    "What does {name}'s {relation} do for work?",
    "What is the occupation of {name}'s {relation}?",
    "What job did {name}'s {relation} qualify for?",
    "What line of work is {name}'s {relation} in?",
)

TRIP_PLACES = ("Lisbon", "the Dolomites", "Marrakech", "Kyoto", "the Isle of Skye", "Tallinn", "Seville", "Oaxaca",
               "Reykjavík", "the Amalfi coast", "Ljubljana", "Cape Town")  # fmt: skip
TRIP_STATEMENTS = (
    (("O", "You're tanned!", False), ("S", "Just back from {place}. Ate my body weight in pastries.", True)),
    (("S", "Four days in {place} and my legs are destroyed from all the hills.", True),),
    (("O", "How was the trip?", False), ("S", "{Place} was magic, we want to go back already.", True)),
    (("S", "Booked a trip to {place} on a whim and it was the best week of the year.", True),),
)  # fmt: skip
TRIP_FRAMES = (
    "Where has {name} been on trips?",
    "Which trips has {name} been on?",
    "Which places has {name} travelled to?",
    "Where has {name} been on holiday?",
    "List the destinations {name} visited.",
    "What trips has {name} taken?",
)

PET_TROUBLE = (
    ("swallowed a sock", "ate something it shouldn't have"),
    ("cut a paw on broken glass", "was injured"),
    ("got stung by a wasp", "was stung"),
    ("had a tooth pulled", "needed dental treatment"),
)
PET_TROUBLE_STATEMENTS = (
    (("S", "{pet} {trouble}. We spent the night at the emergency vet.", True),),
    (("O", "Why are you up so early?", False),
     ("S", "{pet} {trouble}, so it was the out-of-hours vet at six.", True)),
)  # fmt: skip
PET_TROUBLE_FRAMES = (
    "Why did {name} take {pet} to the vet?",
    "What happened to {pet}?",
    "Why did {name}'s {species} need a vet?",
    "What happened to {name}'s {species}?",
    "What health scare did {name}'s pet have?",
    "Why was {name}'s animal taken for treatment?",
)

# --- events with dates ------------------------------------------------------------------------------------------
# (what the speaker says, what a question calls it, a verb phrase for "when did X ...")
EVENTS = (
    ("the bereavement support group", "the grief meeting", "attend the grief meeting"),
    ("pottery class", "the ceramics workshop", "go to the ceramics workshop"),
    ("the half marathon", "the 21 km race", "run the 21 km race"),
    ("the Fontaines D.C. gig", "the concert", "see the band live"),
    ("the interview at Meridian", "the hiring panel", "meet the hiring panel"),
    ("the dentist", "the dental check-up", "have the dental check-up"),
    ("Leo's school play", "the child's stage show", "watch the child's stage show"),
    ("the charity bake sale", "the fundraiser", "help at the fundraiser"),
    ("the bouldering comp", "the climbing contest", "compete in the climbing contest"),
    ("Ana's wedding", "the family marriage ceremony", "attend the family marriage ceremony"),
    ("the food bank shift", "the volunteering at the pantry", "volunteer at the pantry"),
    ("the open mic night", "the amateur performance evening", "perform at the amateur evening"),
    ("the citizenship ceremony", "the naturalisation event", "attend the naturalisation event"),
    ("the driving test", "the road exam", "take the road exam"),
    ("the wine tasting", "the sommelier evening", "go to the sommelier evening"),
    ("the planetarium show", "the astronomy screening", "see the astronomy screening"),
)  # fmt: skip
EVENT_COMMENTS = (
    "it was great", "honestly emotional", "harder than I expected", "such a good crowd", "I'd do it again",
    "a bit of a mess but fun", "way better than last time", "I was shaking before it started",
)  # fmt: skip
EVENT_PAST = (
    (("O", "Did you make it to {event} in the end?", True), ("S", "I did, {when}! {Comment}.", True)),
    (("S", "{When} I finally went to {event}. {Comment}.", True),),
    (("O", "So?? How was it?", False), ("S", "{Event}, you mean? That was {when}, and {comment}.", True)),
)  # fmt: skip
EVENT_FUTURE = (
    (("S", "{Event} is {when}, wish me luck.", True), ("O", "You'll smash it.", False)),
    (("O", "When's {event} again?", True), ("S", "{When}. I've put it in the calendar twice.", True)),
)  # fmt: skip
EVENT_FOLLOW_UP = (("O", "How did it go in the end?", False), ("S", "Really well actually. Thanks for asking.", False))
WHEN_FRAMES = (
    "When was {said_plain} that {name} mentioned?",
    "What date was {said_plain} for {name}?",
    "When did {name} {verb}?",
    "On what date did {name} {verb}?",
    "What was the date of {name}'s {thing}?",
    "Which day did {name} {verb}?",
)
WINDOW_DAY_FRAMES = (
    "What did {name} do on {day}?",
    "What was {name} up to on {day}?",
    "Where was {name} on {day}?",
    "What was on {name}'s calendar for {day}?",
    "Which event did {name} have on {day}?",
    "What happened for {name} on {day}?",
)
WINDOW_MONTH_FRAMES = (
    "What events did {name} go to in {month}?",
    "What happened in {name}'s life during {month}?",
    "What did {name} get up to in {month}?",
    "Which plans did {name} have in {month}?",
)

# --- facts that change ------------------------------------------------------------------------------------------
CITIES = ("Leeds", "Rotterdam", "Lyon", "Glasgow", "Bristol", "Hamburg", "Valencia", "Gothenburg", "Bologna",
          "Nantes", "Cardiff", "Aarhus")  # fmt: skip
HOME_OLD = (
    (("S", "Our flat in {old} is tiny but the rent is fair, so we're staying put for now.", True),),
    (("O", "Is it still raining over there?", False), ("S", "It's {old}, it's always raining.", True)),
)  # fmt: skip
HOME_NEW = (
    (("S", "We live in {new} now, ten minutes from the river. Best decision we made.", True),),
    (("O", "Are you all unpacked?", False), ("S", "Nearly. The new place in {new} already feels like home.", True)),
    (("S", "The removal van left for {new} this morning, goodbye {old}!", True),),
)  # fmt: skip
HOME_FRAMES = (
    "Where does {name} live now?",
    "Which flat or city is {name} living in at present?",
    "Which city does {name} live in now?",
    "Where is {name} based these days?",
    "What is {name}'s current city of residence?",
    "Where has {name} settled at the moment?",
)
JOB_OLD = (
    (("S", "Another audit season at {old}. I'm the only {role} left on the team.", True),),
    (("O", "Busy at work?", False), ("S", "{Old} never sleeps. Three deadlines this week.", True)),
)  # fmt: skip
JOB_NEW = (
    (("S", "I handed in my notice. From Monday I'm at {new}, same kind of role, better hours.", True),),
    (("O", "How's the new place treating you?", False),
     ("S", "{New} is calmer than I expected, nobody emails after six.", True)),
)  # fmt: skip
JOB_UPDATE_FRAMES = (
    "Where does {name} work now?",
    "What is {name}'s new job?",
    "Where is {name} working now?",
    "Who employs {name} currently?",
    "What is {name}'s present employer?",
    "Which organisation does {name} work for at the moment?",
)
TRIP_OLD = (
    (("S", "Flights to {old} are booked for the summer, I can't wait.", True),),
    (("O", "Any holiday plans?", False), ("S", "{Old} in August, we've rented a little place.", True)),
)  # fmt: skip
TRIP_NEW = (
    (("S", "Change of plan: {old} is off, the airline cancelled. We're doing {new} instead.", True),),
    (("O", "Still going away?", False),
     ("S", "Yes but not to {old} any more. {New}, the deposit's paid.", True)),
)  # fmt: skip
TRIP_UPDATE_FRAMES = (
    "Where is {name}'s holiday now?",
    "What are {name}'s holiday plans?",
    "Where is {name} going on holiday?",
    "What is the destination of {name}'s summer break?",
    "Where will {name} be vacationing?",
    "Which place is {name}'s upcoming getaway to?",
)
CLUBS = (("book club", "reading group"), ("five-a-side", "football game"), ("choir rehearsal", "singing practice"),
         ("Spanish class", "language lesson"), ("board game night", "tabletop evening"))  # fmt: skip
WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
CLUB_OLD = (
    (("S", "Can't do {old} evenings, that's {club}.", True),),
    (("O", "Still doing {club}?", False), ("S", "Every {old}, without fail.", True)),
)  # fmt: skip
CLUB_NEW = (
    (("S", "{Club} moved to {new}s, the room got double-booked.", True),),
    (("O", "Are {old}s still out for you?", False),
     ("S", "No, {club} is on {new}s now, so {old} works.", True)),
)  # fmt: skip
CLUB_FRAMES = (
    "What day is {name}'s {club} on now?",
    "When is {club} for {name} these days?",
    "What day does {name}'s {club_q} happen now?",
    "On which weekday is {name}'s {club_q} these days?",
    "When does {name}'s {club_q} meet at present?",
    "Which evening is {name}'s {club_q} on now?",
)

# --- never said (abstention): each names the fact kind whose presence would make it answerable ------------------
ABSENT_FRAMES = (
    ("What is the name of {name}'s goldfish?", None),
    ("Which university did {name}'s brother-in-law attend?", None),
    ("When did {name} go to the opera premiere?", None),
    ("Which football team does {name} coach?", None),
    ("What did {name} name the sailing boat?", None),
    ("How much did {name} pay for the wedding dress?", None),
    ("What did {name} study at art school?", None),
    ("Which marathon did {name}'s grandfather win?", None),
)

# --- small talk ------------------------------------------------------------------------------------------------
GREETINGS = (
    ("Hey! Got a minute?", "Always. What's up?"), ("Morning! Coffee kicked in yet?", "Barely. You?"),
    ("Long time no chat!", "I know, this week ran away from me."), ("You around?", "Yep, just got home."),
    ("Evening {other}!", "Hi {name}, how was your day?"), ("Quick one before I forget", "Go on"),
)  # fmt: skip
CLOSINGS = (
    ("Right, dinner's burning. Talk soon!", "Bye!"), ("I need to sleep. Night!", "Night night"),
    ("Gotta run, bus is here.", "Speak later"), ("Okay that's enough procrastinating.", "Ha, same. Bye"),
)  # fmt: skip
# words the facts use, in other people's lives or other meanings: what makes a plain word match insufficient;
# "{who}" is filled from WHO, so a conversation rarely repeats a sentence
WHO = (
    "My neighbour", "A colleague", "My cousin", "Someone at the gym", "My flatmate", "My aunt", "A friend from uni",
    "The guy downstairs", "My manager", "My old teacher", "Our babysitter", "My brother-in-law",
)  # fmt: skip
DISTRACTORS = (
    "{who} signed up for a ceramics course and already has a shelf of wonky mugs.",
    "{who} swears their dog understands three languages.",
    "{who} is allergic to cats and we have an office cat. Drama.",
    "{who} moved to Lisbon last year and won't stop posting about it.",
    "{who} is training to be a pilot and never gets weekends off.",
    "{who} keeps sending me videos of other people's rabbits.",
    "{who} has started doing online quizzes and is ruthless.",
    "{who} has a parrot that learned to copy a ringtone. Chaos.",
    "{who} booked a wine tasting for a birthday, hope it goes well.",
    "{who} just bought an electric car and won't shut up about range.",
    "{who} ran a marathon and now posts about their toenails.",
    "{who} got a job at a hospital and works every weekend.",
    "{who} is learning the piano from videos, it's going badly.",
    "{who} said the new bakery by the park is overrated.",
    "{who} had to go to the emergency vet with a hamster. At 3am.",
    "{who} is going to Kyoto in the spring, I'm so jealous.",
    "{who} grew up on a farm and thinks we're all soft.",
    "{who} changed jobs three times this year.",
    "{who} keeps inviting me to a book club I never go to.",
    "{who} nearly missed a flight because of the passport queue.",
    "{who} is doing a pottery evening class on Thursdays.",
    "{who} volunteers at a food bank and says it's the best part of the week.",
    "{who} had a wedding in a barn, the speeches went on for an hour.",
    "{who} sat a driving test and failed on the roundabout.",
    "There's a support group flyer on every lamppost near the station.",
    "The hospital car park costs a fortune now, have you seen it?",
    "Did you see the concert hall is closing for renovations?",
    "I keep meaning to learn an instrument but never find the time.",
    "The pharmacy on the corner closes at six now, so annoying.",
    "Traffic on the ring road was a nightmare this morning.",
    "We binged that detective series, the ending was ridiculous.",
    "I tried the new ramen place, the broth was too salty.",
    "The weather app said sun and it poured all afternoon.",
    "Our landlord finally fixed the boiler, only took three months.",
    "The bakery by the park has a queue round the block on Saturdays.",
    "I saw an advert for a job at a vet clinic, the salary was shocking.",
    "The school near us is putting on a play, the posters are adorable.",
    "We're thinking about getting a car but parking here is impossible.",
    "Book clubs are basically wine clubs with homework, right?",
    "I read that greyhounds sleep eighteen hours a day. Goals.",
    "The football was on at the pub, couldn't hear myself think.",
    "My phone's been dying by lunchtime, I think the battery's gone.",
    "Found a great recipe for sesame noodles, I'll send it.",
    "The museum has free entry on Thursdays now.",
    "I keep getting emails from an airline I've never flown with.",
    "Was the train as packed for you as it was for me?",
    "Our team's new manager insists on stand-ups at 8:45.",
    "I finally cleared my inbox. It lasted about ten minutes.",
    "Someone left a harp in the lobby of our building. No idea why.",
    "The gym raised prices again, I'm considering just running outside.",
    "Have you tried the bouldering place by the canal? Everyone talks about it.",
    "Honestly the best part of the weekend was doing nothing.",
    "We had a power cut for two hours yesterday, ate cold pizza by candlelight.",
    "There's a food festival in the park next month, we should go.",
    "I can't believe it's already getting dark at five.",
    "Did you hear the planetarium is doing late openings?",
    "The airport was chaos on Friday, queues out of the door.",
    "I think the moving company we used for my parents overcharged us.",
)  # fmt: skip
# the same names and things as a fact, said by the other person about someone or something else
HARD_DISTRACTORS = {
    "job": ("A friend of mine interviewed at {company} once and said the coffee was terrible.",
            "Is {company} the one with the glass building by the bridge?"),
    "pet": ("My neighbour's {breed} is the spitting image of yours.",
            "{pet} is such a popular name now, there are three at the park."),
    "instrument": ("I tried the {instrument} at school and gave up after a week.",),
    "hometown": ("I've never been to {town}, is it worth a visit?",),
    "allergy": ("My nephew is allergic to {allergen} too, they found out at a birthday party.",),
    "car": ("My dad had a {car} for years, it never broke down.",),
    "trip": ("{Place} is on my list too, everyone raves about it.",),
    "home": ("My brother nearly moved to {new} a few years back.",),
    "event": ("I went to {said_plain} years ago, I still think about it.",),
}  # fmt: skip
FILLERS = (
    "Haha", "True", "Ugh, tell me about it", "No way", "That's so you", "Fair", "Right?", "Oh nice", "Love that",
    "Same here honestly", "Wait really?", "Makes sense", "Classic", "Oof", "Good for you", "I'd be the same",
)  # fmt: skip
