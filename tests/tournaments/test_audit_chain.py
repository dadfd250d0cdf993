"""The tamper-evident audit chain (issue 14 item 4): keyed hashes under a key of their own,
the published head, and `kz audit verify SLUG [--head SEQ:HASH]` finding truncation,
deletion and rewrites; key rotation; the head on the page, in the API and crosstable.json,
not in TRF; results read-only in the admin."""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.test import Client, override_settings

from tests.tournaments.audit_entries import audit_entry_v1_append
from tests.tournaments.services.factories import event_make, officials_make
from tournaments import selectors, services
from tournaments.audit import (
    GENESIS,
    Action,
    audit_append,
    audit_head,
    audit_head_parse,
    audit_verify,
    entry_hash,
    stored_entry_hash,
)
from tournaments.models import AuditEntry, Game, Round
from tournaments.trf_export import tournament_trf

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def chain(db):  # type: ignore[no-untyped-def]
    """A tournament with five audit entries (no entrants: registrations are audited too);
    its published head."""
    officials = officials_make()
    t, _ = event_make(officials, names=())
    for n in range(5):
        audit_append(tournament=t, user=officials.arbiter, action=Action.RESULT, after={"n": n})
    head = audit_head(tournament=t)
    assert head is not None
    return t, (head["seq"], head["hash"])


def _kz_verify(slug: str, *extra: str) -> tuple[int, dict[str, object]]:
    out = io.StringIO()
    try:
        call_command("kz", "audit", "verify", slug, "--json", *extra, stdout=out)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, json.loads(out.getvalue())


def test_entries_carry_an_hmac_under_the_audit_key_not_a_plain_sha256(chain):
    t, _ = chain
    e = AuditEntry.objects.get(tournament=t, seq=1)
    # Version 2 (issue 22): the fields, then the version and the chain (id and slug).
    assert e.hash_version == 2
    body = json.dumps(
        [GENESIS, 1, e.actor, e.action, e.object_type, e.object_id, e.before, e.after]
        + [e.created_at.isoformat(), 2, ["tournament", t.pk, t.slug]],
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
    ).encode()
    key = settings.KZ_AUDIT_KEY.encode()
    assert e.key_id == settings.KZ_AUDIT_KEY_ID
    assert e.hash == hmac.new(key, body, hashlib.sha256).hexdigest()
    assert e.hash != hashlib.sha256(body).hexdigest()
    assert settings.KZ_AUDIT_KEY != settings.SECRET_KEY


def test_an_intact_chain_verifies_with_and_without_its_head(chain):
    t, head = chain
    assert audit_verify(tournament=t) == (True, 5, "")
    assert audit_verify(tournament=t, head=head) == (True, 5, "")
    # a head published earlier still holds as the chain grows
    audit_append(tournament=t, user=None, action=Action.RESULT)
    assert audit_verify(tournament=t, head=head) == (True, 6, "")
    code, out = _kz_verify(t.slug, "--head", f"{head[0]}:{head[1]}")
    assert (code, {k: out[k] for k in ("valid", "entries", "problem", "head")}) == (
        0,
        {"valid": True, "entries": 6, "problem": None, "head": audit_head(tournament=t)},
    )
    assert out["tail_checked"] is True


def test_the_newest_entries_removed_are_found_against_the_published_head(chain):
    t, head = chain
    AuditEntry.objects.filter(tournament=t, seq__gte=4).delete()  # a raw delete
    # what remains is a well-formed chain: only the head shows what went
    assert audit_verify(tournament=t)[0]
    ok, _, problem = audit_verify(tournament=t, head=head)
    assert not ok and problem == (
        "the published head is entry 5 but the chain ends at entry 3: entries were removed"
    )
    code, out = _kz_verify(t.slug, "--head", f"{head[0]}:{head[1]}")
    assert code == 1 and out["valid"] is False and "removed" in str(out["problem"])


def test_an_entry_deleted_in_the_middle_is_found(chain):
    t, _ = chain
    AuditEntry.objects.filter(tournament=t, seq=3).delete()
    assert audit_verify(tournament=t) == (False, 3, "entry 3 is missing (found 4)")


def test_an_edited_entry_is_found(chain):
    t, _ = chain
    AuditEntry.objects.filter(tournament=t, seq=2).update(after={"n": 99})
    assert audit_verify(tournament=t) == (False, 2, "entry 2 was changed after it was written")


