"""The people and the values of the second development half (``dev2``): every pool of
``bench.realchat.vocabulary`` that is split between ``dev`` and ``held``, under the same name, about as long as one
of their shares and with none of their entries. ``WEEKDAYS`` and ``MONTHS`` are not split and are not repeated here.
"""

from __future__ import annotations

PEOPLE = (
    "Ingeborg", "Fintan", "Amaranta", "Cormac", "Yasmin", "Leopold", "Bronagh", "Tiberius", "Oluwaseun", "Marit",
    "Crispin", "Zofia", "Alasdair", "Ludmila", "Ezekiel", "Jolanda", "Rashid", "Hildegard", "Benedetta", "Caoimhe",
    "Wendell", "Anneliese", "Fergus", "Ottavia", "Kwabena", "Isadora", "Radomir", "Svetlana", "Evadne", "Thorsten",
    "Mireille", "Jarrah",
)  # fmt: skip
RELATIVES = (
    "Peregrine", "Augustin", "Clementine", "Eilidh", "Thaddeus", "Philomena", "Lucian", "Honora", "Caspian",
    "Verity", "Fabian", "Oona", "Leontine", "Benedek", "Marigold",
)  # fmt: skip
RELATIONS = ("cousin", "half-brother", "goddaughter", "stepsister")

# --- pets -------------------------------------------------------------------------------------------------------
PETS = (
    ("dog", "whippet"), ("cat", "Maine Coon"), ("rabbit", "lop-eared rabbit"), ("dog", "border collie"),
    ("cat", "ragdoll"), ("dog", "dachshund"), ("parrot", "African grey parrot"),
)  # fmt: skip
PET_NAMES = (
    "Biscuit", "Pickle", "Waffle", "Haggis", "Pretzel", "Juno", "Basil", "Porridge", "Mango", "Chutney", "Parsnip",
    "Pesto",
)  # fmt: skip
PET_TRICKS = (
    "nudges the light switch off when it wants to sleep", "unzips my rucksack looking for sandwiches",
    "turns the bathroom tap on and just watches it run", "drags the doormat into the living room every night",
    "brings me a slipper whenever the doorbell goes", "spins round three times before taking a treat",
)  # fmt: skip

# --- work -------------------------------------------------------------------------------------------------------
JOBS = (
    ("paramedic", "Eastbrook Ambulance Service"), ("sommelier", "the Garnet Room"),
    ("crane operator", "Portwell Docks"), ("dental hygienist", "Brookside Dental"),
    ("museum conservator", "the Harwick Museum"), ("air traffic controller", "Southmere Airport"),
    ("court stenographer", "Lanchester Crown Court"), ("beekeeper", "Meadowcroft Honey"),
)  # fmt: skip
NEW_EMPLOYERS = (
    "Pennant Analytics", "Wolverton & Pryce", "Sandpiper Studios", "Greyfriars Capital", "Tidewater Freight",
    "Ashlar Architects",
)  # fmt: skip

# --- races: (name, about how many minutes it takes) -------------------------------------------------------------
RACES = (
    ("the Quarry Hill 10k", 52), ("the Castle Loop Half", 115), ("the Forest Trail 15k", 85),
    ("the Moorland Marathon", 285), ("the Lantern Night 5k", 30), ("the Three Peaks Fell Race", 130),
    ("the Canal Towpath 20k", 110), ("the Pier to Pier Run", 60),
)  # fmt: skip

# --- trips: (place, what its photo shows) -----------------------------------------------------------------------
TRIPS = (
    ("the Dolomites", "jagged grey peaks above a meadow of cows"), ("Lisbon", "a yellow tram climbing a cobbled hill"),
    ("Kerala", "a houseboat drifting on the backwaters"), ("the Outer Hebrides", "standing stones in the mist"),
    ("Slovenia", "a church on an island in a green lake"), ("Jordan", "the rose-red front of Petra at dawn"),
    ("Vietnam", "limestone islands rising out of a misty bay"), ("Andalusia", "white houses clinging to a cliff"),
)  # fmt: skip

