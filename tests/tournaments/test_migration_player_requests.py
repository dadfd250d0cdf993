"""Migration 0022 lets players ask for byes and withdrawals: the byes stored before are
confirmed (an arbiter made them) and nobody has asked to withdraw; everything else stays."""

from __future__ import annotations

from datetime import date

import pytest

from tests.migrating import migrate as _migrate

BEFORE = [("tournaments", "0024_tournament_play")]
AFTER = [("tournaments", "0025_player_requests")]


@pytest.mark.django_db(transaction=True)
def test_byes_and_registrations_stored_before_keep_their_data() -> None:
    old = _migrate(BEFORE).loader.project_state(BEFORE).apps
    t = old.get_model("tournaments", "Tournament").objects.create(
        name="Old Open", slug="old-open", start_date=date(2026, 1, 1)
    )
    p = old.get_model("tournaments", "Player").objects.create(name="Worf", rating=2100)
    reg = old.get_model("tournaments", "Registration").objects.create(
        tournament=t, player=p, start_rank=1, rating=2100
    )
    old.get_model("tournaments", "ByeRequest").objects.create(registration=reg, round_number=3)
    new = _migrate(AFTER).loader.project_state(AFTER).apps
    moved = new.get_model("tournaments", "Registration").objects.get(pk=reg.pk)
    assert (moved.start_rank, moved.rating, moved.withdrawal_asked_at) == (1, 2100, None)
    bye = new.get_model("tournaments", "ByeRequest").objects.get(registration=moved)
    assert (bye.round_number, bye.confirmed) == (3, True)
    back = _migrate(BEFORE).loader.project_state(BEFORE).apps  # and it reverses
    assert back.get_model("tournaments", "ByeRequest").objects.get().round_number == 3
