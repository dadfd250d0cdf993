"""Float history in the Swiss engine (FIDE C.04.3 C14-C17), on plain objects."""

from __future__ import annotations

from tournaments.pairing import PairingPlayer, pair_swiss
from tournaments.pairing.floats import float_repeats


def P(pid, score, floats=(), opponents=()):  # noqa: N802
    return PairingPlayer(pid, pid, score, opponents=frozenset(opponents), floats=tuple(floats))


def test_a_pair_of_two_scores_costs_the_floats_it_repeats():
    high, low = P(1, 2, ["", "D"]), P(2, 1, ["U", ""])
    assert float_repeats(high, low) == 3 + 1  # down again as last round, up as two before
    assert float_repeats(low, high) == 4
    assert float_repeats(P(1, 1, ["D", "D"]), P(2, 1, ["U", "U"])) == 0  # level: no float
    assert float_repeats(P(1, 2), P(2, 1)) == 0


def test_who_floats_down_is_not_the_one_who_floated_down_last_round():
    # Three on 1 point, one on 0: one of the three floats. Without history the lowest
    # ranked, 3, would; 3 floated down last round, so 2 does.
    players = [P(1, 1, [""]), P(2, 1, [""]), P(3, 1, ["D"]), P(4, 0, [""])]
    plain = pair_swiss([P(1, 1), P(2, 1), P(3, 1), P(4, 0)])
    assert {frozenset((p.first, p.second)) for p in plain.pairings} == {
        frozenset((1, 2)),
        frozenset((3, 4)),
    }
    r = pair_swiss(players)
    pairs = {frozenset((p.first, p.second)) for p in r.pairings}
    assert frozenset((3, 4)) not in pairs and len(pairs) == 2
    assert r.warnings == []


def test_who_floats_up_is_not_the_one_who_floated_up_last_round():
    # One on 1 point, three on 0: one of them floats up to meet 1; 4 floated up last round.
    players = [P(1, 1, [""]), P(2, 0, [""]), P(3, 0, [""]), P(4, 0, ["U"])]
    r = pair_swiss(players)
    pairs = {frozenset((p.first, p.second)) for p in r.pairings}
    assert frozenset((1, 4)) not in pairs and len(pairs) == 2


def test_the_bye_goes_to_a_player_who_did_not_float_down_last_round():
    # Three on 0 (one pair and the bye): 3, lowest ranked, was absent last round (a
    # downfloat): the bye, a downfloat too, goes to 2.
    r = pair_swiss([P(1, 0, [""]), P(2, 0, [""]), P(3, 0, ["D"])])
    assert r.bye == 2
