"""Test settings: fast password hashing, a test-only secret key."""

from klinzha_site.settings.base import *  # noqa: F403

SECRET_KEY = "test-secret-key-not-for-production-0123456789abcdefghijklmnopqrstuvwxyz"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DEBUG = False
