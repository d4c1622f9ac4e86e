"""The one settings module. Everything that differs between machines comes from the environment
through the typed readers in handsite/env.py; a bad value stops start-up with a clear error.

The variables that matter are listed in README.md ("Configuration").
"""

import hashlib
import os
import tempfile
from email.utils import formataddr
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _
from kombu import Queue

from handsite.env import env_bool, env_choice, env_int, env_list, env_str, env_url

BASE_DIR = Path(__file__).resolve().parent.parent
# Local state (SQLite file, e-mails written in development, the embedded Celery broker). Git-ignored.
VAR_DIR = Path(env_str("HANDSITE_VAR_DIR", str(BASE_DIR / "var")))

# Development first, like `startproject`: production sets DEBUG=0, which makes SECRET_KEY and
# ALLOWED_HOSTS required and turns on the HTTPS settings below.
DEBUG = env_bool("DEBUG", True)

_DEV_SECRET_KEY = "django-insecure-development-only-key-never-use-in-production-0123456789"
SECRET_KEY = env_str("SECRET_KEY", _DEV_SECRET_KEY) if DEBUG else env_str("SECRET_KEY")
if not DEBUG and SECRET_KEY == _DEV_SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set to a private value when DEBUG is off.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must list the site's host names when DEBUG is off.")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# A form sent without its token gets the site's page saying what to do (templates/403_csrf.html).
CSRF_FAILURE_VIEW = "handsite.views.csrf_failure"

INSTALLED_APPS = [
    "handsite",
    "games",
    "scoring",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sites",  # its domain and name follow SITE_URL and SITE_NAME (handsite/apps.py)
    "django.forms",
    "allauth",
    "allauth.account",
    "django_htmx",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "handsite.middleware.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files answered here, already compressed
    # HTML compressed (README, "Compressed answers": BREACH and why the site accepts it); below
    # WhiteNoise, so static files never reach it, and above every middleware that reads the body.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "handsite.middleware.AuthenticationMiddleware",  # Django's, for sessions naming a removed backend
    "handsite.middleware.SessionCacheUnreachableMiddleware",  # a log-out Redis did not confirm: a 503
    "handsite.user_language.UserLanguageMiddleware",
    "handsite.middleware.ReaderTimeZoneMiddleware",  # times in the reader's zone (full pages: 1 query)
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "handsite.middleware.HtmxLoginRedirectMiddleware",
]

# A strict Content-Security-Policy on every response (Django's own CSP support): only the site's own
# scripts, styles and images; inline script or style only with the request's nonce ({{ csp_nonce }});
# no framing; forms post to the site only. htmx runs without eval and without its inline indicator
# style (the htmx-config meta tag in base.html; the indicator CSS is in site.css).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.NONCE],
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}

ROOT_URLCONF = "handsite.urls"
WSGI_APPLICATION = "handsite.wsgi.application"
ASGI_APPLICATION = "handsite.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
            ],
        },
    },
]

FORM_RENDERER = "handsite.forms.SiteFormRenderer"  # {{ form }} lists every error at the top

# --- Database -------------------------------------------------------------------------------
DATABASE_URL = env_url(
    "DATABASE_URL",
    f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
    ("sqlite", "postgres", "postgresql", "pgsql"),
)
# Persistent connections: each process keeps its connection DB_CONN_MAX_AGE seconds (0: one per request),
# checked before reuse after an error or a database restart. README "Running at scale".
DB_CONN_MAX_AGE = env_int("DB_CONN_MAX_AGE", 300, minimum=0)
DATABASES = {
    "default": dj_database_url.parse(DATABASE_URL, conn_max_age=DB_CONN_MAX_AGE, conn_health_checks=True)
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].update({"transaction_mode": "IMMEDIATE", "timeout": 20})
    # Tests: a SQLite file, not Django's in-memory default. The live server answers requests in threads,
    # and an in-memory database shares one connection across them ("bad parameter or other API misuse"
    # when a page fires several requests at once). One file per test process (pytest-xdist appends
    # "_gw0", "_gw1", ...), so engineers running the suite at once in one tree never share a file;
    # Django deletes it when the test run ends.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"handsite-test-{os.getpid()}.sqlite3"),
    }
else:
    # Prepared statements: parameters bound on the server (Django's server_side_binding), and psycopg
    # prepares a statement on a kept connection once it ran prepare_threshold times, so PostgreSQL plans
    # it once per connection. DB_PREPARED_STATEMENTS=0 behind a pooler that cannot keep them (README
    # "Running at scale").
    DB_PREPARED_STATEMENTS = env_bool("DB_PREPARED_STATEMENTS", True)
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"]["server_side_binding"] = DB_PREPARED_STATEMENTS
    DATABASES["default"]["OPTIONS"]["prepare_threshold"] = 5 if DB_PREPARED_STATEMENTS else None
    # PostgreSQL: one test database per test process too (xdist appends "_gw0", ...), so two test
    # sessions at once never drop each other's "test_handsite_gw0".
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_{os.getpid()}"}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis (optional) -----------------------------------------------------------------------
REDIS_URL = env_url("REDIS_URL", None, ("redis", "rediss"))

