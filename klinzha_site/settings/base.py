"""Settings shared by every environment, read from the environment with django-environ."""

from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parents[2]

env = environ.Env(
    DJANGO_DEBUG=(bool, False),
    DJANGO_ALLOWED_HOSTS=(list, ["127.0.0.1", "localhost"]),
)

SECRET_KEY = env("DJANGO_SECRET_KEY", default="insecure-development-key-change-me")
DEBUG = env("DJANGO_DEBUG")
ALLOWED_HOSTS = env("DJANGO_ALLOWED_HOSTS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "axes",
    "tournaments",
    "games",
]

MIDDLEWARE = [
    # First, so that every response carries the Content-Security-Policy (the fast path's too).
    "klinzha_site.security.ContentSecurityPolicyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Static files (the API docs' Swagger UI and Redoc among them) from our own server.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A visitor's published page again, from the cache, before the rest of the stack (the
    # control characters check too: only a request with the very path and query of one
    # the whole stack answered 200 is answered here).
    "klinzha_site.page_cache.PublishedPageMiddleware",
    # A view that lost the database connection: a read once more on a new one, else a 503
    # with Retry-After (klinzha_site.db_outage).
    "klinzha_site.db_outage.DatabaseOutageMiddleware",
    # Before any view reads them: NUL and control characters in paths and forms are a 400.
    "klinzha_site.parsers.ControlCharactersMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its lockout response.
    "axes.middleware.AxesMiddleware",
]

# Login rate limiting (django-axes): after AXES_FAILURE_LIMIT failed logins for one user
# name from one address, that pair is locked out for AXES_COOLOFF_TIME hours.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # Per account from every address: a growing delay, never a lockout (see the module).
    "klinzha_site.login_delay.LoginDelayBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("KZ_LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.float("KZ_LOGIN_COOLOFF_HOURS", default=0.25)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# Beside it, per account across all addresses (klinzha_site.login_delay, counted in the
# cache): after KZ_LOGIN_DELAY_AFTER failures each attempt waits KZ_LOGIN_DELAY_FIRST
# seconds, doubled with each further failure up to KZ_LOGIN_DELAY_MAX; the counts go
# KZ_LOGIN_DELAY_FORGET_HOURS after the last failure, or at the account's next login.
KZ_LOGIN_DELAY_AFTER = env.int("KZ_LOGIN_DELAY_AFTER", default=10)
KZ_LOGIN_DELAY_FIRST = env.float("KZ_LOGIN_DELAY_FIRST", default=2.0)
KZ_LOGIN_DELAY_MAX = env.float("KZ_LOGIN_DELAY_MAX", default=300.0)
KZ_LOGIN_DELAY_FORGET_HOURS = env.float("KZ_LOGIN_DELAY_FORGET_HOURS", default=24.0)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "after-login"  # officials to /arbiter/, players to their games
LOGOUT_REDIRECT_URL = "tournaments:home"

# Invitations, password resets and the players' notices (issue 15). The console backend
# prints them locally; production names its SMTP server in the DJANGO_EMAIL_* variables.
EMAIL_BACKEND = env(
    "DJANGO_EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend"
)
EMAIL_HOST = env("DJANGO_EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("DJANGO_EMAIL_PORT", default=25)
EMAIL_HOST_USER = env("DJANGO_EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env("DJANGO_EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("DJANGO_EMAIL_USE_TLS", default=False)
EMAIL_TIMEOUT = env.int("DJANGO_EMAIL_TIMEOUT", default=10)
DEFAULT_FROM_EMAIL = env(
    "DJANGO_DEFAULT_FROM_EMAIL", default="Klin Zha tournaments <noreply@localhost>"
)
# An invitation's set-password link lasts as long as a password reset's (Django's
# token generator reads this), three days.
PASSWORD_RESET_TIMEOUT = env.int("DJANGO_PASSWORD_RESET_TIMEOUT", default=3 * 24 * 3600)
# Where the links of mails sent without a request (notifications) point.
KZ_SITE_URL = env("KZ_SITE_URL", default="http://127.0.0.1:8000")

ROOT_URLCONF = "klinzha_site.urls"

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
                "django.template.context_processors.i18n",
            ],
        },
    },
]