# --- crafts: (craft, what was made) and colours -----------------------------------------------------------------
CRAFTS = (
    ("pottery", "vase"), ("embroidery", "tote bag"), ("glassblowing", "paperweight"), ("knitting", "scarf"),
    ("screen printing", "T-shirt"), ("rug tufting", "bath mat"), ("crochet", "blanket"),
)  # fmt: skip
COLOURS = ("mint green", "rust red", "navy blue", "lemon yellow", "coral pink", "bottle green")

# --- family news: (school, field of study) ----------------------------------------------------------------------
SCHOOLS = ("Redcliffe University", "Thornbury University", "Edgewater College", "the Ashcombe Institute")
FIELDS = ("nursing", "civil engineering", "philosophy", "zoology", "classics", "sports science")

# --- gardens: (the plot, how a sentence places something on it), and what grows there ---------------------------
PLOTS = (("greenhouse", "in the greenhouse"), ("veg patch", "in the veg patch"))
PLANTS = (
    "tomatoes", "broad beans", "cucumbers", "snapdragons", "pumpkins", "sweetcorn", "radishes", "zinnias",
    "gooseberries",
)  # fmt: skip

# --- books: (title, author) -------------------------------------------------------------------------------------
BOOKS = (
    ("The Lighthouse Almanac", "Tove Halvorsen"), ("Borrowed Thunder", "Kwesi Appiah"),
    ("The Map of Lost Kitchens", "Rosamund Hale"), ("Heron Season", "Matteo Ricciardi"),
    ("Everything the River Took", "Dilara Aksoy"), ("The Winter Orchestra", "Piotr Zielinski"),
    ("Small Gods of Harbour Street", "Maeve Donnelly"),
)  # fmt: skip

# --- homes ------------------------------------------------------------------------------------------------------
AREAS = (
    "Larkfield", "Whitecross", "Dunmore Park", "the Canal Basin", "Highgate Rise", "Mossley", "Foundry Lane",
    "Elmwood",
)  # fmt: skip

# --- weekly activities: what, and when (a day, or a part of one: every weekday is already a day of dev or held) ----
ACTIVITIES = (
    "community choir", "bouldering", "five-a-side football", "food bank volunteering", "aqua aerobics",
    "beginners' Welsh",
)  # fmt: skip
WEEKLY_DAYS = ("Saturday morning", "Sunday evening", "Thursday lunchtime")

# --- milestones: (as the person says it, as a question names it, a verb phrase, other words for it) -------------
MILESTONES = (
    ("my citizenship ceremony", "citizenship ceremony", "attend the citizenship ceremony", "naturalisation event"),
    ("the house valuation", "house valuation", "get the house valued", "visit to price the property"),
    ("my hearing test", "hearing test", "have the hearing test", "audiology check"),
    ("my jury service", "jury service", "start jury service", "stint as a juror"),
    ("the christening", "christening", "go to the christening", "baptism of the baby"),
    ("my black belt grading", "black belt grading", "do the black belt grading", "martial arts exam"),
    ("my passport interview", "passport interview", "have the passport interview", "identity check for travel papers"),
    ("the new sofa delivery", "sofa delivery", "take delivery of the new sofa", "furniture drop-off"),
)  # fmt: skip

# --- eating out -------------------------------------------------------------------------------------------------
RESTAURANTS = ("Osteria Verdi", "the Gilded Goose", "Seoul Kitchen", "Pepper & Vine", "the Driftwood Shack",
               "Tamarind Tree")  # fmt: skip
DISHES = ("Korean fried chicken", "cacio e pepe", "lobster roll", "halloumi fries", "katsu curry", "venison pie")

# --- small talk fillings ------------------------------------------------------------------------------------------
SHOWS = (
    "the mountain rescue documentary", "the legal drama with the twins", "the reality show on the canal boats",
    "the detective series set in Wales", "the fashion design contest", "the show about restoring old tractors",
)  # fmt: skip
SNACKS = ("fish finger sandwiches", "cereal straight from the box", "hummus and carrot sticks", "popcorn",
          "reheated chips")  # fmt: skip
THIRD_PARTIES = ("my upstairs neighbour", "the caretaker at work", "my old maths teacher", "the window cleaner",
                 "my aunt's new partner")  # fmt: skip
