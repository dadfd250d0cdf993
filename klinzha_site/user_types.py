"""The type of the user the apps pass around: an account, or a request's anonymous visitor."""

from typing import TypeAlias

from django.contrib.auth.models import AnonymousUser, User

# AUTH_USER_MODEL is Django's own User. `request.user` has this type in the pages and the
# API alike (django-stubs, djangorestframework-stubs); services take `AnyUser | None`, where
# None is the system itself (management commands, the demo, imports).
AnyUser: TypeAlias = User | AnonymousUser
