"""Series through the services, the API, the pages and `kz series`: an organizer's own events
join at once, another organizer's only with their consent; standings with shared places,
best N, categories and the play-off note."""

from __future__ import annotations

import io
import json
from datetime import date

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management import call_command
from rest_framework.test import APIClient

from tests.tournaments.services.factories import event_make, officials_make, round_make
from tournaments import services
from tournaments.audit import Action
from tournaments.models import AuditEntry, Game, Player, SeriesEvent, Tournament
from tournaments.series_selectors import event_placings, series_table

pytestmark = pytest.mark.django_db


def api(user) -> APIClient:  # type: ignore[no-untyped-def]
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def second_event(slug: str, organizer, players: list[Player]) -> Tournament:  # type: ignore[no-untyped-def]
    t = services.tournament_create(
        name=slug.title(), slug=slug, start_date=date(2026, 12, 1), rounds_planned=3
    )
    t.organizer = organizer
    t.save(update_fields=["organizer"])
    for p in players:
        services.registration_create(tournament=t, player=p)
    return t


def results(t: Tournament, pairs, outcomes) -> None:  # type: ignore[no-untyped-def]
    rnd = round_make(t, pairs)
    for game, outcome in zip(rnd.games.order_by("board"), outcomes, strict=True):
        services.game_result_set(game=game, result=outcome)


@pytest.fixture
def world(db):  # type: ignore[no-untyped-def]
    officials = officials_make()
    add = Permission.objects.get(codename="add_tournament")
    officials.organizer.user_permissions.add(add)
    officials.stranger.user_permissions.add(add)  # organizes an event of their own
    a, (ann, bob, cid, dax) = event_make(officials, slug="gp-one")
    b = second_event("gp-two", officials.organizer, [ann, bob, cid, dax])
    c = second_event("their-cup", officials.stranger, [ann, bob, cid, dax])
    results(a, [(ann, bob), (cid, dax)], [Game.Result.FIRST_WIN, Game.Result.DRAW])
    results(b, [(bob, ann), (cid, dax)], [Game.Result.FIRST_WIN, Game.Result.FIRST_WIN])
    results(c, [(dax, ann), (cid, bob)], [Game.Result.FIRST_WIN, Game.Result.FIRST_WIN])
    return officials, (a, b, c), (ann, bob, cid, dax)


BODY = {
    "name": "Grand Prix 2026",
    "slug": "gp-2026",
    "events": ["gp-one", "gp-two", "their-cup"],
    "best_of": 1,
    "scoring": "placing",
    "points_table": [25, 18, 15, 12],
}


def test_placings_share_places_the_tie_breaks_cannot_part(world) -> None:  # type: ignore[no-untyped-def]
    _, (a, _, _), (ann, bob, cid, dax) = world
    got = {p.player: (p.place, p.shared) for p in event_placings(tournament=a).placings}
    assert got[ann.pk] == (1, 1)
    assert got[bob.pk] == (2, 1)
    # A draw scores -0.5 each (Art. 10.1): Cid and Dax share third and fourth.
    assert got[cid.pk] == got[dax.pk] == (3, 2)


