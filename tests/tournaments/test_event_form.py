"""The arbiter's event form: a short guided part (name, dates, ruleset, system, rounds, time
control) that makes an event with every other setting at its default, the rest grouped under
Rules, Scoring, Pairing and Withdrawals with their Articles, lists ticked or picked."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth.models import Permission, User

from tournaments import services
from tournaments.forms import TournamentForm
from tournaments.models import Tournament
from tournaments.settings_layout import ESSENTIALS, GROUPS

pytestmark = pytest.mark.django_db

GUIDED = {
    "name": "Winter Cup",
    "start_date": "2026-12-12",
    "end_date": "2026-12-13",
    "ruleset": "laws",
    "pairing_system": "swiss",
    "rounds_planned": "5",
    "time_control": "90+30",
}


@pytest.fixture
def organizer():
    user = User.objects.create_user("org", password="pw-organizer-1")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


def section_of(page: str, key: str) -> str:
    """The HTML of one section of the form (`settings-<key>`), up to the next one."""
    start = page.index(f'id="settings-{key}"')
    end = page.find('class="settings-group"', start + 1)
    return page[start : end if end > 0 else len(page)]


def test_the_guided_part_alone_makes_an_event_with_every_default(client, organizer):
    client.force_login(organizer)
    response = client.post("/arbiter/new/", GUIDED)
    assert response.status_code == 302, response.context["form"].errors
    t = Tournament.objects.get()
    assert (t.name, t.slug, t.rounds_planned) == ("Winter Cup", "winter-cup", 5)
    assert t.time_control == "5400+30"
    fresh = Tournament()  # the model's defaults
    for name in (
        "forfeit_win_points",
        "forfeit_loss_points",
        "bye_points",
        "requested_bye_points",
        "tiebreaks",
        "tiebreak_rules",
        "placement_order",
        "withdrawal_results",
        "free_round",
        "late_entry_points",
        "variants",
        "ablation_limit",
        "notation",
        "resignation_allowed",
        "accelerated_rounds",
    ):
        assert getattr(t, name) == getattr(fresh, name), name
    assert t.bye_points == Decimal(1) and t.tiebreaks == "BH,SSB,WON"


def test_a_blank_setting_of_a_new_event_keeps_its_default_but_a_wrong_one_is_refused(
    client, organizer
):
    client.force_login(organizer)
    response = client.post("/arbiter/new/", {**GUIDED, "bye_points": "", "tiebreaks": ""})
    assert response.status_code == 302
    assert Tournament.objects.get().bye_points == Decimal(1)
    response = client.post("/arbiter/new/", {**GUIDED, "slug": "other", "bye_points": "-3"})
    assert response.status_code == 400 and "bye_points" in response.context["form"].errors
    # the guided part stays required
    response = client.post("/arbiter/new/", {**GUIDED, "slug": "third", "start_date": ""})
    assert response.status_code == 400 and "start_date" in response.context["form"].errors


def test_the_form_shows_the_guided_part_first_then_the_four_groups(client, organizer):
    client.force_login(organizer)
    page = client.get("/arbiter/new/").content.decode()
    order = [page.index(f'id="settings-{key}"') for key in ("essentials", *(g[0] for g in GROUPS))]
    assert order == sorted(order)
    for heading in ("Rules", "Scoring", "Pairing", "Withdrawals"):
        assert re.search(rf"<summary>{heading}</summary>", page), heading
    essentials = section_of(page, "essentials")
    for name in ESSENTIALS:
        assert f'name="{name}"' in essentials, name
    assert 'name="bye_points"' not in essentials and 'name="variants"' not in essentials
    # a new event's groups are folded
    assert re.search(r'<details class="settings-group" id="settings-rules">', page)
    for key, _title, names in GROUPS:
        group = section_of(page, key)
        for name in names:
            assert f'name="{name}' in group, (key, name)


def test_each_setting_shows_its_article(client, organizer):
    client.force_login(organizer)
    page = client.get("/arbiter/new/").content.decode()

    def article(name: str) -> str:
        block = re.search(rf'id="setting-{name}">(.*?)</div>\n', page, re.S)
        assert block is not None, name
        found = re.search(r'<small class="article">([^<]*)</small>', block.group(1))
        return found.group(1) if found else ""

    assert article("time_control") == "Art. 6.4"
    assert article("clouds") == "Art. 13.4"
    assert article("crown") == "Art. 13.3"
    assert article("bye_points").startswith("Art. 10.1")
    assert article("resignation_after_moves") == "Art. 9.2"
    assert article("tiebreaks") == "FIDE C.07"
    assert article("placement_order") == "Art. 2.3"
    assert article("name") == ""


def test_every_setting_is_in_exactly_one_section():
    form = TournamentForm()
    shown = [s.field.name for section in form.sections() for s in section.settings]
    assert sorted(shown) == sorted(form.fields) and len(shown) == len(set(shown))
    named = [*ESSENTIALS, *(n for _k, _t, names in GROUPS for n in names)]
    assert len(named) == len(set(named))
    assert set(named) == set(form.fields)  # a new setting must be given its place


def test_variants_are_ticked_not_typed(client, organizer):
    client.force_login(organizer)
    page = client.get("/arbiter/new/").content.decode()
    rules = section_of(page, "rules")
    assert 'type="checkbox" name="variants" value="clouded"' in rules
    assert "Clouded (Art. 13.4)" in rules and "Kagga&#x27;s crown (Art. 13.3)" in rules
    assert 'type="text" name="variants"' not in page
    data = {**GUIDED, "variants": ["clouded", "ablative"], "clouds": "E37", "ablation_limit": "3"}
    response = client.post("/arbiter/new/", data)
    assert response.status_code == 302, response.context["form"].errors
    assert set(Tournament.objects.get().variants.split(",")) == {"clouded", "ablative"}


def test_variants_typed_as_before_are_still_read_and_checked(client, organizer):
    client.force_login(organizer)
    response = client.post("/arbiter/new/", {**GUIDED, "variants": "nonsense"})
    assert response.status_code == 400
    assert "unknown variant" in str(response.context["form"].errors["variants"])
    response = client.post("/arbiter/new/", {**GUIDED, "variants": "Ablative"})
    assert response.status_code == 302
    assert Tournament.objects.get().variants == "ablative"


def test_the_edit_form_is_grouped_open_and_keeps_working(client, organizer):
    t = services.tournament_create(
        name="Club Night",
        slug="club-night",
        start_date=date(2026, 11, 20),
        organizer=organizer,
        rounds_planned=3,
        variants="ablative",
        tiebreaks="BH,WON",
    )
    client.force_login(organizer)
    page = client.get(f"/arbiter/t/{t.slug}/").content.decode()
    form = page[page.index('id="settings-form"') :]
    for key in ("rules", "scoring", "pairing", "withdrawals"):
        assert re.search(rf'<details class="settings-group" id="settings-{key}" open>', form), key
    assert 'name="slug"' not in form
    assert re.search(r'name="variants" value="ablative"[^>]*checked', form)
    # the stored tie-breaks fill the picked list in order
    picked = re.findall(r'name="tiebreaks_\d".*?<option value="([^"]*)" selected', form, re.S)
    assert picked[:2] == ["BH", "WON"]
    assert 'aria-label="tie-break, place 2"' in form  # each place named for a screen reader
    data = {
        **GUIDED,
        "name": "Club Night",
        "forfeit_win_points": "1",
        "forfeit_loss_points": "0",
        "bye_points": "0.5",
        "requested_bye_points": "0",
        "tiebreaks_0": "WON",
        "tiebreaks_1": "BH",
        "placement_order": "balanced",
        "accelerated_rounds": "0",
    }
    response = client.post(f"/arbiter/t/{t.slug}/settings/", data)
    assert response.status_code == 302, response.context["settings_form"].errors
    t.refresh_from_db()
    assert t.bye_points == Decimal("0.5") and t.tiebreaks == "WON,BH"
    assert t.variants == "" and t.time_control == "5400+30"  # no box ticked: none
    # a blank required setting of an existing event is refused, not replaced by a default
    response = client.post(f"/arbiter/t/{t.slug}/settings/", {**data, "bye_points": ""})
    assert response.status_code == 400
    assert "bye_points" in response.context["settings_form"].errors