WSGI_APPLICATION = "klinzha_site.wsgi.application"
ASGI_APPLICATION = "klinzha_site.asgi.application"

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# A cached published page's one query (klinzha_site.page_cache) is a statement prepared on the
# connection; behind a pooler in transaction mode that cannot keep prepared statements
# (PgBouncer before 1.21), set this to False.
KZ_PAGE_VALIDATOR_PREPARED = env.bool("KZ_PAGE_VALIDATOR_PREPARED", default=True)
# The release this process runs (a tag, a commit): cached pages and their ETags carry it, so
# no release serves another's bytes. Unset, a hash of the code, templates and translations
# stands for it (klinzha_site.build).
KZ_BUILD_ID = env("KZ_BUILD_ID", default="").strip()
# Every cache key carries a hash of the database (engine, host, port, name) and of this
# (klinzha_site.cache_keys): set it when two deployments share one Redis and their databases
# are named alike on hosts spelled alike (each machine its own 127.0.0.1).
KZ_DEPLOYMENT_ID = env("KZ_DEPLOYMENT_ID", default="").strip()
# Published pages while the data changes (klinzha_site.page_cache): one process renders a
# page's new version, holding a lock for at most KZ_PAGE_RENDER_LOCK_SECONDS; meanwhile the
# others answer with the version before, if what it shows was read less than
# KZ_PAGE_STALE_SECONDS ago (else they wait for the render, at most
# KZ_PAGE_RENDER_WAIT_SECONDS, then render it themselves).
KZ_PAGE_RENDER_LOCK_SECONDS = env.float("KZ_PAGE_RENDER_LOCK_SECONDS", default=5.0)
KZ_PAGE_STALE_SECONDS = env.float("KZ_PAGE_STALE_SECONDS", default=3.0)
KZ_PAGE_RENDER_WAIT_SECONDS = env.float("KZ_PAGE_RENDER_WAIT_SECONDS", default=2.0)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env("REDIS_URL", default="")
if REDIS_URL:
    # With Redis down the cache misses (django-redis ignores its errors) and pages compute
    # what it would have held; a dead server costs at most the short timeouts. The outage is
    # logged once when it starts and once when it ends (klinzha_site.redis_outage).
    CACHES = {
        "default": {
            "BACKEND": "klinzha_site.redis_outage.OutageLoggedRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env("CACHE_KEY_PREFIX", default="kz"),
            "KEY_FUNCTION": "klinzha_site.cache_keys.cache_key_make",
            "OPTIONS": {
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": 0.5,
                "SOCKET_TIMEOUT": 0.5,
            },
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    # kombu's Redis transport, less the AttributeError that killed workers in an outage.
    CELERY_BROKER_TRANSPORT = "klinzha_site.broker:Transport"
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "KEY_FUNCTION": "klinzha_site.cache_keys.cache_key_make",
        }
    }
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True


def channel_layers(redis_url: str) -> dict[str, dict[str, object]]:
    """Online play's fan-out (games/live_consumer.py): a battle's messages to every socket
    watching it, through Redis when there is one (several ASGI processes), in the process's
    memory otherwise (`make run`, one process). Nothing is read back from it: PostgreSQL
    holds the battles (docs/online-play.md)."""
    if redis_url:
        return {
            "default": {
                "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                "CONFIG": {"hosts": [redis_url]},
            }
        }
    return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


