"""The rating pages: the pools, a pool's list (paged, filtered, CSV and JSON), a player's
history with the plot and each battle's change, the estimate marked, the event's pool."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest

from tests.tournaments.services.factories import event_make, officials_make, round_make
from tournaments import services
from tournaments.models import Game, PoolRating, RatingPeriod, Round
from tournaments.services.ratings import rating_period_close

SEP = dt.datetime(2025, 9, 10, 18, tzinfo=dt.UTC)


@pytest.fixture
def season(db):  # type: ignore[no-untyped-def]
    officials = officials_make()
    t, (ann, bob, cid, dax) = event_make(officials)
    rnd = round_make(t, [(ann, bob), (cid, dax)])
    Round.objects.filter(pk=rnd.pk).update(starts_at=SEP)
    g1, g2 = rnd.games.order_by("board")
    services.game_result_set(game=g1, result=Game.Result.FIRST_WIN)
    services.game_result_set(game=g2, result=Game.Result.DRAW)
    return t, (ann, bob, cid, dax)


def test_the_pools_and_a_rating_list(season, client) -> None:  # type: ignore[no-untyped-def]
    rating_period_close(pool="laws", label="2025-09", user=None)
    index = client.get("/ratings/").content.decode()
    assert 'href="/ratings/kinta/"' in index and "2025-09" in index
    page = client.get("/ratings/laws/").content.decode()
    assert 'id="rating-list"' in page and "Ann" in page and "?</td>" in page
    assert client.get("/ratings/chess/").status_code == 404
    rows = list(csv.reader(io.StringIO(client.get("/ratings/laws.csv").content.decode())))
    assert rows[0][:5] == ["rank", "name", "club", "federation", "rating"]
    assert [r[1] for r in rows[1:]][0] == "Ann" and len(rows) == 5
    body = client.get("/ratings/laws.json?federation=ZZ").json()
    assert (body["pool"], body["players"]) == ("laws", [])


def test_a_players_history_and_the_estimate(season, client) -> None:  # type: ignore[no-untyped-def]
    t, (ann, *_) = season
    before = client.get(f"/p/{ann.pk}/").content.decode()
    assert 'class="rating-estimate"' in before and "Total (estimate)" in before
    assert "rating-periods" not in before
    rating_period_close(pool="laws", label="2025-09", user=None)
    after = client.get(f"/p/{ann.pk}/").content.decode()
    assert 'class="rating-plot"' in after and "<polyline" in after
    assert 'class="rating-periods"' in after and "2025-09" in after
    assert 'class="rating-battles"' in after and "rating-estimate" not in after


def test_the_event_page_shows_its_pool(season, client) -> None:  # type: ignore[no-untyped-def]
    t, _ = season
    page = client.get(f"/t/{t.slug}/").content.decode()
    assert 'href="/ratings/laws/"' in page and "Rating pool" in page


def test_the_start_list_says_what_each_rating_is(db, client) -> None:  # type: ignore[no-untyped-def]
    officials = officials_make()
    t, (ann, bob, *_) = event_make(officials)
    newcomer = services.player_create(name="Eve", rating=0, tournament=t)
    services.registration_create(tournament=t, player=newcomer)
    sep = RatingPeriod.objects.create(
        pool="laws",
        label="2025-09",
        sequence=2025 * 12 + 8,
        starts_on=dt.date(2025, 9, 1),
        ends_before=dt.date(2025, 10, 1),
        closed_at=SEP,
    )
    PoolRating.objects.create(
        pool="laws", player=bob, rating=2301, deviation=60, volatility=0.06, last_period=sep
    )
    services.start_ranks_sort(tournament=t, user=officials.arbiter)
    page = client.get(f"/t/{t.slug}/").content.decode()
    assert f'{ann.pk}/">Ann</a>' in page and "1900 <small" not in page
    assert '2000 <small class="rating-basis">(declared rating)</small>' in page
    assert '2301 <small class="rating-basis">(pool rating)</small>' in page
    body = client.get(f"/api/tournaments/{t.slug}/registrations/").json()
    bases = {row["name"]: (row["rating"], row["rating_basis"]) for row in body}
    assert bases["Bob"] == (2301, "pool") and bases["Ann"] == (2000, "declared")
    assert bases["Eve"] == (0, "")
    client.force_login(officials.arbiter)
    manage = client.get(f"/arbiter/t/{t.slug}/").content.decode()
    assert 'class="rating-basis rating-basis-pool">pool rating</small>' in manage


def test_the_crosstable_shows_each_battles_rating_change(season, client) -> None:  # type: ignore[no-untyped-def]
    t, (ann, bob, cid, dax) = season
    before = client.get(f"/t/{t.slug}/crosstable/").content.decode()
    # Unclosed: the estimate, marked; Ann beat Bob, Cid and Dax drew as equals.
    assert '<small class="rating-change estimate noprint" title="estimate"><br>~+' in before
    assert "~-" in before and "~+0.0" in before
    body = client.get(f"/t/{t.slug}/crosstable.json").json()
    by_name = {row["name"]: row["rounds"][0] for row in body["rows"]}
    assert by_name["Ann"]["rating_change_estimate"] is True
    assert by_name["Ann"]["rating_change"] > 0 > by_name["Bob"]["rating_change"]
    assert by_name["Ann"]["rating_change"] == pytest.approx(-by_name["Bob"]["rating_change"])
    estimated = by_name["Ann"]["rating_change"]
    rating_period_close(pool="laws", label="2025-09", user=None)
    after = client.get(f"/t/{t.slug}/crosstable/").content.decode()
    assert (
        "rating-change estimate" not in after
        and '<small class="rating-change noprint"><br>+' in after
    )
    closed = {
        row["name"]: row["rounds"][0]
        for row in client.get(f"/t/{t.slug}/crosstable.json").json()["rows"]
    }
    # Rated the same (two fresh players), now closed: the same change, no longer an estimate.
    assert closed["Ann"]["rating_change_estimate"] is False
    assert closed["Ann"]["rating_change"] == pytest.approx(estimated)
    api = client.get(f"/api/tournaments/{t.slug}/crosstable/").json()
    assert api["rows"][0]["rounds"][0]["rating_change"] == pytest.approx(estimated)
