"""Issue 15 item 2: the arbiter's pages built around the tasks (results grid, pair next
round, withdrawals with confirmation and undo, the tournament form, bulk entrants)."""

from __future__ import annotations

import io
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from tournaments import services
from tournaments.models import Game, Registration, Round, Tournament

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def organizer():
    user = User.objects.create_user("org", password="pw-organizer-1")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


@pytest.fixture
def event(organizer):
    t = services.tournament_create(
        name="Club Night",
        slug="club-night",
        start_date=date(2026, 11, 20),
        organizer=organizer,
        rounds_planned=3,
    )
    for i, name in enumerate(["Ann", "Bob", "Cid", "Dax", "Eve", "Fay"]):
        p = services.player_create(name=name, rating=1800 - 100 * i)
        services.registration_create(tournament=t, player=p)
    return t


@pytest.fixture
def round1(client, organizer, event) -> Round:
    client.force_login(organizer)
    return services.round_pair(tournament=event, user=organizer)


def games_of(rnd: Round) -> list[Game]:
    return list(rnd.games.filter(kind=Game.Kind.GAME).order_by("board"))


def test_grid_opens_blank_and_saves_the_whole_round_at_once(client, event, round1):
    page = client.get(f"/arbiter/t/{event.slug}/round/1/").content.decode()
    games = games_of(round1)
    for g in games:
        # A blank box, no result preset: a stray Enter saves nothing.
        assert f'name="result-{g.board}" id="result-{g.board}" value=""' in page
    assert 'id="save-results"' in page and 'form="results-grid"' in page
    # The per-game dropdown of a pending game is preset to nothing either.
    assert '<option value="" selected>—</option>' in page
    resp = client.post(f"/arbiter/t/{event.slug}/round/1/results/", {})
    assert resp.status_code == 302
    assert all(not g.result for g in games_of(round1))

    codes = ["1", "=", "0"]
    data = {f"result-{g.board}": code for g, code in zip(games, codes, strict=True)}
    resp = client.post(f"/arbiter/t/{event.slug}/round/1/results/", data, follow=True)
    assert resp.status_code == 200 and "3 results saved" in resp.content.decode()
    assert [g.result for g in games_of(round1)] == ["first_win", "draw", "second_win"]
    assert event.audit.filter(action="result").count() == 3


def test_grid_refuses_a_bad_row_and_saves_none_of_the_others(client, event, round1):
    games = games_of(round1)
    data = {
        f"result-{games[0].board}": "1",
        f"result-{games[1].board}": "x7",
        f"result-{games[2].board}": "+",
    }
    resp = client.post(f"/arbiter/t/{event.slug}/round/1/results/", data)
    assert resp.status_code == 400
    body = resp.content.decode()
    assert "Nothing was saved" in body and "x7 is no result" in body
    assert f'id="result-{games[1].board}-error"' in body
    assert 'value="x7"' in body and 'value="+"' in body  # what was typed is kept
    assert all(not g.result for g in games_of(round1))


def test_grid_a_board_refused_by_the_service_rolls_back_the_others(client, organizer, event):
    services.tournament_update(tournament=event, user=organizer, ruleset="italian-society")
    client.force_login(organizer)
    rnd = services.round_pair(tournament=event, user=organizer)
    games = games_of(rnd)
    data = {f"result-{games[0].board}": "1", f"result-{games[1].board}": "="}
    resp = client.post(f"/arbiter/t/{event.slug}/round/1/results/", data)
    assert resp.status_code == 400
    body = resp.content.decode()
    assert f'id="result-{games[1].board}-error"' in body and "no draws" in body
    assert all(not g.result for g in games_of(rnd))


def test_grid_forfeits(client, event, round1):
    games = games_of(round1)
    data = {
        f"result-{games[0].board}": "+",
        f"result-{games[1].board}": "-",
        f"result-{games[2].board}": "--",
    }
    client.post(f"/arbiter/t/{event.slug}/round/1/results/", data)
    assert [g.result for g in games_of(round1)] == [
        "first_forfeit_win",
        "second_forfeit_win",
        "double_forfeit",
    ]


def test_console_navigates_rounds_and_pairs_the_next(client, event, round1):
    page = client.get(f"/arbiter/t/{event.slug}/round/1/").content.decode()
    assert 'id="round-nav"' in page and 'id="pair-next-round"' in page
    data = {f"result-{g.board}": "1" for g in games_of(round1)}
    client.post(f"/arbiter/t/{event.slug}/round/1/results/", data)
    resp = client.post(f"/arbiter/t/{event.slug}/pair/")
    assert resp.status_code == 302 and resp["Location"].endswith("/round/2/")
    page = client.get(f"/arbiter/t/{event.slug}/round/2/").content.decode()
    assert f'href="/arbiter/t/{event.slug}/round/1/" rel="prev"' in page
    assert 'id="pair-next-round"' not in page  # round 2 is a proposal: publish it first
    page = client.get(f"/arbiter/t/{event.slug}/round/1/").content.decode()
    assert f'href="/arbiter/t/{event.slug}/round/2/" rel="next"' in page
    assert 'id="pair-next-round"' not in page  # only from the last round
    assert Registration.objects.filter(tournament=event).count() == 6


