"""The Klin Zha tournament system's Django project; loads the Celery app with Django."""

from klinzha_site.celery import app as celery_app

__all__ = ["celery_app"]
