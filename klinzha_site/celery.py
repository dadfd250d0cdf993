"""The Celery app: Redis as broker when REDIS_URL is set, otherwise tasks run in-process."""

import os

from celery import Celery
from celery.signals import worker_process_init

from klinzha_site.gc_tuning import gc_tune

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "klinzha_site.settings.local")

app = Celery("klinzha_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def _worker_process_ready(**kwargs: object) -> None:
    """Each worker process, once forked, collects at the web processes' pace."""
    gc_tune()
