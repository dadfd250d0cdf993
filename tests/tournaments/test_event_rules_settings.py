"""The event's own rules as settings: a time control the clocks can be adjudicated under
(Art. 6.4), variants that can be played together with readable parameters (Art. 13), a
required notation (8.3); refused with the validator's message when a tournament is created or
changed, through the API and the arbiter's form; old events carried over by the migration."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from rules.validate import validate_text
from tests.migrating import migrate as _migrate
from tournaments import services
from tournaments.forms import TournamentForm
from tournaments.models import Tournament

User = get_user_model()
BASE = {"name": "Rules Open", "slug": "rules-open", "start_date": "2026-11-28"}


def validator_message(variants: str, **tags: str) -> str:
    """What the record validator says of a record with these Variants (and other) tags."""
    head = "".join(f'[{k} "{v}"]\n' for k, v in {"Variants": variants, **tags}.items())
    verdict = validate_text(head + "\n")
    assert verdict.error is not None
    return verdict.error.reason


@pytest.fixture
def organizer(db: Any) -> Any:
    return User.objects.create_user("org", password="pw-organizer-1", is_staff=True)


@pytest.fixture
def api(organizer: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(organizer)
    return client


def create(api: APIClient, **fields: Any) -> Any:
    return api.post("/api/tournaments/", {**BASE, **fields}, format="json")


# The time control (Art. 6.4)


@pytest.mark.parametrize("bad", ["banana", "90 min", "20/1800:", "1800:20/1800", "0", "20/0"])
def test_a_malformed_time_control_is_refused_naming_the_format(api, bad):
    resp = create(api, time_control=bad)
    assert resp.status_code == 400, resp.content
    message = " ".join(resp.json()["time_control"])
    assert "moves/seconds" in message and "20/1800:1200" in message
    assert not Tournament.objects.exists()


def test_a_readable_time_control_is_kept_written_the_one_way(api):
    resp = create(api, time_control=" 20/1800 : 1200+5 ")
    assert resp.status_code == 201, resp.content
    assert resp.json()["time_control"] == "20/1800:1200+5"
    assert create(api, slug="none", time_control="").json()["time_control"] == ""


def test_patch_refuses_a_malformed_time_control(api):
    slug = create(api, time_control="20/1800:1200").json()["slug"]
    resp = api.patch(f"/api/tournaments/{slug}/", {"time_control": "banana"}, format="json")
    assert resp.status_code == 400 and "moves/seconds" in str(resp.json()["time_control"])
    assert Tournament.objects.get(slug=slug).time_control == "20/1800:1200"
    ok = api.patch(f"/api/tournaments/{slug}/", {"time_control": "600+5"}, format="json")
    assert ok.status_code == 200 and ok.json()["time_control"] == "600+5"


# Variant combinations: the validator's own message (Art. 13)


@pytest.mark.parametrize(
    ("variants", "tags", "settings"),
    [
        ("reflective,kinta", {}, {}),
        ("tri-level,clouded", {}, {}),
        ("kaggas-crown,tri-level", {}, {}),
        ("reflective,honor-in-setup", {}, {}),
        ("kaggas-crown,reflective", {}, {}),
    ],
)
def test_a_combination_every_record_would_fail_is_refused_at_creation(
    api, variants, tags, settings
):
    resp = create(api, variants=variants, **settings)
    assert resp.status_code == 400, resp.content
    assert resp.json()["variants"] == [validator_message(variants, **tags)]
    assert not Tournament.objects.exists()


def test_reflective_with_kaggas_crown_needs_the_crown_named(api):
    resp = create(api, variants="reflective,kaggas-crown", crown="apex")
    assert resp.status_code == 201, resp.content
    assert resp.json()["crown"] == "apex"


def test_patch_refuses_a_combination_with_the_validators_message(api):
    slug = create(api, variants="reflective").json()["slug"]
    resp = api.patch(f"/api/tournaments/{slug}/", {"variants": "reflective,kinta"}, format="json")
    assert resp.status_code == 400
    assert resp.json()["variants"] == [validator_message("reflective,kinta")]
    assert Tournament.objects.get(slug=slug).variants == "reflective"
    # Turning on a variant whose companion forbids it is refused the same way.
    slug2 = create(api, slug="tri", variants="tri-level").json()["slug"]
    resp = api.patch(f"/api/tournaments/{slug2}/", {"variants": "tri-level,clouded"}, format="json")
    assert resp.status_code == 400
    assert resp.json()["variants"] == [validator_message("tri-level,clouded")]


# Variant parameters fixed on the tournament


@pytest.mark.parametrize(
    ("fields", "key", "words"),
    [
        ({"variants": "clouded", "clouds": "E37,Z99"}, "clouds", "Z99"),
        ({"variants": "kaggas-crown", "crown": "E37"}, "crown", "corner"),
        ({"clouds": "E37"}, "clouds", "does not play"),
        ({"crown": "apex"}, "crown", "does not play"),
        ({"ablation_limit": 3}, "ablation_limit", "does not play"),
        ({"variants": "ablative", "ablation_limit": -1}, "ablation_limit", ""),
    ],
)
def test_unreadable_or_unused_parameters_are_refused(api, fields, key, words):
    resp = create(api, **fields)
    assert resp.status_code == 400, resp.content
    assert words in " ".join(resp.json()[key])


def test_parameters_are_stored_and_shown_and_locked_with_the_variants(api, organizer):
    resp = create(
        api,
        variants="clouded,kaggas-crown,ablative",
        clouds="E37,F36",
        crown="I99",
        ablation_limit=3,
        notation="descriptive",
    )
    assert resp.status_code == 201, resp.content
    body = resp.json()
    assert (body["clouds"], body["crown"], body["ablation_limit"]) == ("E37,F36", "I99", 3)
    assert body["notation"] == "descriptive"
    t = Tournament.objects.get(slug=body["slug"])
    page = APIClient().get(f"/t/{t.slug}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "E37,F36" in text and "I99" in text and "Descriptive" in text
    # Like the variants, their parameters change every record's verdict: locked once round
    # 1 is paired.
    assert {"clouds", "crown", "ablation_limit"} <= set(Tournament.RESULT_SETTINGS)


def test_moves_before_resigning_is_a_setting(api):
    resp = create(api, resignation_allowed=True, resignation_after_moves=20)
    assert resp.status_code == 201 and resp.json()["resignation_after_moves"] == 20
    page = APIClient().get(f"/t/{resp.json()['slug']}/").content.decode()
    assert "after 20 moves" in page
    assert create(api, slug="neg", resignation_after_moves=-1).status_code == 400


def test_a_notation_outside_the_choices_is_refused(api):
    resp = create(api, notation="algebraic")
    assert resp.status_code == 400 and "notation" in resp.json()


# The arbiter's form


def _form_data(t: Tournament, **changes: Any) -> dict[str, Any]:
    form = TournamentForm(instance=t)
    data = {name: form[name].value() for name in form.fields}
    data = {k: ("" if v is None else v) for k, v in data.items()}
    for name in ("resignation_allowed", "result_confirmation", "forbid_same_club"):
        if not data.get(name):
            data.pop(name, None)
    data.update(changes)
    return data


def test_the_arbiters_form_refuses_a_combination_and_a_malformed_time_control(client, organizer):
    client.force_login(organizer)
    t = services.tournament_create(
        name="Form Open", slug="form-open", start_date=date(2026, 11, 28), organizer=organizer
    )
    t.chief_arbiter = organizer
    t.save()
    new = {**_form_data(t), "slug": "form-two", "variants": "reflective,kinta"}
    resp = client.post("/arbiter/new/", new)
    assert resp.status_code == 400  # bad input: the form again, its errors beside the fields
    assert validator_message("reflective,kinta") in resp.content.decode()
    assert not Tournament.objects.filter(slug="form-two").exists()

    url = f"/arbiter/t/{t.slug}/settings/"
    resp = client.post(url, _form_data(t, variants="tri-level,clouded"), follow=True)
    assert validator_message("tri-level,clouded") in resp.content.decode()
    # The form reads time controls as written, in minutes (issue 26): "90 min" is one now.
    resp = client.post(url, _form_data(t, time_control="90 banana"), follow=True)
    assert "moves/minutes" in resp.content.decode()
    t.refresh_from_db()
    assert (t.variants, t.time_control) == ("", "")
    resp = client.post(url, _form_data(t, time_control="20/30, 20"), follow=True)
    t.refresh_from_db()
    assert t.time_control == "20/1800:1200"


# The migration carries old events over


BEFORE = [("tournaments", "0009_issue12_settings_schedule_forbidden_pairs")]
AFTER = [("tournaments", "0010_event_rules")]


@pytest.mark.django_db(transaction=True)
def test_malformed_time_controls_are_carried_over_as_none_with_the_text_kept() -> None:
    old = _migrate(BEFORE).loader.project_state(BEFORE).apps
    Old = old.get_model("tournaments", "Tournament")
    day = date(2026, 1, 1)
    Old.objects.create(name="A", slug="banana", start_date=day, time_control="banana")
    Old.objects.create(
        name="B", slug="minutes", start_date=day, time_control="90 min", local_rules="No phones."
    )
    Old.objects.create(name="C", slug="fine", start_date=day, time_control="20/1800:1200")
    Old.objects.create(name="D", slug="blank", start_date=day)
    Old.objects.create(name="E", slug="restated", start_date=day, time_control="an hour")

    new = _migrate(AFTER).loader.project_state(AFTER).apps
    rows = {t.slug: t for t in new.get_model("tournaments", "Tournament").objects.all()}
    assert rows["banana"].time_control == "" and "banana" in rows["banana"].local_rules
    assert rows["minutes"].time_control == ""
    assert rows["minutes"].local_rules.splitlines() == [
        "No phones.",
        "Time control as first stated, not readable (Art. 6.4): 90 min",
    ]
    assert (rows["fine"].time_control, rows["fine"].local_rules) == ("20/1800:1200", "")
    assert (rows["blank"].time_control, rows["blank"].local_rules) == ("", "")
    assert (rows["fine"].clouds, rows["fine"].crown, rows["fine"].ablation_limit) == ("", "", 0)
    assert rows["fine"].notation == ""
    rows["restated"].time_control = "3600"  # the arbiter states it again
    rows["restated"].save(update_fields=["time_control"])

    # and back: the text is restored where it was, and one stated again stays with the
    # line it replaced (nothing lost); then forward to the latest state
    back = _migrate(BEFORE).loader.project_state(BEFORE).apps
    restored = {t.slug: t for t in back.get_model("tournaments", "Tournament").objects.all()}
    assert restored["minutes"].time_control == "90 min"
    assert restored["minutes"].local_rules == "No phones."
    assert restored["banana"].time_control == "banana"
    assert restored["banana"].local_rules == ""
    assert restored["restated"].time_control == "3600"
    assert restored["restated"].local_rules.endswith("(Art. 6.4): an hour")
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