if REDIS_URL:
    # Neither hangs. "sessions": Django's cached_db sessions (no local fallback: while Redis is down
    # they are read from the database). README "Running at scale".
    # The copies are named after their database, so two sites (or a bench) sharing one Redis database
    # never read each other's sessions.
    _database = "{}:{}/{}".format(*(DATABASES["default"].get(key) for key in ("HOST", "PORT", "NAME")))
    CACHES = {
        "default": {"BACKEND": "handsite.cache.FailOpenRedisCache", "LOCATION": REDIS_URL},
        "sessions": {
            "BACKEND": "handsite.cache.SessionCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "auth-" + hashlib.sha256(_database.encode()).hexdigest()[:8],
        },
    }
    SESSION_ENGINE = "handsite.sessions"  # Django's cached_db: read from Redis, written through to the DB
    SESSION_CACHE_ALIAS = "sessions"
else:
    # Sessions stay Django's database ones: a per-process cache would keep a logged-out session alive
    # in the other processes.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Accounts (django-allauth 65) -----------------------------------------------------------
AUTH_USER_MODEL = "handsite.User"
# Django's and allauth's (sessions naming the site's former ones are given these:
# handsite.middleware.AuthenticationMiddleware).
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_USER_MODEL_USERNAME_FIELD = None
ACCOUNT_UNIQUE_EMAIL = True
# Mandatory in production; optional in development so a new person can try the site at once.
ACCOUNT_EMAIL_VERIFICATION = "optional" if DEBUG else "mandatory"
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_SIGNUP_FORM_CLASS = "handsite.forms.SignupExtraForm"
ACCOUNT_ADAPTER = "handsite.adapters.AccountAdapter"
ACCOUNT_SESSION_REMEMBER = None
# allauth's rate limits stay at their defaults (ACCOUNT_RATE_LIMITS is not switched off).

# --- E-mail ---------------------------------------------------------------------------------
# Development default: every e-mail is written as a file under var/mail/. Tests use locmem.
EMAIL_MODE = env_choice("EMAIL_MODE", "file" if DEBUG else "smtp", ("file", "console", "smtp"))
if EMAIL_MODE == "smtp":
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": env_str("EMAIL_HOST", "localhost"),
                "port": env_int("EMAIL_PORT", 587, minimum=1, maximum=65535),
                "username": env_str("EMAIL_HOST_USER", ""),
                "password": env_str("EMAIL_HOST_PASSWORD", ""),
                "use_tls": env_bool("EMAIL_USE_TLS", True),
                "timeout": env_int("EMAIL_TIMEOUT", 20, minimum=1),
            },
        }
    }
elif EMAIL_MODE == "file":
    MAILERS = {
        "default": {
            # One .eml per message, read back decoded on /dev/mail/ (handsite/devmail.py).
            "BACKEND": "handsite.devmail.EmlBackend",
            "OPTIONS": {"file_path": str(VAR_DIR / "mail")},
        }
    }
else:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Hand <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- Languages ------------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("ar", _("Arabic")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "handsite" / "locale"]
# Arabic formats that Django lacks (DATETIME_FORMAT ...): handsite/formats/ar/formats.py.
FORMAT_MODULE_PATH = ["handsite.formats"]
USE_I18N = True
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_TZ = True

