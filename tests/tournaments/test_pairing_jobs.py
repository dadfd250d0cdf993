"""Pairing in a worker (a real one when Redis is configured) with progress; the Swiss
options of a tournament (forbidden same-club pairs, accelerated rounds) through round_pair."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from rest_framework.test import APIClient

from tournaments import pairing_selectors, services
from tournaments.models import PairingJob, Round, Tournament
from tournaments.pairing import PairingPlayer, pair_swiss

User = get_user_model()


def make(n: int, slug: str, **settings) -> Tournament:  # type: ignore[no-untyped-def]
    t = services.tournament_create(
        name=slug, slug=slug, start_date=date(2026, 1, 1), rounds_planned=5, **settings
    )
    clubs = [services.club_create(name=f"{slug} club {c}") for c in range(2)]
    for i in range(n):
        p = services.player_create(name=f"P{i:03d}", rating=2400 - i, club=clubs[i % 2])
        services.registration_create(tournament=t, player=p)
    return t


def test_progress_is_reported_in_order():
    players = [PairingPlayer(i, i, float(i % 5)) for i in range(1, 101)]
    seen: list[tuple[float, str]] = []
    result = pair_swiss(players, round_number=2, progress=lambda f, w: seen.append((f, w)))
    assert len(result.pairings) == 50
    fractions = [f for f, _ in seen]
    assert fractions and fractions == sorted(fractions) and 0 <= fractions[0] < fractions[-1] < 1
    assert "score group" in seen[-1][1]


@pytest.mark.django_db(transaction=True)
def test_background_pairing_from_the_page_and_the_api(worker, client):
    from tests.workers import wait_for

    arbiter = User.objects.create_user("arb", password="pw-arbiter-1", is_staff=True)
    t = make(30, "bg-open")
    client.force_login(arbiter)
    resp = client.post(f"/arbiter/t/{t.slug}/pair/", {"background": "1"})
    job = PairingJob.objects.get(tournament=t)
    assert resp["Location"].endswith(f"/arbiter/t/{t.slug}/pairing/{job.pk}/")
    assert wait_for(lambda: PairingJob.objects.get(pk=job.pk).status == "done", 60)
    job.refresh_from_db()
    assert job.progress == 1.0 and job.message == "round 1 proposed"
    rnd = t.rounds.get(number=1)
    assert rnd.status == Round.Status.DRAFT and rnd.games.count() == 15
    resp = client.get(f"/arbiter/t/{t.slug}/pairing/{job.pk}/")
    assert resp.status_code == 302 and resp["Location"].endswith("/round/1/")
    # A second job while a round is proposed fails at once with the reason.
    api = APIClient()
    api.force_authenticate(arbiter)
    resp = api.post(f"/api/tournaments/{t.slug}/pair/", {"background": True}, format="json")
    assert resp.status_code == 409 and "publish or discard" in str(resp.json())
    services.round_publish(round=rnd, user=arbiter)
    # Nor while round 1 has no results: the boards are named.
    resp = api.post(f"/api/tournaments/{t.slug}/pair/", {"background": True}, format="json")
    assert resp.status_code == 409 and "round 1 has no result yet on board 1" in str(resp.json())
    for game in rnd.games.filter(kind="game"):
        services.game_result_set(game=game, result="draw")
    resp = api.post(f"/api/tournaments/{t.slug}/pair/", {"background": True}, format="json")
    assert resp.status_code == 202 and resp.json()["round"] == 2
    job_id = resp.json()["id"]
    url = f"/api/tournaments/{t.slug}/pairing-jobs/{job_id}/"
    assert wait_for(lambda: api.get(url).json()["status"] == "done", 60)
    assert api.get(url).json()["progress"] == 100
    stranger = User.objects.create_user("s", password="pw-stranger-1")
    api.force_authenticate(stranger)
    assert api.get(url).status_code == 403


@pytest.mark.django_db(transaction=True)
def test_a_failed_pairing_says_why_and_stores_nothing(worker):
    from tests.workers import wait_for

    arbiter = User.objects.create_user("arb", password="pw-arbiter-1", is_staff=True)
    t = make(4, "fail-open")
    t.rounds_planned = 1
    t.save()
    with transaction.atomic():  # the job is queued once this commits
        job = services.pairing_job_create(tournament=t, user=arbiter)
        # The arbiter's rights are withdrawn before the worker gets to it.
        arbiter.is_staff = False
        arbiter.save()
    assert wait_for(lambda: PairingJob.objects.get(pk=job.pk).status == "failed", 60)
    job.refresh_from_db()
    assert "arbiters" in job.message and not t.rounds.exists()
    state = pairing_selectors.pairing_job_state(job=job)
    assert state["status"] == "failed"


@pytest.mark.django_db
def test_forbidden_same_club_pairs():
    t = make(12, "club-open", forbid_same_club=True)
    rnd = services.round_pair(tournament=t)
    for g in rnd.games.filter(kind="game").select_related("first", "second"):
        assert g.first.club_id != g.second.club_id
    # Without the option, the top half meets the bottom half whatever the club.
    t2 = make(12, "open-open")
    rnd2 = services.round_pair(tournament=t2)
    same = [
        g
        for g in rnd2.games.filter(kind="game").select_related("first", "second")
        if g.first.club_id == g.second.club_id
    ]
    assert same


@pytest.mark.django_db
def test_accelerated_first_rounds_pair_the_top_half_together():
    t = make(16, "acc-open", accelerated_rounds=2)
    rnd = services.round_pair(tournament=t)
    ranks = {r.player_id: r.start_rank for r in t.registrations.all()}
    for g in rnd.games.filter(kind="game"):
        # with a virtual point for ranks 1-8, they form their own score group
        assert (ranks[g.first_id] <= 8) == (ranks[g.second_id] <= 8)
    t2 = make(16, "plain-open")
    rnd2 = services.round_pair(tournament=t2)
    ranks2 = {r.player_id: r.start_rank for r in t2.registrations.all()}
    for g in rnd2.games.filter(kind="game"):
        assert (ranks2[g.first_id] <= 8) != (ranks2[g.second_id] <= 8)  # 1 v 9, 2 v 10, ...
