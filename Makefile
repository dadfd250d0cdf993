# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.stamp-requirements
DEV_STAMP := $(VENV)/.stamp-requirements-dev

.PHONY: run worker test test-db test-fast install install-dev lint messages

$(PY):
	$(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)

# `make run` installs the runtime only (requirements.txt, what production installs): the
# first start on a fresh machine skips the browser and the load-test tools, and a runtime
# module importing a development tool fails there as it would in production. `make test`
# and `make lint` install requirements-dev.txt (the runtime and the tools) on top.
$(STAMP): requirements.txt | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

$(DEV_STAMP): requirements.txt requirements-dev.txt | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP) $(DEV_STAMP)

install: $(STAMP)

install-dev: $(DEV_STAMP)

# One process serves the pages and online play's sockets (klinzha_site.asgi: HTTP to Django,
# /ws/games/{id}/ to Channels, its layer in memory without REDIS_URL); no reload on edits.
run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py kz demo
	DJANGO_SETTINGS_MODULE=$${DJANGO_SETTINGS_MODULE:-klinzha_site.settings.local} \
		$(VENV)/bin/uvicorn klinzha_site.asgi:application --host 127.0.0.1 --port 8000

# Without REDIS_URL `make run` runs every task in-process at once: nothing waits for a worker
# or the sweep. With REDIS_URL set, `make worker` in a second terminal is one worker with the
# beat (the sweep) built in; production runs them apart (Procfile, deploy/systemd).
worker: install
	$(VENV)/bin/celery -A klinzha_site worker --beat --loglevel INFO --without-gossip --without-mingle

# Extract every marked message into locale/{it,fr,de}; tests/test_translations_complete.py
# fails while any is untranslated or fuzzy, or a .mo is older than its .po.
MESSAGE_OPTIONS := --ignore='.venv/*' --ignore='tests/*' --ignore='bench/*' --ignore='docs/*' \
	--no-obsolete --add-location=file
messages: install
	$(PY) manage.py makemessages -l it -l fr -l de $(MESSAGE_OPTIONS)
	$(PY) manage.py compilemessages -l it -l fr -l de --ignore='.venv/*'

# mypy twice: the rules engine, then the apps' models, services, selectors and permissions
# (the files of pyproject.toml's [tool.mypy], with the Django and DRF plugins). Its cache,
# .mypy_cache, makes a run after a small change take a second or two.
lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy --strict rules
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

# Everything, on the database DATABASE_URL names (SQLite without it), on both cores
# (pytest-xdist): each process has its own test database and, with REDIS_URL, its own Redis
# database (klinzha_site/settings/test.py). With REDIS_URL set, the browser tests run after,
# in a parallel pass of their own (each process its live server, broker and worker), and the
# integration tests last, in one process: they share Redis, its private siblings and fixed
# ports (without REDIS_URL both are skipped, and one parallel pass does). PYTEST_ARGS adds
# options, e.g. `make test PYTEST_ARGS="-k standings"`; XDIST=0 runs in one process.
XDIST ?= 2
PARALLEL := $(if $(filter 0,$(XDIST)),,-n $(XDIST))
SHARED := integration or e2e

test: lint
ifeq ($(strip $(REDIS_URL)),)
	$(PY) -m pytest $(PARALLEL) $(PYTEST_ARGS)
else
	env -u KZ_REQUIRE_INTEGRATION $(PY) -m pytest -m "not ($(SHARED))" $(PARALLEL) $(PYTEST_ARGS)
	env -u KZ_REQUIRE_INTEGRATION $(PY) -m pytest -m e2e $(PARALLEL) $(PYTEST_ARGS)
	$(PY) -m pytest -m integration $(PYTEST_ARGS)
endif

# The tests that touch the database, Redis, a worker or a browser, and nothing else (the
# `dbless` ones are left out: they run the same on any database). .ci/run's PostgreSQL pass,
# after `make test` has run lint and everything on SQLite: the database tests on both
# cores, the browser tests on both cores, then the integration tests in one process.
test-db: install-dev
	env -u KZ_REQUIRE_INTEGRATION $(PY) -m pytest -m "not dbless and not ($(SHARED))" $(PARALLEL) $(PYTEST_ARGS)
	env -u KZ_REQUIRE_INTEGRATION $(PY) -m pytest -m e2e $(PARALLEL) $(PYTEST_ARGS)
	$(PY) -m pytest -m integration $(PYTEST_ARGS)

# The inner loop, under a third of the time of the whole suite. Left out: lint, schemathesis
# (marked slow), the browser (e2e), PostgreSQL/Redis/Celery (integration), the property-based
# tests (hypothesis marks them), and the slowest deep or exhaustive checks: deep perft, the
# cross-checks of the fast move generators against the literal rules (tests/rules/reference.py),
# the tests that start `manage.py` in a fresh process, the migration tests (they migrate back
# and forth on a flushed database) and the permission matrix (every write endpoint by every
# role; the check that the matrix names every write route stays in). `make test` still runs
# everything.
FAST_DESELECT := \
	tests/rules/test_perft.py::test_fast_generator_matches_the_literal_rules \
	"tests/rules/test_perft.py::test_count_matches_generation[2]" \
	tests/rules/test_kinta.py::test_generator_and_jeopardy_match_the_literal_rules \
	tests/rules/test_trilevel.py::test_safety_matches_applying_the_move_and_asking_the_reference \
	tests/rules/test_trilevel.py::test_destinations_match_the_reference_on_random_games \
	tests/test_foundation.py::test_production_refuses_to_start_without_secret_key \
	tests/test_foundation.py::test_production_passes_check_deploy \
	tests/test_foundation.py::test_kz_validate_through_manage_py \
	tests/test_foundation.py::test_kz_validate_exit_codes \
	tests/tournaments/test_migrations.py \
	tests/test_permissions.py::test_write_endpoint_permissions

# The schemathesis and anyio plugins would only add start-up time here.
test-fast: install-dev
	$(PY) -m pytest -q -p no:schemathesis -p no:anyio \
		-m "not slow and not e2e and not integration and not hypothesis" \
		--ignore=tests/e2e --ignore=tests/integration --ignore=tests/test_api_schemathesis.py \
		$(addprefix --deselect ,$(FAST_DESELECT))