# --- Static files ---------------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "staticfiles"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise warns about a missing folder
WHITENOISE_USE_FINDERS = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# --- Security (only relevant with DEBUG off) ------------------------------------------------
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # load balancers check over plain HTTP
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365, minimum=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    if env_bool("BEHIND_TLS_PROXY", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# --- Celery ---------------------------------------------------------------------------------
# With REDIS_URL: Redis. Without: kombu's filesystem transport under var/celery (no server needed)
# and results in a SQLite file through SQLAlchemy. Tasks always run in a worker (never eager).
CELERY_DATA_DIR = Path(env_str("CELERY_DATA_DIR", str(VAR_DIR / "celery")))
# A hung Redis must not hold a request (a move's publish): bounded connect and answer times (seconds;
# the worker's BRPOP polls every second, under socket_timeout).
REDIS_SOCKET_OPTIONS = {"socket_connect_timeout": 1, "socket_timeout": 3}
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS = REDIS_SOCKET_OPTIONS
    CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_SOCKET_OPTIONS["socket_connect_timeout"]
    CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = REDIS_SOCKET_OPTIONS["socket_connect_timeout"]
    CELERY_REDIS_SOCKET_TIMEOUT = REDIS_SOCKET_OPTIONS["socket_timeout"]
else:
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_DATA_DIR / "queue"),
        "data_folder_out": str(CELERY_DATA_DIR / "queue"),
        "control_folder": str(CELERY_DATA_DIR / "control"),
        "store_processed": False,
    }
    CELERY_RESULT_BACKEND = f"db+sqlite:///{CELERY_DATA_DIR / 'results.sqlite3'}"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_RESULT_EXPIRES = 60 * 60 * 24
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 120, minimum=1)
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 100, minimum=1)
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE
# Named queues, so a long scan or rating recompute never delays an e-mail: run workers by queue
# (README "Running at scale"; `celery worker` without -Q consumes them all). Unrouted tasks: "celery".
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = [Queue(name, routing_key=name) for name in ("mail", "scans", "results", "celery")]
CELERY_TASK_ROUTES = {
    # turn e-mails (through the minute's send_pending_notifications sweep), reminders, invitations
    "handsite.tasks.send_*": {"queue": "mail"},
    "*.tasks.scan_*": {"queue": "scans"},
    "handsite.tasks.make_daily_digests": {"queue": "scans"},
    "handsite.tasks.purge_stale_invitations": {"queue": "scans"},
    "handsite.tasks.purge_expired_sessions": {"queue": "scans"},
    "handsite.tasks.purge_old_notifications": {"queue": "scans"},
    "scoring.tasks.purge_deleted_sheets": {"queue": "scans"},
    "games.tasks.record_online_result": {"queue": "results"},
    "scoring.tasks.*": {"queue": "results"},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Periodic tasks. Later apps add their own entries here (one place for the whole site).
CELERY_BEAT_SCHEDULE = {
    "purge-stale-invitations": {
        "task": "handsite.tasks.purge_stale_invitations",
        "schedule": crontab(minute=17, hour=3),
    },
    # Tables that only grow: expired sessions, and notifications past their retention.
    "purge-expired-sessions": {
        "task": "handsite.tasks.purge_expired_sessions",
        "schedule": crontab(minute=27, hour=3),
    },
    "purge-old-notifications": {
        "task": "handsite.tasks.purge_old_notifications",
        "schedule": crontab(minute=37, hour=3),
    },
    # Notifications and deadlines: indexed scans of database columns, never long countdowns.
    "send-pending-notifications": {
        "task": "handsite.tasks.send_pending_notifications",
        "schedule": 60.0,
        "options": {"expires": 55},
    },
    # The e-mail outbox (account e-mails, invitations): what no task was queued for, and retries.
    "send-pending-emails": {
        "task": "handsite.tasks.send_pending_emails",
        "schedule": 60.0,
        "options": {"expires": 55},
    },
    # Recorded tasks whose message was lost (a game's result while the broker was down).
    "scan-queued-tasks": {
        "task": "handsite.tasks.scan_queued_tasks",
        "schedule": 60.0,
        "options": {"expires": 55},
    },
    "scan-reminders": {"task": "games.tasks.scan_reminders", "schedule": 60.0, "options": {"expires": 55}},
    "scan-deadlines": {"task": "games.tasks.scan_deadlines", "schedule": 60.0, "options": {"expires": 55}},
    "scan-invitations": {
        "task": "games.tasks.scan_invitations",
        "schedule": 60.0,
        "options": {"expires": 55},
    },
    "make-daily-digests": {
        "task": "handsite.tasks.make_daily_digests",
        "schedule": crontab(minute="*/15"),
        "options": {"expires": 600},
    },
}

# --- Logging and error reports -----------------------------------------------------------------
# One format on every line of the web workers, the Celery workers and beat (CELERY_WORKER_LOG_FORMAT
# below): time, level, logger, process. Errors (a 500, a task that
# failed, an e-mail given up) go to ADMINS by e-mail, and to Sentry when SENTRY_DSN is set.
LOG_LEVEL = env_choice("LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING"))
ADMINS = env_list("ADMINS", [])  # e-mail addresses, comma-separated
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "operator": {
            "format": "{asctime} {levelname} {name} [{process}] {message}",
            "style": "{",
        },
    },
    "filters": {"require_debug_false": {"()": "django.utils.log.RequireDebugFalse"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "operator"},
        "mail_admins": {
            "level": "ERROR",
            "filters": ["require_debug_false"],
            "class": "handsite.logs.OutboxAdminEmailHandler",  # through the outbox
        },
    },
    "root": {"handlers": ["console", "mail_admins"], "level": LOG_LEVEL},
    "loggers": {
        # Django's own (its default would print a second, unformatted line in development)
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        # runserver's request lines keep their own handler (development only)
        "django.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}
# Celery sets up the workers' and beat's logging itself (-l INFO), in the same format.
CELERY_WORKER_LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(process)d] %(message)s"
CELERY_WORKER_TASK_LOG_FORMAT = (
    "%(asctime)s %(levelname)s %(name)s [%(process)d] %(task_name)s[%(task_id)s] %(message)s"
)
SENTRY_DSN = env_str("SENTRY_DSN", "")
if SENTRY_DSN:
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        integrations=[DjangoIntegration(), CeleryIntegration(monitor_beat_tasks=False)],
        environment=env_str("SENTRY_ENVIRONMENT", "production" if not DEBUG else "development"),
        send_default_pii=False,  # no e-mail addresses, cookies or bodies of people's requests
        traces_sample_rate=0.0,
    )

