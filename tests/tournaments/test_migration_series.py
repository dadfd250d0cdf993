"""Migration 0022 adds series and club officials: clubs, players and events stay as they
were, each club with no official and no event in a series; back, nothing is lost."""

from __future__ import annotations

from datetime import date

import pytest

from tests.migrating import migrate as _migrate
from tests.migrating import migrate_latest

BEFORE = [("tournaments", "0021_ratings")]
AFTER = [("tournaments", "0022_series_club_officials")]


@pytest.mark.django_db(transaction=True)
def test_clubs_players_and_events_are_carried_over() -> None:
    old = _migrate(BEFORE).loader.project_state(BEFORE).apps
    Club = old.get_model("tournaments", "Club")
    club = Club.objects.create(name="Old Club", city="Qo'noS")
    player = old.get_model("tournaments", "Player").objects.create(
        name="Kor", club=club, rating=1834, rating_source="club"
    )
    t = old.get_model("tournaments", "Tournament").objects.create(
        name="Old Open", slug="old-open", start_date=date(2026, 1, 1)
    )
    new = _migrate(AFTER).loader.project_state(AFTER).apps
    Club = new.get_model("tournaments", "Club")
    kept = Club.objects.get(pk=club.pk)
    assert (kept.name, kept.city) == ("Old Club", "Qo'noS")
    assert not kept.officials.exists()
    Player = new.get_model("tournaments", "Player")
    assert Player.objects.values_list("name", "club_id", "rating", "rating_source").get(
        pk=player.pk
    ) == ("Kor", club.pk, 1834, "club")
    assert not new.get_model("tournaments", "SeriesEvent").objects.filter(tournament_id=t.pk)
    back = _migrate(BEFORE).loader.project_state(BEFORE).apps
    assert back.get_model("tournaments", "Club").objects.get(pk=club.pk).name == "Old Club"
    migrate_latest()