def test_an_organizer_makes_a_series_another_organizers_event_waits_for_consent(world) -> None:  # type: ignore[no-untyped-def]
    officials, (a, b, c), (ann, bob, cid, dax) = world
    resp = api(officials.organizer).post("/api/series/", BODY, format="json")
    assert resp.status_code == 201, resp.content
    status = {e["slug"]: e["status"] for e in resp.json()["events"]}
    assert status == {"gp-one": "accepted", "gp-two": "accepted", "their-cup": "invited"}
    standings = api(None).get("/api/series/gp-2026/standings/").json()
    assert [e["slug"] for e in standings["events"]] == ["gp-one", "gp-two"]
    rows = {r["name"]: r for r in standings["standings"]}
    # gp-one: Ann 1st 25, Bob 2nd 18, Cid and Dax share 3rd-4th (15 + 12) / 2;
    # gp-two: Bob and Cid share 1st-2nd 21.5, Ann and Dax 3rd-4th 13.5. Best 1 counts.
    assert {n: r["total"] for n, r in rows.items()} == {
        "Ann": 25, "Bob": 21.5, "Cid": 21.5, "Dax": 13.5,
    }  # fmt: skip
    assert rows["Bob"]["rank"] == rows["Cid"]["rank"] == 2
    assert rows["Bob"]["playoff"] and rows["Cid"]["playoff"] and not rows["Ann"]["playoff"]
    assert [r["counted"] for r in rows["Ann"]["results"]] == [True, False]
    # The other organizer consents: their event counts from now on.
    assert (
        api(officials.organizer)
        .post("/api/series/gp-2026/accept/", {"event": "their-cup"}, format="json")
        .status_code
        == 403
    )
    resp = api(officials.stranger).post(
        "/api/series/gp-2026/accept/", {"event": "their-cup"}, format="json"
    )
    assert resp.status_code == 200, resp.content
    assert SeriesEvent.objects.get(tournament=c).status == SeriesEvent.Status.ACCEPTED
    assert AuditEntry.objects.filter(tournament=c, action=Action.SERIES_EVENT_ACCEPTED).exists()
    after = api(None).get("/api/series/gp-2026/standings/").json()
    assert len(after["events"]) == 3
    assert {r["name"]: r["played"] for r in after["standings"]}["Dax"] == 3


def test_only_organizers_make_a_series_and_a_bad_body_saves_nothing(world) -> None:  # type: ignore[no-untyped-def]
    officials, _, _ = world
    assert api(None).post("/api/series/", BODY, format="json").status_code in (401, 403)
    assert api(officials.arbiter).post("/api/series/", BODY, format="json").status_code == 403
    bad = {**BODY, "points_table": [25, -1]}
    assert api(officials.organizer).post("/api/series/", bad, format="json").status_code == 400
    missing = {**BODY, "events": ["no-such-event"]}
    assert api(officials.organizer).post("/api/series/", missing, format="json").status_code == 404
    assert not SeriesEvent.objects.exists()
    assert api(officials.organizer).post("/api/series/", BODY, format="json").status_code == 201
    again = api(officials.organizer).post("/api/series/", BODY, format="json")
    assert again.status_code == 400 and "slug" in again.json()


def test_only_the_series_organizer_adds_events(world) -> None:  # type: ignore[no-untyped-def]
    officials, (a, b, c), _ = world
    series = services.series_create(
        name="Club championship", slug="club-ch", user=officials.organizer, events=[a]
    )
    with pytest.raises(PermissionDenied):
        services.series_event_add(series=series, tournament=c, user=officials.stranger)
    resp = api(officials.organizer).post(
        "/api/series/club-ch/events/", {"event": "gp-two"}, format="json"
    )
    assert resp.status_code == 200
    assert {e["slug"]: e["status"] for e in resp.json()["events"]} == {
        "gp-one": "accepted", "gp-two": "accepted",
    }  # fmt: skip


def test_categories_rank_rating_bands_and_named_groups(world) -> None:  # type: ignore[no-untyped-def]
    officials, (a, b, _), (ann, bob, cid, dax) = world
    series = services.series_create(
        name="GP", slug="gp", user=officials.organizer, events=[a, b],
        points_table=[25, 18, 15, 12],
        categories=[
            {"name": "Under 1850", "high": 1850},
            {"name": "Juniors", "players": [dax.pk, bob.pk]},
        ],
    )  # fmt: skip
    table = series_table(series=series)
    cats = {
        name: [(line.name, line.row.rank) for line in lines] for name, lines in table.categories
    }
    # Declared ratings 2000, 1900, 1800, 1700: Cid and Dax are under 1850.
    assert cats["Under 1850"] == [("Cid", 1), ("Dax", 2)]
    assert cats["Juniors"] == [("Bob", 1), ("Dax", 2)]


