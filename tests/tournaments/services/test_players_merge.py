"""Two players merged into one by staff: the dropped one's registrations, battles, penalties,
ratings and account follow the kept one; audited; refused while both are in one event and
for anyone but staff (the service, the API and the page)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import models
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from klinzha_site.errors import Conflict
from tests.tournaments.services.factories import Officials, event_make, round_make
from tournaments import services
from tournaments.models import (
    AuditEntry,
    BattleRating,
    Game,
    PeriodRating,
    Player,
    PoolRating,
    RatingPeriod,
    Registration,
    Round,
)
from tournaments.services.players_merge import MOVED, REBUILT
from tournaments.services.ratings import rating_period_close, ratings_run

pytestmark = pytest.mark.django_db

SEP = dt.datetime(2025, 9, 10, 18, tzinfo=dt.UTC)


@pytest.fixture
def staff(db):  # type: ignore[no-untyped-def]
    return get_user_model().objects.create_user("staff", password="pw-staff-12345", is_staff=True)


@pytest.fixture
def twins(officials: Officials):  # type: ignore[no-untyped-def]
    """Worf of event one (played a rated battle, penalised, with an account) and Worf of
    event two (registered there only): one person twice."""
    t1, (ann, worf_a, _cid, _dax) = event_make(officials, names=("Ann", "Worf", "Cid", "Dax"))
    t2, (worf_b, _bob) = event_make(officials, slug="second-open", names=("Worf", "Bob"))
    rnd = round_make(t1, [(ann, worf_a), (_cid, _dax)])
    Round.objects.filter(pk=rnd.pk).update(starts_at=SEP)
    games = list(rnd.games.order_by("board"))
    services.game_result_set(game=games[0], result=Game.Result.SECOND_WIN)
    services.game_result_set(game=games[1], result=Game.Result.DRAW)
    services.penalty_impose(
        tournament=t1,
        player=worf_a,
        kind="warning",
        reason="spoke during the battle",
        user=officials.chief,
        round_number=1,
    )
    account = get_user_model().objects.create_user("worf", password="pw-worf-12345")
    Player.objects.filter(pk=worf_a.pk).update(user=account, fide_id="4100018")
    worf_a.refresh_from_db()
    return t1, t2, worf_a, worf_b, games[0], account


def test_merging_moves_history_ratings_and_account_and_audits(twins, staff):  # type: ignore[no-untyped-def]
    t1, t2, worf_a, worf_b, game, account = twins
    rating_period_close(pool="laws", label="2025-09", user=staff)
    assert PeriodRating.objects.filter(player=worf_a).exists()
    kept = services.players_merge(keep=worf_b, drop=worf_a, user=staff)
    assert not Player.objects.filter(pk=worf_a.pk).exists()
    assert set(Registration.objects.filter(player=kept).values_list("tournament", flat=True)) == {
        t1.pk,
        t2.pk,
    }
    game.refresh_from_db()
    assert game.second_id == kept.pk
    assert kept.penalties.filter(tournament=t1).count() == 1
    assert (kept.user, kept.fide_id) == (account, "4100018")
    assert BattleRating.objects.get(game=game).second_id == kept.pk
    # The merged ratings: the dropped player's rows gone, their period rated again.
    assert not PoolRating.objects.filter(player_id=worf_a.pk).exists()
    assert RatingPeriod.objects.get(pool="laws", label="2025-09").needs_rating
    ratings_run(pool="laws")
    assert PoolRating.objects.get(pool="laws", player=kept).games == 1
    entry = AuditEntry.objects.filter(tournament=None, action="players_merged").get()
    assert entry.actor == "staff"
    assert entry.before["merged"]["id"] == worf_a.pk
    assert entry.after["registrations"] == 2


def test_two_entrants_of_one_event_are_not_merged(twins, staff):  # type: ignore[no-untyped-def]
    t1, _t2, worf_a, _worf_b, _game, _account = twins
    ann = Registration.objects.get(tournament=t1, player__name="Ann").player
    with pytest.raises(Conflict):
        services.players_merge(keep=ann, drop=worf_a, user=staff)
    assert Player.objects.filter(pk=worf_a.pk).exists()
    assert not AuditEntry.objects.filter(action="players_merged").exists()


def test_only_staff_merges(twins, officials: Officials):  # type: ignore[no-untyped-def]
    _t1, _t2, worf_a, worf_b, _game, _account = twins
    for who in (officials.organizer, officials.chief, officials.stranger):
        with pytest.raises(PermissionDenied):
            services.players_merge(keep=worf_b, drop=worf_a, user=who)
    api = APIClient()
    api.force_authenticate(officials.chief)
    url = f"/api/players/{worf_b.pk}/merge/"
    assert api.post(url, {"other": worf_a.pk}, format="json").status_code == 403
    assert APIClient().post(url, {"other": worf_a.pk}, format="json").status_code in (401, 403)
    page = Client()
    page.force_login(officials.chief)
    answer = page.post(
        reverse("arbiter:players-merge"), {"keep": worf_b.pk, "drop": worf_a.pk, "confirm": "1"}
    )
    assert answer.status_code == 403
    assert Player.objects.filter(pk=worf_a.pk).exists()


def test_the_api_and_the_page_merge_for_staff(twins, staff):  # type: ignore[no-untyped-def]
    t1, _t2, worf_a, worf_b, _game, _account = twins
    api = APIClient()
    api.force_authenticate(staff)
    ann = Registration.objects.get(tournament=t1, player__name="Ann").player
    refused = api.post(f"/api/players/{ann.pk}/merge/", {"other": worf_a.pk}, format="json")
    assert refused.status_code == 409
    done = api.post(f"/api/players/{worf_b.pk}/merge/", {"other": worf_a.pk}, format="json")
    assert done.status_code == 200, done.content
    assert done.json()["id"] == worf_b.pk
    assert not Player.objects.filter(pk=worf_a.pk).exists()
    page = Client()
    page.force_login(staff)
    bob = Player.objects.get(name="Bob")
    cid = Registration.objects.get(tournament=t1, player__name="Cid").player
    shown = page.get(reverse("arbiter:players-merge"), {"keep": bob.pk, "drop": cid.pk})
    assert shown.status_code == 200 and b'id="merge-form"' in shown.content
    merged = page.post(
        reverse("arbiter:players-merge"), {"keep": bob.pk, "drop": cid.pk, "confirm": "1"}
    )
    assert merged.status_code == 302
    assert not Player.objects.filter(pk=cid.pk).exists()


def test_every_foreign_key_to_a_player_is_moved_or_rebuilt():
    """A new model naming a player must say what a merge does with its rows."""
    found = {
        (model, field.name)
        for model in apps.get_models()
        for field in model._meta.get_fields()
        if isinstance(field, models.ForeignKey) and field.related_model is Player
    }
    assert {(m, n) for m, n in found if m not in REBUILT} == set(MOVED)


def test_the_dashboard_links_the_merge_page_for_staff_only(staff, officials):  # type: ignore[no-untyped-def]
    page = Client()
    page.force_login(staff)
    assert b'id="players-merge-link"' in page.get(reverse("arbiter:dashboard")).content
    page.force_login(officials.organizer)
    assert b'id="players-merge-link"' not in page.get(reverse("arbiter:dashboard")).content
