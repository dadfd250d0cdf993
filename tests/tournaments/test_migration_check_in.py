"""Migration 0022 adds check-in: existing events keep their entrants, rounds and results, and
have no window (so pairing goes on as before) with the default treatment of who did not
check in (absent this round); back, nothing else is lost."""

from __future__ import annotations

from datetime import date

import pytest

from tests.migrating import migrate as _migrate
from tests.migrating import migrate_latest

BEFORE = [("tournaments", "0022_series_club_officials")]
AFTER = [("tournaments", "0023_check_in")]


@pytest.mark.django_db(transaction=True)
def test_events_carry_over_without_check_in_windows() -> None:
    old = _migrate(BEFORE).loader.project_state(BEFORE).apps
    Player = old.get_model("tournaments", "Player")
    kor = Player.objects.create(name="Kor", rating=1834)
    t = old.get_model("tournaments", "Tournament").objects.create(
        name="Old Open", slug="old-open", start_date=date(2026, 1, 1), rounds_planned=7
    )
    reg = old.get_model("tournaments", "Registration").objects.create(
        tournament=t, player=kor, rating=1834
    )
    old.get_model("tournaments", "Round").objects.create(tournament=t, number=1)
    new = _migrate(AFTER).loader.project_state(AFTER).apps
    Tournament = new.get_model("tournaments", "Tournament")
    assert Tournament.objects.values_list("name", "rounds_planned", "check_in_missing").get(
        pk=t.pk
    ) == ("Old Open", 7, "absent")
    assert new.get_model("tournaments", "CheckInWindow").objects.count() == 0
    assert new.get_model("tournaments", "Registration").objects.get(pk=reg.pk).rating == 1834
    assert new.get_model("tournaments", "Round").objects.filter(tournament_id=t.pk).count() == 1
    CheckIn = new.get_model("tournaments", "CheckIn")
    CheckIn.objects.create(registration_id=reg.pk, round_number=1, via="arbiter")
    back = _migrate(BEFORE).loader.project_state(BEFORE).apps
    assert back.get_model("tournaments", "Registration").objects.get(pk=reg.pk).rating == 1834
    assert back.get_model("tournaments", "Tournament").objects.get(pk=t.pk).name == "Old Open"
    migrate_latest()
