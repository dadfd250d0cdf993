"""Start ranks of newcomers: a registration moves only the ranks below it, with the ranks the
old algorithm gave (it reloaded the field and rewrote every rank), and a batch computed once
gives the ranks of registering its rows one by one. The old algorithm is kept here, on plain
data, as the reference."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.services.factories import Officials, event_make
from tournaments import services
from tournaments.models import Player, Registration, Tournament
from tournaments.services.entrants_bulk import seeding_slots

# Names whose casefolded forms tie or cross (ß and SS, Ä and ä): Python's order, not SQL's.
NAMES = ["ann", "Ann", "ANN", "Bob", "bob", "Straße", "STRASSE", "Ärn", "ärn", "Zed", "a", "Ä"]
Entrant = tuple[int | None, int, str]  # start rank (None: blank in the admin), rating, name


def old_registration(entrants: list[Entrant], rating: int, name: str) -> tuple[list[Entrant], int]:
    """registration_create's ranks before round 1 as it was: every registration reloaded,
    the newcomer just below the last seeded ahead of it, every rank at or below moved."""
    mine = (-rating, name.casefold())
    ahead = [r for r, rt, nm in entrants if r is not None and (-rt, nm.casefold()) <= mine]
    rank = max(ahead, default=0) + 1
    moved = [(r + 1 if r is not None and r >= rank else r, rt, nm) for r, rt, nm in entrants]
    return [*moved, (rank, rating, name)], rank


ranks = st.one_of(st.none(), st.integers(min_value=0, max_value=12))
entrant = st.tuples(ranks, st.sampled_from([0, 1500, 1500, 1800]), st.sampled_from(NAMES))
newcomer = st.tuples(st.sampled_from([0, 1500, 1800, 2100]), st.sampled_from(NAMES))


@settings(max_examples=400, deadline=None)
@given(field=st.lists(entrant, max_size=12), batch=st.lists(newcomer, max_size=12))
def test_a_batch_computed_once_ranks_as_one_by_one(field, batch):
    """Any field (blank, repeated and missing ranks, as the admin's form may leave them;
    ties of rating and of casefolded name), any batch: seeding_slots gives every rank the
    old algorithm gives registering the batch one by one."""
    state: list[Entrant] = list(field)
    for rating, name in batch:
        state, _ = old_registration(state, rating, name)
    expected_new = [rank for rank, _, _ in state[len(field) :]]  # once all are in
    ranked = [(r, rt, nm) for r, rt, nm in field if r is not None]
    moves, got_new = seeding_slots(ranked=ranked, newcomers=batch)
    assert got_new == expected_new
    # The entrants of the field in the same order: each old rank moved as one by one.
    for (before, _, _), (after, _, _) in zip(field, state, strict=False):
        assert (moves[before] if before is not None else None) == after


def snapshot(t: Tournament) -> list[Entrant]:
    rows = Registration.objects.filter(tournament=t).order_by("pk")
    return list(rows.values_list("start_rank", "rating", "player__name"))


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(6))
def test_one_registration_moves_the_ranks_as_the_old_algorithm(officials: Officials, seed):
    """Random fields through registration_create, with hand moves and ranks blanked or
    repeated in between: after each registration every rank is what the old algorithm
    makes of the field as it was just before."""
    rng = random.Random(seed)
    t, _ = event_make(officials, slug=f"shift-{seed}", names=())
    for i in range(30):
        if i > 3 and rng.random() < 0.2:  # an order set by hand
            reg = rng.choice(list(Registration.objects.filter(tournament=t)))
            count = Registration.objects.filter(tournament=t).count()
            services.start_rank_move(registration=reg, rank=rng.randint(1, count))
        if i > 3 and rng.random() < 0.1:  # the admin's form: a blank or a repeated rank
            reg = rng.choice(list(Registration.objects.filter(tournament=t)))
            Registration.objects.filter(pk=reg.pk).update(start_rank=rng.choice([None, 2, 0]))
        before = snapshot(t)
        rating = rng.choice([0, 1500, 1500, 1800, 2100])
        name = rng.choice(NAMES)
        player = Player.objects.create(name=name, rating=rating)
        reg = services.registration_create(tournament=t, player=player)
        expected, rank = old_registration(before, rating, name)
        assert reg.start_rank == rank
        assert snapshot(t) == expected


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(4))
def test_a_batch_ranks_as_its_rows_registered_one_by_one(officials: Officials, seed):
    """The same field in two events: the newcomers registered one by one in the first, in
    one batch in the second; every entrant ends with the same start rank."""
    rng = random.Random(seed)
    field = [Player.objects.create(name=rng.choice(NAMES), rating=rng.choice([0, 1500, 1800]))]
    field += [Player.objects.create(name=rng.choice(NAMES), rating=1500) for _ in range(8)]
    events = [event_make(officials, slug=f"twin-{seed}-{k}", names=())[0] for k in range(2)]
    moves = [rng.randint(1, len(field)) for _ in range(3)]
    for t in events:
        for p in field:
            services.registration_create(tournament=t, player=p)
        for rank, p in zip(moves, field, strict=False):
            reg = Registration.objects.get(tournament=t, player=p)
            services.start_rank_move(registration=reg, rank=rank)
    batch = [
        Player.objects.create(name=rng.choice(NAMES), rating=rng.choice([0, 1500, 1800, 2100]))
        for _ in range(12)
    ]
    for p in batch:
        services.registration_create(tournament=events[0], player=p)
    rows = [services.EntrantRow(key=i, player=p.pk) for i, p in enumerate(batch)]
    services.entrants_register(tournament=events[1], rows=rows)
    one_by_one, at_once = (
        dict(Registration.objects.filter(tournament=t).values_list("player_id", "start_rank"))
        for t in events
    )
    assert at_once == one_by_one
