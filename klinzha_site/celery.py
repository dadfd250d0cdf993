"""The Celery app: Redis as broker when REDIS_URL is set, otherwise tasks run in-process."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "klinzha_site.settings.local")

app = Celery("klinzha_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
