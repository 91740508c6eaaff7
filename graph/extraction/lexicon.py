"""Word lists the extractor relies on.

Everything here is plain English vocabulary (function words, job titles, business jargon). Nothing is
taken from any benchmark; the lists exist so that capitalised words that are not names ("However", "CEO",
"Series A", "March") never become entities.
"""

from __future__ import annotations

import re

# Capitalised only because they open a sentence (or are pronouns / determiners): never an entity on their own,
# and stripped from the front of a capitalised run ("The Acme Corp" -> "Acme Corp").
FUNCTION_WORDS: frozenset[str] = frozenset(
    """
    a an the this that these those there here it its it's he she they we you i me him her them us his hers
    their theirs our ours your yours my mine who whom whose which what when where why how whoever whatever
    and or but nor so yet for of in on at by to from with without within into onto upon over under above
    below after before during since until till about around across along among amongst between beyond
    through throughout toward towards via per as like unlike than despite although though because if
    unless whether while whilst once also still even just only already again always never often sometimes
    however moreover furthermore meanwhile nevertheless nonetheless therefore thus hence instead otherwise
    overall additionally finally first second third last next then now today yesterday tomorrow recently
    currently previously initially ultimately eventually later earlier soon perhaps maybe indeed notably
    importantly interestingly unfortunately fortunately clearly obviously certainly especially particularly
    specifically generally typically usually early late both each every either neither some many most much
    more less few several all any none no not yes other another such same own key new old recent
    former current future following according regarding including excluding given following despite
    be is are was were been being am do does did done have has had having will would shall should can could
    may might must let lets say says said see sees saw get gets got make makes made take takes took
    one two three four five six seven eight nine ten dear hi hello thanks thank please ok okay
    mr mrs ms dr prof sir madam i'm i've i'd i'll we're we've we'll we'd you're you've they're they've let's
    """.split()
)

# Common nouns that stand for the text's own organisation at the start of a headline ("Company founded by X").
DESCRIPTOR_NOUNS: frozenset[str] = frozenset("company startup firm business".split())

# Function words that may still open a longer name ("New York", "First Round Capital", "One Medical").
SOFT_WORDS: frozenset[str] = frozenset(
    """new first second third next last key early late old one two three four five six seven eight nine
    ten""".split()
)

# Verbs that open headline-style timeline entries ("Joined Acme as CTO", "Leads seed investment in Forge").
# At the start of a clause they are verbs, not names.
CLAUSE_VERBS: frozenset[str] = frozenset(
    """
    joins joined join leads led lead founds founded found co-founded cofounded co-founds started starts start
    launches launched launch invests invested invest backs backed back funds funded fund advises advised
    advise acquires acquired acquire buys bought buy partners partnered partner competes competed compete
    attends attended attend studies studied study graduates graduated graduate works worked work serves
    served serve becomes became become takes took take begins began begin closes closed close raises raised
    raise announces announced announce promoted named appointed hired hires hire signs signed sign ships
    shipped ship opens opened open presents presented present speaks spoke speak meets met meet
    incorporates incorporated incorporate leaves left leave returns returned return moves moved move
    publishes published publish hosts hosted host wins won win receives received receive completes
    completed complete delivers delivered deliver expands expanded expand releases released release
    reports reported report renews renewed renew helps helped help introduces introduced introduce
    participates participated participate commits committed commit sources sourced source reaches reached
    reach hits hit crosses crossed cross secures secured secure initiates initiated formalizes formalized
    formalises formalised expands use uses ask asks check checks email emails send sends keep keeps avoid
    avoids connects connected connect""".split()
)

MONTHS: frozenset[str] = frozenset(
    """january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec""".split()
)
WEEKDAYS: frozenset[str] = frozenset("monday tuesday wednesday thursday friday saturday sunday tues thur thurs".split())
SEASONS: frozenset[str] = frozenset("spring summer autumn fall winter".split())

# Job titles and honorifics: never entities, they split runs ("Acme CEO Mia Brown" -> Acme, Mia Brown).
TITLE_WORDS: frozenset[str] = frozenset(
    """
    ceo cto cfo coo cpo cmo cro cio ciso cso chro cdo cao gc vp svp evp avp md gm pm tpm em
    president vice chairman chairwoman chairperson chair director head founder co-founder cofounder
    founding partner managing principal associate advisor adviser engineer senior junior staff lead
    manager chief officer executive analyst scientist researcher designer architect developer
    intern consultant counsel professor prof dr mr mrs ms mx sir dame rev hon sr jr
    secretary treasurer trustee fellow member board observer investor angel
    """.split()
)

# Departments that follow a title ("VP of Engineering", "Head of Platform Operations"): part of the title.
DEPARTMENT_WORDS: frozenset[str] = frozenset(
    """engineering sales marketing product products operations finance growth revenue platform people design
    research data security infrastructure partnerships strategy technology business development customer
    success support communications legal hr talent recruiting procurement analytics science ai ml""".split()
)