def _rewrite(t, key: bytes | None, key_id: str) -> None:  # type: ignore[no-untyped-def]
    """What someone with write access to the table does: change entry 2, then hash the whole
    chain again from the start so that every link holds."""
    prev = GENESIS
    for e in AuditEntry.objects.filter(tournament=t).order_by("seq"):
        after = {"n": 99} if e.seq == 2 else e.after
        e.after = after
        digest = stored_entry_hash(e, prev_hash=prev, key=key)
        AuditEntry.objects.filter(pk=e.pk).update(
            after=after, prev_hash=prev, hash=digest, key_id=key_id
        )
        prev = digest


def test_a_rewrite_rehashed_with_plain_sha256_is_found(chain):
    t, head = chain
    _rewrite(t, None, "")
    assert audit_verify(tournament=t) == (False, 1, "entry 1 has no keyed hash")


def test_a_rewrite_rehashed_without_the_key_is_found(chain):
    t, head = chain
    _rewrite(t, b"a guessed key", settings.KZ_AUDIT_KEY_ID)
    assert audit_verify(tournament=t) == (False, 1, "entry 1 was changed after it was written")


def test_a_rewrite_rehashed_with_the_key_is_found_against_the_published_head(chain):
    t, head = chain
    _rewrite(t, settings.KZ_AUDIT_KEY.encode(), settings.KZ_AUDIT_KEY_ID)
    assert audit_verify(tournament=t)[0]  # the key's holder can forge a consistent chain…
    ok, _, problem = audit_verify(tournament=t, head=head)
    assert not ok and problem == "entry 5 differs from the published head: rewritten"  # …not this


def test_rotation_keeps_old_entries_verifying_under_their_retired_key(chain):
    t, head = chain
    with override_settings(
        KZ_AUDIT_KEY_ID="k2",
        KZ_AUDIT_KEY="the-second-audit-key",
        KZ_AUDIT_RETIRED_KEYS={"dev": "insecure-development-audit-key"},
    ):
        e = audit_append(tournament=t, user=None, action=Action.RESULT)
        assert e.key_id == "k2" and e.prev_hash == head[1]
        assert audit_verify(tournament=t, head=head) == (True, 6, "")
    # without the retired key the old entries cannot be checked: said, not passed
    with override_settings(KZ_AUDIT_KEY_ID="k2", KZ_AUDIT_KEY="the-second-audit-key"):
        ok, _, problem = audit_verify(tournament=t)
        assert not ok and "'dev', which is not configured" in problem
    # and back on the first key alone, the entry of the second is unknown
    ok, _, problem = audit_verify(tournament=t)
    assert not ok and problem.startswith("entry 6 was written with audit key 'k2'")


def test_the_audit_key_is_never_the_secret_key(chain):
    t, _ = chain
    with (
        override_settings(KZ_AUDIT_KEY=settings.SECRET_KEY),
        pytest.raises(ImproperlyConfigured, match="differ from SECRET_KEY"),
    ):
        audit_append(tournament=t, user=None, action=Action.RESULT)


def test_head_parsing():
    digest = "ab" * 32
    assert audit_head_parse(f"12:{digest.upper()}") == (12, digest)
    for bad in ("12", f"x:{digest}", "12:abc", f"²:{digest}", f"12:{'g' * 64}"):
        with pytest.raises(ValueError):
            audit_head_parse(bad)


def test_kz_audit_verify_refuses_a_malformed_head(chain):
    t, _ = chain
    err = io.StringIO()
    with pytest.raises(SystemExit) as exc:
        call_command("kz", "audit", "verify", t.slug, "--head", "nonsense", stderr=err)
    assert exc.value.code == 2 and "SEQ:HASH" in err.getvalue()
    # the command without a head works as before
    out = io.StringIO()
    call_command("kz", "audit", "verify", t.slug, stdout=out)
    assert out.getvalue().splitlines()[0] == "5 entries: intact"


def test_the_head_is_published_on_the_page_in_the_api_and_crosstable_json_not_in_trf(chain):
    t, (seq, digest) = chain
    client = Client()
    assert f"{seq}:{digest}" in client.get(f"/t/{t.slug}/").content.decode()
    api = client.get(f"/api/tournaments/{t.slug}/").json()
    assert api["audit_head"] == {"seq": seq, "hash": digest}
    assert client.get(f"/t/{t.slug}/crosstable.json").json()["audit_head"] == {
        "seq": seq,
        "hash": digest,
    }
    assert selectors.crosstable_json(tournament=t)["audit_head"]["seq"] == seq
    assert digest not in tournament_trf(tournament=t)