def test_withdrawal_asks_to_confirm_then_can_be_undone(client, organizer, event):
    client.force_login(organizer)
    fay = event.registrations.get(player__name="Fay")
    url = f"/arbiter/t/{event.slug}/entrants/{fay.player_id}/withdraw/"
    page = client.get(f"/arbiter/t/{event.slug}/").content.decode()
    assert f'href="{url}"' in page  # a link to the confirmation, not a one-click button
    resp = client.get(url)
    assert resp.status_code == 200 and "Withdraw Fay?" in resp.content.decode()
    fay.refresh_from_db()
    assert fay.status == Registration.Status.ACTIVE  # asking changes nothing

    resp = client.post(url, follow=True)
    body = resp.content.decode()
    fay.refresh_from_db()
    undo = f"/arbiter/t/{event.slug}/entrants/{fay.player_id}/undo-withdrawal/"
    assert fay.status == Registration.Status.WITHDRAWN and f'action="{undo}"' in body
    client.post(undo)
    fay.refresh_from_db()
    assert fay.status == Registration.Status.ACTIVE
    assert event.audit.filter(action="withdrawal").count() == 2

    # Once the next round is paired the withdrawal stands: no undo offered, and refused.
    client.post(url)
    services.round_pair(tournament=event, user=organizer)
    page = client.get(f"/arbiter/t/{event.slug}/").content.decode()
    assert f'action="{undo}"' not in page
    body = client.post(undo, follow=True).content.decode()
    assert "was paired since the withdrawal" in body
    fay.refresh_from_db()
    assert fay.status == Registration.Status.WITHDRAWN


GOOD = {
    "name": "Autumn Open",
    "start_date": "2026-11-28",
    "end_date": "2026-11-29",
    "ruleset": "laws",
    "pairing_system": "swiss",
    "rounds_planned": 5,
    "forfeit_win_points": "1",
    "forfeit_loss_points": "0",
    "bye_points": "1",
    "requested_bye_points": "0",
    "tiebreaks": "buchholz,wins",
    "placement_order": "balanced",
    "accelerated_rounds": 0,
}


def test_the_tournament_form_shows_every_error_at_once_beside_its_field(client, organizer):
    client.force_login(organizer)
    bad = {
        **GOOD,
        "end_date": "2026-11-27",
        "bye_points": "-3",
        "time_control": "90 banana",  # "90 min" reads as 90 minutes now (issue 26)
        "rounds_planned": 99999,
        "tiebreaks": "buchholz,nonsense",
    }
    resp = client.post("/arbiter/new/", bad)
    assert resp.status_code == 400
    body = resp.content.decode()
    assert not Tournament.objects.exists()
    assert 'id="form-errors"' in body and "5 settings to correct" in body
    form = resp.context["form"]
    assert set(form.errors) >= {
        "end_date",
        "bye_points",
        "time_control",
        "rounds_planned",
        "tiebreaks",
    }
    assert "before the start date" in form.errors["end_date"][0]
    assert "Art. 10.1" in form.errors["bye_points"][0]
    # Each error beside its own field: the field is marked invalid and its error follows.
    assert 'name="bye_points"' in body and 'aria-invalid="true"' in body
    assert 'value="Autumn Open"' in body  # what was typed is kept


def test_the_slug_is_made_from_the_name_when_left_blank(client, organizer):
    client.force_login(organizer)
    page = client.get("/arbiter/new/").content.decode()
    assert "klinzha/arbiter.js" in page and page.index('name="name"') < page.index('name="slug"')
    resp = client.post("/arbiter/new/", {**GOOD, "name": "Ärger Cup 2026", "slug": ""})
    assert resp.status_code == 302
    assert Tournament.objects.get().slug == "arger-cup-2026"
    resp = client.post("/arbiter/new/", {**GOOD, "slug": "my-own"})
    assert resp.status_code == 302 and Tournament.objects.filter(slug="my-own").exists()
    # The same name again: the suggested address is taken, said beside the field.
    resp = client.post("/arbiter/new/", {**GOOD, "name": "Ärger Cup 2026", "slug": ""})
    assert resp.status_code == 400 and "slug" in resp.context["form"].errors


