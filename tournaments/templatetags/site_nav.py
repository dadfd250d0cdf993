"""`{% user_officiates as v %}`: whether the header offers this user the arbiter's pages;
`{% language_links as v %}`: the same page under each language."""

from __future__ import annotations

from django import template
from django.conf import settings
from django.urls import translate_url

from klinzha_site.user_types import AnyUser
from tournaments.roles import user_is_official

register = template.Library()


@register.simple_tag(takes_context=True)
def user_officiates(context: template.Context) -> bool:
    """Players and visitors are not shown a link to pages they may not use: only organizers
    and users who arbitrate or organize some tournament are."""
    user: AnyUser | None = context.get("user")
    if user is None or not user.is_authenticated:
        return False
    return user_is_official(user) or user.organized_tournaments.exists()


@register.simple_tag(takes_context=True)
def language_links(context: template.Context) -> list[tuple[str, str, str]]:
    """(code, name, link) of the current page under each language: plain links, so that a
    page carries no form and no CSRF token and can be cached as it is."""
    request = context.get("request")
    path = request.get_full_path() if request is not None else "/"
    return [(code, str(name), translate_url(path, code)) for code, name in settings.LANGUAGES]
