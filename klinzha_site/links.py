"""Absolute links in mail: always to KZ_SITE_URL, never to the host a request named."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings


def site_url() -> str:
    """KZ_SITE_URL without its trailing slash: the one address every mail's links start with
    (a Host header is the client's to forge, so no link is built from it)."""
    return str(settings.KZ_SITE_URL).rstrip("/")


def site_link(path: str) -> str:
    """`path` (from reverse(), with its leading slash) under KZ_SITE_URL."""
    return site_url() + path


def site_domain() -> tuple[str, bool]:
    """KZ_SITE_URL as Django's password reset mail wants it: (host[:port], https?)."""
    parts = urlsplit(site_url())
    return parts.netloc, parts.scheme == "https"
