"""`{% user_officiates as v %}`: whether the header offers this user the arbiter's pages."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.roles import user_is_official

register = template.Library()


@register.simple_tag(takes_context=True)
def user_officiates(context: template.Context) -> bool:
    """Players and visitors are not shown a link to pages they may not use: only organizers
    and users who arbitrate or organize some tournament are."""
    user: Any = context.get("user")
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return user_is_official(user) or user.organized_tournaments.exists()
