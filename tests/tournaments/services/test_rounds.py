"""Rounds, called directly: publishing and discarding a proposed round, and editing its
pairings by hand (the edit, its warnings, its refusals and its audit entry)."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from tests.tournaments.services.factories import event_make, round_make
from tournaments import selectors, services
from tournaments.models import AuditEntry, Game, Player, Registration, Round, Tournament

pytestmark = pytest.mark.django_db


def version(t: Tournament) -> int:
    return Tournament.objects.values_list("published_version", flat=True).get(pk=t.pk)


def games_of(rnd: Round) -> list[tuple[int, str, int, int | None]]:
    return list(
        Game.objects.filter(round=rnd)
        .order_by("board")
        .values_list("board", "kind", "first_id", "second_id")
    )


def edit_refused(rnd: Round, pairs: list[tuple[int, int | None]], user) -> list[str]:  # type: ignore[no-untyped-def]
    """The messages of a refused edit, after checking that nothing changed."""
    before = games_of(rnd)
    ids = set(rnd.games.values_list("pk", flat=True))
    edits = AuditEntry.objects.filter(action="pairings_edited").count()
    with pytest.raises(ValidationError) as e:
        services.round_pairings_edit(round=rnd, pairings=pairs, user=user)
    assert games_of(rnd) == before and set(rnd.games.values_list("pk", flat=True)) == ids
    assert AuditEntry.objects.filter(action="pairings_edited").count() == edits
    return e.value.message_dict["pairings"]


# round_publish


def test_publishing_makes_the_round_official(officials, event):
    t, (a, b, c, d) = event
    rnd = round_make(t, [(a, b), (c, d)], draft=True)
    game = rnd.games.get(board=1)
    with pytest.raises(ValidationError, match="the round is not published yet"):
        services.game_result_set(game=game, result="first_win", user=officials.arbiter)
    assert list(selectors.round_list(tournament=t)) == []
    before = version(t)
    got = services.round_publish(round=rnd, user=officials.arbiter)
    assert got.status == Round.Status.PUBLISHED
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PUBLISHED
    assert version(t) == before + 1
    assert [r.pk for r in selectors.round_list(tournament=t)] == [rnd.pk]
    entry = AuditEntry.objects.get(tournament=t, action="round_published")
    assert (entry.actor, entry.object_type, entry.after) == ("arbiter", "Round", {"round": 1})
    services.game_result_set(game=game, result="first_win", user=officials.arbiter)
    assert Game.objects.get(pk=game.pk).result == "first_win"


def test_a_published_round_is_not_published_again(officials, event):
    t, (a, b, c, d) = event
    rnd = round_make(t, [(a, b), (c, d)])
    with pytest.raises(ValidationError) as e:
        services.round_publish(round=rnd, user=officials.arbiter)
    assert e.value.message_dict == {"round": ["round 1 is published already"]}
    assert not AuditEntry.objects.filter(action="round_published").exists()


def test_only_arbiters_publish(officials, event):
    t, (a, b, c, d) = event
    rnd = round_make(t, [(a, b), (c, d)], draft=True)
    with pytest.raises(PermissionDenied):
        services.round_publish(round=rnd, user=officials.stranger)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.DRAFT


# round_discard


def test_discarding_a_proposal_removes_it_and_frees_its_number(officials, event):
    t, (a, b, c, d) = event
    rnd = round_make(t, [(a, b), (c, d)], draft=True)
    game_ids = list(rnd.games.values_list("pk", flat=True))
    before = version(t)
    assert services.round_discard(round=rnd, user=officials.arbiter) == 1
    assert not Round.objects.filter(pk=rnd.pk).exists()
    assert not Game.objects.filter(pk__in=game_ids).exists()
    assert version(t) == before + 1
    entry = AuditEntry.objects.get(tournament=t, action="round_discarded")
    assert (entry.object_type, entry.object_id) == ("Round", str(rnd.pk))
    assert entry.before == {"round": 1} and entry.after is None
    again = round_make(t, [(a, c), (b, d)])
    assert again.number == 1


def test_a_published_round_is_not_discarded(officials, event):
    t, (a, b, c, d) = event
    rnd = round_make(t, [(a, b), (c, d)])
    with pytest.raises(ValidationError) as e:
        services.round_discard(round=rnd, user=officials.arbiter)
    assert e.value.message_dict == {"round": ["a published round cannot be discarded"]}
    assert Round.objects.filter(pk=rnd.pk).exists()


def test_only_the_last_round_is_discarded(officials, event):
    t, (a, b, c, d) = event
    rnd = round_make(t, [(a, b), (c, d)], draft=True)
    Round.objects.create(tournament=t, number=2)  # behind the services' back
    with pytest.raises(ValidationError) as e:
        services.round_discard(round=rnd, user=officials.arbiter)
    assert e.value.message_dict == {"round": ["only the last round can be discarded"]}


def test_only_arbiters_discard(officials, event):
    t, (a, b, c, d) = event
    rnd = round_make(t, [(a, b), (c, d)], draft=True)
    with pytest.raises(PermissionDenied):
        services.round_discard(round=rnd, user=officials.stranger)
    assert Round.objects.filter(pk=rnd.pk).exists()


# round_pairings_edit


@pytest.fixture
def second_round(officials):  # type: ignore[no-untyped-def]
    """Five players after round 1 (Ann beat Bob, Cid beat Dax, Eve had the bye), round 2
    proposed as Ann-Cid, Eve-Bob and Dax's bye."""
    t, players = event_make(officials, slug="five-open", names=("Ann", "Bob", "Cid", "Dax", "Eve"))
    a, b, c, d, e = players
    r1 = round_make(t, [(a, b), (c, d), (e, None)])
    for board in (1, 2):
        services.game_result_set(game=r1.games.get(board=board), result="first_win")
    r2 = round_make(t, [(a, c), (e, b), (d, None)], draft=True)
    return t, players, r2