def test_the_settings_form_refuses_with_every_error_beside_its_field(client, organizer, event):
    client.force_login(organizer)
    data = {**GOOD, "name": "Club Night", "end_date": "2026-11-01", "bye_points": "-3"}
    resp = client.post(f"/arbiter/t/{event.slug}/settings/", data)
    assert resp.status_code == 400
    assert set(resp.context["settings_form"].errors) == {"end_date", "bye_points"}
    event.refresh_from_db()
    assert event.bye_points == 1 and event.end_date is None


def test_bulk_entrants_previewed_then_registered_at_once(client, organizer, event):
    client.force_login(organizer)
    url = f"/arbiter/t/{event.slug}/entrants/bulk/"
    assert client.get(url).status_code == 200
    text = "name, rating, club\nGil Hart, 1650, Rook Club\n\n# a comment\nHal Ives, 1500\nIda Jon"
    resp = client.post(url, {"text": text, "preview": "1"})
    body = resp.content.decode()
    assert resp.status_code == 200 and "3 players to register" in body
    assert 'id="bulk-register"' in body and 'id="line-2"' in body
    assert event.registrations.count() == 6  # a preview saves nothing
    resp = client.post(url, {"text": text, "register": "1"})
    assert resp.status_code == 302
    regs = {r.player.name: r for r in event.registrations.select_related("player__club")}
    assert len(regs) == 9 and regs["Gil Hart"].player.club.name == "Rook Club"
    assert regs["Hal Ives"].player.rating == 1500 and regs["Ida Jon"].player.rating == 0


def test_bulk_entrants_name_each_bad_line_and_register_nobody(client, organizer, event):
    client.force_login(organizer)
    url = f"/arbiter/t/{event.slug}/entrants/bulk/"
    text = "Jo Kay, 1600\n, 1500\nLu Mo, fast\nAnn, 1800\nNed Oz, 99999"
    resp = client.post(url, {"text": text, "preview": "1"})
    body = resp.content.decode()
    assert "2 lines to correct" in body and 'id="bulk-register"' not in body
    assert "no name" in body and "&#x27;fast&#x27;" in body
    # Registering anyway (a stale page): refused, and the service's refusals too, per line.
    resp = client.post(url, {"text": "Jo Kay, 1600\nAnn, 1800\nNed Oz, 99999", "register": "1"})
    assert resp.status_code == 400
    body = resp.content.decode()
    assert "already registered" in body and "from 0 to 9999" in body
    assert "2 lines to correct" in body
    assert event.registrations.count() == 6
    assert not event.registrations.filter(player__name="Jo Kay").exists()


def test_bulk_entrants_from_an_uploaded_csv_and_trf(client, organizer, event):
    client.force_login(organizer)
    url = f"/arbiter/t/{event.slug}/entrants/bulk/"
    csv_file = io.BytesIO(b'name,rating,club\n"Pia, Q.",1700,Blue\n')
    csv_file.name = "list.csv"
    body = client.post(url, {"file": csv_file, "preview": "1"}).content.decode()
    assert "Pia, Q." in body and "One player to register" in body
    pad = " " * 29  # TRF's fixed columns: points from column 81
    trf = (
        "012 Test\n"
        f"001    1      Rex Sol                           1900{pad}0.0    1\n"
        f"001    2      Tia Uhl                           1800{pad}0.0    2\n"
    )
    trf_file = io.BytesIO(trf.encode("latin-1"))
    trf_file.name = "event.trf"
    body = client.post(url, {"file": trf_file, "preview": "1"}).content.decode()
    assert "Rex Sol" in body and "Tia Uhl" in body and "2 players to register" in body


def test_one_by_one_registration_without_a_reload(client, organizer, event):
    client.force_login(organizer)
    page = client.get(f"/arbiter/t/{event.slug}/").content.decode()
    assert 'hx-post="/arbiter/t/club-night/entrants/"' in page
    # The section's content is swapped, never the section (the open tab is its :target).
    assert 'hx-target="#entrants-body" hx-select="#entrants-body"' in page
    url = f"/arbiter/t/{event.slug}/entrants/"
    for name in ("Gus", "Hen"):
        resp = client.post(url, {"name": name, "rating": "1400"}, HTTP_HX_REQUEST="true")
        body = resp.content.decode()
        assert resp.status_code == 200 and 'id="entrants-body"' in body
        assert f"{name} registered from round 1" in body and 'id="entrant-added"' in body
    assert event.registrations.count() == 8
    # A refusal comes back beside the form, and nothing is half-saved.
    resp = client.post(url, {"name": "", "rating": "1400"}, HTTP_HX_REQUEST="true")
    assert "choose a player or give a new player" in resp.content.decode()
    gus = event.registrations.get(player__name="Gus").player
    resp = client.post(url, {"player": gus.pk}, HTTP_HX_REQUEST="true")
    assert resp.status_code == 200 and "already registered" in resp.content.decode()
    assert event.registrations.count() == 8


