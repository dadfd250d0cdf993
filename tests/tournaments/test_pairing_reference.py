"""Our Swiss pairing against the FIDE Dutch reference (py4swiss) on the same positions, and
score groups where the reference showed what a Dutch pairing does."""

from __future__ import annotations

import pytest

from bench.dutch_reference import event_trf, pair_reference, pair_reference_under_our_rules
from tournaments.pairing import PairingPlayer, pair_swiss
from tournaments.pairing.simulate import Event, Quality, round_quality
from tournaments.pairing.swiss import placement_preference
from tournaments.trf import read_trf


def P(pid, score=0.0, opponents=(), placements=()):  # noqa: N802
    return PairingPlayer(pid, pid, score, 0, frozenset(opponents), False, tuple(placements))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_as_few_floaters_and_score_differences_as_the_reference(seed):
    # A 30-player event of 7 rounds with 10% draws (-1/2 each) and 5% absences: every round
    # paired by both engines from the same position, the event going on with ours. Both give
    # the bye by the Dutch criteria, so its own score difference counts (FIDE C.04.3 A.8:
    # from a point below the lowest score; here its height above the lowest).
    event = Event(30, seed=seed)
    ours, ref = Quality(), Quality()
    for rnd in range(1, 8):
        present = event.present()
        low = min(p.score for p in present)
        mine = pair_swiss(present, round_number=rnd)
        theirs = pair_reference_under_our_rules(event, present, 7, mine).result
        q, rq = round_quality(present, mine), round_quality(present, theirs)
        assert q.hard == 0 and rq.hard == 0
        ours.floaters += q.floaters
        ours.score_diff += q.score_diff + (0 if q.bye_score is None else q.bye_score - low)
        ref.floaters += rq.floaters
        ref.score_diff += rq.score_diff + (0 if rq.bye_score is None else rq.bye_score - low)
        event.play(mine)
    assert ours.floaters <= ref.floaters
    assert ours.score_diff <= ref.score_diff


def test_shifted_trf_is_read_by_the_reference_with_every_difference_kept():
    event = Event(12, seed=4, draws=0.5)
    for rnd in range(1, 4):
        event.play(pair_swiss(event.present(), round_number=rnd))
    text = event_trf(event, list(event.players.values()), 5)
    shifted = {p.start_rank: p.points for p in read_trf(text).players}
    assert any(p.score < 0 for p in event.players.values())
    assert all(shifted[pid] == p.score + 1.5 for pid, p in event.players.items())
    assert pair_reference(event, list(event.players.values()), 5).result.pairings


def test_bye_goes_where_the_rest_of_the_lowest_group_can_pair():
    # The lowest group is 4, 5, 6 and 4 and 5 have met: a bye for 6 (the lowest ranked)
    # would float both; the reference, like FIDE C.04.3, gives it to 5 instead.
    r = pair_swiss([P(1, 1, [7]), P(2, 1, [8]), P(4, 0, [5]), P(5, 0, [4]), P(6, 0, [9])])
    assert r.bye == 5
    assert {frozenset((p.first, p.second)) for p in r.pairings} == {
        frozenset((1, 2)),
        frozenset((4, 6)),
    }


def test_lowest_brackets_paired_again_together_with_the_fewest_floaters():
    # 7 and 8 (-1) have met; the greedy pass floats 5 into -1/2, pairs 5-6 and is stuck.
    # The reference re-pairs the lowest brackets: 3-4 stays, 5 and 6 take 7 and 8.
    players = [
        P(1, 2, [11]),
        P(2, 2, [12]),
        P(3, 0, [13]),
        P(4, 0, [14]),
        P(5, 0, [15]),
        P(6, -0.5, [16]),
        P(7, -1, [8]),
        P(8, -1, [7]),
    ]
    r = pair_swiss(players)
    q = round_quality(players, r)
    pairs = {frozenset((p.first, p.second)) for p in r.pairings}
    assert {frozenset((1, 2)), frozenset((3, 4))} <= pairs
    assert (q.floaters, q.score_diff, q.hard) == (2, 1.5, 0)
    assert r.warnings == []


def test_placement_follows_the_fide_colour_rules():
    # Both want to place first (strong for 2, mild for 1): the stronger preference wins.
    r = pair_swiss([P(1, 1, [9], ["F", "S"]), P(2, 1, [8], ["S", "F", "S"])])
    assert (r.pairings[0].first, r.pairings[0].second) == (2, 1)
    assert placement_preference(("S", "F", "S")) == ("F", 2)
    assert placement_preference(("F", "S")) == ("F", 1)
    assert placement_preference(("F", "F")) == ("S", 3)
