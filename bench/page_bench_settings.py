"""Settings of bench/page_bench.py's server: production's, plus a folder of page copies served
as static files at the site's root (whitenoise), and plain HTTP on 127.0.0.1."""

import os

from klinzha_site.settings.production import *  # noqa: F403

WHITENOISE_ROOT = os.environ["KZ_BENCH_STATIC_ROOT"]
SECURE_SSL_REDIRECT = False