def test_entry_hash_without_key_is_the_old_sha256():
    fields = {
        "prev_hash": GENESIS,
        "seq": 1,
        "actor": "a",
        "action": "result",
        "object_type": "Game",
        "object_id": "1",
        "before": None,
        "after": None,
        "created_at": "2026-01-01T00:00:00+00:00",
    }
    assert entry_hash(**fields) != entry_hash(**fields, key=b"k")
    assert entry_hash(**fields, key=b"k") != entry_hash(**fields, key=b"k2")


def test_results_and_rounds_are_read_only_in_the_admin(chain, client):
    t, _ = chain
    admin = get_user_model().objects.create_superuser("root", password="pw-root-12345")
    client.force_login(admin)
    for name in ("Ann", "Bob"):
        services.registration_create(tournament=t, player=services.player_create(name=name))
    ids = list(t.registrations.values_list("player_id", flat=True))
    rnd = services.round_create(tournament=t, pairings=[(ids[0], ids[1])])
    game = rnd.games.get()
    change = f"/admin/tournaments/game/{game.pk}/change/"
    page = client.get(change)
    assert page.status_code == 200 and b'name="result"' not in page.content
    client.post(change, {"result": "first_win", "kind": "game", "board": 1})
    client.post(f"/admin/tournaments/game/{game.pk}/delete/", {"post": "yes"})
    game.refresh_from_db()
    assert game.result == ""
    assert client.get("/admin/tournaments/game/add/").status_code == 403
    assert client.post(f"/admin/tournaments/round/{rnd.pk}/delete/", {"post": "yes"}).status_code
    assert Round.objects.filter(pk=rnd.pk).exists() and Game.objects.filter(pk=game.pk).exists()
    # settings that change results are locked once round 1 is paired, as in the services
    page = client.get(f"/admin/tournaments/tournament/{t.pk}/change/")
    assert page.status_code == 200 and b'name="ruleset"' not in page.content


def test_production_refuses_to_start_without_an_audit_key():
    env = {k: v for k, v in os.environ.items() if k not in ("KZ_AUDIT_KEY",)}
    env.update(
        DJANGO_SETTINGS_MODULE="klinzha_site.settings.production",
        DJANGO_SECRET_KEY="x" * 50,
    )
    proc = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert proc.returncode != 0 and "KZ_AUDIT_KEY" in proc.stderr


def _swap_chains(a, b) -> None:  # type: ignore[no-untyped-def]
    """What someone with write access to the table does: give each event the other's whole
    chain (through a third event, as each (tournament, seq) is unique)."""
    from tournaments.models import Tournament

    parked = Tournament.objects.create(name="Parked", slug="parked", start_date=a.start_date)
    AuditEntry.objects.filter(tournament=a).update(tournament=parked)
    AuditEntry.objects.filter(tournament=b).update(tournament=a)
    AuditEntry.objects.filter(tournament=parked).update(tournament=b)


def test_swapping_two_events_whole_chains_is_found(chain):
    """Issue 22 item 9: each entry's hash binds its tournament (id and slug)."""
    t, head = chain
    officials = officials_make_again()
    other, _ = event_make(officials, slug="other-open", names=())
    for n in range(5):
        audit_append(tournament=other, user=None, action=Action.RESULT, after={"n": n})
    assert audit_verify(tournament=other)[0]
    _swap_chains(t, other)
    assert audit_verify(tournament=t) == (False, 1, "entry 1 was changed after it was written")
    assert not audit_verify(tournament=other)[0]
    code, out = _kz_verify(t.slug)
    assert code == 1 and out["valid"] is False


def officials_make_again():  # type: ignore[no-untyped-def]
    """A second event's officials (the chain fixture made the first ones)."""
    from tests.tournaments.services.factories import Officials

    User = get_user_model()
    names = ("org2", "chief2", "arb2", "arb2b", "nobody2")
    return Officials(*(User.objects.create_user(n, password=f"pw-{n}-12345") for n in names))


