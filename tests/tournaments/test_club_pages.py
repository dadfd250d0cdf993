"""Club pages (members with their ratings, events, series, the club's rating list) and the
club official, who manages the club's members and nobody else's."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from rest_framework.test import APIClient

from tests.tournaments.services.factories import event_make, officials_make, round_make
from tournaments import services
from tournaments.audit import Action
from tournaments.models import AuditEntry, Game, Player, Round
from tournaments.roles import user_may_edit_player, user_may_manage_player
from tournaments.services.ratings import rating_period_close

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def clubs(db):  # type: ignore[no-untyped-def]
    officials = officials_make()
    t, (ann, bob, cid, dax) = event_make(officials)
    home = services.club_create(name="Home Club", city="Qo'noS")
    away = services.club_create(name="Away Club")
    Player.objects.filter(pk__in=[ann.pk, bob.pk]).update(club=home)
    Player.objects.filter(pk=cid.pk).update(club=away)
    official = User.objects.create_user("home-official", password="pw-home-official-1")
    staff = User.objects.create_user("staffer", password="pw-staffer-1", is_staff=True)
    services.club_officials_set(club=home, accounts=[official], user=staff)
    for p in (ann, bob, cid, dax):
        p.refresh_from_db()
    return officials, t, home, away, official, staff, (ann, bob, cid, dax)


def test_a_club_official_manages_their_clubs_members_and_no_one_else(clubs) -> None:  # type: ignore[no-untyped-def]
    _, _, home, _, official, _, (ann, bob, cid, dax) = clubs
    assert user_may_manage_player(user=official, player=ann)
    assert user_may_edit_player(user=official, player=bob)
    assert not user_may_manage_player(user=official, player=cid)  # another club's
    assert not user_may_manage_player(user=official, player=dax)  # in no club
    # A member who leaves the club leaves the official's hands.
    services.player_update(player=ann, user=official, club=None)
    ann.refresh_from_db()
    assert not user_may_manage_player(user=official, player=ann)
    with pytest.raises(PermissionDenied):
        services.player_update(player=cid, user=official, federation="ITA")


def test_only_staff_name_club_officials_and_the_change_is_audited(clubs) -> None:  # type: ignore[no-untyped-def]
    officials, _, home, away, official, staff, _ = clubs
    with pytest.raises(PermissionDenied):
        services.club_officials_set(club=away, accounts=[official], user=official)
    with pytest.raises(PermissionDenied):
        services.club_officials_set(club=away, accounts=[official], user=officials.organizer)
    entry = AuditEntry.objects.filter(tournament=None, action=Action.CLUB_OFFICIALS).get()
    assert entry.after == {"officials": ["home-official"]}
    api = APIClient()
    api.force_authenticate(staff)
    resp = api.post(f"/api/clubs/{away.pk}/officials/", {"accounts": ["nobody"]}, format="json")
    assert resp.status_code == 400 and not away.officials.exists()
    resp = api.post(
        f"/api/clubs/{away.pk}/officials/", {"accounts": ["home-official"]}, format="json"
    )
    assert resp.status_code == 200 and list(away.officials.all()) == [official]


def test_a_club_official_edits_a_member_through_the_api(clubs) -> None:  # type: ignore[no-untyped-def]
    _, _, _, _, official, _, (ann, _, cid, _) = clubs
    api = APIClient()
    api.force_authenticate(official)
    resp = api.patch(f"/api/players/{ann.pk}/", {"federation": "KLI"}, format="json")
    assert resp.status_code == 200 and resp.json()["federation"] == "KLI"
    resp = api.patch(f"/api/players/{cid.pk}/", {"federation": "KLI"}, format="json")
    assert resp.status_code == 403
    cid.refresh_from_db()
    assert cid.federation == ""


def test_the_club_page_lists_members_ratings_events_series_and_its_rating_list(
    clubs, client
) -> None:  # type: ignore[no-untyped-def]
    officials, t, home, _, _, _, (ann, bob, cid, dax) = clubs
    rnd = round_make(t, [(ann, bob), (cid, dax)])
    Round.objects.filter(pk=rnd.pk).update(starts_at=dt.datetime(2025, 9, 10, 18, tzinfo=dt.UTC))
    g1, g2 = rnd.games.order_by("board")
    services.game_result_set(game=g1, result=Game.Result.FIRST_WIN)
    services.game_result_set(game=g2, result=Game.Result.FIRST_WIN)
    rating_period_close(pool="laws", label="2025-09", user=None)
    services.series_create(name="Home GP", slug="home-gp", user=None, events=[t])
    page = client.get(f"/clubs/{home.pk}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Home Club" in text and "Ann" in text and "Bob" in text
    assert "Cid" not in text  # another club's member
    assert 'href="/t/test-open/"' in text and 'href="/series/home-gp/"' in text
    # The club's own rating list: Ann above Bob, ranked 1 and 2 in the club.
    rows = text.split('class="club-rating-list"')[1].split("</table>")[0]
    assert rows.index("Ann") < rows.index("Bob")
    assert "home-official" in text
    player_page = client.get(f"/p/{ann.pk}/").content.decode()
    assert f'href="/clubs/{home.pk}/"' in player_page
    assert client.get("/clubs/999999/").status_code == 404


def test_the_admin_shows_a_clubs_officials_without_changing_them(clubs, client) -> None:  # type: ignore[no-untyped-def]
    _, _, home, _, _, _, _ = clubs
    admin = User.objects.create_superuser("root", "root@example.org", "pw-root-12345")
    client.force_login(admin)
    page = client.get(f"/admin/tournaments/club/{home.pk}/change/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "home-official" in text and 'name="officials"' not in text
    assert client.get("/admin/tournaments/series/").status_code == 200


def test_a_club_official_edits_their_members_on_the_pages_and_no_one_else(clubs, client) -> None:  # type: ignore[no-untyped-def]
    officials, _, home, _, official, staff, (ann, bob, cid, dax) = clubs
    client.force_login(official)
    page = client.get(f"/clubs/{home.pk}/").content.decode()
    assert f'href="/p/{ann.pk}/edit/"' in page and f'href="/p/{bob.pk}/edit/"' in page
    assert client.get(f"/p/{cid.pk}/edit/").status_code == 403
    assert (
        client.post(f"/p/{cid.pk}/edit/", {"name": "Cid", "federation": "ZZZ"}).status_code == 403
    )
    cid.refresh_from_db()
    assert cid.federation == ""
    form = {
        "name": "Ann",
        "club": home.pk,
        "federation": "KLI",
        "rating": 1950,
        "rating_source": "club",
    }
    resp = client.post(f"/p/{ann.pk}/edit/", form)
    assert resp.status_code == 302
    ann.refresh_from_db()
    assert (ann.federation, ann.rating, ann.rating_source) == ("KLI", 1950, "club")
    client.logout()
    assert f"/p/{ann.pk}/edit/" not in client.get(f"/clubs/{home.pk}/").content.decode()


def test_players_editable_says_what_user_may_edit_player_says(clubs) -> None:  # type: ignore[no-untyped-def]
    from tournaments.roles import players_editable

    officials, t, _, _, official, staff, players = clubs
    everyone = list(Player.objects.all())
    for user in (official, staff, officials.organizer, officials.arbiter, officials.stranger):
        assert players_editable(user=user, players=everyone) == {
            p.pk for p in everyone if user_may_edit_player(user=user, player=p)
        }, user.username


def test_the_clubs_page_lists_every_club_with_a_link_to_its_page(clubs, client) -> None:  # type: ignore[no-untyped-def]
    _, _, home, away, _, _, _ = clubs
    page = client.get("/clubs/")
    assert page.status_code == 200
    text = page.content.decode()
    # By name: Away before Home; each links to its page, with its number of members.
    assert text.index(f'href="/clubs/{away.pk}/"') < text.index(f'href="/clubs/{home.pk}/"')
    rows = {c.name: c.members for c in page.context["clubs"]}
    assert rows == {"Away Club": 1, "Home Club": 2}
    assert "Qo&#x27;noS" in text
    assert client.get(f"/clubs/{home.pk}/").status_code == 200
    assert "No club yet." not in text


def test_every_page_links_to_the_ratings_series_and_clubs(clubs, client) -> None:  # type: ignore[no-untyped-def]
    _, t, _, _, _, _, _ = clubs
    for url in ("/", f"/t/{t.slug}/", "/clubs/", "/it/"):
        text = client.get(url).content.decode()
        nav = text[text.index('id="site-nav"') : text.index("</nav>", text.index('id="site-nav"'))]
        prefix = "/it" if url.startswith("/it/") else ""
        for target in ("/ratings/", "/series/", "/clubs/"):
            assert f'href="{prefix}{target}"' in nav, (url, target)
    assert ">Circuiti<" in client.get("/it/").content.decode()  # "Series", translated
