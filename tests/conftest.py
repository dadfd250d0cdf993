"""Test-wide settings: integration tests need PostgreSQL and Redis, and must not be skipped
when CI asks for them (KZ_REQUIRE_INTEGRATION=1)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings as hypothesis_settings

# CI must be repeatable: a run that lands is judged on the same examples every time, while
# developers' runs keep exploring new ones (and store what fails in .hypothesis/).
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("KZ_CI"):
    hypothesis_settings.load_profile("ci")


def integration_available() -> bool:
    url = os.environ.get("DATABASE_URL", "")
    return url.startswith(("postgres://", "postgresql://")) and bool(os.environ.get("REDIS_URL"))


# What puts a test among the database tests: a fixture that opens the test database (or
# one built on it: admin_client, live_server, the worker), a browser, a worker.
_DATABASE_FIXTURES = frozenset({"db", "transactional_db", "django_db_setup", "live_server"})


def needs_database(item: pytest.Item) -> bool:
    """Whether `item` touches the database, Redis, a worker or a browser: a test that does
    not runs the same on SQLite and PostgreSQL, so CI runs it once (the `dbless` mark)."""
    if any(item.get_closest_marker(m) for m in ("django_db", "integration", "e2e", "database")):
        return True
    return bool(_DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Before `-m` selects: `-m dbless` and `-m "not dbless"` split the suite in two.
    dbless = pytest.mark.dbless
    for item in items:
        if not needs_database(item):
            item.add_marker(dbless)
    if integration_available():
        return
    if os.environ.get("KZ_REQUIRE_INTEGRATION"):
        raise pytest.UsageError(
            "KZ_REQUIRE_INTEGRATION is set but DATABASE_URL (PostgreSQL) and REDIS_URL are not"
        )
    skip = pytest.mark.skip(reason="needs DATABASE_URL (PostgreSQL) and REDIS_URL")
    # Browser journeys run in the PostgreSQL pass only, as the integration tests do: once
    # per CI run is enough, and the SQLite pass stays quick.
    browser = pytest.mark.skip(reason="browser tests run in the PostgreSQL pass")
    for item in items:
        if "integration" in item.keywords:
            item.add_marker(skip)
        elif "e2e" in item.keywords:
            item.add_marker(browser)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Refuses integration tests under pytest-xdist once `-m` has selected.

    They share the Redis server, its private siblings, the worker and the web servers'
    ports, so two processes would meet there. The browser tests may run on several
    processes, in a pass of their own: each has its test database, its Redis database (and
    so its broker and its Celery worker: klinzha_site/settings/test.py, tests/workers.py)
    and a live server on a port of its own; the other database tests likewise."""
    if not (os.environ.get("PYTEST_XDIST_WORKER") and integration_available()):
        return
    shared = [i.nodeid for i in session.items if "integration" in i.keywords]
    if shared:
        raise pytest.UsageError(
            f"{len(shared)} integration tests selected under pytest-xdist (-n); "
            'run them in a pass of their own: -m "integration" without -n '
            f"(first: {shared[0]})"
        )


_integration_runs: dict[str, int] = {"ran": 0, "skipped": 0}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if "integration" not in report.keywords:
        return
    if report.skipped:
        _integration_runs["skipped"] += 1
    elif report.when == "call":
        _integration_runs["ran"] += 1


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if not os.environ.get("KZ_REQUIRE_INTEGRATION") or session.config.option.collectonly:
        return
    if _integration_runs["skipped"] or not _integration_runs["ran"]:
        print(
            f"\nintegration tests required: {_integration_runs['ran']} ran, "
            f"{_integration_runs['skipped']} skipped"
        )
        session.exitstatus = 1


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Database rows are rolled back between tests; cached standings must go with them."""
    from django.core.cache import cache

    from klinzha_site.page_cache import page_cache_local_clear
    from tournaments.selectors import standings_memo_clear

    cache.clear()
    page_cache_local_clear()
    standings_memo_clear()


@pytest.fixture(autouse=True)
def _default_language() -> None:
    """Each test starts in the site's default language: a request to an /it/ page leaves
    Italian active in the thread (LocaleMiddleware activates, nothing deactivates), and a
    later test calling a service directly would read its messages in Italian."""
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(scope="session", autouse=True)
def site_key_file(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site's Ed25519 key for the session (online play refuses to start without it),
    named to the settings and to the processes tests start (the environment)."""
    from django.test import override_settings

    from games.signing import generate_key

    path = tmp_path_factory.mktemp("site-key") / "site.key"
    path.write_text(generate_key()[0], encoding="ascii")
    os.environ["KZ_SITE_KEY_FILE"] = str(path)
    with override_settings(KZ_SITE_KEY_FILE=str(path)):
        yield str(path)


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker):  # type: ignore[no-untyped-def]
    """A real worker when Redis is configured; without it tasks run in-process anyway."""
    if not os.environ.get("REDIS_URL"):
        yield None
        return
    from tests.workers import celery_worker

    with celery_worker("main") as proc:
        yield proc


@pytest.fixture
def worker(celery_worker_process):  # type: ignore[no-untyped-def]
    """The worker of this run, left idle after the test so its tables can be flushed."""
    yield celery_worker_process
    if celery_worker_process is not None:
        from tests.workers import wait_idle

        wait_idle()
