"""Production settings: refuse to start without DJANGO_SECRET_KEY; HTTPS everywhere."""

from django.core.exceptions import ImproperlyConfigured

from klinzha_site.settings.base import *  # noqa: F403
from klinzha_site.settings.base import env

if not env("DJANGO_SECRET_KEY", default=""):
    raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set in production")
SECRET_KEY = env("DJANGO_SECRET_KEY")
# The audit trail's own key (see base.py): without it the chains would be keyed with a
# development key anyone can read.
if not env("KZ_AUDIT_KEY", default="") or env("KZ_AUDIT_KEY") == SECRET_KEY:
    raise ImproperlyConfigured("KZ_AUDIT_KEY must be set in production, and differ from SECRET_KEY")
KZ_AUDIT_KEY = env("KZ_AUDIT_KEY")
DEBUG = False
# Persistent database connections: a new one per request cost more than a cached page
# (bench/page_bench.py); the health check replaces one the server closed.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DJANGO_CONN_MAX_AGE", default=60)  # noqa: F405
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True  # noqa: F405
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# Collected by `manage.py collectstatic`, compressed, served by whitenoise.
WHITENOISE_USE_FINDERS = False
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
