"""Settings for the club site, read from the environment.

With no variables set, everything runs embedded on one machine: SQLite and a filesystem
Celery broker under var/, the Telegram bot in console mode, mail to the console. Variables
switch to real services (DATABASE_URL, CELERY_BROKER_URL, TELEGRAM_BOT_TOKEN), and
DJANGO_ENV=production turns on the production hardening, refusing to start without the
secrets it needs. docs/deploy.md lists every variable.
"""

import os
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

# `admin.ModelAdmin[Evening]` and the like, which strict typing asks for, at run time too.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("CLUB_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


def env_required(name: str) -> str:
    value = os.environ.get(name, "").strip()
    if not value:
        raise ImproperlyConfigured(f"{name} must be set when DJANGO_ENV=production")
    return value


PRODUCTION = os.environ.get("DJANGO_ENV", "development").strip().lower() == "production"

if PRODUCTION:
    SECRET_KEY = env_required("DJANGO_SECRET_KEY")
    ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS")
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS must be set when DJANGO_ENV=production")
    DATABASE_URL = env_required("DATABASE_URL")
    DEBUG = False
else:
    # A fixed key is fine off production: nothing signed with it leaves the laptop.
    SECRET_KEY = os.environ.get(
        "DJANGO_SECRET_KEY", "django-insecure-development-key-for-the-embedded-club-site"
    )
    ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS") or ["localhost", "127.0.0.1", "[::1]"]
    DATABASE_URL = os.environ.get("DATABASE_URL", "")
    DEBUG = env_bool("DJANGO_DEBUG", default=True)

CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

INSTALLED_APPS = [
    "club.doors.admin_app.ClubAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "django_ratelimit",
    "ninja",
    "club",
    "accounts",
    "games",
    "games.online",
    "games.recordings",
    "games.ratings",
    "tournaments",
    "leagues",
    "history",
    "live",
    "notifications",
    "bot",
]

MIDDLEWARE = [
    "club.doors.middleware.HeadMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "club.doors.middleware.ClubMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "club.doors.middleware.MiniAppMiddleware",
    "club.doors.middleware.ClubLocaleMiddleware",
    "club.doors.middleware.ClubTimezoneMiddleware",
    "club.doors.middleware.BodyLimitMiddleware",
    "club.doors.middleware.StorableInputMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "club.doors.middleware.SiteErrorPagesMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

# Benchmarks mount an extra probe view through their own URLconf (bench/urls.py).
ROOT_URLCONF = os.environ.get("DJANGO_ROOT_URLCONF", "club.urls")
WSGI_APPLICATION = "club.wsgi.application"

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
                "django.template.context_processors.csp",
                "club.doors.context_processors.club",
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------------------
if DATABASE_URL:
    _database = dj_database_url.parse(DATABASE_URL, conn_max_age=0)
    if _database["ENGINE"] == "django.db.backends.postgresql":
        from club.db_pool import check_pooled_connection

        # A pool per process: a burst of requests queues for a connection instead of
        # failing, and the processes together stay well under PostgreSQL's 100. Each
        # connection is checked as it leaves the pool, so after a database restart a dead
        # one is replaced instead of failing the request that drew it (club/db_pool.py).
        _database["OPTIONS"] = {
            "pool": {
                "min_size": int(os.environ.get("DB_POOL_MIN_SIZE", "1")),
                "max_size": int(os.environ.get("DB_POOL_MAX_SIZE", "10")),
                "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "20")),
                "check": check_pooled_connection,
            }
        }
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    _database = {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(VAR_DIR / "club.sqlite3"),
        # WAL and IMMEDIATE transactions let the web server and the worker write side by
        # side without "database is locked" errors.
        "OPTIONS": {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        },
    }
DATABASES = {"default": _database}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Accounts ----------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "accounts.backends.NicknameOrEmailBackend",
    # Powers per club: a member's role in the club in scope (accounts/roles.py).
    "accounts.backends.ClubRoleBackend",
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "accounts:profile"
LOGOUT_REDIRECT_URL = "home"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24

# --- Internationalisation ----------------------------------------------------------------
LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
# The server's zone for logs and admin; the club's own zone is a club setting.
TIME_ZONE = "Europe/Moscow"

# --- Static files -------------------------------------------------------------------------
STATIC_URL = "/static/"
STATIC_ROOT = (
    Path(os.environ["DJANGO_STATIC_ROOT"])
    if os.environ.get("DJANGO_STATIC_ROOT")
    else (BASE_DIR / "var" / "static" if PRODUCTION else None)
)
# Off production whitenoise serves straight from the source folders.
WHITENOISE_USE_FINDERS = not PRODUCTION
WHITENOISE_AUTOREFRESH = not PRODUCTION
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES: dict[str, dict[str, Any]] = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
# Recordings (and any other upload) in an S3-compatible bucket instead of MEDIA_ROOT, with
# django-storages (`uv sync --extra s3`); the bucket stays private and downloads go through
# the site, which checks who asks (docs/deploy.md).
if os.environ.get("CLUB_S3_BUCKET"):
    STORAGES["default"] = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": os.environ["CLUB_S3_BUCKET"],
            "endpoint_url": os.environ.get("CLUB_S3_ENDPOINT_URL") or None,
            "region_name": os.environ.get("CLUB_S3_REGION") or None,
            "default_acl": "private",
            "querystring_auth": True,
            "file_overwrite": False,
        },
    }