CHANNEL_LAYERS = channel_layers(REDIS_URL)
ASGI_APPLICATION = "klinzha_site.asgi.application"
# A change's worker renders the published pages readers read lately before they ask again
# (klinzha_site.page_prerender): with workers only (REDIS_URL), else readers render them.
KZ_PAGE_PRERENDER = env.bool("KZ_PAGE_PRERENDER", default=bool(REDIS_URL))
# Those renders have a queue of their own ("pages"), consumed by the Procfile's worker and
# its pages line (one process kept for them): a burst of record validations never holds a
# render back. A render still queued after KZ_PAGE_PRERENDER_EXPIRES seconds is dropped
# unrun (its readers rendered the page meanwhile, and a newer version is on its way).
CELERY_TASK_ROUTES = {"tournaments.published_pages_render": {"queue": "pages"}}
KZ_PAGE_PRERENDER_EXPIRES = env.float("KZ_PAGE_PRERENDER_EXPIRES", default=30.0)
# The garbage collector's thresholds in the web, socket and worker processes
# (klinzha_site/gc_tuning.py): "50000,20,10" unless set.
KZ_GC_THRESHOLDS = tuple(env.list("KZ_GC_THRESHOLDS", cast=int, default=[50_000, 20, 10]))
# A worker killed mid-task must not lose it: acknowledge only once the task is done.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Unacknowledged tasks (a worker killed mid-task) go back to the queue after this many seconds.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=3600),
    "unacked_restore_interval": env.int("CELERY_UNACKED_RESTORE_INTERVAL", default=10),
    "unacked_restore_throttle": env.int("CELERY_UNACKED_RESTORE_THROTTLE", default=10),
    # Queueing from a request gives up within about a second when the broker is down (the
    # record stays stored as queued for the sweep); a worker's own reconnection loop keeps
    # retrying for as long as it takes (CELERY_BROKER_CONNECTION_MAX_RETRIES).
    "socket_connect_timeout": 1.0,
    "interval_start": 0,
    "interval_step": 0.25,
    "interval_max": 0.5,
    "max_retries": 2,
    # A broker that keeps the connection open and stops answering fails a send, not hangs it.
    "socket_timeout": 5.0,
}
CELERY_BROKER_CONNECTION_TIMEOUT = env.float("CELERY_BROKER_CONNECTION_TIMEOUT", default=1.0)
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# The sweep (games.services.submission_requeue_stale) from the beat process (`celery beat`,
# or `worker --beat` on one machine): records waiting longer than KZ_REQUEUE_AFTER are queued
# again, so nothing stranded waits more than KZ_REQUEUE_AFTER + KZ_SWEEP_EVERY seconds.
KZ_SWEEP_EVERY = env.float("KZ_SWEEP_EVERY", default=15.0)
CELERY_BEAT_SCHEDULE = {
    "requeue-stale-records": {"task": "games.requeue_stale", "schedule": KZ_SWEEP_EVERY},
    "fail-stale-pairing-jobs": {
        "task": "tournaments.pairing_jobs_sweep",
        "schedule": KZ_SWEEP_EVERY,
    },
    # Closes the rating periods that have passed and re-rates those a correction reached.
    "rating-periods": {"task": "tournaments.rating_periods_sweep", "schedule": KZ_SWEEP_EVERY},
    # Ends the live battles whose flag fell while no player's socket was there to ask.
    "live-flags": {"task": "games.live_flags_sweep", "schedule": KZ_SWEEP_EVERY},
}
# A request waits at most this long to hand a task to the broker; after a failure the broker
# is left alone for KZ_BROKER_RETRY_AFTER seconds (klinzha_site.tasking).
KZ_TASK_SEND_DEADLINE = env.float("KZ_TASK_SEND_DEADLINE", default=1.0)
KZ_BROKER_RETRY_AFTER = env.float("KZ_BROKER_RETRY_AFTER", default=5.0)
KZ_VALIDATION_DELAY = env.float("KZ_VALIDATION_DELAY", default=0.0)
KZ_PAIRING_DELAY = env.float("KZ_PAIRING_DELAY", default=0.0)
# A record still waiting this many seconds is queued again (by a worker starting, a page
# asking for its status, or the beat schedule).
KZ_REQUEUE_AFTER = env.float("KZ_REQUEUE_AFTER", default=30.0)
# A record whose validation raised (or whose worker stopped) this many times is `failed`,
# with the reason, until an arbiter queues it again (games.services.validation).
KZ_VALIDATION_MAX_ATTEMPTS = env.int("KZ_VALIDATION_MAX_ATTEMPTS", default=3)
# A pairing job (tournaments.services.pairing_jobs) queued or running whose progress has not
# moved for this many seconds is failed by the sweep, and the round can be paired again.
KZ_PAIRING_STALE_AFTER = env.float("KZ_PAIRING_STALE_AFTER", default=120.0)
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("it", "Italiano"), ("fr", "Français"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# The site's own stylesheet and icons (static/klinzha/), beside the apps' static folders.
STATICFILES_DIRS = [BASE_DIR / "static"]
# Outside production, whitenoise serves straight from the apps' static folders (no
# collectstatic needed); production serves the collected, compressed files.
WHITENOISE_USE_FINDERS = True

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # JSON with a depth limit, and no control characters in any body (klinzha_site.parsing).
    "DEFAULT_PARSER_CLASSES": [
        "klinzha_site.parsers.BoundedJSONParser",
        "klinzha_site.parsers.BoundedFormParser",
        "klinzha_site.parsers.BoundedMultiPartParser",
    ],
    "EXCEPTION_HANDLER": "klinzha_site.api_errors.api_exception_handler",
    "DEFAULT_PAGINATION_CLASS": "klinzha_site.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 100,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Klin Zha tournament system API",
    "DESCRIPTION": "Tournaments, players, pairings, games, records and standings.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and Redoc from our static files, never a CDN: the docs work offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Operation ids are named after the path below /api/ (the schema also lists the site's
    # key at /.well-known/, which would otherwise make "/" the common prefix and rename every
    # operation clients know).
    "SCHEMA_PATH_PREFIX": r"/api/",
    # Several fields name a colour (the first placer's, the clock that ran): one enum.
    "ENUM_NAME_OVERRIDES": {
        "ColourEnum": "tournaments.models.Colour",
        # The games list and the records API both describe a game: one name for each set.
        "GameKindEnum": "tournaments.models.Game.Kind",
        "GameResultEnum": "tournaments.models.Game.Result",
        # A status or kind the resources and their actions' answers share: the names the
        # schema always gave them.
        "EntrantStatusEnum": "tournaments.models.Registration.Status",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        "PairingJobStatusEnum": "tournaments.models.PairingJob.Status",
        "IrregularityKindEnum": "games.models.Irregularity.Kind",
        # A result entered (one game's or a round's at once), and the entered result a ruling
        # on a disagreement was made on.
        "ResultResultEnum": "tournaments.api.inputs.RESULTS_ENTERED",
    },
}

