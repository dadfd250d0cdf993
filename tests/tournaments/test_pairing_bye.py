"""The pairing-allocated bye by the Dutch criteria (issue 24): above the lowest score group
where the rest pairs better so, never after a bye or a forfeit win, checked against the FIDE
Dutch reference (py4swiss) on the same positions."""

from __future__ import annotations

import pytest

from bench.dutch_reference import pair_reference
from tournaments.pairing import PairingPlayer, pair_swiss, pairing_check
from tournaments.pairing.simulate import Event

Round = list[tuple[int, int | None, str]]


def _event(n: int, rounds: list[Round]) -> Event:
    event = Event(n)
    for games in rounds:
        event.record(games)
    return event


def _pairs(result):  # type: ignore[no-untyped-def]
    return {frozenset((p.first, p.second)) for p in result.pairings}


# Positions after three rounds of 7-player events where the reference gives the bye above
# the lowest score group of the players allowed one: (history, the bye, its score).
RISING = [
    # 3 (0) had a bye, 4 (0) has met 1, 2 and 5: a bye for 4 would float 3 up to meet 1
    # or 2; 3-4 pair and 5 (½) has the bye.
    (
        [
            [(1, 4, "1"), (2, 5, "1"), (3, 6, "="), (7, None, "U")],
            [(4, 2, "0"), (5, 3, "="), (6, None, "U"), (7, 1, "1")],
            [(2, 7, "0"), (3, None, "U"), (5, 4, "1"), (6, 1, "1")],
        ],
        5,
        0.5,
    ),
    # 4 (-½) has met 1, 2 and 6; 3 and 5 (0) have met: a bye in the lowest group floats.
    (
        [
            [(1, 4, "1"), (2, 5, "0"), (3, 6, "="), (7, None, "U")],
            [(4, 2, "="), (5, 1, "="), (6, None, "U"), (7, 3, "0")],
            [(1, 7, "0"), (2, None, "U"), (3, 5, "="), (6, 4, "1")],
        ],
        5,
        0.0,
    ),
    (
        [
            [(1, 4, "="), (2, 5, "="), (3, 6, "1"), (7, None, "U")],
            [(4, None, "U"), (5, 1, "="), (6, 2, "="), (7, 3, "=")],
            [(1, 2, "0"), (4, 3, "1"), (5, None, "U"), (6, 7, "0")],
        ],
        2,
        0.0,
    ),
]


@pytest.mark.parametrize(("history", "bye", "score"), RISING)
def test_bye_rises_above_the_lowest_group_where_the_reference_puts_it(history, bye, score):
    event = _event(7, history)
    present = list(event.players.values())
    low = min(p.score for p in present if p.bye_allowed)
    ours = pair_swiss(present, round_number=4)
    ref = pair_reference(event, present, 9).result
    assert ref.bye == ours.bye == bye
    assert event.players[bye].score == score > low
    assert _pairs(ours) == _pairs(ref)
    assert ours.warnings == []
    why = next(line for line in ours.explanation if line.startswith("bye:"))
    assert "above the lowest score group" in why


def test_bye_stays_in_the_lowest_group_where_rising_costs_as_much():
    # Round 2 of five: 1, 3 and 5 on 1 point (5 had the bye), 2 and 4 on 0. A bye for 1 or
    # 3 would let 2-4 pair level, but the bye's own score difference (FIDE C.04.3 A.8,
    # from a point below the lowest score) makes it 2 against 1 + 1: it stays low.
    event = _event(5, [[(1, 2, "1"), (3, 4, "1"), (5, None, "U")]])
    present = list(event.players.values())
    ours = pair_swiss(present, round_number=2)
    ref = pair_reference(event, present, 5).result
    assert ours.bye == ref.bye == 4
    assert _pairs(ours) == _pairs(ref)


