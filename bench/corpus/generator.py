"""A deterministic, realistic corpus for scale benchmarks — pure: no Django, no database.

``corpus_plan(seed=, size=)`` lays out several tenants — one large (``size`` memories) and ``SMALL_TENANTS``
small ones (``size // 50`` each, at least 200) — each with a deep scope tree (org › region › division ›
department › team › user for the large one, shallower for the others), users in teams, and people, companies,
projects and meetings of its own. ``memory_at(plan, tenant, ordinal)`` writes memory ``ordinal`` of a tenant from
its own random stream (seeded by ``seed/tenant/ordinal``). A corpus is identified by (seed, size): the trees and
name pools grow with the size (one user per ~100 memories of the large tenant), so corpora of different sizes are
different tenants that can live side by side in one database (the benchmark searches each of them there).

The text is combinatorial, not a handful of templates: each memory draws 1–4 sentences (one in 25 is a long
write-up of 12–30 sentences, embedded as several chunks) from ~45 sentence frames across facts, events and
incidents, decisions, preferences and policies, whose slots draw from vocabularies of people (80 × 80 names),
companies (syllable-built, ~2,000 per tenant), projects, systems, technologies, places, causes, reasons, numbers,
money, versions, ticket ids and dates; names follow a skewed (Zipf-like) popularity, as in a real organisation.
Each memory records the entities it names and the typed links it states (``works_at``, ``advises``,
``invested_in``, ``founded``, ``acquired``, ``partner_of``, ``attended``, ``reports_to``), with their character
spans, so the loader can fill the knowledge graph without running the extractor.

``benchmark_queries`` picks realistic questions for users of the large tenant, from memories they can see:
keyword (rare words of a memory), paraphrase (the memory's facts in other words), relational (who works at /
advises / attended …), and names.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from functools import cached_property

from graph import vocabulary as v

SMALL_TENANTS = 5
LARGE_LEVELS = ("org", "region", "division", "department", "team", "user")
SMALL_LEVELS = (("org", "team", "user"), ("org", "division", "team", "user"), ("org", "department", "team", "user"))
# where memories live (level → share), for the large tenant's levels; small tenants fold missing levels into team
LEVEL_SHARES = {"user": 0.50, "team": 0.27, "department": 0.08, "division": 0.05, "region": 0.03, "org": 0.07}
KIND_SHARES = {"fact": 0.34, "event": 0.26, "note": 0.20, "preference": 0.12, "policy": 0.08}
LONG_SHARE = 1 / 25

_FIRST = (
    "Maria Ahmed Chen Priya Lucas Sofia Kenji Amara Jonas Elena Tomás Aisha Noah Mei Oliver Fatima Diego Hannah "
    "Yusuf Ingrid Ravi Chloe Mateo Leila Arjun Zoe Emeka Ana Viktor Nadia Samuel Yara Felix Grace Omar Lena Hugo "
    "Tara Kofi Julia Andrei Mina Pedro Sara Liam Ines Marco Aditi Erik Noor Daniel Camila Tobias Rosa Hiro Amelia "
    "Bruno Zainab Nils Clara Ibrahim Eva Rohan Alice Kwame Lucia Stefan Meera Pablo Freya Idris Nora Rafael Anya "
    "Theo Salma Malik Greta"
).split()
_LAST = (
    "Okafor Lindqvist Tanaka Moreau Kowalski Haddad Fernandes Nakamura Schmidt Adeyemi Rossi Petrov Gupta Novak "
    "Hansen Duarte Brennan Costa Yilmaz Sato Müller Osei Larsen Dubois Kaur Ivanova Mensah Berg Silva Hoffmann "
    "Nguyen Popescu Wright Alvarez Fischer Mwangi Kim Laurent Horvath Reyes Bauer Chowdhury Eriksen Santos Weber "
    "Abara Jensen Romano Kapoor Lopez Vogel Diaz Andersen Park Keller Banerjee Wolff Morales Hughes Sharma Lange "
    "Castro Nilsson Rahman Ferreira Koch Mbeki Olsen Varga Medina Frank Iyer Quinn Sousa Engel Ward Pereira Ito"
).split()
_SYL_A = (
    "Nor Vel Quant Lum Ark Sol Zen Bright Blue Iron Cedar Nova Apex Hel Orbi Terra Flux Kin Vant Cor Mar Lyr Pix Strat "
    "Ever Opti Tri Astra Radi Silver Gran Sky Penta Vox Alto Brio Cael Dyna Ember Fjord"
).split()
_SYL_B = (
    "wind ia ora ex eon ly ify stone field works mark gate wave path line core bridge point forge vale scope lane "
    "crest haven loop"
).split()
_CO_SUFFIX = (
    "Labs",
    "Systems",
    "Health",
    "Capital",
    "Logistics",
    "Analytics",
    "Foods",
    "Energy",
    "Bank",
    "Robotics",
    "Media",
    "Partners",
    "Software",
    "Insurance",
    "Retail",
    "Group",
    "Studios",
    "Networks",
    "Pharma",
    "AI",
)
_PROJ_A = (
    "Falcon Juniper Atlas Kestrel Meridian Cobalt Saffron Aurora Granite Harbor Lantern Mosaic Nimbus Orchid Pioneer "
    "Quartz Redwood Sapphire Tundra Umbra Vertex Willow Zephyr Beacon Cascade Delta Ember Fable Glacier Helix Indigo "
    "Jasper Krypton Lotus Monarch Nebula Onyx Prism Quill Raven Sierra Topaz Vanguard Wren"
).split()
_SYSTEMS = (
    "billing service|ingest pipeline|payments API|search index|data warehouse|customer portal|mobile app|auth "
    "gateway|notification service|feature-flag service|invoice generator|recommendation engine|event bus|CDN "
    "edge config|staging database|analytics dashboard|SSO integration|export job|fraud model|pricing engine|"
    "support inbox|onboarding flow|audit log|mail relay|ledger service|scheduler|metrics pipeline|image resizer|"
    "VPN|CI runners|release train|design system|partner API|order service|inventory sync|GraphQL layer|"
    "webhook dispatcher|rate limiter|backup vault|identity store|chat widget|reporting service|tax calculator|"
    "shipping estimator|catalog service|consent manager|session store|translation service|document store|"
    "email templates|warehouse robots firmware|loyalty programme|returns portal|KYC checks|payroll export|"
    "cost explorer|on-call rota|status page|incident bot"
).split("|")
_TECH = (
    "Kafka|PostgreSQL 17|Redis|Kubernetes|Terraform|Rust|Go|Python 3.13|Snowflake|BigQuery|ClickHouse|Elasticsearch|"
    "OpenSearch|gRPC|GraphQL|React Native|Next.js|Django|FastAPI|Airflow|dbt|Spark|Flink|S3|GCS|Azure Blob|Vault|"
    "Istio|Envoy|Nginx|Cloudflare Workers|Lambda|Fargate|Helm|ArgoCD|GitHub Actions|Buildkite|Datadog|Prometheus|"
    "Grafana|OpenTelemetry|Sentry|PagerDuty|Temporal|RabbitMQ|SQS|DynamoDB|MongoDB|Cassandra|pgvector|ONNX Runtime|"
    "WebAssembly|Kotlin|Swift|TypeScript|Bazel|Nix|Pulumi"
).split("|")
_CITIES = (
    "Berlin|Lagos|São Paulo|Singapore|Toronto|Warsaw|Nairobi|Lisbon|Osaka|Austin|Dublin|Bangalore|Madrid|Seoul|"
    "Stockholm|Cape Town|Mexico City|Zurich|Melbourne|Cairo|Helsinki|Bogotá|Vienna|Accra|Montreal|Prague|Jakarta|"
    "Amsterdam|Istanbul|Oslo|Manila|Edinburgh|Lyon|Kraków|Porto|Chennai|Denver|Tallinn|Kyoto|Santiago"
).split("|")
_REGIONS = ("EU", "US East", "US West", "APAC", "LATAM", "Africa", "UK", "Nordics")
_CAUSES = (
    "a certificate expired|a config push removed the retry policy|the connection pool ran out|a schema migration "
    "locked the orders table|a noisy neighbour saturated the disk|DNS resolution failed in one zone|a bad feature "
    "flag rollout|the upstream vendor rate-limited us|a memory leak in the worker|clock skew between nodes|a "
    "full disk on the primary|an expired API token|a deploy skipped the canary|a cron job ran twice|the cache "
    "stampeded after a flush|a dependency upgrade changed the default timeout|a load balancer health check was "
    "misconfigured|the queue backlog hit its limit|a runaway query without an index|an unbounded retry loop|"
    "TLS renegotiation storms|a replica fell behind by minutes|an untested failover script|a typo in the firewall "
    "rules|the batch job overlapped with peak traffic|a third-party SDK crashed on startup|a stale read after a "
    "resharding|the autoscaler hit its quota|a corrupted index segment|daylight saving time"
).split("|")
_REASONS = (
    "it halves the on-call load|the vendor contract ends in June|latency matters more than cost here|the audit "
    "requires it|two teams already run it in production|it removes a single point of failure|the licence costs "
    "tripled|customers asked for it in every QBR|it cuts the build time by a third|the old stack is out of support|"
    "we lack people who know the old code|it keeps data in the region|it simplifies the GDPR export|the benchmark "
    "showed a 4x gain|it is what the platform team supports|finance wants predictable spend|the SLA asks for 99.95%|"
    "it unblocks the mobile roadmap|security flagged the old path|nobody uses the legacy endpoint any more"
).split("|")
_TOPICS = (
    "pricing|hiring|the data strategy|go-to-market in Asia|security reviews|the SOC 2 audit|machine learning "
    "infrastructure|the partner programme|developer experience|observability|cost control|accessibility|the "
    "privacy roadmap|payments compliance|the board deck|the Series C|supplier risk|carbon reporting|customer "
    "churn|the migration off the monolith|API versioning|incident response|the annual budget|localisation"
).split("|")
_ROLES = (
    "head of data|VP engineering|procurement lead|CTO|staff engineer|account executive|security officer|product "
    "manager|CFO|head of partnerships|solutions architect|legal counsel|support lead|data protection officer|"
    "COO|engineering manager|principal designer|chief of staff|growth lead|platform lead"
).split("|")
_MEETINGS = (
    "design review|quarterly planning|architecture council|incident postmortem|security review|budget review|"
    "offsite|customer advisory board|launch readiness review|hiring committee|roadmap sync|vendor QBR|"
    "all-hands|tech radar session|pricing workshop"
).split("|")
_PREF_OBJ = (
    "written RFCs|short Loom videos|async stand-ups|pairing sessions|bullet-point summaries|detailed tables|"
    "Slack threads|email digests|dark mode dashboards|trunk-based development|feature branches|weekly 1:1s|"
    "fortnightly demos|metric alerts in Slack|phone calls for incidents|Notion pages|plain-text emails|"
    "Jira epics|Linear cycles|Figma comments|morning meetings|no-meeting Fridays|vim|VS Code|JetBrains IDEs|"
    "small pull requests|squash merges|SQL over notebooks|Grafana over Datadog|tea over coffee"
).split("|")
_CONTEXTS = (
    "status updates|code reviews|incident handovers|planning|design feedback|customer escalations|onboarding "
    "new hires|release notes|budget questions|hiring decisions|architecture proposals|weekly reporting"
).split("|")
_DECISIONS = (
    "move",
    "migrate",
    "rewrite",
    "retire",
    "split",
    "consolidate",
    "freeze",
    "outsource",
    "open-source",
    "re-platform",
    "sunset",
    "harden",
    "shard",
    "cache",
    "rate-limit",
)
_MONTHS = ("January February March April May June July August September October November December").split()
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
_ERRORS = ("502", "503", "504", "500", "429", "timeout", "5xx", "checksum mismatch", "deadlock", "OOM-kill")
_ROUNDS = ("seed", "Series A", "Series B", "Series C", "growth", "bridge")
_CUSTOMERS = (
    "enterprise customers",
    "EU customers",
    "free-tier users",
    "beta testers",
    "new sign-ups",
    "mobile users",
    "partners",
    "internal users",
)


@dataclass(frozen=True)
class ScopeSpec:
    level: str
    key: str
    name: str
    parent: str | None  # the parent's tag (level:key); None for the root

    @property
    def tag(self) -> str:
        return f"{self.level}:{self.key}"


@dataclass(frozen=True)
class LinkSpec:
    subject: str
    relationship: str  # one of graph.vocabulary.RELATIONSHIP_VALUES
    object: str | None
    span_start: int
    span_end: int


@dataclass(frozen=True)
class GeneratedMemory:
    tenant: int
    ordinal: int
    scope: str  # tag
    kind: str
    title: str
    content: str
    days_ago: float
    author: str  # user id of the author, "" for imports
    entities: tuple[tuple[str, str], ...]  # (name, kind)
    links: tuple[LinkSpec, ...]

    @property
    def text_hash(self) -> str:
        return hashlib.sha256(f"{self.title}\x1f{self.content}".encode()).hexdigest()


@dataclass
class TenantPlan:
    index: int
    slug: str
    name: str
    levels: tuple[str, ...]
    memories: int
    seed: int
    scopes: list[ScopeSpec] = field(default_factory=list)
    users: list[str] = field(default_factory=list)  # user ids, one per user scope
    user_names: dict[str, str] = field(default_factory=dict)
    people: list[str] = field(default_factory=list)  # staff first (the users), then external contacts
    companies: list[str] = field(default_factory=list)
    projects: list[str] = field(default_factory=list)
    meetings: list[str] = field(default_factory=list)

    @cached_property
    def by_level(self) -> dict[str, list[ScopeSpec]]:
        out: dict[str, list[ScopeSpec]] = {}
        for scope in self.scopes:
            out.setdefault(scope.level, []).append(scope)
        return out

    @cached_property
    def parents(self) -> dict[str, str | None]:
        return {scope.tag: scope.parent for scope in self.scopes}

    def chain(self, tag: str) -> list[str]:
        """The tag and its ancestors, nearest first."""
        out = []
        current: str | None = tag
        while current is not None:
            out.append(current)
            current = self.parents[current]
        return out


@dataclass
class CorpusPlan:
    seed: int
    size: int
    tenants: list[TenantPlan]

    @property
    def total(self) -> int:
        return sum(t.memories for t in self.tenants)


def corpus_plan(*, seed: int, size: int, small_tenants: int = SMALL_TENANTS, prefix: str = "corpus") -> CorpusPlan:
    """The tenants, their scope trees and name pools; tenant 0 is the large one with ``size`` memories. The
    trees depend on the seed and on ``size`` (users grow with the corpus: one per ~100 memories of the large
    tenant), so a corpus is identified by (seed, size)."""
    if size < 1:
        raise ValueError("size must be positive")
    tenants = [_tenant_plan(seed, 0, size, LARGE_LEVELS, prefix)]
    for index in range(1, small_tenants + 1):
        levels = SMALL_LEVELS[(index - 1) % len(SMALL_LEVELS)]
        tenants.append(_tenant_plan(seed, index, max(200, size // 50), levels, prefix))
    return CorpusPlan(seed=seed, size=size, tenants=tenants)


def _tenant_plan(seed: int, index: int, memories: int, levels: tuple[str, ...], prefix: str) -> TenantPlan:
    rng = random.Random(f"{seed}/tenant/{index}")
    company = _company(rng)
    plan = TenantPlan(
        index=index,
        slug=f"{prefix}-{seed}-{memories}-{index}",
        name=company,
        levels=levels,
        memories=memories,
        seed=seed,
    )
    n_users = max(24, memories // 100)
    root = ScopeSpec("org", "root", company, None)
    plan.scopes.append(root)
    frontier = [root]
    inner = levels[1:-1]
    # fan-out per inner level so that the team level ends with ~ n_users / 10 teams
    n_teams = max(3, n_users // 10)
    fan = max(2, round(n_teams ** (1 / max(1, len(inner)))))
    counter = 0
    for depth, level in enumerate(inner):
        last = depth == len(inner) - 1
        next_frontier = []
        for parent in frontier:
            width = fan if not last else max(2, -(-n_teams // len(frontier)))
            width = max(2, width + rng.randint(-1, 1))
            for _ in range(width):
                counter += 1
                name = _inner_name(rng, level)
                next_frontier.append(ScopeSpec(level, f"{level[:3]}{counter}", name, parent.tag))
        plan.scopes.extend(next_frontier)
        frontier = next_frontier
    teams = frontier
    taken: set[str] = set()
    for n in range(n_users):
        while True:
            person = f"{rng.choice(_FIRST)} {rng.choice(_LAST)}"
            if person not in taken:
                break
            person = f"{person} {rng.choice('ABCDEFGHJKLMNPRSTVW')}."  # a middle initial keeps names unique
            if person not in taken:
                break
        taken.add(person)
        user_id = f"u{n:05d}"
        team = teams[n % len(teams)] if n < len(teams) else rng.choice(teams)
        plan.scopes.append(ScopeSpec(levels[-1], user_id, person, team.tag))
        plan.users.append(user_id)
        plan.user_names[user_id] = person
        plan.people.append(person)
    for _ in range(max(40, n_users // 2)):  # external contacts
        person = f"{rng.choice(_FIRST)} {rng.choice(_LAST)}"
        if person not in taken:
            taken.add(person)
            plan.people.append(person)
    companies: set[str] = set()
    while len(companies) < max(60, n_users * 2):
        companies.add(_company(rng))
    plan.companies = sorted(companies)
    rng.shuffle(plan.companies)
    projects = {
        f"Project {a}" if rng.random() < 0.5 else f"{a} {rng.choice(('v2', 'Next', 'Lite', 'Core', 'One'))}"
        for a in rng.sample(_PROJ_A, len(_PROJ_A))
    }
    plan.projects = sorted(projects)
    rng.shuffle(plan.projects)
    plan.meetings = [f"{rng.choice(_PROJ_A)} {m}" for m in _MEETINGS for _ in range(3)]
    plan.meetings = list(dict.fromkeys(plan.meetings))
    return plan


def _company(rng: random.Random) -> str:
    return f"{rng.choice(_SYL_A)}{rng.choice(_SYL_B)} {rng.choice(_CO_SUFFIX)}"


def _inner_name(rng: random.Random, level: str) -> str:
    if level == "region":
        return rng.choice(_REGIONS)
    if level == "team":
        return f"{rng.choice(_SYSTEMS).title()} team"
    return f"{rng.choice(_TOPICS).title()} {level}"


# --- one memory -------------------------------------------------------------------------------------------------


def _skewed(rng: random.Random, items: list[str] | tuple[str, ...]) -> str:
    """A Zipf-like pick: the first items are much more popular than the tail."""
    return items[min(len(items) - 1, int(len(items) * rng.random() ** 2.2))]


class _Writer:
    def __init__(self, plan: TenantPlan, rng: random.Random, author_name: str | None) -> None:
        self.plan, self.rng, self.author_name = plan, rng, author_name
        self.parts: list[str] = []
        self.length = 0
        self.entities: dict[str, str] = {}
        self.links: list[LinkSpec] = []

    # slots
    def person(self, staff: bool = True) -> str:
        people = self.plan.people[: len(self.plan.users)] if staff else self.plan.people[len(self.plan.users) :]
        return _skewed(self.rng, people or self.plan.people)

    def company(self) -> str:
        return _skewed(self.rng, self.plan.companies)

    def project(self) -> str:
        return _skewed(self.rng, self.plan.projects)

    def meeting(self) -> str:
        return _skewed(self.rng, self.plan.meetings)

    def date(self) -> str:
        r = self.rng
        day, month, year = r.randint(1, 28), r.choice(_MONTHS), r.choice((2024, 2025, 2026))
        style = r.randrange(4)
        if style == 0:
            return f"{day} {month} {year}"
        if style == 1:
            return f"{month} {day}"
        if style == 2:
            return f"{year}-{_MONTHS.index(month) + 1:02d}-{day:02d}"
        return f"the {day}th of {month}"

    def money(self) -> str:
        r = self.rng
        return r.choice((f"${r.randint(2, 900)}k", f"€{r.randint(1, 60)}.{r.randint(0, 9)}M", f"${r.randint(1, 40)}M"))

    def sentence(self, text: str, mentions: list[tuple[str, str]], typed: list[tuple[str, str, str]]) -> None:
        """Add a sentence, the entities it names (name, kind) and its typed links (subject, relationship,
        object), with spans found in the sentence."""
        start = self.length + (1 if self.parts else 0)
        for name, kind in mentions:
            self.entities.setdefault(name, kind)
        for subject, relationship, obj in typed:
            offset = text.find(subject)
            span = (start + max(0, offset), start + max(0, offset) + len(subject))
            self.links.append(LinkSpec(subject, relationship, obj, *span))
        for name, _ in mentions:
            if not any(link.subject == name and link.relationship != v.MENTIONED for link in self.links):
                offset = text.find(name)
                self.links.append(
                    LinkSpec(name, v.MENTIONED, None, start + max(0, offset), start + max(0, offset) + len(name))
                )
        self.parts.append(text)
        self.length = start + len(text)


def _fact(w: _Writer) -> None:
    r = w.rng
    frame = r.randrange(12)
    if frame == 0:
        x, c, role = w.person(False), w.company(), r.choice(_ROLES)
        w.sentence(
            f"{x} works at {c} as {role} and is our main contact there.",
            [(x, "person"), (c, "company")],
            [(x, v.WORKS_AT, c)],
        )
    elif frame == 1:
        x, c, t = w.person(r.random() < 0.3), w.company(), r.choice(_TOPICS)
        w.sentence(f"{x} advises {c} on {t}.", [(x, "person"), (c, "company")], [(x, v.ADVISES, c)])
    elif frame == 2:
        a, b = w.company(), w.company()
        if a != b:
            w.sentence(
                f"{a} invested {w.money()} in {b} in the {r.choice(_ROUNDS)} round.",
                [(a, "company"), (b, "company")],
                [(a, v.INVESTED_IN, b)],
            )
    elif frame == 3:
        x, c, y = w.person(False), w.company(), r.randint(2009, 2024)
        w.sentence(
            f"{x} founded {c} in {y} after {r.randint(3, 15)} years in {r.choice(_TOPICS)}.",
            [(x, "person"), (c, "company")],
            [(x, v.FOUNDED, c)],
        )
    elif frame == 4:
        a, b = w.company(), w.company()
        if a != b:
            w.sentence(
                f"{a} acquired {b} in {r.choice(_MONTHS)} {r.randint(2018, 2026)} for {w.money()}.",
                [(a, "company"), (b, "company")],
                [(a, v.ACQUIRED, b)],
            )
    elif frame == 5:
        a, b = w.company(), w.company()
        if a != b:
            w.sentence(
                f"{a} is a partner of {b} for {r.choice(_TOPICS)} in {r.choice(_REGIONS)}.",
                [(a, "company"), (b, "company")],
                [(a, v.PARTNER_OF, b)],
            )
    elif frame == 6:
        x, y = w.person(), w.person()
        if x != y:
            w.sentence(f"{x} reports to {y} since {w.date()}.", [(x, "person"), (y, "person")], [(x, v.REPORTS_TO, y)])
    elif frame == 7:
        s, t, reg = r.choice(_SYSTEMS), r.choice(_TECH), r.choice(_REGIONS)
        w.sentence(
            f"The {s} runs on {t} in {reg} with {r.randint(2, 48)} replicas and a p95 of {r.randint(8, 900)} ms.",
            [],
            [],
        )
    elif frame == 8:
        p, s = w.project(), r.choice(_SYSTEMS)
        w.sentence(
            f"{p} depends on the {s}; its error budget is {r.choice(('0.1', '0.5', '1', '2'))}% per month.",
            [(p, "product")],
            [],
        )
    elif frame == 9:
        x, s = w.person(), r.choice(_SYSTEMS)
        w.sentence(f"{x} owns the {s} and is the escalation contact for {w.company()}.", [(x, "person")], [])
    elif frame == 10:
        c, n = w.company(), r.randint(3, 4000)
        w.sentence(
            f"{c} has {n} seats on the {r.choice(('Enterprise', 'Team', 'Growth', 'Starter'))} plan, "
            f"renewing on {w.date()} at {w.money()} a year.",
            [(c, "company")],
            [],
        )
    else:
        p, t = w.project(), r.choice(_TECH)
        w.sentence(
            f"{p} is built with {t} and {r.choice(_TECH)}; the repository is {p.lower().replace(' ', '-')}"
            f"-{r.randint(1, 99)}.",
            [(p, "product")],
            [],
        )


def _event(w: _Writer) -> None:
    r = w.rng
    frame = r.randrange(7)
    if frame == 0:
        s = r.choice(_SYSTEMS)
        w.sentence(
            f"Incident INC-{r.randint(1000, 99999)} on {w.date()}: the {s} returned {r.choice(_ERRORS)} "
            f"errors for {r.randint(2, 240)} minutes because {r.choice(_CAUSES)}.",
            [],
            [],
        )
    elif frame == 1:
        x, y, m = w.person(), w.person(), w.meeting()
        links = [(x, v.ATTENDED, m)] + ([(y, v.ATTENDED, m)] if y != x else [])
        w.sentence(
            f"{x} and {y} attended the {m} on {w.date()} in {r.choice(_CITIES)}.",
            [(x, "person"), (y, "person"), (m, "event")],
            links,
        )
    elif frame == 2:
        p = w.project()
        w.sentence(
            f"On {w.date()} we shipped {p} {r.randint(1, 9)}.{r.randint(0, 30)} to {r.randint(1, 100)}% of "
            f"{r.choice(_CUSTOMERS)}.",
            [(p, "product")],
            [],
        )
    elif frame == 3:
        x, c = w.person(), w.company()
        w.sentence(
            f"{x} met {c} in {r.choice(_CITIES)} on {w.date()} about {r.choice(_TOPICS)}; they asked for "
            f"a {r.choice(('discount', 'pilot', 'security questionnaire', 'roadmap call', 'SLA review'))}.",
            [(x, "person"), (c, "company")],
            [],
        )
    elif frame == 4:
        s = r.choice(_SYSTEMS)
        w.sentence(
            f"The postmortem for the {s} outage found that {r.choice(_CAUSES)}; action items are tracked in "
            f"OPS-{r.randint(100, 9999)}.",
            [],
            [],
        )
    elif frame == 5:
        m, x = w.meeting(), w.person()
        w.sentence(
            f"{x} attended the {m} and presented {r.choice(_TOPICS)}.",
            [(x, "person"), (m, "event")],
            [(x, v.ATTENDED, m)],
        )
    else:
        c = w.company()
        w.sentence(
            f"{c} signed a {r.randint(1, 5)}-year contract worth {w.money()} on {w.date()}.", [(c, "company")], []
        )


def _note(w: _Writer) -> None:
    r = w.rng
    frame = r.randrange(6)
    s, t = r.choice(_SYSTEMS), r.choice(_TECH)
    if frame == 0:
        w.sentence(
            f"Decision ({w.date()}): we will {r.choice(_DECISIONS)} the {s} to {t} by "
            f"Q{r.randint(1, 4)}, because {r.choice(_REASONS)}.",
            [],
            [],
        )
    elif frame == 1:
        x, y = w.person(), w.person()
        w.sentence(
            f"{x} proposed moving the {s} to {t}; {y} objected because {r.choice(_REASONS)}.",
            [(x, "person"), (y, "person")] if x != y else [(x, "person")],
            [],
        )
    elif frame == 2:
        p = w.project()
        w.sentence(f"We paused {p} until {r.choice(_MONTHS)}: {r.choice(_REASONS)}.", [(p, "product")], [])
    elif frame == 3:
        w.sentence(
            f"The budget for the {s} is {w.money()} for {r.randint(2025, 2027)}, {r.randint(5, 60)}% of it on {t}.",
            [],
            [],
        )
    elif frame == 4:
        x = w.person()
        w.sentence(f"{x} will lead the work on {r.choice(_TOPICS)}; first milestone {w.date()}.", [(x, "person")], [])
    else:
        w.sentence(f"We chose {t} over {r.choice(_TECH)} for the {s} after a {r.randint(2, 8)}-week spike.", [], [])


def _preference(w: _Writer) -> None:
    r = w.rng
    x = w.author_name or w.person()
    frame = r.randrange(4)
    if frame == 0:
        w.sentence(
            f"{x} prefers {r.choice(_PREF_OBJ)} over {r.choice(_PREF_OBJ)} for {r.choice(_CONTEXTS)}.",
            [(x, "person")],
            [],
        )
    elif frame == 1:
        w.sentence(
            f"{x} wants {r.choice(_PREF_OBJ)} on {r.choice(_WEEKDAYS)}s and no meetings before "
            f"{r.randint(8, 11)}:{r.choice(('00', '30'))}.",
            [(x, "person")],
            [],
        )
    elif frame == 2:
        w.sentence(
            f"{x} is in {r.choice(_CITIES)} and answers between {r.randint(7, 10)}:00 and "
            f"{r.randint(16, 19)}:00 local time.",
            [(x, "person")],
            [],
        )
    else:
        w.sentence(
            f"For {r.choice(_CONTEXTS)}, {x} likes {r.choice(_PREF_OBJ)} and dislikes {r.choice(_PREF_OBJ)}.",
            [(x, "person")],
            [],
        )


def _policy(w: _Writer) -> None:
    r = w.rng
    s = r.choice(_SYSTEMS)
    frame = r.randrange(4)
    if frame == 0:
        w.sentence(
            f"All changes to the {s} need a review from the {r.choice(_SYSTEMS)} owners and a rollback plan.", [], []
        )
    elif frame == 1:
        c = w.company()
        w.sentence(
            f"Data from {c} must stay in {r.choice(_REGIONS)}; retention is {r.choice((30, 90, 180, 365))} days.",
            [(c, "company")],
            [],
        )
    elif frame == 2:
        w.sentence(
            f"Production access to the {s} expires after {r.randint(1, 12)} hours and needs a ticket in "
            f"SEC-{r.randint(100, 9999)}.",
            [],
            [],
        )
    else:
        w.sentence(f"Spend above {w.money()} on {r.choice(_TECH)} needs sign-off from the {r.choice(_ROLES)}.", [], [])


_KINDS = {"fact": _fact, "event": _event, "note": _note, "preference": _preference, "policy": _policy}
_KIND_NAMES = tuple(KIND_SHARES)
_KIND_WEIGHTS = tuple(KIND_SHARES.values())


def memory_at(plan: CorpusPlan, tenant: int, ordinal: int) -> GeneratedMemory:
    """Memory ``ordinal`` of ``tenant`` (deterministic by seed, tenant and ordinal; independent of the size)."""
    tp = plan.tenants[tenant]
    rng = random.Random(f"{plan.seed}/{tenant}/{ordinal}")
    scope = _scope_for(tp, rng)
    author = scope.split(":", 1)[1] if scope.startswith(tp.levels[-1] + ":") else ""
    kind = rng.choices(_KIND_NAMES, _KIND_WEIGHTS)[0]
    w = _Writer(tp, rng, tp.user_names.get(author))
    long = rng.random() < LONG_SHARE
    sentences = rng.randint(12, 30) if long else rng.choice((1, 1, 2, 2, 2, 3, 3, 4))
    for n in range(sentences):
        k = kind if n == 0 or rng.random() < 0.6 else rng.choices(_KIND_NAMES, _KIND_WEIGHTS)[0]
        for _ in range(3):  # a frame may decline (two equal names): draw again
            before = len(w.parts)
            _KINDS[k](w)
            if len(w.parts) > before:
                break
    if not w.parts:
        _note(w)
    title = ""
    roll = rng.random()
    if long or roll < 0.12:
        title = _title(w, kind, rng)
    elif roll < 0.24 and w.entities:
        title = next(iter(w.entities))  # a page about an entity (its name as the title): an `about` link
        w.links.insert(0, LinkSpec(title, v.ABOUT, None, 0, 0))
    return GeneratedMemory(
        tenant=tenant,
        ordinal=ordinal,
        scope=scope,
        kind=kind,
        title=title,
        content=" ".join(w.parts),
        days_ago=round(rng.random() ** 1.5 * 720, 4),
        author=author,
        entities=tuple(w.entities.items()),
        links=tuple(w.links),
    )


def _title(w: _Writer, kind: str, rng: random.Random) -> str:
    lead = w.parts[0]
    words = lead.split()
    if kind == "event" and lead.startswith("Incident"):
        return " ".join(words[:2]).rstrip(":")
    if kind == "note":
        return "Decision: " + " ".join(words[2:9]).rstrip(",.;:")
    if kind == "policy":
        return f"Policy {rng.randint(1, 400)}: " + " ".join(words[:6]).rstrip(",.;:")
    return " ".join(words[:7]).rstrip(",.;:")


def _scope_for(tp: TenantPlan, rng: random.Random) -> str:
    levels = [level for level in LEVEL_SHARES if level in tp.by_level]
    weights = [LEVEL_SHARES[level] for level in levels]
    # levels the tenant does not have give their share to the team level
    missing = sum(share for level, share in LEVEL_SHARES.items() if level not in tp.by_level)
    weights = [w + (missing if level == "team" else 0.0) for level, w in zip(levels, weights, strict=True)]
    level = rng.choices(levels, weights)[0]
    return rng.choice(tp.by_level[level]).tag


def chunk_texts(memory: GeneratedMemory) -> list[str]:
    """What the embedding task embeds for this memory (``memories.services.indexing.chunk_texts_for`` without a
    glossary): title-prefixed overlapping windows of the content."""
    from memories.indexing_text import chunk_windows

    windows = chunk_windows(memory.content) or [memory.title]
    return [f"{memory.title}. {window}" if memory.title else window for window in windows]


# --- queries ----------------------------------------------------------------------------------------------------

QUERY_KINDS = ("keyword", "paraphrase", "relational", "name")
_STOP = frozenset(
    "the a an and or of to in on for with at by from is are was were be it its this that we our they their as "
    "after before about into over than then there has have had will would need needs since".split()
)
_RELATIONAL = {
    v.WORKS_AT: ("who works at {o}", "people at {o}", "who is our contact at {o}"),
    v.ADVISES: ("who advises {o}", "advisors of {o}"),
    v.INVESTED_IN: ("who invested in {o}", "which investors backed {o}", "what did {s} invest in"),
    v.FOUNDED: ("who founded {o}", "founders of {o}"),
    v.ACQUIRED: ("who acquired {o}", "what did {s} acquire"),
    v.PARTNER_OF: ("partners of {s}", "who is {s} partnered with"),
    v.ATTENDED: ("who attended the {o}", "which meetings did {s} attend"),
    v.REPORTS_TO: ("who reports to {o}", "who does {s} report to"),
}


@dataclass(frozen=True)
class BenchQuery:
    kind: str
    user_id: str
    text: str
    source: int  # the memory ordinal it was drawn from


def benchmark_queries(plan: CorpusPlan, *, count: int, seed: int = 7, tenant: int = 0) -> list[BenchQuery]:
    """``count`` questions for users of ``tenant`` (a quarter of each kind), each drawn from a memory the user
    can see (their own, their team's and ancestors' memories), deterministic by seed."""
    tp = plan.tenants[tenant]
    rng = random.Random(f"queries/{seed}/{plan.seed}/{tenant}")
    queries: list[BenchQuery] = []
    attempts = 0
    while len(queries) < count and attempts < count * 400:
        attempts += 1
        kind = QUERY_KINDS[len(queries) % len(QUERY_KINDS)]
        user = rng.choice(tp.users)
        ordinal = rng.randrange(tp.memories)
        memory = memory_at(plan, tenant, ordinal)
        if memory.scope not in tp.chain(f"{tp.levels[-1]}:{user}"):
            continue
        text = _query_for(kind, memory, rng)
        if text:
            queries.append(BenchQuery(kind, user, text, ordinal))
    return queries


def _query_for(kind: str, memory: GeneratedMemory, rng: random.Random) -> str | None:
    words = [w.strip(".,;:()") for w in memory.content.split()]
    if kind == "keyword":
        content = [w for w in words if w and w.lower() not in _STOP and not w[:1].isdigit()]
        if len(content) < 3:
            return None
        start = rng.randrange(max(1, len(content) - 3))
        return " ".join(content[start : start + rng.randint(2, 4)]).lower()
    if kind == "name":
        named = [name for name, _ in memory.entities]
        return rng.choice(named) if named else None
    if kind == "relational":
        typed = [link for link in memory.links if link.relationship in _RELATIONAL and link.object]
        if not typed:
            return None
        link = rng.choice(typed)
        frame = rng.choice(_RELATIONAL[link.relationship])
        return frame.format(s=link.subject, o=link.object)
    # paraphrase: the memory's gist in other words
    text = memory.content
    for pattern, question in (
        ("Incident INC-", "what went wrong with the {sys}"),
        ("Decision (", "what did we decide about the {sys}"),
        ("prefers", "how does {p} like to get {ctx}"),
        ("budget for the", "how much money do we spend on the {sys}"),
        ("postmortem", "root cause of the {sys} outage"),
        ("owns the", "who is responsible for the {sys}"),
        ("runs on", "what infrastructure hosts the {sys}"),
        ("must stay in", "where do we keep data for {c}"),
        ("shipped", "when did {proj} go live"),
        ("signed a", "contract details for {c}"),
    ):
        if pattern in text:
            sys_ = next((s for s in _SYSTEMS if s in text), "platform")
            person = next((n for n, k in memory.entities if k == "person"), "the team")
            ctx = next((c for c in _CONTEXTS if c in text), "updates")
            company = next((n for n, k in memory.entities if k == "company"), "the customer")
            project = next((n for n, k in memory.entities if k == "product"), "the release")
            return question.format(sys=sys_, p=person, ctx=ctx, c=company, proj=project)
    return None