# The audit trail's keyed hashes (HMAC-SHA256): a key of its own, never SECRET_KEY. New
# entries are hashed with KZ_AUDIT_KEY under the name KZ_AUDIT_KEY_ID; to rotate, move the
# old pair into KZ_AUDIT_RETIRED_KEYS ("id=key,id=key") and set a new key with a new id: the
# entries written before keep verifying with their key, new ones chain on under the new one.
KZ_AUDIT_KEY_ID = env("KZ_AUDIT_KEY_ID", default="dev")
KZ_AUDIT_KEY = env("KZ_AUDIT_KEY", default="insecure-development-audit-key")
KZ_AUDIT_RETIRED_KEYS = env.dict("KZ_AUDIT_RETIRED_KEYS", default={})

# The site's Ed25519 key, which signs the record of every battle played online: a PEM file
# (`kz keygen` writes one) named by KZ_SITE_KEY_FILE, its id KZ_SITE_KEY_ID. Rotated as the
# audit keys are: move the old id with its public key (base64) into KZ_SITE_RETIRED_KEYS
# ("id=key,id=key"), then name a new file and a new id; the records signed before keep
# verifying. Without the file online play refuses to start.
KZ_SITE_KEY_FILE = env("KZ_SITE_KEY_FILE", default="")
KZ_SITE_KEY_ID = env("KZ_SITE_KEY_ID", default="site-1")
KZ_SITE_RETIRED_KEYS = env.dict("KZ_SITE_RETIRED_KEYS", default={})

# Ratings (docs/ratings.md): the days after a period's end when it closes even with a result
# pending (that result then re-rates as a correction does).
KZ_RATING_FORCED_CLOSE_DAYS = env.int("KZ_RATING_FORCED_CLOSE_DAYS", default=14)
