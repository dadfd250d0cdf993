"""Invariants of the tie-breaks on random events (hypothesis, bounded): cuts, voluntarily
unplayed rounds, and the order results come in."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.tiebreaks.events import game, solo
from tournaments.scoring import Outcome
from tournaments.standings import Entrant, RoundResult, compute_standings
from tournaments.tiebreaks import CODES, field_make
from tournaments.tiebreaks.buchholz import adjusted_scores, contributions

PAIRED = [
    Outcome.WIN,
    Outcome.LOSS,
    Outcome.DRAW,
    Outcome.FORFEIT_WIN,
    Outcome.FORFEIT_LOSS,
    Outcome.DOUBLE_FORFEIT,
]
ALONE = [Outcome.BYE, Outcome.REQUESTED_BYE, Outcome.ABSENT]


@st.composite
def events(draw):
    """2 to 8 players, 1 to 5 rounds, each round a random pairing with random results; the
    odd one out gets a bye, a requested bye or is absent."""
    n_players = draw(st.integers(2, 8))
    n_rounds = draw(st.integers(1, 5))
    ids = list(range(1, n_players + 1))
    ratings = {p: draw(st.sampled_from([0, 1400, 1600, 1800, 2000])) for p in ids}
    results: list[RoundResult] = []
    for rnd in range(1, n_rounds + 1):
        order = draw(st.permutations(ids))
        for i in range(0, len(order) - 1, 2):
            outcome = draw(st.sampled_from(PAIRED))
            results += game(rnd, order[i], order[i + 1], outcome, draw(st.booleans()))
        if len(order) % 2:
            outcome = draw(st.sampled_from(ALONE))
            if outcome is not Outcome.ABSENT:
                results += solo(rnd, order[-1], outcome)
    return ids, ratings, n_rounds, results


def standings(ids, ratings, n, results, codes=CODES, rules="2026"):
    entrants = [Entrant(p, f"P{p}", ratings[p]) for p in ids]
    rows = compute_standings(entrants, results, tiebreaks=codes, rounds_completed=n, rules=rules)
    return {row.entrant.id: dict(row.tiebreaks) for row in rows}


@settings(max_examples=60, deadline=None)
@given(events(), st.sampled_from(["2026", "2024"]))
def test_a_cut_takes_away_at_least_the_least_value(event, rules):
    """Scores may be negative, so a cut can raise a Buchholz; but a low cut never leaves
    more than cutting the least value would, and without voluntarily unplayed rounds it
    cuts exactly the least value."""
    ids, ratings, n, results = event
    got = standings(ids, ratings, n, results, ("BH", "BH-C1", "BH-C2"), rules)
    field = field_make(rounds=_by_player(results), ratings=ratings, n=n)
    adjusted = adjusted_scores(field)
    for pid in ids:
        values = sorted(c.score for c in contributions(field, pid, adjusted, rules))
        bh = got[pid]["BH"]
        assert abs(bh - sum(values)) < 1e-9
        assert got[pid]["BH-C1"] <= bh - values[0] + 1e-9
        if not any(c.voluntary for c in contributions(field, pid, adjusted, rules)):
            assert abs(got[pid]["BH-C1"] - (bh - values[0])) < 1e-9
            assert abs(got[pid]["BH-C2"] - (bh - sum(values[:2]))) < 1e-9


@settings(max_examples=60, deadline=None)
@given(events(), st.randoms(use_true_random=False))
def test_the_order_of_results_and_players_changes_nothing(event, rnd):
    ids, ratings, n, results = event
    before = standings(ids, ratings, n, results)
    shuffled, players = list(results), list(ids)
    rnd.shuffle(shuffled)
    rnd.shuffle(players)
    assert standings(players, ratings, n, shuffled) == before


@settings(max_examples=60, deadline=None)
@given(events(), st.data())
def test_a_round_made_voluntarily_unplayed_is_cut_first(event, data):
    """Turn one player's bye (or absence) into a requested bye, the only voluntarily
    unplayed round they have: Buchholz Cut 1 is their Buchholz less that round's dummy."""
    ids, ratings, n, results = event
    pid = data.draw(st.sampled_from(ids))
    mine = {r.round: r for r in results if r.player == pid}
    voluntary = {Outcome.REQUESTED_BYE, Outcome.FORFEIT_LOSS, Outcome.DOUBLE_FORFEIT}
    free = [k for k in range(1, n + 1) if k not in mine or mine[k].outcome is Outcome.BYE]
    if not free or any(r.outcome in voluntary for r in mine.values()):
        return
    k = data.draw(st.sampled_from(free))
    kept = [r for r in results if not (r.player == pid and r.round == k)]
    changed = kept + solo(k, pid, Outcome.REQUESTED_BYE)
    got = standings(ids, ratings, n, changed, ("BH", "BH-C1"))
    field = field_make(rounds=_by_player(changed), ratings=ratings, n=n)
    dummy = contributions(field, pid, adjusted_scores(field), "2026")[k - 1]
    assert dummy.voluntary
    assert abs(got[pid]["BH-C1"] - (got[pid]["BH"] - dummy.score)) < 1e-9


@settings(max_examples=40, deadline=None)
@given(events())
def test_progressive_scores_weigh_early_points_most(event):
    ids, ratings, n, results = event
    got = standings(ids, ratings, n, results, ("PS",))
    for pid in ids:
        points = {r.round: r.points for r in results if r.player == pid}
        assert abs(got[pid]["PS"] - sum((n - k + 1) * p for k, p in points.items())) < 1e-9


@settings(max_examples=40, deadline=None)
@given(events())
def test_counts_are_bounded_by_the_rounds(event):
    ids, ratings, n, results = event
    got = standings(ids, ratings, n, results, ("WIN", "WON", "BPG", "BWG"))
    for v in got.values():
        assert 0 <= v["BWG"] <= v["BPG"] <= n and 0 <= v["WON"] <= v["WIN"] <= n
        assert v["BWG"] <= v["WON"]


def _by_player(results):
    out: dict[int, dict[int, RoundResult]] = {}
    for r in results:
        out.setdefault(r.player, {})[r.round] = r
    return out
