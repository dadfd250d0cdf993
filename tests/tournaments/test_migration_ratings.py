"""Migration 0019 keeps every player's rating as their declared rating, with the source
`estimate` where there is one, none where the rating was 0, and each registration's snapshot
as taken of the declared rating; back, nothing else is lost."""

from __future__ import annotations

from datetime import date

import pytest

from tests.migrating import migrate as _migrate
from tests.migrating import migrate_latest

BEFORE = [("tournaments", "0018_registration_withdrew_before_expulsion")]
AFTER = [("tournaments", "0021_ratings")]


@pytest.mark.django_db(transaction=True)
def test_todays_ratings_become_declared_ratings() -> None:
    old = _migrate(BEFORE).loader.project_state(BEFORE).apps
    Player = old.get_model("tournaments", "Player")
    rated = Player.objects.create(name="Kor", rating=1834)
    unrated = Player.objects.create(name="Worf", rating=0)
    t = old.get_model("tournaments", "Tournament").objects.create(
        name="Old Open", slug="old-open", start_date=date(2026, 1, 1)
    )
    Registration = old.get_model("tournaments", "Registration")
    seeded = Registration.objects.create(tournament=t, player=rated, rating=1834)
    blank = Registration.objects.create(tournament=t, player=unrated, rating=0)
    new = _migrate(AFTER).loader.project_state(AFTER).apps
    Player = new.get_model("tournaments", "Player")
    assert Player.objects.values_list("name", "rating", "rating_source").get(pk=rated.pk) == (
        "Kor",
        1834,
        "estimate",
    )
    assert Player.objects.values_list("rating", "rating_source").get(pk=unrated.pk) == (0, "")
    Registration = new.get_model("tournaments", "Registration")
    assert Registration.objects.values_list("rating", "rating_basis").get(pk=seeded.pk) == (
        1834,
        "declared",
    )
    assert Registration.objects.get(pk=blank.pk).rating_basis == ""
    back = _migrate(BEFORE).loader.project_state(BEFORE).apps
    Player = back.get_model("tournaments", "Player")
    assert Player.objects.get(pk=rated.pk).rating == 1834
    migrate_latest()
