"""WSGI entry point."""

import os

from django.core.wsgi import get_wsgi_application

from klinzha_site.gc_tuning import gc_tune

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "klinzha_site.settings.production")
application = get_wsgi_application()
gc_tune()
