"""Movement, kills, zones of control, the Goal and goal safety (rules.md §3-5), position by
position, with counts derived by hand in the comments."""

from __future__ import annotations

import pytest

from rules.board import SQUARE_OF
from rules.errors import IllegalMoveError
from rules.position import (
    BLOCKADER,
    FENCER,
    FLIER,
    GOLD,
    GREEN,
    LANCER,
    SWIFT,
    VANGUARD,
    Move,
    Position,
)
from rules.posstring import parse_position, position_to_string

S = SQUARE_OF


def pos(green: str, gold: str, *, ply: int = 20, ruleset: str = "laws", variants: str = "-"):
    """A battle position, green placing first; `ply` even means green to move."""
    return parse_position(f"{ruleset} {variants} green {ply} {green} {gold}")


def dests(p: Position, origin: str, carry: bool = False) -> set[str]:
    from rules.board import NAME

    return {
        NAME[m.dest] for m in p.generate_legal_moves() if m.origin == S[origin] and m.carry == carry
    }


def check(p: Position, origin: str, dest: str, kind: int, carry: bool = False) -> None:
    p.check_move(Move(S[origin], S[dest], kind, carry))


FAR_GOLD = "east/VI99/I99"  # a gold Vanguard holding its Goal in the east corner


def test_vanguard_in_the_middle_with_its_goal():
    # V on E37 holding its Goal: three neighbours, each with and without the Goal = 6.
    p = pos("apex/VE37/E37", FAR_GOLD)
    assert p.count_moves() == 6
    assert dests(p, "E37") == {"E27", "E38", "F37"}
    assert dests(p, "E37", carry=True) == {"E27", "E38", "F37"}
    # Gold then has I99's one neighbour I89, with and without the Goal: 6 x 2.
    assert p.perft(2) == 12


def test_flier_flies_over_pieces_and_zoc_but_never_lands_in_zoc():
    # Rays from E37 (rules.md §1), landings at 3-6 steps: G36 G35 H35 H34 | G47 G57 H57 H67 |
    # E16 E15 | D17 C17 | E49 E59 | D39 C39 = 16. The gold Blockader on G46 has ZOC
    # {H46, G36, G47}: G36 and G47 go, 14 remain. G35 lies beyond G36 (in the ZOC) and the
    # gold Swift on F37 is flown over.
    p = pos("apex/FlE37,VA19/A19", "east/SF37,BG46,VI99/I99")
    fl = dests(p, "E37")
    assert fl == {
        "G35",
        "H35",
        "H34",
        "G57",
        "H57",
        "H67",
        "E16",
        "E15",
        "D17",
        "C17",
        "E49",
        "E59",
        "D39",
        "C39",
    }
    with pytest.raises(IllegalMoveError) as e:
        check(p, "E37", "G36", FLIER)
    assert e.value.article == "3.5"
    with pytest.raises(IllegalMoveError) as e:
        check(p, "E37", "F36", FLIER)  # two steps: too short
    assert e.value.article == "3.11.2"
    # 14 Flier moves + the Vanguard's B19 with and without the Goal = 16.
    assert p.count_moves() == 16


def test_swift_goes_around_an_obstacle_with_four_steps():
    # E38 is blocked by green's own Vanguard; E48 (two steps via E38) is still reached by
    # E37-F37-F47-F48-E48.
    p = pos("apex/SE37,VE38,VA19/A19", FAR_GOLD)
    assert "E48" in dests(p, "E37")
    check(p, "E37", "E48", SWIFT)
    # Block F47 too and no path of 2 to 4 steps reaches E48.
    p2 = pos("apex/SE37,VE38,VF47,VA19/A19", FAR_GOLD)
    assert "E48" not in dests(p2, "E37")
    with pytest.raises(IllegalMoveError, match="blocked"):
        check(p2, "E37", "E48", SWIFT)


def test_swift_never_lands_next_to_its_origin():
    p = pos("apex/SE37,VA19/A19", FAR_GOLD)
    assert not dests(p, "E37") & {"E27", "E38", "F37"}
    with pytest.raises(IllegalMoveError) as e:
        check(p, "E37", "E38", SWIFT)
    assert e.value.article == "3.11.3"


def test_lancer_moves_straight_and_is_blocked():
    # From E37 straight 1-3: F37 F36 G36 / F37 F47 G47 / E27 E26 E16 / E27 D27 D17 /
    # E38 E48 E49 / E38 D38 D39 = 15 distinct squares.
    p = pos("apex/LE37,VA19/A19", FAR_GOLD)
    assert len(dests(p, "E37")) == 15
    # A green Vanguard on E38 stops both lines through it (E48 E49 D38 D39 gone, E38 own).
    p2 = pos("apex/LE37,VE38,VA19/A19", FAR_GOLD)
    assert len(dests(p2, "E37")) == 15 - 5
    with pytest.raises(IllegalMoveError, match="blocked"):
        check(p2, "E37", "E48", LANCER)
    # F47 is straight (F37 F47), so that one is legal; a bend is not:
    check(p, "E37", "F47", LANCER)
    with pytest.raises(IllegalMoveError) as e:
        check(p, "E37", "F26", LANCER)
    assert e.value.article == "3.11.7"


