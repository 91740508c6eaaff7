"""The knowledge graph's vocabulary: every relationship and every entity kind, defined once.

Each relationship carries what the rest of the project needs to know about it -- its label and colour (the graph
page), who can be its subject and object (the query planner's signatures, the extractor's kind refinement),
whether it reads the same both ways, the sentences that answer a question about it in either direction, and the
question words that ask for it with their roles. The extractor's lists, the planner's lexicon, the answer
templates, the model's ``choices`` and ``CheckConstraint`` and the graph page's legend all derive from here, so a
new relationship is one entry below plus the extraction patterns that state it.

Pure: no Django, no database (the model and the pure cores import it alike).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

# --- entity kinds -------------------------------------------------------------------------------------------------

PERSON = "person"
COMPANY = "company"
ORG = "org"
PRODUCT = "product"
PLACE = "place"
EVENT = "event"
SYSTEM = "system"  # software a team runs: a service, database, cluster or pipeline (not a product sold)
UNKNOWN = "unknown"


@dataclass(frozen=True)
class EntityKind:
    """One kind of entity. ``members`` is the relationship a generic membership question means for an entity of
    this kind ("who is part of <meeting>" asks who attended it, "people at <company>" who works there);
    ``members_by_default``: a question naming such an entity without any cue asks for its members (an event has
    one kind of typed edge, so "who was at <meeting>" walks its attendance). ``head_nouns``: common nouns that,
    written right after a name the extractor cannot type otherwise, give it this kind."""

    value: str
    label: str
    colour: str
    members: str | None = None
    members_by_default: bool = False
    head_nouns: str = ""  # lower-case words that, right after a name, say its kind ("the Platform team")


# --- relationships ------------------------------------------------------------------------------------------------

FOUNDED = "founded"
INVESTED_IN = "invested_in"
WORKS_AT = "works_at"
ADVISES = "advises"
ATTENDED = "attended"
PARTNER_OF = "partner_of"
COMPETITOR_OF = "competitor_of"
ACQUIRED = "acquired"
REPORTS_TO = "reports_to"
OWNS = "owns"
DEPENDS_ON = "depends_on"
MENTIONED = "mentioned"  # a bare mention of the subject in a memory (no object)
ABOUT = "about"  # the memory is about the subject (its title names it; no object)

# The roles a question word plays for its relationship (retrieval.relational_query reads them):
VERB = "verb"  # "who backed X", "what did X back": the words around it give the direction
AGENT = "agent"  # a noun naming the edge's subjects: "investors", "founders", "attendees"
PATIENT = "patient"  # a noun naming the edge's objects: "portfolio", "employer"
INVERSE_VERB = "inverse_verb"  # a verb stating the edge backwards: "X manages Y" is "Y reports to X"
WEAK_VERB = "weak_verb"  # signals the relationship only when its entity can take it ("go to <meeting>")
CUE_ROLES = (VERB, AGENT, PATIENT, INVERSE_VERB, WEAK_VERB)

ANY_KIND: frozenset[str] = frozenset()  # a signature side that accepts every kind


@dataclass(frozen=True)
class Relationship:
    """One relationship ``subject --value--> object``.

    ``subjects`` / ``objects``: the kinds each side can have (empty: any); an entity of an unknown kind fits
    either side. ``refine_subject`` / ``refine_object``: the kind an end of unknown kind is given by playing that
    side (a founder is a person, what is founded a company). ``inbound`` answers "who <verb> {anchor}" and
    ``outbound`` "what did {anchor} <verb>" (``{items}`` is the cited list); ``verb`` states one edge ("A founded
    B"), ``inbound_phrase`` one hop walked backwards in a path ("founded by"). ``cues``: the question words
    asking for it, by role (:data:`CUE_ROLES`). ``also_follow``: relationships a question about this one also
    walks (a founder works at the company they founded). ``strict``: the extractor drops a link whose end is
    known to be of a kind outside the signature (the same words relate other things: "Acme Corp owns a stake").
    Untyped relationships (``mentioned``, ``about``) have no object and are never asked for by a cue.
    """

    value: str
    label: str
    colour: str
    subjects: frozenset[str] = ANY_KIND
    objects: frozenset[str] = ANY_KIND
    symmetric: bool = False
    inbound: str = ""
    outbound: str = ""
    verb: str = ""
    inbound_phrase: str = ""
    cues: Mapping[str, str] = field(default_factory=dict)
    refine_subject: str | None = None
    refine_object: str | None = None
    also_follow: tuple[str, ...] = ()
    strict: bool = False
    typed: bool = True

    @property
    def needs_object(self) -> bool:
        return self.typed


_PEOPLE = frozenset({PERSON})
_ORGS = frozenset({COMPANY, ORG})
_PARTIES = frozenset({PERSON, COMPANY, ORG})

ENTITY_KINDS: tuple[EntityKind, ...] = (
    EntityKind(PERSON, "Person", "#2f6fb5"),
    EntityKind(COMPANY, "Company", "#c0392b", members=WORKS_AT),
    EntityKind(ORG, "Organisation", "#8e44ad", members=WORKS_AT),
    EntityKind(PRODUCT, "Product", "#d68910"),
    EntityKind(PLACE, "Place", "#16a085"),
    EntityKind(EVENT, "Event", "#6d4c41", members=ATTENDED, members_by_default=True),
    EntityKind(
        SYSTEM,
        "System",
        "#00897b",
        head_nouns="service services microservice microservices system api apis database databases db cluster "
        "clusters pipeline pipelines queue queues broker gateway cache backend repository repo library sdk",
    ),
    EntityKind(UNKNOWN, "Unknown", "#7f8c8d"),
)

RELATIONSHIPS: tuple[Relationship, ...] = (
    Relationship(
        FOUNDED,
        "founded",
        "#e67e22",
        subjects=_PEOPLE,
        objects=_ORGS,
        inbound="{anchor} was founded by {items}.",
        outbound="{anchor} founded {items}.",
        verb="founded",
        inbound_phrase="founded by",
        cues={
            VERB: "found founds founded founding cofound cofounds cofounded cofounding co-found co-founded start "
            "starts started starting establish establishes established create creates created launch launches "
            "launched incorporate incorporated",
            AGENT: "founder founders cofounder cofounders co-founder co-founders creator creators",
        },
        refine_subject=PERSON,
        refine_object=COMPANY,
    ),
    Relationship(
        INVESTED_IN,
        "invested in",
        "#27ae60",
        subjects=_PARTIES,
        objects=_ORGS,
        inbound="Investors in {anchor}: {items}.",
        outbound="{anchor} invested in {items}.",
        verb="invested in",
        inbound_phrase="backed by",
        cues={
            VERB: "invest invests invested investing back backs backed backing fund funds funded funding finance "
            "finances financed financing bankroll bankrolled bankrolls stake stakes sponsor sponsored sponsors "
            "money equity capital",
            AGENT: "investor investors backer backers funder funders financier financiers shareholder shareholders "
            "stakeholder stakeholders angel angels vc vcs",
            PATIENT: "portfolio portfolios investments holdings",
        },
        refine_object=COMPANY,
    ),
    Relationship(
        ADVISES,
        "advises",
        "#2980b9",
        subjects=_PEOPLE,
        objects=_ORGS | _PEOPLE,
        inbound="{anchor} is advised by {items}.",
        outbound="{anchor} advises {items}.",
        verb="advises",
        inbound_phrase="advised by",
        cues={
            VERB: "advise advises advised advising counsel counsels counselled counseled mentor mentors mentored "
            "mentoring consult consults consulted advice guidance guide guides guided coach coaches coached "
            "coaching mentorship",
            AGENT: "advisor advisors adviser advisers advisory counselor counselors consultant consultants",
        },
        refine_subject=PERSON,
    ),
    Relationship(
        PARTNER_OF,
        "partner of",
        "#8e44ad",
        subjects=_PARTIES,
        objects=_PARTIES,
        symmetric=True,
        inbound="{anchor} partners with {items}.",
        outbound="{anchor} partners with {items}.",
        verb="partners with",
        inbound_phrase="partnering with",
        cues={VERB: "partner partners partnered partnering partnership partnerships allied"},
    ),
    Relationship(
        COMPETITOR_OF,
        "competitor of",
        "#c0392b",
        subjects=_ORGS,
        objects=_ORGS,
        symmetric=True,
        inbound="{anchor} competes with {items}.",
        outbound="{anchor} competes with {items}.",
        verb="competes with",
        inbound_phrase="competing with",
        cues={
            VERB: "compete competes competed competing",
            AGENT: "competitor competitors rival rivals competition",
        },
    ),
    Relationship(
        ATTENDED,
        "attended",
        "#16a085",
        subjects=_PEOPLE,
        objects=frozenset({EVENT}),
        inbound="{anchor} was attended by {items}.",
        outbound="{anchor} attended {items}.",
        verb="attended",
        inbound_phrase="attended by",
        cues={
            VERB: "attend attends attended attending",
            AGENT: "attendee attendees participant participants invitee invitees guests audience",
            WEAK_VERB: "participate participates participated participating present room went go goes going gone "
            "come came comes show showed shows sit sits sat invited visit visited",
        },
        refine_subject=PERSON,
    ),
    Relationship(
        WORKS_AT,
        "works at",
        "#34495e",
        subjects=_PEOPLE,
        objects=_ORGS,
        inbound="People at {anchor}: {items}.",
        outbound="{anchor} works at {items}.",
        verb="works at",
        inbound_phrase="with staff",
        cues={
            VERB: "work works worked working employ employs employed employing hire hires hired hiring payroll",
            AGENT: "employee employees staff staffer staffers worker workers personnel workforce colleague "
            "colleagues engineer engineers",
            PATIENT: "employer employers workplace job jobs",
        },
        refine_subject=PERSON,
        refine_object=COMPANY,
        also_follow=(FOUNDED,),
    ),
    Relationship(
        ACQUIRED,
        "acquired",
        "#d35400",
        subjects=_ORGS,
        objects=_ORGS,
        inbound="{anchor} was acquired by {items}.",
        outbound="{anchor} acquired {items}.",
        verb="acquired",
        inbound_phrase="acquired by",
        cues={
            VERB: "acquire acquires acquired acquiring buy buys bought purchase purchased",
            AGENT: "acquirer acquirers buyer buyers purchaser",
            PATIENT: "acquisition acquisitions",
        },
        refine_object=COMPANY,
    ),
    Relationship(
        REPORTS_TO,
        "reports to",
        "#7f8c8d",
        subjects=_PEOPLE,
        objects=_PEOPLE,
        inbound="Reporting to {anchor}: {items}.",
        outbound="{anchor} reports to {items}.",
        verb="reports to",
        inbound_phrase="managing",
        cues={
            VERB: "report reports reported reporting",
            PATIENT: "manager managers boss bosses supervisor supervisors",
            INVERSE_VERB: "manage manages managed managing supervise supervises supervised",
        },
        refine_subject=PERSON,
    ),
    Relationship(
        OWNS,
        "owns",
        "#5e35b1",
        subjects=frozenset({PERSON, ORG}),
        objects=frozenset({SYSTEM}),
        inbound="{anchor} is owned by {items}.",
        outbound="{anchor} owns {items}.",
        verb="owns",
        inbound_phrase="owned by",
        cues={
            VERB: "own owns owned owning maintain maintains maintained maintaining",
            AGENT: "owner owners maintainer maintainers",
        },
        refine_object=SYSTEM,
        strict=True,
    ),
    Relationship(
        DEPENDS_ON,
        "depends on",
        "#b7950b",
        subjects=frozenset({SYSTEM}),
        objects=frozenset({SYSTEM}),
        inbound="Depending on {anchor}: {items}.",
        outbound="{anchor} depends on {items}.",
        verb="depends on",
        inbound_phrase="needed by",
        cues={
            VERB: "depend depends depended depending rely relies relied relying",
            AGENT: "dependent dependents consumer consumers downstream",
            PATIENT: "dependency dependencies prerequisite prerequisites upstream",
        },
        refine_subject=SYSTEM,
        refine_object=SYSTEM,
        strict=True,
    ),
    Relationship(MENTIONED, "mentioned", "#999999", typed=False),
    Relationship(ABOUT, "about", "#999999", typed=False),
)

# --- attributes: what a fact states of its subject ---------------------------------------------------------------

# the value kinds of an attribute that are literals, not entities
TITLE = "title"  # a job title as written, lower-cased ("staff engineer")
DATE = "date"  # an ISO day
WORD = "word"  # a common noun or a name that is no entity of the graph ("spanish", "a beagle called Biscuit")


@dataclass(frozen=True)
class Attribute:
    """One thing a fact states of its subject: ``subject`` --attribute--> value, valid over an interval.

    ``values``: the entity kinds the value can be (an entity value), or one literal kind (:data:`TITLE`,
    :data:`DATE`, :data:`WORD`). ``functional``: one value at a time — a new value closes the previous one; else
    values accumulate. ``relationship``: the typed relationship the same statement is in the graph (works at,
    reports to, owns), so that today's edges and the facts agree. ``cues``: question words that ask for it (matched
    on whole words, after the subject is found), with ``asks``: the question words its answer type fits ("where" for
    a place). ``nouns``: the cue words that name the attribute itself ("manager", "deadline"): they weigh more than a
    verb, and a name after them and "of" / "for" is its subject ("the deadline for Orion"). ``phrases``: cues of
    several words ("looks after", "go live"). ``value_verbs``: the cue verbs whose grammatical subject is the value
    ("who owns S" asks S's owner), where any other cue verb right after "who" asks for everyone with a value ("who
    speaks French" is a list of people, not an attribute of one). ``value_words``: words that name a value of the
    kind, which ask for it as a cue does ("does Mei still have her rabbit?"). ``fields``: the labels a record writes
    it under ("Manager: Noor", "Launch date | 14 March"), separated by "|". The sentences: ``current`` /
    ``before`` / ``unknown`` answer a question about it ("{subject}", "{value}", "{since}")."""

    value: str
    label: str
    values: frozenset[str]
    functional: bool
    subjects: frozenset[str] = ANY_KIND
    relationship: str | None = None
    cues: str = ""
    asks: str = ""
    nouns: str = ""
    phrases: tuple[str, ...] = ()
    value_verbs: str = ""
    value_words: str = ""
    fields: str = ""
    current: str = ""
    before: str = ""
    unknown: str = ""

    @property
    def words(self) -> frozenset[str]:
        """Every single word that asks about the attribute: its cues, nouns and value words (a value word also as a
        plural: "dogs")."""
        values = {word for phrase in self.value_words.split("|") for word in phrase.split()}
        return frozenset(self.cues.split()) | frozenset(self.nouns.split()) | values | {f"{w}s" for w in values}

    @property
    def literal(self) -> str | None:
        """The literal kind of the value (title, date, word), or None for an entity value."""
        (kind,) = self.values if len(self.values) == 1 else (None,)
        return kind if kind in (TITLE, DATE, WORD) else None


# The kinds of pet and the languages people speak (lower case): extraction reads a statement's value from them, and a
# question naming one asks about the attribute ("does Mei still have her rabbit?", "is Diego a Spanish speaker?").
PET_KINDS: tuple[str, ...] = (
    "dog", "puppy", "cat", "kitten", "rabbit", "bunny", "parrot", "hamster", "guinea pig", "tortoise", "turtle",
    "lizard", "snake", "horse", "budgie", "ferret", "goldfish", "fish", "greyhound", "labrador", "retriever",
    "spaniel", "terrier", "beagle", "poodle", "collie", "dachshund", "husky", "pug", "whippet", "lurcher",
    "chihuahua", "corgi", "schnauzer", "sheepdog", "tabby", "hedgehog", "chinchilla", "iguana", "gecko",
    "bearded dragon", "corn snake", "axolotl", "cockatiel", "cockatoo", "canary", "budgerigar", "macaw",
    "african grey", "gerbil", "rat", "mouse", "pony", "donkey", "goat", "hen", "chicken", "duck", "tarantula", "bird",
    "mutt", "pup", "moggy", "hound", "basset hound", "parakeet", "lovebird", "cockapoo", "labradoodle", "staffie",
    "shepherd", "boxer", "tomcat", "pigeon", "water dog",
    "bulldog", "rottweiler", "doberman", "sphynx", "siamese", "persian cat", "maine coon", "ragdoll",
    "shiba", "shiba inu", "akita", "samoyed", "vizsla", "weimaraner", "pointer", "setter", "malamute", "spitz",
    "pomeranian", "shih tzu", "maltese terrier", "cavapoo", "cavalier", "frenchie", "french bulldog", "kelpie",
    "huntaway", "heeler", "aspin", "mongrel", "pig", "piglet", "kunekune", "alpaca", "rescue dog", "rescue cat",
    "bengal cat", "british shorthair", "tortoiseshell", "calico", "lovebird", "conure", "finch", "koi", "betta",
    "snail", "stick insect", "jack russell", "dalmatian", "bichon", "springer spaniel", "cocker spaniel",
    "westie", "yorkie", "sheltie", "xolo", "great dane", "border collie", "elkhound", "pleco", "pufferfish",
    "dwarf puffer", "guppy", "cichlid", "ball python", "terrapin", "degu", "cavy", "sugar glider",
)  # fmt: skip
LANGUAGES: tuple[str, ...] = (
    "english", "spanish", "french", "german", "italian", "portuguese", "dutch", "polish", "russian", "ukrainian",
    "mandarin", "cantonese", "chinese", "japanese", "korean", "hindi", "urdu", "bengali", "punjabi", "arabic",
    "hebrew", "turkish", "greek", "swedish", "norwegian", "danish", "finnish", "icelandic", "czech", "slovak",
    "hungarian", "romanian", "bulgarian", "serbian", "croatian", "swahili", "yoruba", "zulu", "tagalog",
    "vietnamese", "thai", "indonesian", "malay", "persian", "farsi", "welsh", "irish", "gaelic", "catalan", "basque",
    "tamil", "telugu", "marathi", "gujarati", "kannada", "malayalam", "nepali", "sinhala", "pashto", "kurdish",
    "armenian", "georgian", "azerbaijani", "kazakh", "uzbek", "mongolian", "tibetan", "burmese", "khmer", "lao",
    "javanese", "samoan", "tongan", "maori", "hawaiian", "fijian", "amharic", "tigrinya", "somali", "oromo", "hausa",
    "igbo", "twi", "akan", "ewe", "wolof", "lingala", "kinyarwanda", "kirundi", "luganda", "shona", "xhosa",
    "sesotho", "setswana", "afrikaans", "malagasy", "estonian", "latvian", "lithuanian", "slovenian", "slovene",
    "macedonian", "albanian", "bosnian", "belarusian", "maltese", "luxembourgish", "faroese", "breton", "cornish",
    "galician", "occitan", "sardinian", "sicilian", "romansh", "frisian", "yiddish", "ladino", "esperanto", "latin",
    "papiamento", "haitian creole", "creole", "quechua", "aymara", "guarani", "nahuatl", "cherokee", "navajo",
    "inuktitut", "greenlandic", "flemish", "brazilian portuguese", "taiwanese",
    "hokkien", "shanghainese", "hakka", "dari", "tajik", "turkmen", "kyrgyz", "uyghur", "tatar", "chechen",
    "cebuano", "ilocano", "hiligaynon", "sundanese", "hmong", "tetum", "chamorro", "tok pisin", "sindhi", "odia",
    "assamese", "konkani", "kashmiri", "sami", "sorbian", "kiswahili", "bahasa",
    "sanskrit", "pali", "aramaic", "isizulu", "isixhosa", "sepedi", "tshivenda", "xitsonga", "siswati", "ndebele",
    "chichewa", "bemba", "kikuyu", "luo", "fula", "fulani", "mandinka", "bambara", "tamazight", "berber", "kabyle",
    "dinka", "sámi", "guaraní", "māori", "te reo māori", "mapudungun", "kichwa", "zapotec", "mixtec",
    "ojibwe", "cree", "lakota", "mohawk", "bislama", "dzongkha", "bhojpuri", "maithili", "tulu", "santali",
    "balochi", "saraiki", "ossetian", "bashkir", "chuvash", "sakha", "buryat", "scots", "manx",
    "walloon", "alsatian", "neapolitan", "venetian", "friulian", "corsican",
    "asturian", "sorani", "kurmanji", "hazaragi", "arrernte", "warlpiri", "yolŋu", "pitjantjatjara",
)  # fmt: skip

# The nouns a job title ends with ("staff engineer", "head of sales"): the vocabulary of titles, lower case
ROLE_NOUNS = frozenset(
    """engineer engineers developer developers designer manager director lead head analyst scientist nurse teacher
    consultant architect officer vp president ceo cto cfo coo cio ciso cmo cpo intern researcher writer editor
    accountant lawyer attorney solicitor doctor surgeon physician chef cook recruiter specialist coordinator
    administrator technician midwife pharmacist paramedic programmer principal partner associate advisor adviser
    strategist producer marketer salesperson representative rep founder cofounder co-founder chair chairman
    chairwoman secretary treasurer librarian professor lecturer tutor therapist psychologist dentist vet
    veterinarian electrician plumber carpenter mechanic pilot barista waiter waitress supervisor foreman trainee
    apprentice postdoc fellow economist statistician actuary auditor controller copywriter journalist photographer
    illustrator animator curator archivist sre devops tester steward master counsel attendant practitioner paralegal
    receptionist clerk agent broker planner buyer trader banker teller nanny carer caregiver driver courier
    firefighter detective inspector guard gardener farmer baker butcher florist tailor stylist hairdresser barber
    artist musician singer actor dancer coach trainer instructor mentor dean registrar counsellor counselor worker
    sergeant captain nurse optometrist radiographer sonographer hygienist physiotherapist dietitian epidemiologist
    geologist chemist biologist physicist mathematician translator interpreter evangelist advocate executive chief dev
    devs
    operator generalist liaison ambassador bookkeeper tech judge cartographer surveyor linguist diplomat magistrate
    notary priest pastor imam rabbi mayor councillor councilor senator ranger dispatcher machinist welder miner
    fisherman sailor navigator astronomer meteorologist botanist geographer historian philosopher sociologist
    anthropologist archaeologist draughtsman draftsman underwriter optician chiropractor osteopath podiatrist
    sommelier bartender housekeeper janitor caretaker concierge cashier shopkeeper grocer jeweller jeweler potter
    sculptor painter novelist poet composer choreographer dramaturg accompanist purser conservator chaplain officiant
    organist conductor vicar curate rector bursar provost superintendent physio ceramicist brewer roaster glazier
    locksmith blacksmith goldsmith silversmith upholsterer doula locum""".split()
)
# The words departments and teams are named with: on a card, "Senior Accountant, Finance" says where in the employer
# someone sits, not who the employer is (lower case)
DEPARTMENT_NOUNS = frozenset(
    """finance legal marketing sales engineering payments operations ops hr people product design data security it
    support research procurement platform infrastructure infra growth risk compliance accounting analytics admin
    administration strategy partnerships communications comms brand content editorial logistics facilities
    treasury tax audit quality qa devops sre mobile web backend frontend services success customer customers
    recruiting recruitment talent learning training""".split()
)
# What a team owns besides what the system kind's head nouns name: the working parts of a product ("the job
# scheduler", "the status page", "the KYC checks").
OWNED_THING_NOUNS = frozenset(
    """job jobs scheduler exporter dispatcher resizer calculator screener store portal page app apps engine limiter
    checks chatbot bot dashboard platform tool tooling index indexer worker workers runner registry proxy balancer
    feed crawler tracker monitor printer flow flows integration integrations site website config exporter importer
    sync warehouse lake frontend ui cli infrastructure network storage ci codebase model models mesh bus stream
    streams topics generator renderer parser builder uploader converter validator handler notifier sender directory
    files docs wiki domain zone certificates vault router scripts checklist checklists spreadsheet spreadsheets
    runbook runbooks playbook cron crons export exports report reports rules alerts middleware stack gateway
    backlog roadmap budget repo repos repository pipeline pipelines templates bindings schema plugin module sdk
    library inventory deck lookup""".split()
)

LIVES_IN = "lives_in"
WORKS_AT_ATTR = "works_at"
JOB_TITLE = "job_title"
REPORTS_TO_ATTR = "reports_to"
OWNED_BY = "owned_by"
DUE_DATE = "due_date"
HAS_PET = "has_pet"
SPEAKS = "speaks"

ATTRIBUTES: tuple[Attribute, ...] = (
    Attribute(
        LIVES_IN,
        "lives in",
        frozenset({PLACE}),
        functional=True,
        subjects=_PEOPLE,
        cues="live lives living lived home based reside resides resided moved move moving relocated hometown city "
        "town country address settled",
        asks="where which what",
        nouns="home hometown address city town",
        fields="location|based in|based|lives in|home|home city|hometown|city|city of residence|residence|"
        "home address|address|home town",
        current="{subject} lives in {value}{since}",
        before="{subject} lived in {value}{until}",
        unknown="Nothing you can see says where {subject} lives.",
    ),
    Attribute(
        WORKS_AT_ATTR,
        "works at",
        _ORGS,
        functional=True,
        subjects=_PEOPLE,
        relationship=WORKS_AT,
        cues="work works working worked employer employed employs company firm job joined join salary",
        asks="where which who",
        nouns="employer company firm",
        fields="employer|company|organisation|organization|org|works at|works|works for|employed by|employed at|firm",
        value_verbs="employs employ employed",
        phrases=("work for", "works for", "working for", "is with", "employed by"),
        current="{subject} works at {value}{since}",
        before="{subject} worked at {value}{until}",
        unknown="Nothing you can see says where {subject} works.",
    ),
    Attribute(
        JOB_TITLE,
        "job title",
        frozenset({TITLE}),
        functional=True,
        subjects=_PEOPLE,
        cues="title role position job promoted promotion rank",
        asks="what which",
        nouns="title role position job rank",
        fields="title|job title|role|position|job|day job|occupation|profession",
        phrases=("do for a living", "do for work", "work as", "works as", "working as", "worked as"),
        current="{subject} is {value}{since}",
        before="{subject} was {value}{until}",
        unknown="Nothing you can see says what {subject}'s job title is.",
    ),
    Attribute(
        REPORTS_TO_ATTR,
        "reports to",
        _PEOPLE,
        functional=True,
        subjects=_PEOPLE,
        relationship=REPORTS_TO,
        cues="manager managers boss supervisor report reports reporting manage manages managed managing lead",
        asks="who whom",
        nouns="manager boss supervisor",
        fields="manager|mgr|line manager|reports to|reporting to|reports into|reporting line|supervisor|boss",
        phrases=("answer to", "answers to", "report into", "reports into", "line manager"),
        value_verbs="manage manages managed managing lead leads",
        current="{subject} reports to {value}{since}",
        before="{subject} reported to {value}{until}",
        unknown="Nothing you can see says who {subject} reports to.",
    ),
    Attribute(
        OWNED_BY,
        "owned by",
        frozenset({PERSON, ORG, COMPANY}),
        functional=True,
        subjects=frozenset({SYSTEM}),
        cues="owns own owner owners owned ownership maintains maintain maintained maintainer maintainers responsible "
        "accountable",
        asks="who which",
        nouns="owner owners ownership maintainer maintainers",
        # (a "DRI", the directly responsible individual, is how many engineering organisations name an owner)
        fields="owner|owners|owned by|owning team|owner team|service owner|system owner|maintainer|maintainers|"
        "maintained by|team|dri",
        phrases=("looks after", "look after", "looked after", "in charge of", "on the hook for", "takes care of"),
        value_verbs="owns own owned maintains maintain maintained responsible accountable",
        current="{subject} is owned by {value}{since}",
        before="{subject} was owned by {value}{until}",
        unknown="Nothing you can see says who owns {subject}.",
    ),
    Attribute(
        DUE_DATE,
        "due date",
        frozenset({DATE}),
        functional=True,
        subjects=frozenset({PRODUCT, EVENT, SYSTEM, ORG, COMPANY}),  # a project, a launch, a release: never a person
        cues="launch launches launching release releases released ship ships shipping due deadline live golive date "
        "cutover eta delivered",
        asks="when",
        nouns="deadline date eta",
        fields="due|due date|deadline|launch|launch date|go-live|go live|ga|release date|next release|ship date|"
        "target date|eta|target|target release|target launch|launch target|release target|cutover|cutover date",
        phrases=("go live", "goes live", "go to production", "goes to production", "supposed to be done"),
        current="{subject} is due on {value}{since}",
        before="{subject} was due on {value}{until}",
        unknown="Nothing you can see says when {subject} is due.",
    ),
    Attribute(
        HAS_PET,
        "has a pet",
        frozenset({WORD}),
        functional=False,
        subjects=_PEOPLE,
        cues="pet pets animal animals",
        asks="what which who",
        nouns="pet pets animal animals",
        fields="pet|pets|dog|dogs|cat|cats",
        value_words=" ".join(PET_KINDS),
        current="{subject} has {value}{since}",
        before="{subject} had {value}{until}",
        unknown="Nothing you can see says whether {subject} has a pet.",
    ),
    Attribute(
        SPEAKS,
        "speaks",
        frozenset({WORD}),
        functional=False,
        subjects=_PEOPLE,
        cues="speak speaks spoken speaking speaker language languages fluent bilingual",
        asks="what which",
        nouns="language languages",
        fields="language|languages|languages spoken|spoken languages|speaks",
        value_words=" ".join(LANGUAGES),
        current="{subject} speaks {value}{since}",
        before="{subject} spoke {value}{until}",
        unknown="Nothing you can see says which languages {subject} speaks.",
    ),
)
ATTRIBUTES_BY_VALUE: Mapping[str, Attribute] = {a.value: a for a in ATTRIBUTES}
ATTRIBUTE_VALUES: tuple[str, ...] = tuple(a.value for a in ATTRIBUTES)


# Question words that ask for "the members" of whatever they apply to, resolved by the entity's kind
# (:attr:`EntityKind.members`): "who was part of the offsite", "people from Acme".
MEMBERSHIP_CUES: Mapping[str, str] = {
    VERB: "part member members join joins joined joining belong belongs involved",
    AGENT: "people folks team",
}

# --- derived views ------------------------------------------------------------------------------------------------

BY_VALUE: Mapping[str, Relationship] = {r.value: r for r in RELATIONSHIPS}
KINDS_BY_VALUE: Mapping[str, EntityKind] = {k.value: k for k in ENTITY_KINDS}
RELATIONSHIP_VALUES: tuple[str, ...] = tuple(r.value for r in RELATIONSHIPS)
#: The relationships the extractor states between two entities (everything but bare mentions and "about").
TYPED_RELATIONSHIPS: tuple[str, ...] = tuple(r.value for r in RELATIONSHIPS if r.typed)
#: The relationships an extracted link can carry (typed ones and bare mentions; "about" is the store's).
EXTRACTED_RELATIONSHIPS: tuple[str, ...] = (*TYPED_RELATIONSHIPS, MENTIONED)
#: Relationships without an object.
OBJECTLESS_RELATIONSHIPS: tuple[str, ...] = tuple(r.value for r in RELATIONSHIPS if not r.needs_object)
#: Relationships that read the same both ways: graph reads, the relational walk and the answers match them on
#: either side.
SYMMETRIC_RELATIONSHIPS: frozenset[str] = frozenset(r.value for r in RELATIONSHIPS if r.symmetric)
ENTITY_KIND_VALUES: tuple[str, ...] = tuple(k.value for k in ENTITY_KINDS)
#: Kinds some relationship's signature names: only these decide a direction; any other kind fits either side.
SIGNATURE_KINDS: frozenset[str] = frozenset(
    kind for r in RELATIONSHIPS if r.typed for kind in (*r.subjects, *r.objects)
)


#: Head noun -> the kind it gives the name before it (:attr:`EntityKind.head_nouns`).
KIND_HEAD_NOUNS: Mapping[str, str] = {noun: k.value for k in ENTITY_KINDS for noun in k.head_nouns.split()}


def fits(kind: str, kinds: frozenset[str]) -> bool:
    """An entity of ``kind`` can stand on a signature side of ``kinds``: any side takes an unknown kind, an empty
    side any kind."""
    return kind == UNKNOWN or not kinds or kind in kinds


def cue_words() -> dict[str, tuple[str, str]]:
    """Every question word -> (relationship, role); membership words map to ``member_of``."""
    lexicon: dict[str, tuple[str, str]] = {}
    for relationship in RELATIONSHIPS:
        for role, words in relationship.cues.items():
            lexicon.update((word, (relationship.value, role)) for word in words.split())
    for role, words in MEMBERSHIP_CUES.items():
        lexicon.update((word, (MEMBER_OF, role)) for word in words.split())
    return lexicon


MEMBER_OF = "member_of"  # the planner's generic membership cue, not a stored relationship


def as_json() -> dict[str, object]:
    """What the graph page needs to draw and label the graph (passed to it with ``json_script``)."""
    return {
        "relationships": {r.value: {"label": r.label, "colour": r.colour} for r in RELATIONSHIPS},
        "kinds": {k.value: {"label": k.label, "colour": k.colour} for k in ENTITY_KINDS},
    }


def check(relationships: tuple[Relationship, ...], kinds: tuple[EntityKind, ...]) -> None:
    """Raise ``ValueError`` unless the vocabulary is consistent: unique values, known kinds and roles, every typed
    relationship with its answer sentences (run at import, so a typo fails before any table or page uses it)."""
    kind_values = {kind.value for kind in kinds}
    typed = {r.value for r in relationships if r.typed}
    problems = []
    if len({r.value for r in relationships}) != len(relationships) or len(kind_values) != len(kinds):
        problems.append("duplicate value")
    for relationship in relationships:
        if not set(relationship.subjects | relationship.objects) <= kind_values:
            problems.append(f"{relationship.value}: unknown kind in its signature")
        if not set(relationship.cues) <= set(CUE_ROLES):
            problems.append(f"{relationship.value}: unknown cue role")
        if not {relationship.refine_subject, relationship.refine_object} <= {None, *kind_values}:
            problems.append(f"{relationship.value}: unknown refined kind")
        if not set(relationship.also_follow) <= typed:
            problems.append(f"{relationship.value}: also_follow names an unknown relationship")
        if relationship.typed and not (relationship.inbound and relationship.outbound and relationship.verb):
            problems.append(f"{relationship.value}: a typed relationship needs answer sentences and a verb")
    problems += [f"{k.value}: unknown members relationship" for k in kinds if k.members and k.members not in typed]
    nouns = [noun for kind in kinds for noun in kind.head_nouns.split()]
    if len(nouns) != len(set(nouns)) or any(noun != noun.lower() for noun in nouns):
        problems.append("a head noun is listed twice or is not lower case")
    if problems:
        raise ValueError(f"graph vocabulary: {'; '.join(problems)}")


def check_attributes(attributes: tuple[Attribute, ...], kinds: tuple[EntityKind, ...]) -> None:
    """Raise ``ValueError`` unless every attribute has a unique value, known value and subject kinds, a known
    relationship, and its three answer sentences."""
    known = {kind.value for kind in kinds} | {TITLE, DATE, WORD}
    problems = []
    if len({a.value for a in attributes}) != len(attributes):
        problems.append("duplicate attribute")
    for attribute in attributes:
        if not attribute.values or not set(attribute.values | attribute.subjects) <= known:
            problems.append(f"{attribute.value}: unknown value or subject kind")
        if attribute.relationship is not None and attribute.relationship not in BY_VALUE:
            problems.append(f"{attribute.value}: unknown relationship")
        if not (attribute.current and attribute.before and attribute.unknown and attribute.cues):
            problems.append(f"{attribute.value}: answer sentences and cues are required")
    if problems:
        raise ValueError(f"graph vocabulary: {'; '.join(problems)}")


check(RELATIONSHIPS, ENTITY_KINDS)
check_attributes(ATTRIBUTES, ENTITY_KINDS)
