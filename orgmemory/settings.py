"""OrgMemory settings. Everything comes from the environment; production fails closed.

``ORGMEMORY_ENV`` selects the mode: ``production`` (the default: SECRET_KEY and ALLOWED_HOSTS are required,
DEBUG is off), ``development`` (``make run``: a generated SECRET_KEY kept under the data dir, localhost only,
DEBUG only with ``DEBUG=1``) or ``test`` (``orgmemory.settings_test``).
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from orgmemory.env import database_from_url, env_bool, env_int, env_list
from orgmemory.version import VERSION

BASE_DIR = Path(__file__).resolve().parent.parent
ORGMEMORY_ENV = os.environ.get("ORGMEMORY_ENV", "production").strip().lower()
if ORGMEMORY_ENV not in {"production", "development", "test"}:
    raise ImproperlyConfigured(f"ORGMEMORY_ENV must be production, development or test, got {ORGMEMORY_ENV!r}")
IS_PRODUCTION = ORGMEMORY_ENV == "production"

ORGMEMORY_DATA_DIR = Path(os.environ.get("ORGMEMORY_DATA_DIR") or BASE_DIR / ".orgmemory").resolve()


def _development_secret_key() -> str:
    path = ORGMEMORY_DATA_DIR / "secret_key"
    if not path.exists():
        ORGMEMORY_DATA_DIR.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if IS_PRODUCTION:
        raise ImproperlyConfigured("SECRET_KEY is not set. Set it, or set ORGMEMORY_ENV=development for a local run.")
    SECRET_KEY = _development_secret_key()

# Off unless asked for, in development too: a technical 500 page shows the settings, the request and every frame's
# local variables (memory texts, keys) to whoever triggered the error. DEBUG=1 turns it on outside production.
DEBUG = env_bool("DEBUG", default=False)
if IS_PRODUCTION and DEBUG:
    raise ImproperlyConfigured("DEBUG must be off in production (ORGMEMORY_ENV=production).")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [] if IS_PRODUCTION else ["127.0.0.1", "localhost", "testserver"])
if IS_PRODUCTION and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS is not set (comma-separated host names).")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "orgmemory",  # first, so its runserver (with the pgvector check) wins over staticfiles'
    "orgmemory.admin_site.OrgMemoryAdminConfig",  # django.contrib.admin with OrgMemory's site as admin.site
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI assets served by us, not a CDN
    "tree_queries",
    "memories",
    "graph",
    "retrieval",
    "memories.curation",  # last: its post_migrate hand-off sets the role groups once every app's permissions exist
]
# The benchmark, evaluation and load commands (no models): a production deployment never carries them.
if ORGMEMORY_ENV in {"development", "test"} or env_bool("ORGMEMORY_BENCH", False):
    INSTALLED_APPS.append("bench")

MIDDLEWARE = [
    "orgmemory.api.middleware.RequestIdMiddleware",  # first: every response, errors included, gets X-Request-ID
    "orgmemory.observability.middleware.ObservabilityMiddleware",  # request metrics; the request id for the logs
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "orgmemory.urls"
WSGI_APPLICATION = "orgmemory.wsgi.application"
ASGI_APPLICATION = "orgmemory.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- database ---------------------------------------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "").strip()
# The embedded server trusts local connections without a password: fine for a laptop, never a silent fallback in
# production, which must name its database or ask for the embedded one explicitly.
_EMBEDDED_ASKED = env_bool("ORGMEMORY_EMBEDDED_DB", False)
if DATABASE_URL and _EMBEDDED_ASKED:
    raise ImproperlyConfigured("Set DATABASE_URL or ORGMEMORY_EMBEDDED_DB=1, not both.")
if IS_PRODUCTION and not DATABASE_URL and not _EMBEDDED_ASKED:
    raise ImproperlyConfigured(
        "DATABASE_URL is not set. Set it (postgresql://user:pass@host:port/db), or set ORGMEMORY_EMBEDDED_DB=1 to "
        "run production on the embedded PostgreSQL (local trust authentication) on purpose."
    )
ORGMEMORY_EMBEDDED_DB = not DATABASE_URL
if ORGMEMORY_EMBEDDED_DB:
    from orgmemory.embedded_db import embedded_database_url

    DATABASE_URL = embedded_database_url(ORGMEMORY_DATA_DIR)
DATABASES = {"default": database_from_url(DATABASE_URL)}
# persistent connections: a gunicorn worker reuses its connection for CONN_MAX_AGE seconds instead of opening one
# per request (the test suite keeps 0: its threads must not hold connections past a test); checked before reuse
DATABASES["default"]["CONN_MAX_AGE"] = env_int("CONN_MAX_AGE", 0 if ORGMEMORY_ENV == "test" else 60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = env_bool("CONN_HEALTH_CHECKS", True)
# Streaming replicas (comma-separated URLs) for the lag-tolerant reads, routed by orgmemory.db_routing: never
# migrated, never given a test database of their own, and given up on quickly when they do not answer.
DATABASE_REPLICA_URLS = env_list("DATABASE_REPLICA_URLS", [])
ORGMEMORY_REPLICA_ALIASES = []
for _index, _url in enumerate(DATABASE_REPLICA_URLS, start=1):
    _replica = database_from_url(_url)
    _replica["OPTIONS"].setdefault("connect_timeout", str(env_int("ORGMEMORY_REPLICA_CONNECT_TIMEOUT", 2)))
    _replica.update(
        CONN_MAX_AGE=DATABASES["default"]["CONN_MAX_AGE"],
        CONN_HEALTH_CHECKS=DATABASES["default"]["CONN_HEALTH_CHECKS"],
        TEST={"MIRROR": "default"},
    )
    DATABASES[f"replica_{_index}"] = _replica
    ORGMEMORY_REPLICA_ALIASES.append(f"replica_{_index}")
DATABASE_ROUTERS = ["orgmemory.db_router.ReplicaRouter"]
ORGMEMORY_REPLICA_MAX_LAG_MS = env_int("ORGMEMORY_REPLICA_MAX_LAG_MS", 1000)  # a replica further behind is skipped
ORGMEMORY_REPLICA_STATUS_TTL_MS = env_int("ORGMEMORY_REPLICA_STATUS_TTL_MS", 20)  # how long a probe is trusted
ORGMEMORY_REPLICA_RETRY_SECONDS = env_int("ORGMEMORY_REPLICA_RETRY_SECONDS", 2)  # a down replica is retried after
ORGMEMORY_REPLICA_MARKER_SECONDS = env_int("ORGMEMORY_REPLICA_MARKER_SECONDS", 300)  # read-your-writes memory
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = ORGMEMORY_DATA_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]

# --- HTTPS: on by default in production, each switch overridable from the environment -----------------------
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", IS_PRODUCTION)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", IS_PRODUCTION)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", IS_PRODUCTION)
SECURE_REDIRECT_EXEMPT = [r"^api/v1/health\Z"]  # load-balancer probes often speak plain HTTP
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 24 * 3600 if IS_PRODUCTION else 0)
if SECURE_HSTS_SECONDS < 0:
    raise ImproperlyConfigured(f"SECURE_HSTS_SECONDS must be >= 0, got {SECURE_HSTS_SECONDS}")
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
# X-Forwarded-Proto is anyone's to send: believe it only behind a proxy that sets it (and strips the client's).
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("ORGMEMORY_TRUST_PROXY", False) else None

# --- Celery ---------------------------------------------------------------------------------------------------
# No broker → tasks run inline right after the transaction commits (announced at start-up).
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "").strip()
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
if CELERY_TASK_ALWAYS_EAGER:
    CELERY_BROKER_URL = "memory://localhost/"  # never contacted in eager mode; keeps kombu from guessing localhost
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", "").strip() or None
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = "orgmemory"
# Each app owns its sweep; without a broker the orgmemory-sweeper thread (memories.background) runs these inline,
# each entry at its own schedule (checked every ORGMEMORY_SWEEP_AFTER_SECONDS).
ORGMEMORY_SWEEP_AFTER_SECONDS = env_int("ORGMEMORY_SWEEP_AFTER_SECONDS", 60)
CELERY_BEAT_SCHEDULE = {
    "sweep-unindexed-memories": {
        "task": "memories.tasks.sweep_unindexed",
        "schedule": float(ORGMEMORY_SWEEP_AFTER_SECONDS),
    },
    "sweep-unextracted-links": {
        "task": "graph.tasks.sweep_unextracted",
        "schedule": float(ORGMEMORY_SWEEP_AFTER_SECONDS),
    },
    "sync-vector-indexes": {"task": "retrieval.tasks.sync_vector_indexes", "schedule": 300.0},
}

# --- OrgMemory ------------------------------------------------------------------------------------------------
ORGMEMORY_EMBEDDER = os.environ.get("ORGMEMORY_EMBEDDER", "onnx-int8").strip()  # or onnx, sentence-transformers
ORGMEMORY_EMBEDDING_MODEL = os.environ.get("ORGMEMORY_EMBEDDING_MODEL", "").strip()  # "" → the packaged MiniLM
ORGMEMORY_EMBED_THREADS = env_int("ORGMEMORY_EMBED_THREADS", 1)
ORGMEMORY_EMBED_BATCH_SIZE = env_int("ORGMEMORY_EMBED_BATCH_SIZE", 32)
# the vector arm (retrieval/vector_indexes.py): a scope with this many chunks gets its own partial HNSW index (built
# by the sync on the beat schedule), a smaller one is scanned exactly; builds use this much maintenance_work_mem
ORGMEMORY_VECTOR_INDEX_MIN_CHUNKS = env_int("ORGMEMORY_VECTOR_INDEX_MIN_CHUNKS", 2000)
ORGMEMORY_VECTOR_INDEX_BUILD_MEMORY = os.environ.get("ORGMEMORY_VECTOR_INDEX_BUILD_MEMORY", "").strip() or "512MB"

# The search's conversational and truth steps (retrieval.conversation), in the order they run: a benchmark leaves one
# out to measure what it does (ORGMEMORY_SEARCH_STEPS=participants,phatic,… ; set but empty: none). A name no step
# has stops start-up (retrieval.apps), so a misspelt step is never silently skipped.
ORGMEMORY_SEARCH_STEPS = tuple(
    env_list(
        "ORGMEMORY_SEARCH_STEPS",
        [
            "participants",
            "third_party",
            "phatic",
            "introductions",
            "follow_ups",
            "replies",
            "exchanges",
            "truth",
            "later_statements",
        ],
    )
)

# --- REST API -------------------------------------------------------------------------------------------------
# Deny by default: API views extend memories.api.base.ApiView, which declares its own authentication and
# permissions; any other DRF view gets none. Throttling is per API key (ORGMEMORY_API_RATE, e.g. "1200/minute").
# Throttle counters (and any other cache use) must be shared by every API process in production: set
# ORGMEMORY_CACHE_URL=redis://…; unset, each process counts for itself (fine for one process / development).
CACHE_URL = os.environ.get("ORGMEMORY_CACHE_URL", "").strip()
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "orgmemory"}
    )
}
# Read-your-writes keeps each user's last write position in this cache: with replicas, every API process must see
# the same one (a per-process cache would let a user's next request, on another worker, miss their own write).
if DATABASE_REPLICA_URLS and not CACHE_URL and ORGMEMORY_ENV != "test":
    raise ImproperlyConfigured("DATABASE_REPLICA_URLS needs a shared cache: set ORGMEMORY_CACHE_URL=redis://...")

# Abuse limits, per client address (NUM_PROXIES says how to find it behind proxies): bad API keys → 429 for the
# address until the window ends; failed admin sign-ins per address and username → the form refuses for a while.
ORGMEMORY_BAD_KEY_RATE = os.environ.get("ORGMEMORY_BAD_KEY_RATE", "").strip() or "20/minute"
if not re.fullmatch(r"[1-9][0-9]*/(s|sec|second|m|min|minute|h|hour|d|day)", ORGMEMORY_BAD_KEY_RATE):
    raise ImproperlyConfigured(f"ORGMEMORY_BAD_KEY_RATE must look like 20/minute, got {ORGMEMORY_BAD_KEY_RATE!r}")
ORGMEMORY_LOGIN_FAILURE_LIMIT = env_int("ORGMEMORY_LOGIN_FAILURE_LIMIT", 10)
ORGMEMORY_LOGIN_LOCKOUT_SECONDS = env_int("ORGMEMORY_LOGIN_LOCKOUT_SECONDS", 15 * 60)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["memories.api.auth.ApiKeyAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["memories.api.auth.DenyAll"],
    "DEFAULT_THROTTLE_CLASSES": ["memories.api.throttling.ApiKeyRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {"api_key": os.environ.get("ORGMEMORY_API_RATE", "").strip() or "1200/minute"},
    "DEFAULT_PARSER_CLASSES": ["orgmemory.api.parsers.StrictJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "orgmemory.api.exceptions.exception_handler",
    "UNAUTHENTICATED_USER": None,
    "NUM_PROXIES": env_int("NUM_PROXIES", 0),
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "OrgMemory API",
    "DESCRIPTION": (
        "Long-term memory for AI agents, shared along an organisation's hierarchy. Authenticate with "
        "`Authorization: Bearer <api key>`; every call names the `user_id` the agent acts for, and sees only that "
        'user\'s scope chain. Errors are `{"error": {"code", "message", "details"}}`.'
    ),
    "VERSION": VERSION,  # the package's, as /health reports it
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "MemoryKindEnum": "memories.models.memory.MemoryKind.choices",
        "EntityKindEnum": "graph.models.EntityKind.choices",
    },
}
SPECTACULAR_SETTINGS.update(SWAGGER_UI_DIST="SIDECAR", SWAGGER_UI_FAVICON_HREF="SIDECAR", REDOC_DIST="SIDECAR")

# One JSON object per line (ORGMEMORY_LOG_FORMAT=json, the production default) or plain text (development, tests);
# either way every line names the request it was logged for (request_id, the response's X-Request-ID).
ORGMEMORY_LOG_FORMAT = os.environ.get("ORGMEMORY_LOG_FORMAT", "").strip().lower() or (
    "json" if IS_PRODUCTION else "text"
)
if ORGMEMORY_LOG_FORMAT not in {"json", "text"}:
    raise ImproperlyConfigured(f"ORGMEMORY_LOG_FORMAT must be json or text, got {ORGMEMORY_LOG_FORMAT!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s]: %(message)s"},
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        },
        "json": {"()": "orgmemory.logfilters.json_formatter"},
    },
    # request logs name method, path and status: no query strings (user_id, q), no user/session ids, no bodies
    "filters": {
        "redact_requests": {"()": "orgmemory.logfilters.RedactRequestDetails"},
        "request_id": {"()": "orgmemory.logfilters.RequestIdFilter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json" if ORGMEMORY_LOG_FORMAT == "json" else "plain",
            "filters": ["request_id"],
        },
        "django.server": {  # Django's, re-declared
            "class": "logging.StreamHandler",
            "formatter": "json" if ORGMEMORY_LOG_FORMAT == "json" else "django.server",
            "filters": ["request_id"],
        },
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "pgserver": {"level": "WARNING"},
        "django.request": {"filters": ["redact_requests"]},
        "django.server": {  # runserver's access log
            "handlers": ["django.server"],
            "filters": ["redact_requests"],
            "level": "INFO",
            "propagate": False,
        },
    },
}
