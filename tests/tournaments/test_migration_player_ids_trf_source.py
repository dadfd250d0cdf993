"""Migration 0019 gives players their ids, title, sex and birth date (blank for those stored
before, who keep everything else) and tournaments the TRF source an export writes back
(empty for events made before: they export as TRF16, as they did)."""

from __future__ import annotations

from datetime import date

import pytest

from tests.migrating import migrate as _migrate

BEFORE = [("tournaments", "0018_registration_withdrew_before_expulsion")]
AFTER = [("tournaments", "0019_player_ids_trf_source")]


@pytest.mark.django_db(transaction=True)
def test_players_and_tournaments_stored_before_keep_their_data() -> None:
    old = _migrate(BEFORE).loader.project_state(BEFORE).apps
    t = old.get_model("tournaments", "Tournament").objects.create(
        name="Old Open", slug="old-open", start_date=date(2026, 1, 1), venue="Rigel"
    )
    p = old.get_model("tournaments", "Player").objects.create(
        name="Worf", rating=2100, federation="KLI"
    )
    new = _migrate(AFTER).loader.project_state(AFTER).apps
    player = new.get_model("tournaments", "Player").objects.get(pk=p.pk)
    assert (player.name, player.rating, player.federation) == ("Worf", 2100, "KLI")
    ids = (player.fide_id, player.national_id, player.title, player.sex, player.birth_date)
    assert ids == ("", "", "", "", "")
    tournament = new.get_model("tournaments", "Tournament").objects.get(pk=t.pk)
    assert (tournament.name, tournament.venue, tournament.trf_source) == ("Old Open", "Rigel", {})
    tournament.trf_source = {"dialect": "TRF-2025"}
    tournament.save()
    player.fide_id, player.sex = "14109603", "m"
    player.save()
    back = _migrate(BEFORE).loader.project_state(BEFORE).apps  # and it reverses
    assert back.get_model("tournaments", "Player").objects.get(pk=p.pk).name == "Worf"