def test_an_edit_replaces_the_pairings_and_keeps_its_warnings(officials, second_round):
    t, (a, b, c, d, e), rnd = second_round
    old_ids = set(rnd.games.values_list("pk", flat=True))
    pairs = [(a.pk, b.pk), (c.pk, d.pk), (e.pk, None)]
    warnings = services.round_pairings_edit(round=rnd, pairings=pairs, user=officials.arbiter)
    expected = [
        f"{n(a)} and {n(b)} have met already",
        f"{n(c)} and {n(d)} have met already",
        f"{n(e)} has had a pairing-allocated bye already",
        f"the bye goes to {n(e)}, above the lowest score group: the Dutch criteria "
        "allow that only where a bye lower down pairs the rest worse",
    ]
    assert warnings == expected
    rnd.refresh_from_db()
    assert rnd.warnings == expected
    assert rnd.explanation == ["pairings edited by hand"]
    assert rnd.status == Round.Status.DRAFT
    assert games_of(rnd) == [
        (1, "game", a.pk, b.pk),
        (2, "game", c.pk, d.pk),
        (3, "bye", e.pk, None),
    ]
    assert not old_ids & set(rnd.games.values_list("pk", flat=True))
    entry = AuditEntry.objects.get(tournament=t, action="pairings_edited")
    assert (entry.actor, entry.object_type, entry.object_id) == ("arbiter", "Round", str(rnd.pk))
    assert entry.before == {"pairings": [[a.pk, c.pk], [e.pk, b.pk], [d.pk, None]]}
    assert entry.after == {"pairings": [list(p) for p in pairs], "warnings": expected}


def test_a_clean_edit_clears_the_warnings(officials, second_round):
    t, (a, b, c, d, e), rnd = second_round
    services.round_pairings_edit(
        round=rnd, pairings=[(a.pk, b.pk), (c.pk, d.pk), (e.pk, None)], user=officials.arbiter
    )
    pairs = [(c.pk, a.pk), (b.pk, e.pk), (d.pk, None)]
    assert services.round_pairings_edit(round=rnd, pairings=pairs, user=officials.arbiter) == []
    rnd.refresh_from_db()
    assert rnd.warnings == []
    assert rnd.explanation == ["pairings edited by hand", "pairings edited by hand"]
    assert games_of(rnd) == [
        (1, "game", c.pk, a.pk),
        (2, "game", b.pk, e.pk),
        (3, "bye", d.pk, None),
    ]
    assert AuditEntry.objects.filter(tournament=t, action="pairings_edited").count() == 2


