"""Withdrawals and expulsions by system (issue 12), through the REST API: the round robin's
table never changes, a withdrawn player's games are forfeits or annulled by the setting,
the knockout goes on by walkover, and standings, crosstable and TRF show what happened."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tournaments import selectors, services
from tournaments.models import Game, Player, Tournament
from tournaments.trf_export import tournament_trf

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    client = APIClient()
    user = get_user_model().objects.create_user("arb", password="pw-arbiter-1", is_staff=True)
    client.force_authenticate(user)
    return client


def event(n: int, slug: str, **fields) -> Tournament:
    t = services.tournament_create(
        name=slug, slug=slug, start_date=date(2026, 11, 1), rounds_planned=9, **fields
    )
    for i in range(n):
        services.registration_create(
            tournament=t, player=services.player_create(name=f"W{i + 1}", rating=2000 - i)
        )
    return t


def pair(api, t):
    resp = api.post(f"/api/tournaments/{t.slug}/pair/", {"publish": True}, format="json")
    assert resp.status_code == 201, resp.json()
    return resp.json()


def play_all(t: Tournament, result: str = "first_win") -> None:
    for g in Game.objects.filter(round__tournament=t, kind=Game.Kind.GAME, result=""):
        services.game_result_set(game=g, result=result)


def withdraw(api, t, name: str):
    player = Player.objects.get(name=name, registrations__tournament=t)
    resp = api.post(f"/api/tournaments/{t.slug}/withdrawals/", {"player": player.pk}, format="json")
    assert resp.status_code == 200
    return player


def pairs_of(t: Tournament) -> list[frozenset[int]]:
    return [
        frozenset({g.first_id, g.second_id})
        for g in Game.objects.filter(round__tournament=t, kind=Game.Kind.GAME)
    ]


def test_round_robin_table_is_kept_and_late_games_are_forfeits(api):
    t = event(6, "rr-stand", pairing_system="round_robin", withdrawal_results="stand")
    for _ in range(3):
        pair(api, t)
        play_all(t)
    w6 = withdraw(api, t, "W6")
    for _ in range(2):
        pair(api, t)
        play_all(t)
    seen = pairs_of(t)
    assert len(seen) == len(set(seen)) == 15  # every pair of six once, no rematch
    later = Game.objects.filter(round__tournament=t, round__number__gt=3)
    forfeits = later.filter(first=w6) | later.filter(second=w6)
    assert forfeits.count() == 2
    for g in forfeits:
        assert g.result == (
            Game.Result.SECOND_FORFEIT_WIN if g.first_id == w6.pk else Game.Result.FIRST_FORFEIT_WIN
        )
    rows = api.get(f"/api/tournaments/{t.slug}/standings/").json()
    mine = next(r for r in rows if r["name"] == "W6")
    assert mine["withdrawn_after_round"] == 3


def test_round_robin_withdrawal_before_half_annuls_the_results(api):
    t = event(6, "rr-annul", pairing_system="round_robin")  # the default setting
    pair(api, t)
    play_all(t, "second_win")
    w1 = withdraw(api, t, "W1")  # one game of five played
    pair(api, t)
    play_all(t)
    table = selectors.crosstable_json(tournament=t)
    row = next(r for r in table["rows"] if r["name"] == "W1")
    assert row["score"] == 0 and row["withdrawn_after_round"] == 1
    assert [c["counted"] for c in row["rounds"] if c["result"]] == [False, False]
    # every other row adds up to its score from the results that count
    for r in table["rows"]:
        counted = sum(c["points"] for c in r["rounds"] if c["result"] and c["counted"])
        assert counted == r["score"]
    opponent = next(r for r in table["rows"] if r["rounds"][0]["opponent_rank"] == row["rank"])
    assert opponent["rounds"][0]["counted"] is False
    assert any(c["result"] and not c["counted"] for c in row["rounds"])
    # kept on record: the games stay
    assert (
        Game.objects.filter(round__tournament=t, first=w1).exists()
        or Game.objects.filter(round__tournament=t, second=w1).exists()
    )


def test_odd_round_robin_free_round_is_a_zero_did_not_play(api):
    t = event(5, "rr-odd", pairing_system="round_robin")
    pair(api, t)
    free = Game.objects.get(round__tournament=t, kind=Game.Kind.FREE)
    rows = {r["name"]: r for r in api.get(f"/api/tournaments/{t.slug}/standings/").json()}
    assert rows[free.first.name]["score"] == 0
    trf = tournament_trf(tournament=t)
    line = next(x for x in trf.splitlines() if x.startswith("001") and free.first.name in x)
    assert line.rstrip().endswith("0000 - Z")
    as_bye = event(5, "rr-odd-bye", pairing_system="round_robin", free_round="bye")
    pair(api, as_bye)
    free = Game.objects.get(round__tournament=as_bye, kind=Game.Kind.FREE)
    rows = {r["name"]: r for r in api.get(f"/api/tournaments/{as_bye.slug}/standings/").json()}
    assert rows[free.first.name]["score"] == 1


def test_knockout_withdrawn_winner_gives_a_walkover(api):
    t = event(8, "ko", pairing_system="knockout")
    pair(api, t)
    play_all(t)  # the higher seed (placed first) wins each tie
    winner = Game.objects.filter(round__tournament=t, round__number=1).order_by("board")[0].first
    withdraw(api, t, winner.name)
    pair(api, t)
    game = (
        Game.objects.get(round__tournament=t, round__number=2, kind=Game.Kind.GAME, first=winner)
        if Game.objects.filter(round__tournament=t, round__number=2, first=winner).exists()
        else (Game.objects.get(round__tournament=t, round__number=2, second=winner))
    )
    expected = (
        Game.Result.SECOND_FORFEIT_WIN
        if game.first_id == winner.pk
        else Game.Result.FIRST_FORFEIT_WIN
    )
    assert game.result == expected
    play_all(t)
    third = pair(api, t)
    names = {g["first"] for g in third["games"]} | {g["second"] for g in third["games"]}
    assert winner.pk not in names


def test_a_decided_knockout_says_so_whatever_the_planned_rounds(api):
    t = event(4, "ko-done", pairing_system="knockout")  # 9 rounds planned, 2 needed
    for _ in range(2):
        pair(api, t)
        play_all(t)
    resp = api.post(f"/api/tournaments/{t.slug}/pair/", {"publish": True}, format="json")
    assert resp.status_code == 409 and "the knockout is decided" in str(resp.json())
    t.rounds_planned = 2
    t.save(update_fields=["rounds_planned"])
    resp = api.post(f"/api/tournaments/{t.slug}/pair/", {"publish": True}, format="json")
    assert resp.status_code == 409 and "the knockout is decided" in str(resp.json())
    assert "raise the number of rounds" not in str(resp.json())


def test_knockout_final_of_two_who_left_is_refused_not_replayed(api):
    t = event(4, "ko-final", pairing_system="knockout")
    pair(api, t)
    play_all(t)
    finalists = [
        g.first for g in Game.objects.filter(round__tournament=t, round__number=1, kind="game")
    ]
    for p in finalists:
        withdraw(api, t, p.name)
    resp = api.post(f"/api/tournaments/{t.slug}/pair/", {"publish": True}, format="json")
    assert resp.status_code == 409
    assert "knockout is decided" in str(resp.json())
    assert not t.rounds.filter(number=2).exists()


def test_knockout_semi_final_of_two_who_left_gives_the_other_side_a_bye(api):
    t = event(8, "ko-semi", pairing_system="knockout")
    pair(api, t)
    play_all(t)  # winners by seed: 1, 4, 2, 3 in bracket order
    winners = [
        g.first for g in Game.objects.filter(round__tournament=t, round__number=1).order_by("board")
    ]
    for p in winners[:2]:  # the first semi-final's two players
        withdraw(api, t, p.name)
    second = pair(api, t)
    assert [{g["first"], g["second"]} for g in second["games"]] == [
        {winners[2].pk, winners[3].pk}
    ]  # only the other semi-final is played
    play_all(t)
    # its winner is alone in the final: the knockout is decided, nothing more is stored
    resp = api.post(f"/api/tournaments/{t.slug}/pair/", {"publish": True}, format="json")
    assert resp.status_code == 409 and "knockout is decided" in str(resp.json())
    assert t.rounds.count() == 2


def test_withdrawn_before_playing_is_left_out_everywhere(api):
    t = event(5, "early")
    withdraw(api, t, "W5")
    pair(api, t)
    play_all(t)
    names = [r["name"] for r in api.get(f"/api/tournaments/{t.slug}/standings/").json()]
    assert "W5" not in names
    assert "W5" not in [r["name"] for r in selectors.crosstable_json(tournament=t)["rows"]]


def test_withdrawal_undo_before_the_next_pairing_only(api):
    t = event(4, "undo")
    pair(api, t)
    play_all(t)
    w4 = withdraw(api, t, "W4")
    url = f"/api/tournaments/{t.slug}/withdrawal-undo/"
    resp = api.post(url, {"player": w4.pk}, format="json")
    assert resp.status_code == 200 and resp.json()["status"] == "active"
    withdraw(api, t, "W4")
    pair(api, t)
    resp = api.post(url, {"player": w4.pk}, format="json")
    assert resp.status_code == 409 and "was paired since" in str(resp.json())


def test_penalties_show_the_result_that_counts(api):
    t = event(2, "penalised")
    pair(api, t)
    game = Game.objects.get(round__tournament=t, kind=Game.Kind.GAME)
    services.penalty_impose(
        tournament=t, player=game.first, kind="battle_lost", reason="phone", game=game, user=None
    )  # 12.4d on a game still pending: it counts as lost for the offender
    table = selectors.crosstable_json(tournament=t)
    first = next(r for r in table["rows"] if r["name"] == game.first.name)
    cell = first["rounds"][0]
    assert cell["result"] == "0" and cell["penalized"] is True and first["score"] == 0
    assert "*" in table["legend"]


def test_late_entry_points_for_missed_rounds(api):
    t = event(4, "late-points", late_entry_points="0.5")
    pair(api, t)
    play_all(t)
    kurn = services.player_create(name="Kurn", rating=1000)
    services.registration_create(tournament=t, player=kurn)
    rows = {r["name"]: r for r in api.get(f"/api/tournaments/{t.slug}/standings/").json()}
    assert rows["Kurn"]["score"] == 0.5


def test_no_late_entry_into_a_fixed_table(api):
    t = event(4, "rr-late", pairing_system="round_robin")
    pair(api, t)
    kurn = services.player_create(name="Kurn")
    resp = api.post(f"/api/tournaments/{t.slug}/registrations/", {"player": kurn.pk}, format="json")
    assert resp.status_code == 409 and "no late entry" in str(resp.json())


def test_requested_byes_listed_and_cancelled_and_forbidden_pairs_kept(api):
    t = event(4, "entrants")
    w1, w2 = (Player.objects.get(name=n, registrations__tournament=t) for n in ("W1", "W2"))
    url = f"/api/tournaments/{t.slug}/"
    resp = api.post(url + "bye-requests/", {"player": w1.pk, "round": 2}, format="json")
    assert resp.status_code == 201
    assert api.get(url + "bye-requests/").json() == [
        {"player": w1.pk, "name": "W1", "start_rank": 1, "round": 2, "confirmed": True}
    ]
    resp = api.post(url + "bye-requests/cancel/", {"player": w1.pk, "round": 2}, format="json")
    assert resp.json() == {"cancelled": 1} and api.get(url + "bye-requests/").json() == []
    resp = api.post(url + "forbidden-pairs/", {"first": w2.pk, "second": w1.pk}, format="json")
    assert [(p["first_name"], p["second_name"]) for p in resp.json()] == [("W1", "W2")]
    for _ in range(2):
        pair(api, t)
        play_all(t)
    assert frozenset({w1.pk, w2.pk}) not in pairs_of(t)
    resp = api.post(f"/api/tournaments/{t.slug}/pair/", {"publish": True}, format="json")
    assert resp.status_code == 409  # the third pairing of four would need W1 against W2
    assert "a forbidden pair" in resp.json()["round"][0]
    assert "remove a forbidden pair" in resp.json()["round"][0]
    resp = api.post(
        url + "forbidden-pairs/remove/", {"first": w1.pk, "second": w2.pk}, format="json"
    )
    assert resp.json() == []


def test_schedule_is_shown_with_the_round(api):
    t = event(2, "sched")
    pair(api, t)
    url = f"/api/tournaments/{t.slug}/"
    resp = api.post(
        url + "schedule/",
        {"round": 1, "starts_at": "2026-11-01T10:00:00Z", "place": "Great Hall"},
        format="json",
    )
    assert resp.status_code == 200
    rounds = api.get(url + "rounds/").json()
    assert rounds[0]["place"] == "Great Hall" and rounds[0]["starts_at"].startswith("2026-11-01")


def test_a_second_withdrawal_is_refused_and_keeps_the_round_they_left_after(api):
    """Issue 22, item 4: withdrawing a player who is out already answers 409 and changes
    nothing (it once moved their last round to the latest one)."""
    t = event(6, "twice-out")
    pair(api, t)
    player = withdraw(api, t, "W2")
    play_all(t)
    pair(api, t)
    trail = t.audit.count()
    resp = api.post(f"/api/tournaments/{t.slug}/withdrawals/", {"player": player.pk}, format="json")
    assert resp.status_code == 409
    assert "W2 has withdrawn already, after round 1" in str(resp.json())
    reg = t.registrations.get(player=player)
    assert (reg.status, reg.last_round, t.audit.count()) == ("withdrawn", 1, trail)


def test_an_expulsion_of_a_withdrawn_player_keeps_the_round_they_left_after(api):
    t = event(6, "out-then-expelled")
    pair(api, t)
    player = withdraw(api, t, "W3")
    play_all(t)
    pair(api, t)
    body = {"player": player.pk, "kind": "dismissal", "reason": "left the site in anger"}
    assert api.post(f"/api/tournaments/{t.slug}/penalties/", body, format="json").status_code == 201
    reg = t.registrations.get(player=player)
    assert (reg.status, reg.last_round) == ("expelled", 1)
    undo = api.post(
        f"/api/tournaments/{t.slug}/withdrawal-undo/", {"player": player.pk}, format="json"
    )
    assert undo.status_code == 409 and "(Art. 11.1)" in str(undo.json())
