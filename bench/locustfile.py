"""Locust users for the bounded load test (bench/load_test.py): visitors reading published pages.

The paths come from the JSON file named by KZ_LOAD_PATHS: {"pages": {name: path}} and, for each
page, the same bytes as a static file under "static": {name: path}. KZ_LOAD_MODE chooses which
a run reads; load_test.py runs both against the same server in one run.
"""

from __future__ import annotations

import itertools
import json
import os
import random

from locust import FastHttpUser, between, task

with open(os.environ["KZ_LOAD_PATHS"], encoding="utf-8") as listing:
    PATHS = json.load(listing)
PAGES: dict[str, str] = PATHS["pages"]
STATIC: dict[str, str] = PATHS.get("static", {})
# A browser asks for the compressed page; the stored gzip is what a visitor is served.
HEADERS = {"Accept-Encoding": "gzip"}


MODE = os.environ.get("KZ_LOAD_MODE", "pages")


class Visitor(FastHttpUser):
    """Reads one published page after another (KZ_LOAD_MODE=pages), as a club's members do
    after a round; or the same bytes as static files (KZ_LOAD_MODE=static), the reference."""

    wait_time = between(0, 0)

    def on_start(self) -> None:
        # Each visitor goes round the pages from a random start: the mix stays even, and a
        # short phase on a slow machine still reads every page (a random pick could miss one).
        names = list(PAGES if MODE == "pages" else STATIC)
        start = random.randrange(len(names))
        self.names = itertools.cycle(names[start:] + names[:start])

    @task
    def read(self) -> None:
        paths, prefix = (PAGES, "") if MODE == "pages" else (STATIC, "static: ")
        name = next(self.names)
        self.client.get(paths[name], name=prefix + name, headers=HEADERS)