def test_the_dashboard_has_its_sections_and_downloads(client, organizer, event, round1):
    page = client.get(f"/arbiter/t/{event.slug}/").content.decode()
    for section in ("rounds", "entrants", "penalties", "downloads", "settings"):
        assert f'<section id="{section}">' in page and f'href="#{section}"' in page
    assert f'href="/arbiter/t/{event.slug}/round/1/"' in page
    assert f'href="/arbiter/t/{event.slug}/export.trf"' in page
    assert f'href="/t/{event.slug}/crosstable.csv"' in page
    resp = client.get(f"/arbiter/t/{event.slug}/export.trf")
    assert resp.status_code == 200 and "attachment" in resp["Content-Disposition"]
    text = resp.content.decode()
    assert text.startswith("012 Club Night") and "Ann" in text
    assert "XXS WW=1.0 BW=1.0 WD=-0.5" in text and "BBW" not in text
    assert f'href="/arbiter/t/{event.slug}/export.trf?shift=1"' in page
    resp = client.get(f"/arbiter/t/{event.slug}/export.trf?shift=1")
    assert f'filename="{event.slug}-shifted.trf"' in resp["Content-Disposition"]
    assert (
        "XXS WW=1.5 BW=1.5 WD=0.0" in resp.content.decode() and "BBW  1.5" in resp.content.decode()
    )
    client.logout()
    assert client.get(f"/arbiter/t/{event.slug}/export.trf").status_code == 302


def test_the_entrants_tabs_forms_come_back_to_the_entrants_tab(client, organizer, event):
    """Seeding, moving a start rank, a requested bye and an account (each a form of the
    Entrants tab, done or refused) come back to that tab open, not to the Rounds tab."""
    User.objects.create_user("gil-account", password="pw-gil-account-1")
    client.force_login(organizer)
    ann = event.registrations.get(player__name="Ann").player
    gil = services.player_create(name="Gil", rating=1000, tournament=event)  # the organizer's
    services.registration_create(tournament=event, player=gil)
    base = f"/arbiter/t/{event.slug}/"
    posts = [
        ("start-ranks/", {"sort": "1"}),
        ("start-ranks/", {"player": ann.pk, "rank": "2"}),
        ("byes/", {"player": ann.pk, "round_number": "2"}),
        ("byes/", {"player": ann.pk, "round_number": "x"}),  # refused
        ("accounts/", {"player": gil.pk, "account": "gil-account"}),
        ("accounts/", {"player": gil.pk, "account": "nobody-such"}),  # refused
    ]
    for path, body in posts:
        resp = client.post(base + path, body)
        assert resp.status_code == 302 and resp["Location"] == base + "#entrants", (path, body)
    gil.refresh_from_db()
    assert gil.user is not None and gil.user.username == "gil-account"


def test_the_arbiter_picks_and_orders_tiebreaks_from_the_fide_list(client, organizer):
    client.force_login(organizer)
    page = client.get("/arbiter/new/").content.decode()
    # One choice per place, each offering every code with its name.
    for place in range(6):
        assert f'name="tiebreaks_{place}"' in page
    assert '<option value="BH-C1">BH-C1 – Buchholz Cut 1</option>' in page
    assert '<option value="BWG">BWG – Number of Games Won Placed Second</option>' in page
    form = {k: v for k, v in GOOD.items() if k != "tiebreaks"}
    picked = {"tiebreaks_0": "DE", "tiebreaks_1": "BH-C1", "tiebreaks_2": "", "tiebreaks_3": "SB"}
    resp = client.post("/arbiter/new/", {**form, "slug": "picked", **picked})
    assert resp.status_code == 302, resp.content.decode()[:2000]
    t = Tournament.objects.get(slug="picked")
    assert t.tiebreak_list == ["DE", "BH-C1", "SB"] and t.tiebreak_rules == "2026"
    page = client.get(f"/arbiter/t/{t.slug}/").content.decode()
    assert '<option value="DE" selected>' in page
    # The same code twice is refused beside the field, nothing saved.
    twice = {**form, "slug": "twice", "tiebreaks_0": "BH", "tiebreaks_1": "BH"}
    resp = client.post("/arbiter/new/", twice)
    assert resp.status_code == 400 and "chosen twice" in resp.content.decode()
    assert not Tournament.objects.filter(slug="twice").exists()
    # The 2024 regulation may be chosen instead.
    resp = client.post("/arbiter/new/", {**GOOD, "slug": "old", "tiebreak_rules": "2024"})
    assert resp.status_code == 302
    assert Tournament.objects.get(slug="old").tiebreak_rules == "2024"