def test_bye_rises_where_a_low_bye_floats_two_players_far():
    # 1 and 2 (2 points) have not met; 3 and 4 (½) have. A bye for 5 (0) floats 1 and 2
    # down 1½ each (3 points); a bye for 4 costs ½ above the lowest and leaves 1-2 and
    # 3-5 (½): 1 point in all.
    def p(pid, score, opponents):  # type: ignore[no-untyped-def]
        return PairingPlayer(pid, pid, score, opponents=frozenset(opponents))

    players = [p(1, 2, [6]), p(2, 2, [7]), p(3, 0.5, [4]), p(4, 0.5, [3]), p(5, 0, [8])]
    r = pair_swiss(players)
    assert r.bye == 4
    assert _pairs(r) == {frozenset((1, 2)), frozenset((3, 5))}
    assert r.warnings == []


def test_a_forfeit_win_bars_the_bye_as_the_reference_does():
    # Round 2 of five: 1 beat 2, 4 won by forfeit against 3, 5 had the bye; the lowest
    # group (2, 3) has the bye, and the forfeit placed nobody. 5 floated down in round 1
    # (no game) and should not again (FIDE C.04.3 C14): 1 floats, 4-5 pair, and 3 meets 1,
    # so 2 (who met 1) has the bye.
    event = _event(5, [[(1, 2, "1"), (4, 3, "+"), (5, None, "U")]])
    present = list(event.players.values())
    assert not event.players[4].bye_allowed and event.players[4].placements == ()
    assert [event.players[i].floats for i in (1, 2, 3, 4, 5)] == [("",), ("",)] + [("D",)] * 3
    ours = pair_swiss(present, round_number=2)
    ref = pair_reference(event, present, 5).result
    assert ours.bye == ref.bye == 2
    assert _pairs(ours) == _pairs(ref) == {frozenset((1, 3)), frozenset((4, 5))}


def test_a_forfeit_winner_is_given_the_bye_only_where_nobody_else_can_have_it():
    # Three players: 1 had a bye, 2 won by forfeit; 3 has the bye wherever the rest can
    # pair, and the forfeit winner only where nobody else's bye pairs the rest (a warning).
    def p(pid, score, opponents, had_bye=False, forfeit_win=False):  # type: ignore[no-untyped-def]
        return PairingPlayer(
            pid,
            pid,
            score,
            opponents=frozenset(opponents),
            had_bye=had_bye,
            forfeit_win=forfeit_win,
        )

    players = [p(1, 1, [3], had_bye=True), p(2, 1, [3], forfeit_win=True), p(3, 0, [1, 2])]
    r = pair_swiss(players)
    assert r.bye == 3
    players = [p(1, 1, [3], had_bye=True), p(2, 1, [], forfeit_win=True), p(3, 0, [1])]
    r = pair_swiss(players)
    assert r.bye == 3
    # 2 won by forfeit against 3, and 1 (who had a bye) met 2: only 2's bye pairs the rest.
    players = [p(1, 1, [2], had_bye=True), p(2, 1, [1, 3], forfeit_win=True), p(3, 0, [2])]
    r = pair_swiss(players)
    assert r.bye == 2
    assert r.warnings == [
        f"{players[1].label} gets a pairing-allocated bye after a forfeit win",
        f"{players[1].label} has won by forfeit: no pairing-allocated bye (FIDE C.04.3 C2)",
    ]


def test_a_hand_edited_bye_above_the_lowest_group_or_after_a_forfeit_win_is_flagged():
    players = [
        PairingPlayer(1, 1, 1.0),
        PairingPlayer(2, 2, 1.0, forfeit_win=True),
        PairingPlayer(3, 3, 0.0),
    ]
    warnings = pairing_check(players, [], 2)
    assert f"{players[1].label} has won by forfeit: no pairing-allocated bye (FIDE C.04.3 C2)" in (
        warnings
    )
    assert (
        f"the bye goes to {players[1].label}, above the lowest score group: the Dutch "
        "criteria allow that only where a bye lower down pairs the rest worse"
    ) in warnings
    assert not any("lowest" in w for w in pairing_check(players, [], 2, bye_by_criteria=True))