def test_old_version_1_entries_and_heads_saved_before_still_verify(db):
    officials = officials_make()
    t, _ = event_make(officials, names=())
    for n in range(3):
        audit_entry_v1_append(entries=AuditEntry, tournament=t, n=n)
    assert AuditEntry.objects.filter(tournament=t, hash_version=1).count() == 3
    saved = audit_head(tournament=t)
    assert saved is not None
    head = (saved["seq"], saved["hash"])
    assert audit_verify(tournament=t, head=head) == (True, 3, "")
    # new entries follow them with version 2; the old head still holds
    e = audit_append(tournament=t, user=None, action=Action.RESULT)
    assert (e.seq, e.hash_version, e.prev_hash) == (4, 2, head[1])
    assert audit_verify(tournament=t, head=head) == (True, 4, "")
    # a version 2 entry turned back into version 1 no longer verifies
    AuditEntry.objects.filter(pk=e.pk).update(hash_version=1)
    assert audit_verify(tournament=t) == (False, 4, "entry 4 was changed after it was written")
    AuditEntry.objects.filter(pk=e.pk).update(hash_version=2)
    AuditEntry.objects.filter(tournament=t, seq=2).update(hash_version=2)
    ok, _, problem = audit_verify(tournament=t)
    assert not ok and problem.startswith("entry 2 was changed")


def test_kz_audit_verify_without_a_head_says_what_it_cannot_see(chain):
    t, (seq, digest) = chain
    out = io.StringIO()
    call_command("kz", "audit", "verify", t.slug, stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "5 entries: intact"
    assert lines[1] == f"head: {seq}:{digest}"
    assert "deletions at the tail cannot be detected without a saved head" in lines[2]
    assert f"/api/tournaments/{t.slug}/" in lines[2] and "crosstable.json" in lines[2]
    code, data = _kz_verify(t.slug)
    assert code == 0 and data["tail_checked"] is False
    assert "tournament's page" in str(data["published_head"])
    # with a head, no such note
    out = io.StringIO()
    call_command("kz", "audit", "verify", t.slug, "--head", f"{seq}:{digest}", stdout=out)
    assert "cannot be detected" not in out.getvalue()


def test_kz_audit_verify_site_checks_the_sites_own_chain(db):
    officials = officials_make()
    t, (ann, *_) = event_make(officials, names=("Ann",))
    account = get_user_model().objects.create_user("ann", password="pw-ann-12345")
    services.player_link_user(player=ann, account=account, user=officials.organizer)
    services.player_link_user(player=ann, account=None, user=account)
    site = AuditEntry.objects.filter(tournament=None).order_by("seq")
    assert [(e.seq, e.action, e.hash_version) for e in site] == [
        (1, "player_account", 2),
        (2, "player_account", 2),
    ]
    saved = f"{site.last().seq}:{site.last().hash}"
    out = io.StringIO()
    call_command("kz", "audit", "verify", "--site", stdout=out)
    assert out.getvalue().startswith("2 entries: intact\n")
    assert "the site's chain publishes no head" in out.getvalue()
    # removing the newest entry shows only against the saved head
    AuditEntry.objects.filter(tournament=None, seq=2).delete()
    out = io.StringIO()
    call_command("kz", "audit", "verify", "--site", stdout=out)
    assert out.getvalue().startswith("1 entries: intact\n")
    err = io.StringIO()
    with pytest.raises(SystemExit) as exc:
        call_command("kz", "audit", "verify", "--site", "--head", saved, stdout=out, stderr=err)
    assert exc.value.code == 1 and "entries were removed" in out.getvalue()
    with pytest.raises(SystemExit) as exc:
        call_command("kz", "audit", "verify", t.slug, "--site", stderr=err)
    assert exc.value.code == 2 and "not both" in err.getvalue()


def test_the_slug_cannot_change_in_the_admin_so_the_chain_keeps_verifying(chain, client):
    """Version 2 entries bind the slug (chain_scope), and people bookmarked the address: the
    admin shows it but does not change it."""
    t, _ = chain
    admin = get_user_model().objects.create_superuser("root", password="pw-root-12345")
    client.force_login(admin)
    change = f"/admin/tournaments/tournament/{t.pk}/change/"
    page = client.get(change)
    assert page.status_code == 200 and b'name="slug"' not in page.content
    form = {"name": t.name, "slug": "renamed", "start_date": t.start_date.isoformat()}
    client.post(change, form)
    t.refresh_from_db()
    assert t.slug != "renamed"
    code, report = _kz_verify(t.slug)
    assert code == 0, report
