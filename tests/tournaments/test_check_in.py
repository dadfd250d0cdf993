"""Check-in (issue 26): windows per round or event, self check-in signed in or by the private
link, the arbiter's override, the close step and what it does to who did not check in,
the audit trail, the reminders and the pages."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from klinzha_site.errors import Conflict
from tournaments import services
from tournaments.audit import Action
from tournaments.check_in_selectors import check_in_token, check_in_token_registration
from tournaments.models import CheckIn, Game, Registration, Tournament
from tournaments.services import check_in as check_in_services
from tournaments.services.check_in import CHECK_IN_REMIND_TASK
from tournaments.tasks import check_in_remind_task

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def event():
    arbiter = User.objects.create_user("arb", password="pw-arb-123", email="arb@example.org")
    t = services.tournament_create(
        name="Check Open", slug="check-open", start_date=date(2026, 11, 20), rounds_planned=3
    )
    t.arbiters.add(arbiter)
    regs = []
    for i, name in enumerate(["Ann", "Bob", "Cid", "Dee", "Eve"]):
        p = services.player_create(name=name, rating=2000 - i)
        regs.append(services.registration_create(tournament=t, player=p))
    ann = regs[0].player
    ann.user = User.objects.create_user("ann", password="pw-ann-123", email="ann@example.org")
    ann.save(update_fields=["user"])
    return t, regs, arbiter


def open_window(t, arbiter, round_number=1, **kw):
    now = timezone.now()
    return services.check_in_window_set(
        tournament=t,
        round_number=round_number,
        opens_at=kw.get("opens_at", now - timedelta(hours=1)),
        closes_at=kw.get("closes_at", now + timedelta(hours=1)),
        user=arbiter,
    )


def paired_players(rnd) -> set[int]:
    out = set()
    for g in rnd.games.all():
        out.add(g.first_id)
        if g.second_id:
            out.add(g.second_id)
    return out


def test_pairing_waits_for_the_close_and_leaves_the_absent_out(event):
    t, regs, arbiter = event
    open_window(t, arbiter)
    for reg in regs[:3]:
        services.check_in_record(registration=reg, user=arbiter)
    with pytest.raises(Conflict, match="check-in"):
        services.round_pair(tournament=t, user=arbiter)
    missing = services.check_in_close(tournament=t, user=arbiter)
    assert [r.player.name for r in missing] == ["Dee", "Eve"]
    rnd = services.round_pair(tournament=t, user=arbiter)
    assert paired_players(rnd) == {r.player_id for r in regs[:3]}
    # absent this round: still in the event
    assert all(r.status == Registration.Status.ACTIVE for r in Registration.objects.all())


def test_withdrawn_treatment_withdraws_who_did_not_check_in(event):
    t, regs, arbiter = event
    t.check_in_missing = Tournament.CheckInMissing.WITHDRAWN
    t.save()
    open_window(t, arbiter)
    for reg in regs[:4]:
        services.check_in_record(registration=reg, user=arbiter)
    services.check_in_close(tournament=t, user=arbiter)
    assert Registration.objects.get(pk=regs[4].pk).status == Registration.Status.WITHDRAWN
    rnd = services.round_pair(tournament=t, user=arbiter)
    assert regs[4].player_id not in paired_players(rnd)


def test_paired_anyway_pairs_everyone(event):
    t, regs, arbiter = event
    t.check_in_missing = Tournament.CheckInMissing.PAIRED
    t.save()
    open_window(t, arbiter)
    services.check_in_record(registration=regs[0], user=arbiter)
    assert len(services.check_in_close(tournament=t, user=arbiter)) == 4
    rnd = services.round_pair(tournament=t, user=arbiter)
    assert paired_players(rnd) == {r.player_id for r in regs}


def test_the_event_window_covers_every_round(event):
    t, regs, arbiter = event
    open_window(t, arbiter, round_number=0)
    for reg in regs[:4]:
        services.check_in_record(registration=reg, user=arbiter)
    services.check_in_close(tournament=t, user=arbiter)
    rnd = services.round_pair(tournament=t, user=arbiter)
    assert regs[4].player_id not in paired_players(rnd)
    for g in rnd.games.filter(kind=Game.Kind.GAME):
        services.game_result_set(game=g, result=Game.Result.DRAW, user=arbiter)
    # the arbiter checks Eve in late: she is paired from round 2
    services.check_in_record(registration=regs[4], user=arbiter)
    rnd2 = services.round_pair(tournament=t, user=arbiter)
    assert regs[4].player_id in paired_players(rnd2)


def test_the_player_checks_in_signed_in_only_while_the_window_is_open(event):
    t, regs, arbiter = event
    ann = regs[0].player.user
    now = timezone.now()
    open_window(t, arbiter, opens_at=now + timedelta(hours=1), closes_at=now + timedelta(hours=2))
    with pytest.raises(Conflict, match="not open"):
        services.check_in_record(registration=regs[0], user=ann)
    open_window(t, arbiter)
    made = services.check_in_record(registration=regs[0], user=ann)
    assert (made.present, made.via) == (True, CheckIn.Via.ACCOUNT)
    # nobody checks in someone else, nor marks themselves absent
    with pytest.raises(PermissionDenied):
        services.check_in_record(registration=regs[1], user=ann)
    with pytest.raises(PermissionDenied):
        services.check_in_record(registration=regs[0], user=ann, present=False)


def test_the_arbiter_overrides_outside_the_window_and_marks_absent(event):
    t, regs, arbiter = event
    now = timezone.now()
    open_window(t, arbiter, opens_at=now - timedelta(hours=2), closes_at=now - timedelta(hours=1))
    services.check_in_record(registration=regs[0], user=arbiter)
    services.check_in_record(registration=regs[1], user=arbiter, present=False)
    missing = services.check_in_close(tournament=t, user=arbiter)
    assert regs[1].player.name in [r.player.name for r in missing]
    assert regs[0].player.name not in [r.player.name for r in missing]


def test_every_check_in_is_audited(event):
    t, regs, arbiter = event
    open_window(t, arbiter)
    services.check_in_record(registration=regs[0], user=regs[0].player.user)
    services.check_in_record(registration=regs[1], user=arbiter, present=False)
    services.check_in_close(tournament=t, user=arbiter)
    actions = list(t.audit.order_by("seq").values_list("action", "after"))
    window = [a for a in actions if a[0] == Action.CHECK_IN_WINDOW]
    checks = [a[1] for a in actions if a[0] == Action.CHECK_IN]
    closed = [a[1] for a in actions if a[0] == Action.CHECK_IN_CLOSED]
    assert len(window) == 1
    assert checks == [
        {"player": "Ann", "round": 1, "present": True, "via": "account"},
        {"player": "Bob", "round": 1, "present": False, "via": "arbiter"},
    ]
    assert closed == [{"round": 1, "missing": ["Bob", "Cid", "Dee", "Eve"], "treated": "absent"}]


def test_a_window_for_a_paired_round_or_backwards_is_refused(event):
    t, regs, arbiter = event
    now = timezone.now()
    with pytest.raises(Exception, match="close after"):
        open_window(t, arbiter, opens_at=now, closes_at=now - timedelta(minutes=1))
    services.round_pair(tournament=t, user=arbiter)
    with pytest.raises(Conflict, match="already paired"):
        open_window(t, arbiter, round_number=1)
    assert not t.check_in_windows.exists()


def test_the_token_names_its_registration_and_a_forged_one_nothing(event):
    t, regs, _ = event
    token = check_in_token(registration=regs[2])
    assert check_in_token_registration(token=token) == regs[2]
    assert check_in_token_registration(token=token[:-2] + "xx") is None
    assert check_in_token_registration(token="nonsense") is None


def test_the_private_link_checks_in_without_an_account(event):
    t, regs, arbiter = event
    open_window(t, arbiter)
    url = f"/check-in/{check_in_token(registration=regs[3])}/"
    client = Client(enforce_csrf_checks=False)
    page = client.get(url)
    assert page.status_code == 200
    assert "Dee" in page.content.decode()
    assert "no-store" in page["Cache-Control"]
    assert page["Referrer-Policy"] == "same-origin"
    done = client.post(url)
    assert done.status_code == 200
    assert 'id="checked-in"' in done.content.decode()
    assert CheckIn.objects.get(registration=regs[3]).via == CheckIn.Via.LINK
    assert client.get("/check-in/forged/").status_code == 404


def test_the_api_self_check_in_by_token_and_signed_in(event):
    t, regs, arbiter = event
    open_window(t, arbiter)
    api = APIClient()
    resp = api.post(
        "/api/check-in/", {"token": check_in_token(registration=regs[4])}, format="json"
    )
    assert resp.status_code == 200, resp.content
    assert resp.json() == {"player": regs[4].player_id, "round": 1, "present": True, "via": "link"}
    assert api.post("/api/check-in/", {"token": "forged"}, format="json").status_code == 403
    assert api.post("/api/check-in/", {"tournament": t.slug}, format="json").status_code == 403
    api.force_authenticate(regs[0].player.user)
    resp = api.post("/api/check-in/", {"tournament": t.slug}, format="json")
    assert resp.status_code == 200
    assert resp.json()["via"] == "account"


def test_the_api_arbiter_list_override_and_close(event):
    t, regs, arbiter = event
    api = APIClient()
    api.force_authenticate(arbiter)
    now = timezone.now()
    resp = api.post(
        f"/api/tournaments/{t.slug}/check-in-windows/",
        {
            "round": 1,
            "opens_at": (now - timedelta(hours=1)).isoformat(),
            "closes_at": (now + timedelta(hours=1)).isoformat(),
        },
        format="json",
    )
    assert resp.status_code == 201, resp.content
    resp = api.post(
        f"/api/tournaments/{t.slug}/check-in/", {"player": regs[1].player_id}, format="json"
    )
    assert resp.status_code == 200
    rows = api.get(f"/api/tournaments/{t.slug}/check-in/").json()
    assert [(r["name"], r["present"]) for r in rows] == [
        ("Ann", None),
        ("Bob", True),
        ("Cid", None),
        ("Dee", None),
        ("Eve", None),
    ]
    assert api.post(f"/api/tournaments/{t.slug}/pair/", {}, format="json").status_code == 409
    resp = api.post(f"/api/tournaments/{t.slug}/check-in/close/", {}, format="json")
    assert resp.status_code == 200
    assert len(resp.json()["missing"]) == 4
    assert (
        api.post(f"/api/tournaments/{t.slug}/check-in/close/", {}, format="json").status_code == 409
    )
    anonymous = APIClient()
    assert anonymous.get(f"/api/tournaments/{t.slug}/check-in/").status_code in (401, 403)


def test_reminders_go_to_who_has_not_checked_in_with_their_link(
    event, mailoutbox, monkeypatch, django_capture_on_commit_callbacks
):
    t, regs, arbiter = event
    bob = regs[1].player
    bob.user = User.objects.create_user("bob", email="bob@example.org")
    bob.save(update_fields=["user"])
    queued: list[tuple[str, tuple[object, ...]]] = []
    monkeypatch.setattr(
        check_in_services, "task_send", lambda name, *args, **kw: queued.append((name, args))
    )
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        window = open_window(t, arbiter)
    assert queued == [] and len(callbacks) == 1  # queued only once committed
    callbacks[0]()
    assert queued == [(CHECK_IN_REMIND_TASK, (window.pk,))]  # the task takes the id
    # the worker's task: Ann and Bob have accounts and have not checked in, each their link
    assert check_in_remind_task(window.pk) == 2
    assert sorted(m.to[0] for m in mailoutbox) == ["ann@example.org", "bob@example.org"]
    bob_mail = next(m for m in mailoutbox if m.to == ["bob@example.org"])
    assert check_in_token(registration=regs[1]) in bob_mail.body
    mailoutbox.clear()
    services.check_in_record(registration=regs[0], user=regs[0].player.user)
    assert check_in_remind_task(window.pk) == 1
    assert [m.to for m in mailoutbox] == [["bob@example.org"]]
    services.check_in_close(tournament=t, user=arbiter)
    assert check_in_remind_task(window.pk) == 0  # closed: nobody is reminded


def test_the_arbiter_page_lists_confirms_and_closes(event):
    t, regs, arbiter = event
    open_window(t, arbiter)
    client = Client()
    client.force_login(arbiter)
    base = f"/arbiter/t/{t.slug}/check-in/"
    resp = client.post(f"{base}{regs[0].player_id}/", {"present": "1"})
    assert resp.status_code == 302
    page = client.get(base + "?close=1").content.decode()
    assert 'id="check-in-missing"' in page
    for name in ("Bob", "Cid", "Dee", "Eve"):
        assert f"<li>{name}</li>" in page
    assert "<li>Ann</li>" not in page
    client.post(base + "close/", {})  # no confirm: refused, nothing closed
    assert t.check_in_windows.get().confirmed_at is None
    assert client.post(base + "close/", {"confirm": "1"}).status_code == 302
    assert t.check_in_windows.get().confirmed_at is not None
    slips = client.get(base + "?slips=1").content.decode()
    assert check_in_token(registration=regs[2]) in slips


def test_my_games_offers_the_open_check_in_and_the_page_checks_in(event):
    t, regs, arbiter = event
    client = Client()
    client.force_login(regs[0].player.user)
    assert 'id="check-ins"' not in client.get("/me/games/").content.decode()
    open_window(t, arbiter)
    page = client.get("/me/games/").content.decode()
    assert f"/t/{t.slug}/check-in/" in page
    done = client.post(f"/t/{t.slug}/check-in/")
    assert 'id="checked-in"' in done.content.decode()
    assert "you are checked in" in client.get("/me/games/").content.decode()


def test_a_closed_window_is_said_on_the_page_not_a_server_error(event):
    t, regs, arbiter = event
    now = timezone.now()
    open_window(t, arbiter, opens_at=now - timedelta(hours=2), closes_at=now - timedelta(hours=1))
    resp = Client().post(f"/check-in/{check_in_token(registration=regs[2])}/")
    assert resp.status_code == 409
    assert 'id="check-in-refused"' in resp.content.decode()
    assert not CheckIn.objects.exists()


def test_the_desk_sends_the_arbiter_to_the_check_in_before_pairing(event):
    t, regs, arbiter = event
    client = Client()
    client.force_login(arbiter)
    page = client.get(f"/arbiter/t/{t.slug}/").content.decode()
    assert 'id="pair-next"' in page and 'id="pair-after-check-in"' not in page
    open_window(t, arbiter)
    page = client.get(f"/arbiter/t/{t.slug}/").content.decode()
    assert 'id="pair-next"' not in page and 'id="pair-after-check-in"' in page
    services.check_in_close(tournament=t, user=arbiter)
    page = client.get(f"/arbiter/t/{t.slug}/").content.decode()
    assert 'id="pair-next"' in page


def test_the_audit_page_reads_check_ins_as_sentences(event):
    t, regs, arbiter = event
    open_window(t, arbiter)
    services.check_in_record(registration=regs[0], user=regs[0].player.user)
    services.check_in_record(registration=regs[1], user=arbiter, present=False)
    services.check_in_close(tournament=t, user=arbiter)
    client = Client()
    client.force_login(arbiter)
    page = client.get(f"/arbiter/t/{t.slug}/audit/").content.decode()
    assert "ann checked Ann in for round 1" in page
    assert "arb marked Bob absent for round 1" in page
    assert "arb closed the check-in of round 1; not checked in: Bob, Cid, Dee, Eve" in page
    assert "arb set the check-in of round 1: from" in page