# --- The site -------------------------------------------------------------------------------
# How long an e-mail invitation stays valid.
HANDSITE_EMAIL_INVITATION_DAYS = env_int("HANDSITE_EMAIL_INVITATION_DAYS", 14, minimum=1)
# Base of the links in e-mails (sent by Celery, where there is no request).
SITE_URL = env_url(
    "SITE_URL",
    "http://127.0.0.1:8000" if DEBUG else f"https://{ALLOWED_HOSTS[0].lstrip('.')}",
    ("http", "https"),
)
# The site's name: in every e-mail's subject and sender, and the Sites framework's name (the domain is
# SITE_URL's; both are written to the Site row after every migrate).
SITE_NAME = env_str("SITE_NAME", "Hand")
SITE_ID = 1
if "DEFAULT_FROM_EMAIL" not in os.environ:  # "Hand <noreply@hand.example.com>"
    _host = urlsplit(SITE_URL).hostname or "localhost"
    _host = "localhost" if _host.replace(".", "").isdigit() or ":" in _host else _host
    DEFAULT_FROM_EMAIL = formataddr((SITE_NAME, f"noreply@{_host}"))
    SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Vacation days a year during which a player's deadlines are paused.
HANDSITE_VACATION_DAYS_PER_YEAR = env_int("HANDSITE_VACATION_DAYS_PER_YEAR", 21, minimum=0, maximum=366)
# A "your turn" e-mail waits while the player is on the site, and this long after they were last seen.
HANDSITE_NOTIFY_GRACE_MINUTES = env_int("HANDSITE_NOTIFY_GRACE_MINUTES", 10, minimum=0, maximum=24 * 60)
# A player invited to a game has this long to accept or decline; then the seat is free again.
GAMES_INVITATION_REPLY_HOURS = env_int("GAMES_INVITATION_REPLY_HOURS", 48, minimum=1, maximum=30 * 24)
# Sent notifications (the outbox and the in-site list) are deleted after this many days.
HANDSITE_NOTIFICATION_RETENTION_DAYS = env_int("HANDSITE_NOTIFICATION_RETENTION_DAYS", 90, minimum=1)


# --- Web Push (handsite/push/) ----------------------------------------------------------------------
# VAPID keys from `manage.py vapid_keys` (README "Push notifications"). Without all three, push is off:
# the Reminders page says so and nothing else changes. The subject is a mailto: or https: URL.
HANDSITE_VAPID_PUBLIC_KEY = env_str("HANDSITE_VAPID_PUBLIC_KEY", "")
HANDSITE_VAPID_PRIVATE_KEY = env_str("HANDSITE_VAPID_PRIVATE_KEY", "")
HANDSITE_VAPID_SUBJECT = env_str("HANDSITE_VAPID_SUBJECT", "")
# Push services' endpoints are https; plain http only for a stand-in on this machine (tests, DEBUG).
HANDSITE_PUSH_ALLOW_HTTP = env_bool("HANDSITE_PUSH_ALLOW_HTTP", DEBUG)
CELERY_IMPORTS = ["handsite.push.tasks", "handsite.webhooks.tasks"]
CELERY_TASK_ROUTES["handsite.push.tasks.*"] = {"queue": "mail"}
CELERY_TASK_ROUTES["handsite.webhooks.tasks.*"] = {"queue": "mail"}
CELERY_BEAT_SCHEDULE["send-pending-pings"] = {  # group chat pings (handsite/webhooks/): retries
    "task": "handsite.webhooks.tasks.send_pending_pings",
    "schedule": 60.0,
    "options": {"expires": 55},
}
CELERY_BEAT_SCHEDULE["send-pending-pushes"] = {
    "task": "handsite.push.tasks.send_pending_pushes",
    "schedule": 60.0,
    "options": {"expires": 55},
}
CELERY_BEAT_SCHEDULE["purge-deleted-sheets"] = {  # score sheets deleted more than 30 days ago
    "task": "scoring.tasks.purge_deleted_sheets",
    "schedule": crontab(minute=47, hour=3),
}
# Bumped when the service worker's caching changes (its cache's name; old caches are deleted).
HANDSITE_PWA_VERSION = "1"
