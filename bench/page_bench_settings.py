"""Settings of bench/page_bench.py's server: production's, plus a folder of page copies served
as static files at the site's root (whitenoise), plain HTTP on 127.0.0.1, and (for
bench/live_round_bench.py) every render of a published page written to KZ_BENCH_RENDER_LOG."""

import os

from klinzha_site.settings.production import *  # noqa: F403

WHITENOISE_ROOT = os.environ["KZ_BENCH_STATIC_ROOT"]
SECURE_SSL_REDIRECT = False

if os.environ.get("KZ_BENCH_RENDER_LOG"):
    LOGGING = {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"render": {"format": "%(created).3f %(process)d %(message)s"}},
        "handlers": {
            "renders": {
                "class": "logging.FileHandler",
                "filename": os.environ["KZ_BENCH_RENDER_LOG"],
                "formatter": "render",
            }
        },
        "loggers": {
            "klinzha_site.cache": {"handlers": ["renders"], "level": "DEBUG", "propagate": False}
        },
    }
