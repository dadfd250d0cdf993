"""Writes in bulk, called directly: entrants registered in one batch (entrants_register) and
a round's results entered at once (round_results_enter): all or none, every refused row
named with its field, one version bump, one audit entry a change, queries that do not grow
with the batch."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test.utils import CaptureQueriesContext

from klinzha_site.errors import Conflict, RowsRefused
from tests.tournaments.services.factories import Officials, event_make, round_make
from tournaments import services
from tournaments.models import AuditEntry, Club, Game, Player, Registration, Round, Tournament
from tournaments.page_selectors import tournament_version_get
from tournaments.services import EntrantRow, ResultRow

pytestmark = pytest.mark.django_db


def version(t: Tournament) -> int:
    found = tournament_version_get(slug=t.slug)
    assert found is not None
    return found[1]


def stored(t: Tournament) -> tuple[int, int, int, int, int]:
    """What a refused batch must leave as it was."""
    return (
        Player.objects.count(),
        Club.objects.count(),
        Registration.objects.filter(tournament=t).count(),
        AuditEntry.objects.filter(tournament=t).count(),
        version(t),
    )


def batches_bound(counts: list[int], *, rows: int) -> None:
    """The same queries for a small batch and a big one on PostgreSQL; on SQLite, whose
    limit of bound parameters splits an insert of many rows, a few more, far fewer than
    one a row."""
    if connection.vendor == "postgresql":
        assert counts[0] == counts[1], counts
    else:
        assert counts[0] <= counts[1] <= counts[0] + rows // 20, counts
    assert counts[0] <= 40, counts


# entrants_register


def test_a_batch_registers_known_and_new_players_seeded_once(officials: Officials, event):
    t, (ann, bob, cid, dax) = event  # rated 2000, 1900, 1800, 1700
    club = services.club_create(name="House of Mogh")
    known = services.player_create(name="Worf", rating=1850)
    rows = [
        EntrantRow(key=0, player=known.pk),
        EntrantRow(key=1, name="Kurn", club=club.pk, rating=1950, federation="KLI"),
        EntrantRow(key=2, name="Alexander", club_name="House of Rozhenko"),
    ]
    before = version(t)
    regs = services.entrants_register(tournament=t, rows=rows, user=officials.arbiter)
    assert [r.player.name for r in regs] == ["Worf", "Kurn", "Alexander"]
    kurn = Player.objects.get(name="Kurn")
    assert (kurn.club, kurn.federation, kurn.managed_by) == (club, "KLI", officials.organizer)
    assert Player.objects.get(name="Alexander").club.name == "House of Rozhenko"
    order = Registration.objects.filter(tournament=t).order_by("start_rank")
    assert [r.player.name for r in order] == [
        "Ann",
        "Kurn",
        "Bob",
        "Worf",
        "Cid",
        "Dax",
        "Alexander",
    ]
    assert [r.start_rank for r in order] == [1, 2, 3, 4, 5, 6, 7]
    audit = AuditEntry.objects.filter(tournament=t, action="registration").order_by("seq")
    assert [a.after["player"] for a in audit][-3:] == ["Worf", "Kurn", "Alexander"]
    assert audit.last().after == {
        "player": "Alexander",
        "first_round": 1,
        "start_rank": 7,
        "rating": 0,
    }
    assert version(t) == before + 1


def test_every_bad_row_is_named_with_its_field_and_nothing_is_stored(officials, event):
    t, (ann, *_) = event
    rows = [
        EntrantRow(key=0, name="Good One", rating=1500),
        EntrantRow(key=1, player=ann.pk),  # already registered
        EntrantRow(key=2, name="", rating=1500),
        EntrantRow(key=3, name="Too Strong", rating=10_000),
        EntrantRow(key=4, player=999_999),
        EntrantRow(key=5, name="Clubless", club=999_999),
        EntrantRow(key=6, name="Far", federation="KLINGON"),
        EntrantRow(key=7, name="Good Two", club_name="New Club"),
        EntrantRow(key=8, name="Long Club", club_name="x" * 121),
    ]
    before = stored(t)
    with pytest.raises(RowsRefused) as refused:
        services.entrants_register(tournament=t, rows=rows, user=officials.arbiter)
    assert {k: sorted(v) for k, v in refused.value.rows.items()} == {
        1: ["player"],
        2: ["name"],
        3: ["rating"],
        4: ["player"],
        5: ["club"],
        6: ["federation"],
        8: ["club"],
    }
    assert refused.value.rows[1] == {"player": ["already registered"]}
    assert "row 3" in refused.value.message_dict  # a page reads it by its label
    assert stored(t) == before
    assert not Club.objects.filter(name="New Club").exists()


def test_a_known_player_given_twice_is_refused_at_the_second(officials, event):
    t, _ = event
    worf = services.player_create(name="Worf")
    rows = [EntrantRow(key=0, player=worf.pk), EntrantRow(key=1, player=worf.pk)]
    with pytest.raises(RowsRefused) as refused:
        services.entrants_register(tournament=t, rows=rows, user=officials.arbiter)
    assert list(refused.value.rows) == [1]


def test_a_stranger_registers_nobody_and_locks_nothing(officials, event, monkeypatch):
    t, _ = event
    from django.db.models.query import QuerySet

    def no_lock(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("a row lock was asked for before the role was checked")

    monkeypatch.setattr(QuerySet, "select_for_update", no_lock)
    with pytest.raises(PermissionDenied):
        services.entrants_register(
            tournament=t, rows=[EntrantRow(key=0, name="Gowron")], user=officials.stranger
        )


def test_after_round_one_a_batch_is_late_entries_in_its_order(officials, event):
    t, (ann, bob, cid, dax) = event
    round_make(t, [(ann, bob), (cid, dax)])
    rows = [EntrantRow(key=0, name="Late Low", rating=1000), EntrantRow(key=1, name="Late Hi")]
    rows[1] = EntrantRow(key=1, name="Late Hi", rating=2500)
    regs = services.entrants_register(tournament=t, rows=rows, user=officials.arbiter)
    assert [(r.first_round, r.start_rank) for r in regs] == [(2, 5), (2, 6)]
    assert AuditEntry.objects.filter(tournament=t, action="late_entry").count() == 2


def test_a_round_robin_under_way_takes_no_batch(officials):
    t, (a, b, c, d) = event_make(officials, slug="rr-bulk", pairing_system="round_robin")
    round_make(t, [(a, b), (c, d)])
    before = stored(t)
    with pytest.raises(Conflict):
        services.entrants_register(
            tournament=t, rows=[EntrantRow(key=0, name="Late")], user=officials.arbiter
        )
    assert stored(t) == before


def test_a_batchs_queries_do_not_grow_with_its_rows(officials):
    """Each batch into a field of its own size, every rank of the field moving: the queries
    do not grow with the rows (reads, one insert of players, one of registrations, one
    update of the ranks that move, one audit insert)."""
    counts = []
    for n in (20, 400):
        t, _ = event_make(officials, slug=f"q-{n}", names=())
        field = [EntrantRow(key=i, name=f"Field {i}", rating=1000 + 2 * i) for i in range(n)]
        services.entrants_register(tournament=t, rows=field, user=officials.arbiter)
        rows = [
            EntrantRow(key=i, name=f"New {i}", rating=1001 + 2 * i, club_name=f"C{n}-{i % 3}")
            for i in range(n)
        ]
        with CaptureQueriesContext(connection) as queries:
            services.entrants_register(tournament=t, rows=rows, user=officials.arbiter)
        counts.append(len(queries))
        ranks = Registration.objects.filter(tournament=t).order_by("start_rank")
        assert [r.rating for r in ranks] == sorted((r.rating for r in ranks), reverse=True)
    batches_bound(counts, rows=400)


def test_one_registration_reads_no_field_and_moves_only_the_ranks_below(officials):
    """registration_create's queries do not grow with the field: the ranks below move in one
    UPDATE, and nothing reloads every registration."""
    counts = []
    for n in (10, 300):
        t, _ = event_make(officials, slug=f"one-{n}", names=())
        field = [EntrantRow(key=i, name=f"P{i}", rating=3000 - i) for i in range(n)]
        services.entrants_register(tournament=t, rows=field)
        middle = Player.objects.create(name="Middle", rating=3000 - n // 2)
        with CaptureQueriesContext(connection) as queries:
            reg = services.registration_create(tournament=t, player=middle)
        counts.append(len(queries))
        assert reg.start_rank == n // 2 + 1
        ranks = list(
            Registration.objects.filter(tournament=t)
            .order_by("start_rank")
            .values_list("start_rank", flat=True)
        )
        assert ranks == list(range(1, n + 2))
        shifts = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("UPDATE")]
        assert any('"start_rank" = (' in sql and ">=" in sql for sql in shifts), shifts
    assert counts[0] == counts[1], counts


# round_results_enter


@pytest.fixture
def round1(officials):  # type: ignore[no-untyped-def]
    """Six players and round 1 published: boards 1-3, Ann-Bob, Cid-Dax, Eve-Fay."""
    names = ("Ann", "Bob", "Cid", "Dax", "Eve", "Fay")
    t, ps = event_make(officials, slug="results-open", names=names)
    rnd = round_make(t, [(ps[0], ps[1]), (ps[2], ps[3]), (ps[4], ps[5])])
    return t, rnd


def results(rnd: Round) -> list[str]:
    return list(rnd.games.order_by("board").values_list("result", flat=True))


def test_a_round_is_entered_at_once_one_bump_one_audit_entry_a_change(officials, round1):
    t, rnd = round1
    services.game_result_set(game=rnd.games.get(board=2), result="draw")
    before_version = version(t)
    audit_before = AuditEntry.objects.filter(tournament=t, action="result").count()
    game3 = rnd.games.get(board=3)
    rows = [
        ResultRow(key=0, board=1, result="first_win"),
        ResultRow(key=1, board=2, result="draw"),  # as it is: no change
        ResultRow(key=2, game=game3.pk, result="second_forfeit_win"),
    ]
    entered = services.round_results_enter(round=rnd, rows=rows, user=officials.arbiter)
    assert [g.board for g in entered.games] == [1, 2, 3]
    assert [g.board for g in entered.changed] == [1, 3]
    assert results(rnd) == ["first_win", "draw", "second_forfeit_win"]
    assert version(t) == before_version + 1
    audit = AuditEntry.objects.filter(tournament=t, action="result").order_by("seq")
    assert audit.count() == audit_before + 2
    assert [(a.object_id, a.before, a.after, a.actor) for a in audit][-2:] == [
        (str(rnd.games.get(board=1).pk), {"result": ""}, {"result": "first_win"}, "arbiter"),
        (str(game3.pk), {"result": ""}, {"result": "second_forfeit_win"}, "arbiter"),
    ]
    game1 = rnd.games.get(board=1)
    assert game1.result_entered_by == officials.arbiter and game1.result_confirmed_at


def test_nothing_changed_bumps_nothing(officials, round1):
    t, rnd = round1
    services.game_result_set(game=rnd.games.get(board=1), result="draw")
    before = version(t)
    services.round_results_enter(
        round=rnd, rows=[ResultRow(key=0, board=1, result="draw")], user=officials.arbiter
    )
    assert version(t) == before


def test_every_refused_row_is_named_and_no_result_is_stored(officials):
    names = ("Ann", "Bob", "Cid", "Dax", "Eve")
    t, ps = event_make(officials, slug="italian-bulk", names=names, ruleset="italian-society")
    rnd = round_make(t, [(ps[0], ps[1]), (ps[2], ps[3]), (ps[4], None)])
    other = round_make(t, [(ps[0], ps[2]), (ps[1], ps[3])], draft=True)
    before = stored(t)
    rows = [
        ResultRow(key=0, board=1, result="first_win"),
        ResultRow(key=1, board=2, result="draw"),  # no draws under the society's rules
        ResultRow(key=2, board=3, result="first_win"),  # the bye
        ResultRow(key=3, board=9, result="first_win"),
        ResultRow(key=4, game=other.games.get(board=1).pk, result="first_win"),
        ResultRow(key=5, board=1, result="second_win"),  # board 1 again
    ]
    with pytest.raises(RowsRefused) as refused:
        services.round_results_enter(round=rnd, rows=rows, user=officials.arbiter)
    assert {k: list(v) for k, v in refused.value.rows.items()} == {
        1: ["result"],
        2: ["result"],
        3: ["board"],
        4: ["game"],
        5: ["board"],
    }
    assert "no draws" in refused.value.rows[1]["result"][0]
    assert results(rnd) == ["", "", ""]
    assert stored(t) == before


def test_a_proposed_round_takes_no_result(officials, round1):
    t, rnd = round1
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.DRAFT)
    with pytest.raises(RowsRefused) as refused:
        services.round_results_enter(
            round=rnd, rows=[ResultRow(key=0, board=1, result="draw")], user=officials.arbiter
        )
    assert refused.value.rows == {0: {"result": ["the round is not published yet"]}}


def test_a_stranger_enters_no_result_and_locks_nothing(officials, round1, monkeypatch):
    t, rnd = round1
    from django.db.models.query import QuerySet

    def no_lock(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("a row lock was asked for before the role was checked")

    monkeypatch.setattr(QuerySet, "select_for_update", no_lock)
    with pytest.raises(PermissionDenied):
        services.round_results_enter(
            round=rnd, rows=[ResultRow(key=0, board=1, result="draw")], user=officials.stranger
        )


def test_two_person_entry_waits_for_the_second_and_mails_them(
    officials, mailoutbox, django_capture_on_commit_callbacks
):
    officials.arbiter2.email = "second@example.org"
    officials.arbiter2.save()
    t, ps = event_make(officials, slug="two-bulk", result_confirmation=True)
    rnd = round_make(t, [(ps[0], ps[1]), (ps[2], ps[3])])
    rows = [ResultRow(key=i, board=i + 1, result="first_win") for i in range(2)]
    with django_capture_on_commit_callbacks(execute=True):
        services.round_results_enter(round=rnd, rows=rows, user=officials.arbiter)
    games = list(rnd.games.order_by("board"))
    assert all(g.result == "first_win" and g.result_confirmed_at is None for g in games)
    assert len([m for m in mailoutbox if "second@example.org" in m.to]) == 2


def test_a_rounds_results_read_and_write_in_queries_independent_of_its_boards(officials):
    counts = []
    for n in (6, 60):
        t, _ = event_make(officials, slug=f"rq-{n}", names=())
        field = [EntrantRow(key=i, name=f"P{i}", rating=2000 - i) for i in range(n)]
        ps = [r.player for r in services.entrants_register(tournament=t, rows=field)]
        rnd = round_make(t, [(ps[i], ps[i + 1]) for i in range(0, n, 2)])
        rows = [ResultRow(key=b, board=b + 1, result="draw") for b in range(n // 2)]
        with CaptureQueriesContext(connection) as queries:
            services.round_results_enter(round=rnd, rows=rows, user=officials.arbiter)
        counts.append(len(queries))
        assert set(results(rnd)) == {Game.Result.DRAW}
    assert counts[0] == counts[1], counts