def test_requested_byes_stay_out_of_the_edit(officials):
    t, players = event_make(officials, slug="bye-open", names=("Ann", "Bob", "Cid", "Dax", "Eve"))
    a, b, c, d, e = players
    services.bye_request_create(registration=e.registrations.get(), round_number=1)
    rnd = round_make(t, [(a, b), (c, d)], draft=True, requested=(e,))
    assert services.round_pairings_edit(round=rnd, pairings=[(a.pk, c.pk), (b.pk, d.pk)]) == []
    assert games_of(rnd) == [
        (1, "game", a.pk, c.pk),
        (2, "game", b.pk, d.pk),
        (3, "requested_bye", e.pk, None),
    ]
    messages = edit_refused(rnd, [(a.pk, c.pk), (b.pk, d.pk), (e.pk, None)], officials.arbiter)
    assert messages == [f"not in this round: {n(e)}"]


def test_an_edit_names_missing_extra_and_twice_paired_players(officials, event):
    t, (a, b, c, d) = event
    rnd = round_make(t, [(a, b), (c, d)], draft=True)
    x = services.player_create(name="Xan")
    arb = officials.arbiter
    assert edit_refused(rnd, [(a.pk, b.pk), (c.pk, None)], arb) == [f"missing: {n(d)}"]
    assert edit_refused(rnd, [(a.pk, b.pk), (c.pk, d.pk), (x.pk, None)], arb) == [
        f"not in this round: player id {x.pk}"
    ]
    assert edit_refused(rnd, [(a.pk, b.pk), (a.pk, c.pk), (d.pk, None)], arb) == [
        f"paired twice: {n(a)}"
    ]
    assert edit_refused(rnd, [(a.pk, a.pk), (c.pk, d.pk)], arb) == [
        f"missing: {n(b)}; paired twice: {n(a)}"
    ]
    assert edit_refused(rnd, [(a.pk, b.pk), (c.pk, x.pk)], arb) == [
        f"missing: {n(d)}; not in this round: player id {x.pk}"
    ]


def test_an_edit_gives_at_most_one_bye(officials, event):
    t, (a, b, c, d) = event
    rnd = round_make(t, [(a, b), (c, d)], draft=True)
    pairs = [(a.pk, b.pk), (c.pk, None), (d.pk, None)]
    assert edit_refused(rnd, pairs, officials.arbiter) == ["at most one pairing-allocated bye"]


def test_published_pairings_are_not_edited(officials, event):
    t, (a, b, c, d) = event
    rnd = round_make(t, [(a, b), (c, d)])
    assert edit_refused(rnd, [(a.pk, c.pk), (b.pk, d.pk)], officials.arbiter) == [
        "published pairings cannot be edited"
    ]


def test_only_arbiters_edit_pairings(officials, event):
    t, (a, b, c, d) = event
    rnd = round_make(t, [(a, b), (c, d)], draft=True)
    with pytest.raises(PermissionDenied):
        services.round_pairings_edit(
            round=rnd, pairings=[(a.pk, c.pk), (b.pk, d.pk)], user=officials.stranger
        )
    assert games_of(rnd) == [(1, "game", a.pk, b.pk), (2, "game", c.pk, d.pk)]


def test_an_edit_warns_of_a_same_club_pairing_the_tournament_forbids(officials):
    t, players = event_make(officials, slug="club-open", forbid_same_club=True)
    a, b, c, d = players
    club = services.club_create(name="House of Duras")
    Player.objects.filter(pk__in=[a.pk, b.pk]).update(club=club)
    rnd = round_make(t, [(a, c), (b, d)], draft=True)
    warnings = services.round_pairings_edit(round=rnd, pairings=[(a.pk, b.pk), (c.pk, d.pk)])
    assert any(n(a) in w and n(b) in w and "House of Duras" in w for w in warnings)
    assert not any(n(c) in w and n(d) in w for w in warnings)


def test_an_edit_keeps_spindle_seeds_in_a_spindle_tournament(officials):
    t, players = event_make(officials, slug="spindle-open", placement_order="spindle")
    rnd = services.round_pair(tournament=t, publish=False)
    assert all(g.spindle_seed for g in rnd.games.all())  # round_pair records them
    pairs = [(g.second_id, g.first_id) for g in rnd.games.order_by("board")]
    services.round_pairings_edit(round=rnd, pairings=pairs, user=officials.arbiter)
    assert all(g.spindle_seed for g in Game.objects.filter(round=rnd, kind="game"))


def n(player: Player) -> str:
    """A player as the messages name them: name and start rank."""
    reg = Registration.objects.get(player=player)
    return f"{player.name} (#{reg.start_rank})"