def test_fencer_any_path_one_to_three():
    p = pos("apex/FeE37,VA19/A19", FAR_GOLD)
    d = dests(p, "E37")
    assert {"E27", "E38", "F37"} <= d  # one step
    assert "F26" in d  # three steps, bending
    with pytest.raises(IllegalMoveError):
        check(p, "E37", "H35", FENCER)  # four steps away


def test_destination_holding_own_warrior_is_illegal():
    p = pos("apex/FeE37,VE38,VA19/A19", FAR_GOLD)
    with pytest.raises(IllegalMoveError) as e:
        check(p, "E37", "E38", FENCER)
    assert e.value.article == "3.3"
    assert e.value.reason == "destination holds a warrior of the mover's side"


def test_kill_and_goal_capture():
    p = pos("apex/FeE37,VA19/A19", "east/VE38,VI99/I99")
    after = p.apply(Move(S["E37"], S["E38"], FENCER))
    assert after.piece_at(S["E38"]) == (GREEN, FENCER)
    assert after.outcome is None
    # A gold Vanguard holding its Goal on E38: killing it captures the Goal.
    p2 = pos("apex/FeE37,VA19/A19", "east/VE38/E38")
    after = p2.apply(Move(S["E37"], S["E38"], FENCER))
    assert after.outcome is not None and after.outcome.winner == GREEN
    assert after.outcome.termination == "capture"
    assert after.generate_moves() == [] and after.perft(1) == 0


def test_capture_of_lying_goal():
    p = pos("apex/FeE37,VA19/A19", "east/VI99/E38")
    after = p.apply(Move(S["E37"], S["E38"], FENCER))
    assert after.outcome is not None and after.outcome.termination == "capture"


def test_enemy_zoc_cannot_be_entered_or_crossed():
    # Gold Blockader on D38: ZOC {E38, D28, D39}.
    p = pos("apex/LE37,VA19/A19", "east/BD38,VI99/I99")
    with pytest.raises(IllegalMoveError) as e:
        check(p, "E37", "E38", LANCER)
    assert e.value.article == "3.5"
    with pytest.raises(IllegalMoveError) as e:
        check(p, "E37", "E48", LANCER)  # through E38
    assert e.value.article == "3.5"
    with pytest.raises(IllegalMoveError) as e:
        check(p, "E37", "D38", LANCER)  # the Blockader itself
    assert e.value.article == "3.11.4"


def test_carried_goal_never_ends_in_a_zoc_but_passes_through_its_own():
    # Green Blockader on D38 (ZOC E38, D28, D39); the Lancer holds the Goal on E37.
    p = pos("apex/LE37,BD38/E37", FAR_GOLD)
    with pytest.raises(IllegalMoveError) as e:
        check(p, "E37", "E38", LANCER, carry=True)
    assert e.value.article == "3.6"
    check(p, "E37", "E38", LANCER)  # leaving the Goal lying is fine
    check(p, "E37", "E48", LANCER, carry=True)  # through its own ZOC
    assert "E38" not in dests(p, "E37", carry=True)
    assert "E48" in dests(p, "E37", carry=True)


def test_carry_mark_without_holding_the_goal():
    p = pos("apex/LE37,VA19/A19", FAR_GOLD)
    with pytest.raises(IllegalMoveError) as e:
        check(p, "E37", "E38", LANCER, carry=True)
    assert e.value.article == "3.11.1"
    p2 = pos("apex/SE37,VA19/E37", FAR_GOLD)
    with pytest.raises(IllegalMoveError, match="cannot carry"):
        check(p2, "E37", "G35", SWIFT, carry=True)


def test_pick_up_and_leave_the_goal():
    p = pos("apex/VE37,VA19/E38", FAR_GOLD)
    after = p.apply(Move(S["E37"], S["E38"], VANGUARD))
    assert after.holds_goal(GREEN, S["E38"])
    # leaving it: moving without the Goal
    p2 = pos("apex/VE37,VA19/E37", FAR_GOLD)
    after = p2.apply(Move(S["E37"], S["E38"], VANGUARD))
    assert after.goal[GREEN] == S["E37"] and not after.holds_goal(GREEN, S["E38"])
    after = p2.apply(Move(S["E37"], S["E38"], VANGUARD, True))
    assert after.goal[GREEN] == S["E38"]


def test_swift_and_flier_may_share_their_lying_goal_but_the_blockader_may_not():
    # Swift D27-E27-E37; Blockader E26-E27-E37 (straight), its ZOC {F26, E16, E27}.
    p = pos("apex/SD27,BE26,VA19/E37", FAR_GOLD)
    assert "E37" in dests(p, "D27")
    with pytest.raises(IllegalMoveError, match="own Goal"):
        check(p, "E26", "E37", BLOCKADER)


def test_blockader_kills_nothing():
    p = pos("apex/BE37,VA19/A19", "east/VE38,VI99/I99")
    with pytest.raises(IllegalMoveError) as e:
        check(p, "E37", "E38", BLOCKADER)
    assert e.value.article == "3.11.4"


