"""The collector's pace in the long-lived processes: set by the WSGI and ASGI modules and in
each worker process, from the setting, with what was loaded at start frozen."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from celery.signals import worker_process_init
from django.test import override_settings

from klinzha_site.gc_tuning import DEFAULT_THRESHOLDS, gc_tune

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def collector() -> Iterator[None]:
    """The test process's collector as it was, afterwards."""
    before = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*before)


def test_the_thresholds_come_from_the_setting_and_the_start_is_frozen(collector):
    gc.unfreeze()
    with override_settings(KZ_GC_THRESHOLDS=(12_345, 7, 3)):
        assert gc_tune() == (12_345, 7, 3)
    assert gc.get_threshold() == (12_345, 7, 3)
    assert gc.get_freeze_count() > 0


@pytest.mark.parametrize("bad", [(0, 10, 10), (700, 10), ("700", 10, 10)])
def test_a_setting_that_is_not_three_positive_integers_is_refused(collector, bad):
    with override_settings(KZ_GC_THRESHOLDS=bad), pytest.raises(ValueError, match="KZ_GC"):
        gc_tune()


def test_each_worker_process_is_tuned_once_forked(collector):
    import klinzha_site.celery  # noqa: F401  (connects the handler)

    gc.set_threshold(700, 10, 10)
    worker_process_init.send(sender=None)
    assert gc.get_threshold() == DEFAULT_THRESHOLDS


@pytest.mark.parametrize("module", ["klinzha_site.wsgi", "klinzha_site.asgi"])
def test_the_web_and_socket_processes_are_tuned_when_their_application_loads(module):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "klinzha_site.settings.test"}
    env["KZ_GC_THRESHOLDS"] = "4321,9,8"
    code = f"import gc, {module}; print(gc.get_threshold(), gc.get_freeze_count() > 0)"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == "(4321, 9, 8) True"
