"""The whole-event benchmark (bench/event_5000_bench.py) runs a small event end to end
through the API: every step answered as the arbiter expects; timings are not judged."""

from __future__ import annotations

import pytest

from bench import event_5000_bench as eb
from tournaments.models import Game, Registration, Tournament

pytestmark = pytest.mark.django_db


class Bar:
    steps = 0

    def update(self) -> None:
        self.steps += 1


def test_a_small_event_runs_through_every_step():
    bar = Bar()
    run = eb.event_run(21, 3, seed=2, bar=bar)
    t = Tournament.objects.get(slug="bench-21-2")
    assert bar.steps == 1 + 2 * 3 + 1
    assert [s.what for s in run.steps][:3] == [
        "register (one request)",
        "pair round 1",
        "results round 1",
    ]
    assert Registration.objects.filter(tournament=t).count() == 21
    games = Game.objects.filter(round__tournament=t, kind=Game.Kind.GAME)
    assert games.count() == 3 * 10 and not games.filter(result="").exists()
    assert all(s.queries > 0 for s in run.steps) and run.total() > 0
