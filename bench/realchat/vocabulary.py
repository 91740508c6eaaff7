"""The people and the values of the realistic chats: names, pets, jobs, races, trips, crafts, relatives, plants,
books, homes, weekly activities, milestones, restaurants, and what small talk fills in.

Every pool here is one tuple, split into the development half and the held-back half by one rule (:func:`half_of`:
even positions are ``dev``'s, odd ones ``held``'s), so a held-back conversation is made of people and values that no
development conversation contains. The second development half, ``dev2``, has pools of its own with the same names
(``bench.realchat.dev2.vocabulary``), which it takes whole. Written for this set alone: nothing here is taken from
``bench.conversations``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

HALVES = ("dev", "dev2", "held")
SPLIT_HALVES = ("dev", "held")  # the halves that share the tuples of this module and of bench.realchat.phrasing
T = TypeVar("T")


def half_of(pool: Sequence[T], half: str) -> tuple[T, ...]:
    """The half's share of a pool of this module or of ``bench.realchat.phrasing``: its even positions for ``dev``,
    its odd ones for ``held``. ``dev2`` takes no share of them (its pools are ``bench.realchat.dev2``'s)."""
    if half not in SPLIT_HALVES:
        raise ValueError(f"half must be one of {SPLIT_HALVES}, got {half!r}")
    return tuple(pool[SPLIT_HALVES.index(half) :: 2])


PEOPLE = (
    "Marisol", "Declan", "Anouk", "Tobias", "Yusuf", "Henrike", "Callum", "Ximena", "Oskar", "Thandiwe", "Gideon",
    "Paloma", "Rasmus", "Ifeoma", "Bastien", "Lucinda", "Evander", "Saoirse", "Kofi", "Margit", "Anselm", "Noemi",
    "Hamid", "Brigitte", "Ciaran", "Dalia", "Florian", "Keziah", "Joaquin", "Elif", "Magnus", "Rutendo", "Leander",
    "Sunniva", "Arash", "Philippa", "Emilio", "Zainab", "Stellan", "Odette", "Hakon", "Imani", "Benedikt",
    "Catalina", "Rafferty", "Yelena", "Matthias", "Aoife", "Teodor", "Nkechi", "Lorenzo", "Solveig", "Darius",
    "Harriet", "Ignatius", "Perpetua", "Casimir", "Orsolya", "Tadhg", "Wilhelmina", "Barnabas", "Esperanza",
    "Ruairi", "Marguerite",
)  # fmt: skip
RELATIVES = (
    "Otto", "Liesel", "Caspar", "Mirabel", "Ezra", "Tilda", "Ruben", "Hester", "Anatole", "Bryony", "Lazlo",
    "Cosima", "Emrys", "Delphine", "Silas", "Ottilie", "Barnaby", "Iolanthe", "Cyrus", "Araminta", "Ambrose",
    "Clemency", "Jethro", "Seraphina", "Lysander", "Winnie", "Horatio", "Perdita", "Alaric", "Rosalind",
)  # fmt: skip
RELATIONS = ("sister", "brother", "daughter", "son", "niece", "nephew", "stepdaughter", "stepson")

# --- pets: (species, breed), names, and what a pet gets up to ---------------------------------------------------
PETS = (
    ("dog", "lurcher"), ("cat", "Bengal"), ("dog", "springer spaniel"), ("cat", "Siamese"),
    ("tortoise", "Hermann's tortoise"), ("dog", "Staffie"), ("guinea pig", "long-haired guinea pig"),
    ("dog", "schnauzer"), ("cat", "Norwegian forest cat"), ("dog", "cockapoo"), ("ferret", "albino ferret"),
    ("dog", "Shiba Inu"), ("cat", "Burmese"), ("dog", "Bernese mountain dog"),
)  # fmt: skip
PET_NAMES = (
    "Bramble", "Turnip", "Marzipan", "Sprout", "Custard", "Pebble", "Kipper", "Nutmeg", "Dumpling", "Sorrel",
    "Truffle", "Crumpet", "Gnocchi", "Fudge", "Tinker", "Wellington", "Dotty", "Bagel", "Ziggy", "Rolo", "Figaro",
    "Pippin", "Mischa", "Tofu",
)  # fmt: skip
PET_TRICKS = (
    "opens the back door by jumping at the handle", "steals socks and hides them under the bath",
    "rings a little bell when wanting to go out", "sits on the laptop whenever I start a call",
    "howls along every time the kettle boils", "fetches the post from the doormat",
    "pinches toast off the kitchen counter", "knows how to open the treat cupboard",
    "climbs into the washing basket every morning", "does a high five for a bit of cheese",
    "chases the robot vacuum round the flat", "sleeps in the empty bread bin",
)  # fmt: skip

# --- work ---------------------------------------------------------------------------------------------------------
JOBS = (
    ("ferry dispatcher", "Cobalt Bay Ferries"), ("orthotist", "Ashgrove Hospital"),
    ("tree surgeon", "Wychwood Council"), ("bike mechanic", "Foxley Cycles"),
    ("radio producer", "Brightfield Radio"), ("quantity surveyor", "Halloran Engineering"),
    ("railway signaller", "Northmoor Rail"), ("perfumer", "Larkspur Fragrances"),
    ("wildlife ranger", "the Pemberton Trust"), ("locksmith", "Keyline Security"),
    ("speech therapist", "Tannery Lane Clinic"), ("claims handler", "Bellweather Insurance"),
    ("lab scientist", "Greywater Labs"), ("warehouse supervisor", "Thistledown Logistics"),
    ("sign-language interpreter", "Clearvoice Access"), ("store manager", "the Quayside Co-op"),
)  # fmt: skip
NEW_EMPLOYERS = (
    "Saltmarsh Group", "Heronsgate Partners", "Orrell & Byrne", "Millbrook Holdings", "Blackthorn Systems",
    "Vantage Point Media", "Elmstead & Co", "Kittiwake Digital", "Redfern Associates", "Copperbeech Ltd",
    "Lindqvist & Moss", "Starling Works",
)  # fmt: skip

# --- races: (name, about how many minutes it takes) ---------------------------------------------------------------
RACES = (
    ("the Fenwick 10k", 55), ("the Harbour Half", 125), ("the Saltings trail run", 70), ("the Midsummer Swim", 45),
    ("the Lakeside Triathlon", 160), ("the Ridgeway Ultra", 540), ("the Old Town 5k", 28),
    ("the Bramley Duathlon", 150), ("the Cliff Path Challenge", 95), ("the Night River Run", 50),
    ("the Greenway Relay", 40), ("the Winter Hill Scramble", 80), ("the Twin Bridges Marathon", 270),
    ("the Mudlark Obstacle Race", 75), ("the Beacon Fell Race", 65), ("the Abbey Fields 10 mile", 90),
)  # fmt: skip

# --- trips: (place, what its photo shows) -----------------------------------------------------------------------
TRIPS = (
    ("the Azores", "a crater lake ringed with hydrangeas"), ("Sardinia", "a turquoise cove below pink rocks"),
    ("the Lofoten Islands", "red fishing huts under a snowy peak"), ("Montenegro", "a walled town on a fjord-like bay"),
    ("Crete", "a gorge trail with goats on the path"), ("the Faroe Islands", "a waterfall dropping into the sea"),
    ("Cappadocia", "hot-air balloons over stone chimneys"), ("Sicily", "a market stall piled with blood oranges"),
    ("the Black Forest", "a cuckoo clock the size of a house"), ("Tasmania", "a wombat on a beach at dusk"),
    ("Madeira", "a levada path through laurel forest"), ("Hokkaido", "a field of lavender with a red barn"),
    ("the Scilly Isles", "a white beach with a tiny rowing boat"), ("Provence", "a hilltop village at sunset"),
    ("Zanzibar", "a dhow sailing past a spice market"), ("Patagonia", "a blue glacier calving into a lake"),
)  # fmt: skip
MONTHS = ("May", "June", "July", "August", "September", "October")

# --- crafts: (craft, what was made) and colours -----------------------------------------------------------------
CRAFTS = (
    ("marquetry", "jewellery box"), ("woodturning", "fruit bowl"), ("stained glass", "suncatcher"),
    ("quilting", "cushion cover"),
    ("macramé", "plant hanger"), ("silversmithing", "ring"), ("bookbinding", "notebook"), ("weaving", "wall hanging"),
    ("linocut printing", "poster"), ("candle making", "candle"), ("upholstery", "footstool"), ("leatherwork", "wallet"),
    ("mosaic", "house number plaque"), ("basket weaving", "log basket"),
)  # fmt: skip
COLOURS = (
    "mustard yellow", "teal", "burnt orange", "lilac", "forest green", "cobalt blue", "dusty pink", "charcoal grey",
    "terracotta", "sea green", "plum", "ochre",
)  # fmt: skip

# --- family news: (school, field of study) ----------------------------------------------------------------------
SCHOOLS = (
    "Kingsmere University", "Castlegate College", "the Royal Northern Academy", "Abbotsford University",
    "Hollybrook College", "St Aldric's University", "the Lowther Institute", "Calderbank University",
)  # fmt: skip
FIELDS = (
    "marine biology", "architecture", "veterinary science", "Mandarin", "astrophysics", "midwifery", "jazz piano",
    "geology", "film-making", "dentistry", "agriculture", "forensic science",
)  # fmt: skip

# --- gardens: (the plot, how a sentence places something on it), and what grows there ---------------------------
PLOTS = (
    ("allotment", "on the allotment"), ("back garden", "in the back garden"), ("balcony", "on the balcony"),
    ("community garden", "at the community garden"),
)  # fmt: skip
PLANTS = (
    "runner beans", "sweet peas", "courgettes", "rhubarb", "lupins", "strawberries", "garlic", "dahlias", "kale",
    "foxgloves", "raspberry canes", "sunflowers", "chillies", "leeks", "peonies", "blueberries", "asparagus",
    "hollyhocks",
)  # fmt: skip

# --- books: (title, author) -------------------------------------------------------------------------------------
BOOKS = (
    ("The Salt Orchard", "Ilse Varga"), ("Lanterns Over Kessel", "Obi Marchetti"),
    ("The Cartographer's Daughter", "Ruth Okonjo"), ("Nine Winters", "Harald Steen"),
    ("The Glass Aviary", "Celeste Moraes"), ("Low Tide at Morrow Bay", "Jonah Pike"),
    ("What the Ferryman Kept", "Agnieszka Sowa"), ("The Last Tram to Aldmoor", "Priscilla Fenn"),
    ("Paper Moons", "Desmond Achterberg"), ("The Beekeeper's Ledger", "Marta Ilves"),
    ("Under the Copper Hill", "Samson Adeyemi"), ("A Short History of Rain", "Livia Brandt"),
    ("The Orchard Thief", "Caleb Nunez"), ("Signal and Static", "Ophelia Graves"),
)  # fmt: skip

# --- homes ------------------------------------------------------------------------------------------------------
AREAS = (
    "Harrowgate Hill", "the old docks", "Millbrook", "Stonebridge", "Parkside", "the Cathedral Quarter",
    "Hollins Green", "the Riverside estate", "Upper Ashby", "Fennick Road", "Saltwell", "Kirkby Vale",
    "the Maltings", "Greenhithe", "Netherfield", "Barrow Lane",
)  # fmt: skip

# --- weekly activities ------------------------------------------------------------------------------------------
ACTIVITIES = (
    "life drawing class", "bell ringing practice", "pub quiz", "salsa class", "chess club", "wild swimming group",
    "improv workshop", "Portuguese conversation group", "table tennis league", "lindy hop class", "repair café shift",
    "sea kayaking club",
)  # fmt: skip
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
WEEKLY_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Sunday")  # split like every pool

# --- milestones: (as the person says it, as a question names it, a verb phrase, other words for it) -------------
MILESTONES = (
    ("my driving theory test", "driving theory test", "sit the driving theory test", "licence exam"),
    ("our housewarming party", "housewarming party", "host the housewarming party", "new-home celebration"),
    ("the kitchen refit", "kitchen refit", "get the kitchen refitted", "renovation work at home"),
    ("my first blood donation", "first blood donation", "donate blood for the first time", "donor appointment"),
    ("the parents' evening", "parents' evening", "go to the parents' evening", "meeting with the teachers"),
    ("my eye test", "eye test", "have the eye test", "optician appointment"),
    ("the boiler service", "boiler service", "get the boiler serviced", "heating engineer's visit"),
    ("my performance review", "performance review", "have the performance review", "appraisal at work"),
    ("the leaving do for my boss", "leaving do", "go to the leaving do", "farewell drinks"),
    ("my wisdom tooth extraction", "wisdom tooth extraction", "have the wisdom tooth out", "oral surgery"),
    ("the neighbourhood litter pick", "litter pick", "do the litter pick", "street clean-up"),
    ("my flu jab", "flu jab", "get the flu jab", "vaccination"),
    ("the school reunion", "school reunion", "go to the school reunion", "gathering of old classmates"),
    ("the car's MOT", "MOT", "take the car for its MOT", "vehicle inspection"),
    ("my mortgage appointment", "mortgage appointment", "see the mortgage adviser", "meeting about the home loan"),
    ("our anniversary dinner", "anniversary dinner", "have the anniversary dinner", "celebration meal as a couple"),
)  # fmt: skip

# --- eating out -------------------------------------------------------------------------------------------------
RESTAURANTS = (
    "Casa Albariño", "the Wandering Fig", "Ruby Lantern", "Mezze Lane", "the Ox and Anchor", "Little Okra",
    "Nori House", "the Copper Pot", "Taverna Lemoni", "Bluefin Kitchen", "the Salt Cellar", "Hatch & Harvest",
)  # fmt: skip
DISHES = (
    "smoked aubergine flatbread", "crab linguine", "lamb tagine", "mushroom ramen", "duck bao", "beetroot risotto",
    "pork belly tacos", "miso cod", "saffron paella", "jerk chicken", "spinach dumplings", "black pudding scotch egg",
)  # fmt: skip

# --- small talk fillings ------------------------------------------------------------------------------------------
SHOWS = (
    "that island dating show", "the new Nordic crime drama", "the baking competition",
    "the documentary about octopuses",
    "the hospital drama everyone talks about", "the quiz show with the grumpy host", "the space series",
    "the period drama with the horses", "the cooking show set in Mexico", "the true-crime podcast about the heist",
    "the sitcom about the call centre", "the nature series narrated by that actor",
)  # fmt: skip
SNACKS = (
    "cheese toasties", "a whole tub of olives", "leftover noodles", "banana bread", "crisps for dinner",
    "cold pizza", "a mountain of toast", "instant ramen", "a sad salad", "chocolate digestives",
)  # fmt: skip
THIRD_PARTIES = (
    "the woman next door", "someone in my team", "my landlord", "the postman", "our old flatmate", "my dentist",
    "the bloke at the corner shop", "my godmother", "a lad from the climbing wall", "my line manager",
)  # fmt: skip
