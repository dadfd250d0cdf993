"""No N+1 on any public page or API list: each reads in a number of queries that does not
grow with the players, games, records and penalties it shows (issue 16, item 2)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.query_counts import event_played
from tests.query_counts import queries as queries_counted
from tournaments import services
from tournaments.models import Game, Tournament

pytestmark = pytest.mark.django_db


def event(n: int, slug: str) -> Tournament:
    """n players, two rounds played (results and draws, a battle declared lost, a
    reduction), the third paired."""
    return event_played(n, slug, draws=True, third_paired=True, rounds_planned=4)


def queries(client: APIClient, path: str) -> int:
    return queries_counted(path, client=client, caches_emptied=True)


TOURNAMENT_PATHS = [
    "/t/{slug}/",
    "/t/{slug}/round/1/",
    "/t/{slug}/round/3/",
    "/t/{slug}/standings/",
    "/t/{slug}/standings/?round=1",
    "/t/{slug}/crosstable/",
    "/t/{slug}/crosstable.csv",
    "/t/{slug}/crosstable.json",
    "/it/t/{slug}/standings/",
    "/api/tournaments/{slug}/",
    "/api/tournaments/{slug}/rounds/",
    "/api/tournaments/{slug}/rounds/?round=2",
    "/api/tournaments/{slug}/standings/",
    "/api/tournaments/{slug}/crosstable/",
    "/api/tournaments/{slug}/registrations/",
    "/api/tournaments/{slug}/penalties/",
    "/api/tournaments/{slug}/audit/",
    "/api/tournaments/{slug}/bye-requests/",
    "/api/tournaments/{slug}/forbidden-pairs/",
]


@pytest.fixture
def events() -> tuple[Tournament, Tournament]:
    return event(4, "few"), event(14, "many")


@pytest.fixture
def arbiter() -> APIClient:
    user = get_user_model().objects.create_superuser("qc-staff", "qc@example.org", "pw")
    client = APIClient()
    client.force_login(user)
    return client


@pytest.mark.parametrize("path", TOURNAMENT_PATHS)
@pytest.mark.parametrize("who", ["public", "staff"])
def test_tournament_pages_and_lists_read_in_queries_independent_of_the_field(
    events, arbiter, path, who
):
    small, big = events
    client = arbiter if who == "staff" else APIClient()
    if who == "public" and path.endswith(("audit/", "forbidden-pairs/")):
        pytest.skip("an arbiter's list: the public is refused before any rows are read")
    assert queries(client, path.format(slug=big.slug)) == queries(
        client, path.format(slug=small.slug)
    )


def top_player_and_game(t: Tournament) -> tuple[int, int]:
    game = Game.objects.filter(round__tournament=t, kind=Game.Kind.GAME).order_by("pk").last()
    assert game is not None
    return game.first_id, game.pk


@pytest.mark.parametrize("page", ["/p/{player}/", "/g/{game}/", "/api/games/{game}/"])
def test_player_and_game_pages_read_in_queries_independent_of_the_field(events, page):
    small, big = events
    counts = []
    for t in (small, big):
        player, game = top_player_and_game(t)
        counts.append(queries(APIClient(), page.format(player=player, game=game)))
    assert counts[0] == counts[1]


GLOBAL_LISTS = [
    "/",
    "/api/tournaments/",
    "/api/players/",
    "/api/clubs/",
    "/api/games/",
    "/api/records/",
]


@pytest.mark.parametrize("path", GLOBAL_LISTS)
def test_site_wide_lists_do_not_grow_with_the_events(arbiter, path):
    event(4, "one")
    few = queries(arbiter, path)
    event(14, "two")
    # One more tournament may add a query of its own (its penalties), never one per row.
    assert queries(arbiter, path) <= few + 2


@pytest.mark.parametrize("who", ["public", "arbiter"])
def test_the_records_list_leaves_out_draft_rounds_in_queries_independent_of_them(who):
    """Issue 22, item 3: the records of a proposed round's games are left out for whoever
    may not see those games, in the list's own query (no check per record)."""
    from games.models import RecordSubmission
    from tournaments.models import Round

    user = get_user_model().objects.create_user("qc-arbiter", password="pw-qc-arbiter-1")
    client = APIClient()
    if who == "arbiter":
        client.force_login(user)

    def add(n: int, slug: str) -> None:
        t = event(n, slug)
        t.arbiters.add(user)
        services.round_unpublish(round=t.rounds.get(number=3))  # round 3 proposed again
        for game in Game.objects.filter(round__tournament=t, kind=Game.Kind.GAME):
            RecordSubmission.objects.create(game=game, raw=b'[Event "q"]\n\n')

    add(4, "few")
    few = queries(client, "/api/records/?limit=500")
    add(14, "many")
    assert queries(client, "/api/records/?limit=500") == few
    listed = {r["game"] for r in client.get("/api/records/?limit=500").json()["results"]}
    drafts = set(
        Game.objects.filter(round__status=Round.Status.DRAFT, kind=Game.Kind.GAME).values_list(
            "pk", flat=True
        )
    )
    assert drafts and (drafts <= listed if who == "arbiter" else not drafts & listed)


@pytest.mark.parametrize(
    "path",
    [
        "/series/{series}/",
        "/series/{series}.csv",
        "/series/{series}.json",
        "/api/series/{series}/standings/",
        "/clubs/{club}/",
    ],
)
def test_series_and_club_pages_read_in_queries_independent_of_the_field(events, path):
    """Issue 25: a series' standings and a club's page read per event and per pool, never
    per player."""
    from tournaments.models import Player

    counts = []
    for t in events:
        club = services.club_create(name=f"Club {t.slug}")
        Player.objects.filter(registrations__tournament=t).update(club=club)
        series = services.series_create(
            name=f"GP {t.slug}",
            slug=f"gp-{t.slug}",
            user=None,
            events=[t],
            categories=[{"name": "U1900", "high": 1900}],
        )
        counts.append(queries(APIClient(), path.format(series=series.slug, club=club.pk)))
    assert counts[0] == counts[1]