def test_pages_csv_json_and_kz(world, client) -> None:  # type: ignore[no-untyped-def]
    officials, (a, b, _), _ = world
    services.series_create(
        name="Grand Prix", slug="gp", user=officials.organizer, events=[a, b], best_of=2
    )
    page = client.get("/series/gp/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Grand Prix" in text and "/t/gp-one/" in text and 'id="series-standings"' in text
    assert "The best 2 results count." in text
    detail = client.get("/t/gp-one/").content.decode()
    assert 'href="/series/gp/"' in detail
    csv_text = client.get("/series/gp.csv").content.decode()
    assert csv_text.splitlines()[0].startswith("rank,name,club,total,played,best,playoff,gp-one")
    body = client.get("/series/gp.json").json()
    out = io.StringIO()
    call_command("kz", "series", "standings", "gp", "--json", stdout=out)
    assert json.loads(out.getvalue()) == body
    assert body == api(None).get("/api/series/gp/standings/").json()
    assert client.get("/series/").status_code == 200
    assert client.get("/series/none/").status_code == 404


def test_the_invited_organizer_consents_on_the_series_page(world, client) -> None:  # type: ignore[no-untyped-def]
    officials, (a, _, c), _ = world
    services.series_create(name="GP", slug="gp", user=officials.organizer, events=[a, c])
    client.force_login(officials.stranger)
    page = client.get("/series/gp/").content.decode()
    assert "/series/gp/accept/their-cup/" in page
    client.post("/series/gp/accept/their-cup/")
    assert SeriesEvent.objects.get(tournament=c).status == SeriesEvent.Status.ACCEPTED
    client.force_login(officials.arbiter)
    assert client.post("/series/gp/accept/gp-one/").status_code == 403


def test_a_knockout_places_by_the_round_reached(db) -> None:  # type: ignore[no-untyped-def]
    officials = officials_make()
    t, (ann, bob, cid, dax) = event_make(officials, slug="ko", pairing_system="knockout")
    results(t, [(ann, dax), (bob, cid)], [Game.Result.FIRST_WIN, Game.Result.SECOND_WIN])
    results(t, [(ann, cid)], [Game.Result.SECOND_WIN])
    got = {p.player: (p.place, p.shared) for p in event_placings(tournament=t).placings}
    assert got[cid.pk] == (1, 1) and got[ann.pk] == (2, 1)
    assert got[bob.pk] == got[dax.pk] == (3, 2)


def test_an_organizer_makes_a_series_on_its_page(world, client) -> None:  # type: ignore[no-untyped-def]
    officials, (a, b, c), _ = world
    client.force_login(officials.organizer)
    assert 'href="/series/new/"' in client.get("/series/").content.decode()
    form = {
        "name": "Winter GP",
        "slug": "winter-gp",
        "events": "gp-one, gp-two\ntheir-cup",
        "scoring": "placing",
        "points_table": "10, 6, 4",
        "best_of": "2",
    }
    bad = client.post("/series/new/", {**form, "events": "gp-one, nowhere"})
    assert bad.status_code == 200 and "no event nowhere" in bad.content.decode()
    assert not SeriesEvent.objects.exists()
    resp = client.post("/series/new/", form)
    assert resp.status_code == 302 and resp["Location"].endswith("/series/winter-gp/")
    got = dict(SeriesEvent.objects.values_list("tournament__slug", "status"))
    assert got == {"gp-one": "accepted", "gp-two": "accepted", "their-cup": "invited"}
    client.force_login(officials.arbiter)
    assert client.get("/series/new/").status_code == 403


def test_the_events_trail_says_it_joined_the_series(world, client) -> None:  # type: ignore[no-untyped-def]
    officials, (a, _, c), _ = world
    services.series_create(name="GP", slug="gp", user=officials.organizer, events=[a, c])
    client.force_login(officials.organizer)
    page = client.get("/arbiter/t/gp-one/audit/")
    assert page.status_code == 200
    assert "counts in a series" in page.content.decode()
    client.force_login(officials.stranger)
    assert "invited into a series" in client.get("/arbiter/t/their-cup/audit/").content.decode()


def test_the_invited_organizer_declines_and_the_invitation_goes(world, client) -> None:  # type: ignore[no-untyped-def]
    officials, (a, _, c), _ = world
    series = services.series_create(name="GP", slug="gp", user=officials.organizer, events=[a, c])
    # Neither the series' organizer nor an arbiter of the invited event declines for it.
    with pytest.raises(PermissionDenied):
        services.series_event_decline(series=series, tournament=c, user=officials.organizer)
    # A counting event is not declined: it leaves by the series' organizer.
    with pytest.raises(ValidationError):
        services.series_event_decline(series=series, tournament=a, user=officials.organizer)
    client.force_login(officials.stranger)
    page = client.get("/series/gp/").content.decode()
    assert "/series/gp/decline/their-cup/" in page
    assert "/series/gp/remove/" not in page  # not the series' organizer
    resp = client.post("/series/gp/decline/their-cup/")
    assert resp.status_code == 302
    assert not SeriesEvent.objects.filter(tournament=c).exists()
    entry = AuditEntry.objects.get(tournament=c, action=Action.SERIES_EVENT_DECLINED)
    assert entry.before == {"series": "gp", "status": "invited"}
    assert (
        "invitation into a series declined"
        in client.get("/arbiter/t/their-cup/audit/").content.decode()
    )
    # Declined already: nothing to decline, a clear error and no 500.
    again = api(officials.stranger).post("/api/series/gp/decline/", {"event": "their-cup"})
    assert again.status_code == 400 and "series" in again.json()
    # Invited again, declined through the API.
    services.series_event_add(series=series, tournament=c, user=officials.organizer)
    resp = api(officials.stranger).post("/api/series/gp/decline/", {"event": "their-cup"})
    assert resp.status_code == 200, resp.content
    assert [e["slug"] for e in resp.json()["events"]] == ["gp-one"]


def test_the_series_organizer_removes_an_event(world, client) -> None:  # type: ignore[no-untyped-def]
    officials, (a, b, c), _ = world
    series = services.series_create(
        name="GP", slug="gp", user=officials.organizer, events=[a, b, c]
    )
    with pytest.raises(PermissionDenied):
        services.series_event_remove(series=series, tournament=c, user=officials.stranger)
    version = Tournament.objects.get(pk=b.pk).published_version
    client.force_login(officials.organizer)
    page = client.get("/series/gp/").content.decode()
    assert "/series/gp/remove/gp-two/" in page and "/series/gp/remove/their-cup/" in page
    assert client.post("/series/gp/remove/gp-two/").status_code == 302
    assert Tournament.objects.get(pk=b.pk).published_version > version  # its page changes
    assert 'href="/series/gp/"' not in client.get("/t/gp-two/").content.decode()
    entry = AuditEntry.objects.get(tournament=b, action=Action.SERIES_EVENT_REMOVED)
    assert entry.before == {"series": "gp", "status": "accepted"}
    table = series_table(series=series)
    assert [m.tournament.slug for m in table.events] == ["gp-one"]
    # The invited one goes too, through the API; an event not in the series is a 400.
    resp = api(officials.organizer).post("/api/series/gp/remove/", {"event": "their-cup"})
    assert resp.status_code == 200
    assert [e["slug"] for e in resp.json()["events"]] == ["gp-one"]
    missing = api(officials.organizer).post("/api/series/gp/remove/", {"event": "their-cup"})
    assert missing.status_code == 400
    assert (
        api(officials.organizer).post("/api/series/gp/remove/", {"event": "x"}).status_code == 404
    )
    assert client.post("/series/gp/remove/gp-two/").status_code == 302  # an error message
    assert Tournament.objects.filter(slug="gp-two").exists()  # the event itself stays