MEDIA_ROOT = Path(os.environ.get("DJANGO_MEDIA_ROOT", VAR_DIR / "media"))
MEDIA_URL = "/media/"
# Recordings being uploaded, chunk by chunk, before they go to the storage (local disk).
RECORDING_UPLOAD_DIR = Path(os.environ.get("CLUB_RECORDING_UPLOAD_DIR", VAR_DIR / "uploads"))
# A local faster-whisper model directory turns on transcripts of the speeches (optional).
WHISPER_MODEL_DIR = os.environ.get("WHISPER_MODEL_DIR", "")

# --- Mail -------------------------------------------------------------------------------
# Django 6.1's MAILERS. Off production, mail goes to the console unless EMAIL_HOST is set;
# in production it always goes over SMTP (by default to the machine's own MTA).
if PRODUCTION or os.environ.get("EMAIL_HOST"):
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": os.environ.get("EMAIL_HOST", "localhost"),
                "port": int(os.environ.get("EMAIL_PORT", "25")),
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_tls": env_bool("EMAIL_USE_TLS"),
                "timeout": 10,
            },
        }
    }
else:
    MAILERS = {"default": {"BACKEND": "club.kernel.mail.ReadableConsoleBackend"}}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "club@localhost")

# --- Celery -----------------------------------------------------------------------------
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
if not CELERY_BROKER_URL:
    # kombu's SQLAlchemy transport on a SQLite file of its own: a real worker and beat on one
    # machine, no server, and every message written in a transaction. (The filesystem
    # transport this replaced could hand the worker a half-written file, which killed it.)
    (VAR_DIR / "celery").mkdir(parents=True, exist_ok=True)
    BROKER_DATABASE = VAR_DIR / "celery" / "broker.sqlite3"
    CELERY_BROKER_URL = f"sqla+sqlite:///{BROKER_DATABASE}"
    # Web, worker and beat write side by side: wait for the lock instead of failing. (The
    # transport passes its options to SQLAlchemy's create_engine.)
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {"connect_args": {"timeout": 30}}
elif CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    # A Redis that accepts and never answers would hold a publish for ever (redis-py waits
    # without a socket timeout): bounded, the failure is logged and the sweeps catch up.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_timeout": 5, "socket_connect_timeout": 3}
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_TIMEOUT = 3
# A request that queues a task after its commit must not hang on a broker that is down: one
# quick retry, then the failure is logged and a sweep catches up (club/kernel/queueing.py).
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Beat sends only while it holds a lock (the broker's Redis, or a file beside the embedded
# broker's), so a second beat stands by instead of sending everything twice; it takes over
# within CLUB_BEAT_LOCK_SECONDS and a few more when the holder dies (club/kernel/beat.py).
CELERY_BEAT_SCHEDULER = "club.kernel.beat:LeasedScheduler"
CLUB_BEAT_LOCK_SECONDS = float(os.environ.get("CLUB_BEAT_LOCK_SECONDS", "30"))
# A static schedule: every entry is a short sweep that finds in the database what is due,
# so a missed run costs nothing (docs/deploy.md explains why not django-celery-beat).
CELERY_BEAT_SCHEDULE = {
    "club-schedule": {
        "task": "club.tasks.schedule_sweep",
        "schedule": float(os.environ.get("CLUB_SCHEDULE_SWEEP_SECONDS", "300")),
    },
    "registrations-leave": {
        "task": "club.tasks.registrations_leave_due",
        "schedule": 60,
    },
    "notifications-catch-up": {
        "task": "notifications.tasks.notifications_catch_up",
        "schedule": 60,
    },
    # RULES.md §C: recordings go 3 days after the game, whatever was down in between.
    "online-games": {
        "task": "games.online.tasks.online_sweep",
        "schedule": 60,
    },
    # Work whose task was lost (a broker down at the commit, a killed worker) is redone.
    "analyses-catch-up": {
        "task": "games.ratings.tasks.analyses_catch_up",
        "schedule": 5 * 60,
    },
    "recordings-catch-up": {
        "task": "games.recordings.tasks.recordings_catch_up",
        "schedule": 5 * 60,
    },
    # An import's rebuild whose task was lost, and the club's day-old previews.
    "history-catch-up": {
        "task": "history.tasks.history_catch_up",
        "schedule": 10 * 60,
    },
    "recordings-sweep": {
        "task": "games.recordings.tasks.recordings_sweep",
        "schedule": 60 * 60,
    },
    "tournaments": {
        "task": "tournaments.tasks.tournaments_sweep",
        "schedule": 60,
    },
    "housekeeping": {
        "task": "club.tasks.housekeeping",
        "schedule": 60 * 60,
    },
}

# --- Cache ------------------------------------------------------------------------------
# The throttles' counters (club/kernel/throttle.py) live here: Redis when there is one (its own
# URL, or the broker's), shared by every process; the embedded site's one web process keeps
# them in its memory.
CACHE_URL = os.environ.get("CLUB_CACHE_URL", "") or (
    CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else ""
)
if CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": "club",
            # A throttle's count or an icon is worth a second at most (club/kernel/cache.py).
            "OPTIONS": {"socket_timeout": 1, "socket_connect_timeout": 1},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
BEHIND_PROXY = env_bool("DJANGO_BEHIND_PROXY", default=PRODUCTION)
RATELIMIT_IP_META_KEY = "club.kernel.throttle.ratelimit_address"
# A throttle whose cache does not answer lets the request through rather than lock
# everyone out; the cache's failure shows in /healthz and the logs.
RATELIMIT_FAIL_OPEN = True

# --- Telegram ----------------------------------------------------------------------------
TELEGRAM_BOT_TOKEN = os.environ.get("TELEGRAM_BOT_TOKEN", "")
TELEGRAM_BOT_USERNAME = os.environ.get("TELEGRAM_BOT_USERNAME", "")
TELEGRAM_API_BASE_URL = os.environ.get("TELEGRAM_API_BASE_URL", "")
TELEGRAM_WEBHOOK_SECRET = os.environ.get("TELEGRAM_WEBHOOK_SECRET", "")
# python-telegram-bot 22: take RetryAfter.retry_after as a timedelta already (its future default).
os.environ.setdefault("PTB_TIMEDELTA", "true")
# Without a token the bot runs in console mode: messages are logged, nothing leaves.
TELEGRAM_CONSOLE_MODE = not TELEGRAM_BOT_TOKEN
# How old a Telegram Login Widget signature may be.
TELEGRAM_LOGIN_MAX_AGE_SECONDS = 24 * 60 * 60
# The club's Mini App: its launch data is taken within this age, once; the short name
# BotFather gave it makes the group's deep links (t.me/<bot>/<name>?startapp=evening-N);
# without one the links open the bot's main Mini App (t.me/<bot>?startapp=…).
TELEGRAM_MINI_APP_MAX_AGE_SECONDS = int(
    os.environ.get("TELEGRAM_MINI_APP_MAX_AGE_SECONDS", str(60 * 60))
)
TELEGRAM_MINI_APP_NAME = os.environ.get("TELEGRAM_MINI_APP_NAME", "")
# The embedded site has no bot to sign the Mini App's launches: its developer page (/dev/tg/,
# DEBUG only, accounts/miniapp.mini_app_demo) signs them with this demo token instead, which
# the app accepts only under DEBUG and without a bot token. Never in production.
TELEGRAM_MINI_APP_DEMO_TOKEN = (
    "" if PRODUCTION or TELEGRAM_BOT_TOKEN or not DEBUG else "0:embedded-mini-app-demo"
)

# --- Logging -----------------------------------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "INFO"},
        # Every Bot API and benchmark request would be logged at INFO.
        "httpx": {"level": "WARNING"},
    },
}

# --- Security ----------------------------------------------------------------------------
# Content-Security-Policy (Django's own): scripts, styles and everything else from the site
# itself only, inline scripts only with the response's nonce, no inline styles, never framed.
# The two pages with Telegram's login popup add telegram.org (club/doors/csp.py).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "frame-src": [CSP.NONE],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

if PRODUCTION:
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
    # Load balancers probe over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    if BEHIND_PROXY:
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

NINJA_PAGINATION_PER_PAGE = 50

# The nickname is unique ignoring case through a functional constraint, which the check
# cannot see; NicknameOrEmailBackend looks members up case-insensitively.
SILENCED_SYSTEM_CHECKS = [
    "auth.W004",
    # Django's own Redis cache increments atomically; django-ratelimit lists only others.
    "django_ratelimit.W001",
]
if not CACHE_URL:
    # The embedded site: one web process, whose memory cache all its requests share.
    SILENCED_SYSTEM_CHECKS.append("django_ratelimit.E003")