def test_blockader_end_square_rules():
    # Green B on C17 moving to D17 would have E16... ZOC(D17) = {D16, D27, C17}.
    p = pos("apex/BC17,VA19/A19", "east/VD27,VI99/I99")
    with pytest.raises(IllegalMoveError, match="enemy warrior in its zone"):
        check(p, "C17", "D17", BLOCKADER)
    p2 = pos("apex/BC17,VA19/A19", "east/VI99/D27")
    with pytest.raises(IllegalMoveError, match="Goal in its zone"):
        check(p2, "C17", "D17", BLOCKADER)


def test_no_double_zoc():
    # Gold B on E16: ZOC {E15, E26, F16}. Green B moving to D27... compute: ZOC(E27) =
    # {E26, E37, D27}, overlapping at E26.
    p = pos("apex/BD28,VA19/A19", "east/BE16,VI99/I99")
    with pytest.raises(IllegalMoveError) as e:
        check(p, "D28", "E27", BLOCKADER)
    assert e.value.article == "3.8"


def test_blockader_captures_a_lying_goal_but_not_a_carried_one():
    p = pos("apex/BC17,VA19/A19", "east/VI99/D17")
    after = p.apply(Move(S["C17"], S["D17"], BLOCKADER))
    assert after.outcome is not None and after.outcome.winner == GREEN
    p2 = pos("apex/BC17,VA19/A19", "east/VD17/D17")
    with pytest.raises(IllegalMoveError, match="kills nothing"):
        check(p2, "C17", "D17", BLOCKADER)


def test_jeopardy_and_safety():
    # Gold Fencer on F36 can reach green's Goal on E37 (held by a Vanguard) in 2 steps.
    p = pos("apex/VE37/E37", "west/FeG35,VI11/I11")
    assert not p.is_in_jeopardy(GREEN)
    # Gold Fencer on F37 is next to E37: green's Goal is in jeopardy now.
    p2 = pos("apex/VE37/E37", "west/FeF37,VI11/I11")
    assert p2.is_in_jeopardy(GREEN)
    # Green kills the Fencer: safe. Carrying the Goal to E27 or E38: the Fencer reaches.
    assert p2.is_safe(Move(S["E37"], S["F37"], VANGUARD, True))
    assert not p2.is_safe(Move(S["E37"], S["E38"], VANGUARD, True))


def test_deadlock_under_laws_and_strict_safety_under_loyd():
    # Green has only a Vanguard holding its Goal on A19, whose one neighbour is B19. A gold
    # Flier on C17 lies on the line A19 B19 B18 C18 C17: A19 is 4 steps away, B19 3. Leaving
    # the Goal on A19 or carrying it to B19, the Flier captures it: no safe move.
    green = "apex/VA19/A19"
    gold = "west/FlC17,VI11/I11"
    p = pos(green, gold)
    assert p.is_in_jeopardy(GREEN)
    legal = p.generate_legal_moves()
    assert legal  # V to B19 with or without the Goal
    assert not any(p.is_safe(m) for m in legal)
    assert p.is_deadlock()
    assert p.count_moves() == 0 and p.generate_moves() == []
    outcome = p.final_outcome()
    assert outcome is not None and outcome.winner == GOLD and outcome.termination == "deadlock"


def test_laws_accepts_unsafe_move_loyd_rejects_it():
    green = "apex/VE37,VA19/E37"
    gold = "west/FeG35,VI11/I11"
    laws = pos(green, gold)
    loyd = pos(green, gold, ruleset="loyd-1989")
    # V from E37 to F37 carrying its Goal: F37 is next to... the Fencer on G35 reaches F37.
    m = Move(S["E37"], S["F37"], VANGUARD, True)
    assert not laws.is_safe(m)
    assert m in laws.generate_moves()
    assert m not in loyd.generate_moves()
    assert loyd.count_moves() == len(loyd.generate_moves()) < laws.count_moves()


def test_position_string_round_trip():
    p = pos("apex/LE37,BD38,FlC17/E37", "east/VI99,SG57/x")
    text = position_to_string(p)
    assert parse_position(text) == p
    assert position_to_string(parse_position(text)) == text
    assert parse_position(text).outcome is not None


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "laws - green 20 apex/VE37/E37",
        "chess - green 20 apex/VE37/E37 east/VI99/I99",
        "laws - blue 20 apex/VE37/E37 east/VI99/I99",
        "laws - green x apex/VE37/E37 east/VI99/I99",
        "laws - green 20 apex/QE37/E37 east/VI99/I99",
        "laws - green 20 apex/VE37,VE37/E37 east/VI99/I99",
        "laws - green 20 apex/VE37,VA19,VB19,VC19/E37 east/VI99/I99",
        "laws - green 20 north/VE37/E37 east/VI99/I99",
        "laws - green 20 apex/VE37/Z99 east/VI99/I99",
    ],
)
def test_position_string_errors(bad):
    with pytest.raises(ValueError):
        parse_position(bad)