# Capitalised business jargon that is not a name.
JARGON_WORDS: frozenset[str] = frozenset(
    """
    series seed pre-seed q1 q2 q3 q4 h1 h2 fy arr mrr cac ltv nrr kpi kpis okr okrs roi ipo m&a gtm pmf
    saas paas iaas b2b b2c d2c api apis sdk sdks ui ux ai ml llm llms gpu gpus cpu i ok q&a r&d p&l
    faq tbd tba eta asap fyi ps nb etc vs yoy mom qoq wow ytd eod eow vc vcs lp lps gp gps phd mba smb smbs
    soc etl nda mvp ip hr ci cd fte ftes devops defi tam ebitda capex opex saas-based
    adr rfc prd crm erp hris ats sre sla slo sli qbr dm cte asg cet cest utc gmt pst est pii poc ooo pto sdr
    bdr cka p0 p1 p2 p3 sev0 sev1 sev2 sev3
    """.split()
)

# Lowercase particles allowed inside a name ("Ludwig van Beethoven", "Bank of America").
NAME_PARTICLES: frozenset[str] = frozenset("van von de da del der di du la le den ter".split())
# "of" joins a name only after an institution head ("University of Michigan"), not after a title.
OF_HEADS: frozenset[str] = frozenset(
    """university bank institute college school department ministry museum academy society church city
    state journal""".split()
)

# Last word of a name that marks a company / an organisation.
COMPANY_SUFFIXES: frozenset[str] = frozenset(
    """inc corp corporation co llc ltd plc gmbh ag sa lp llp labs lab capital ventures partners fund funds
    group holdings technologies technology systems software solutions networks bank industries""".split()
)
# Last words an organisation's name ends with beyond the legal suffixes ("Tisza Wines", "Kestle Analytics",
# "Brightwell Freight"): what the business does. A fact's reader uses them to tell an employer from a town.
BUSINESS_TAILS: frozenset[str] = frozenset(
    """analytics robotics studios studio games media health healthcare foods food freight logistics haulage telecom
    wines brewery insurance reinsurance consulting consultancy energy solar pharma pharmaceuticals bio biotech
    therapeutics ai tech digital cloud data security finance financial capital credit microfinance airlines
    airways motors automotive shipping maritime marine retail stores supermarkets hotels hospitality publishing
    press records productions films pictures design designs architects engineering construction builders
    manufacturing textiles apparel fashion cosmetics beauty dental clinic clinics hospital hospitals
    pharmacy labs laboratories works workshop collective cooperative co-op agency ventures mills mining metals
    steel chemicals plastics packaging paper print printing electric electronics devices instruments audio
    optics telecoms mobile networks bank banking insurers
    estate estates properties realty homes trust conservation""".split()
)
ORG_WORDS: frozenset[str] = frozenset(
    """university institute college school foundation association agency council committee department
    ministry commission hospital society academy""".split()
)

# Head nouns of a role phrase ("a senior engineer", "the founder and CEO", "VP of Engineering").
ROLE_HEADS: frozenset[str] = frozenset(
    """
    ceo cto cfo coo cpo cmo cro cio ciso cso chro vp svp evp president chairman chairwoman chairperson chair
    director head founder co-founder cofounder partner principal associate advisor adviser investor engineer
    developer architect scientist researcher designer analyst manager lead officer executive intern
    consultant counsel member employee fellow recruiter strategist specialist pm gm md student graduate
    alumnus alumna hire observer backer
    """.split()
)

# A text is about a person when its first self-description uses one of these ("X is a partner at ...").
PERSON_NOUNS: frozenset[str] = ROLE_HEADS | frozenset(
    "entrepreneur operator investor angel engineer executive leader builder researcher veteran".split()
)
# ... and about an organisation when it uses one of these ("Acme is a robotics startup ...").
ORG_NOUNS: frozenset[str] = frozenset(
    """startup start-up company firm fund business venture lab labs platform provider maker manufacturer
    vendor agency organization organisation nonprofit non-profit university institute bank studio brand
    marketplace unicorn incumbent subsidiary conglomerate corporation enterprise acquirer giant customer client
    supplier reseller distributor""".split()
)

# A self_name naming an event: "Acme Board Meeting Q1 2025", "1:1 Alice + Bob", "Demo Day W24".
EVENT_NAME_RE = re.compile(
    r"\b(?:meeting|1:1|one-on-one|1-on-1|sync|call|demo day|summit|conference|offsite|off-site|session|"
    r"standup|stand-up|retro|retrospective|workshop|dinner|interview|webinar|kickoff|kick-off|all-hands|"
    r"town hall|hackathon|meetup|panel|review|board meeting|catch-up|check-in)\b",
    re.IGNORECASE,
)
