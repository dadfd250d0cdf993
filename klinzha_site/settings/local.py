"""Development settings: debug on, SQLite unless DATABASE_URL says otherwise."""

from klinzha_site.settings.base import *  # noqa: F403

DEBUG = True
