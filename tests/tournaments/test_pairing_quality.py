"""Swiss pairing quality against the FIDE Dutch reference (py4swiss) on a fixed simulated
event, and the bye placed within the lowest score group where the rest pairs best."""

from __future__ import annotations

from dataclasses import replace

from bench.dutch_reference import pair_reference_under_our_rules
from tournaments.pairing import PairingPlayer, pair_swiss, pairing_check
from tournaments.pairing.simulate import Event, Quality, preferences_key, round_quality


def _add(total: Quality, q: Quality) -> None:
    total.floaters += q.floaters
    total.score_diff += q.score_diff
    total.absolute += q.absolute
    total.strong += q.strong
    total.mild += q.mild
    total.hard += q.hard


def test_totals_not_worse_than_the_reference_over_a_fixed_event():
    # 100 players, 5 rounds, 10% draws (-1/2 each), 5% absences: each round paired by both
    # engines from the same position (the event goes on with ours), the reference held to
    # our hard rules (the bye in the lowest score group, no topscorer exception).
    event = Event(100, seed=1)
    ours, ref = Quality(), Quality()
    for rnd in range(1, 6):
        present = event.present()
        mine = pair_swiss(present, round_number=rnd)
        theirs = pair_reference_under_our_rules(event, present, 5, mine).result
        q = round_quality(present, mine)
        assert q.hard == 0, f"round {rnd} breaks a hard rule"
        _add(ours, q)
        _add(ref, round_quality(present, theirs))
        event.play(mine)
    assert ours.floaters <= ref.floaters
    assert ours.score_diff <= ref.score_diff
    # Preferences by C12 then C13 (fewest denied, then fewest strong among them): a mild
    # count alone may be one higher where a strong one was spared (see the test below).
    assert preferences_key(ours) <= preferences_key(ref)
    # the event is not trivial: there is something to compare
    assert ref.floaters > 0 and ref.mild > 0


def test_sparing_a_strong_preference_costs_a_mild_one_and_is_better():
    # 1 wants to place first mildly, 2 strongly: one of them is denied whatever the pairing.
    # Ours places 2 first (C13): one mild denied. The other pairing denies the strong one,
    # with one mild fewer: the mild count alone would call ours worse, as the benchmark's
    # total 211 / 210 did over 500-player events (docs/pairing.md).
    players = [_p(1, 1.0, ("F", "S"), (9,)), _p(2, 1.0, ("S", "F", "S"), (8,))]
    mine = pair_swiss(players)
    other = replace(mine, pairings=[replace(mine.pairings[0], first=1, second=2)], explanation=[])
    q, q_other = round_quality(players, mine), round_quality(players, other)
    assert (mine.pairings[0].first, q.strong, q.mild) == (2, 0, 1)
    assert (q_other.strong, q_other.mild) == (1, 0)
    assert q.mild > q_other.mild
    assert preferences_key(q) < preferences_key(q_other)


def _p(pid: int, score: float, placements: tuple[str, ...], opponents: tuple[int, ...]):
    return PairingPlayer(
        pid, pid, score, 0, frozenset(opponents), False, placements, name=f"P{pid}"
    )


def test_bye_goes_within_the_lowest_group_where_the_rest_pairs_best():
    # The lowest group (0) is 4, 5, 6. The lowest ranked (6) wants to place second, 4 and 5
    # to place first: a bye for 6 would leave 4 and 5 wanting the same. The bye stays in the
    # lowest group, with 4 or 5, and every preference is granted.
    players = [
        _p(1, 1.0, ("F",), (11,)),
        _p(2, 1.0, ("S",), (12,)),
        _p(4, 0.0, ("S",), (14,)),
        _p(5, 0.0, ("S",), (15,)),
        _p(6, 0.0, ("F",), (16,)),
    ]
    r = pair_swiss(players)
    q = round_quality(players, r)
    assert r.bye in (4, 5)
    assert (q.floaters, q.absolute + q.strong + q.mild, q.hard) == (0, 0, 0)
    assert r.warnings == []
    bye_line = next(line for line in r.explanation if line.startswith("bye:"))
    assert f"P{r.bye} (#{r.bye})" in bye_line and "lowest score group" in bye_line


def test_floaters_are_named_from_the_final_pairs():
    # 1 and 2 (1 point) have met: one of them floats to meet a player on 0.
    players = [
        _p(1, 1.0, ("F",), (2,)),
        _p(2, 1.0, ("S",), (1,)),
        _p(3, 0.0, ("S",), (13,)),
        _p(4, 0.0, ("F",), (14,)),
    ]
    r = pair_swiss(players)
    floats = [line for line in r.explanation if "floats down" in line]
    assert len(floats) == 2
    for line in floats:
        assert line.startswith(("P1 (#1) (1) floats down to meet", "P2 (#2) (1) floats down"))


def test_polished_rounds_keep_the_hard_rules_with_clubs_and_acceleration():
    # The cycle search makes new pairs: never two of one club when the rule is set, never
    # a rematch, a bye only in the lowest score group, and everyone paired once.
    event = Event(61, seed=7, draws=1 / 3)
    for rnd in range(1, 8):
        present = [replace(p, club=f"club {p.id % 6}") for p in event.present()]
        r = pair_swiss(present, forbid_same_club=True, accelerated=rnd <= 2, round_number=rnd)
        assert not r.blocked
        assert pairing_check(present, r.pairings, r.bye, forbid_same_club=True) == []
        assert r.warnings == []
        event.play(r)
