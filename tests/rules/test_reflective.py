"""The Reflective Variation (Art. 13.7): setup of one squad in one region, every other piece
an enemy, the shared Goal, safety and deadlock, perft by hand, combinations with other
variants, and whole games written as records, read back and validated."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.board import NAME, REGION, SQUARE_OF
from rules.engines import new_position
from rules.errors import IllegalMoveError, PositionStringError
from rules.notation import describe_move, format_ply, move_text, parse_ply
from rules.position import (
    BLOCKADER,
    CAPTURED,
    FENCER,
    FLIER,
    GOLD,
    GREEN,
    IS_CARRIER,
    SWIFT,
    VANGUARD,
    Move,
    Position,
    Rules,
)
from rules.posstring import parse_position, position_to_string
from rules.record import Record, RecordPly, read_record, write_record
from rules.reflective import ReflectivePosition, check_combination
from rules.validate import validate_record, validate_text
from tests.rules.conftest import random_line
from tests.rules.reference import NEIGHBOURS, STEPS, _paths

S = SQUARE_OF


def rules(*more: str, ruleset: str = "laws", **kw) -> Rules:
    return Rules(ruleset, frozenset({"reflective", *more}), **kw)


def start(r: Rules | None = None, first: int = GREEN) -> ReflectivePosition:
    pos = new_position(r or rules(), first)
    assert isinstance(pos, ReflectivePosition)
    return pos


def play(pos: Position, *texts: str) -> Position:
    """Check and play plies written in Appendix C notation."""
    for text in texts:
        move = parse_ply(text).to_move()
        pos.check_move(move)
        pos = pos.apply(move)
    return pos


def position(text: str) -> ReflectivePosition:
    pos = parse_position(text)
    assert isinstance(pos, ReflectivePosition)
    return pos


def error_of(pos: Position, text: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as e:
        play(pos, text)
    return e.value


def dests(pos: Position, sq: str, carry: bool = False) -> set[str]:
    return {
        NAME[m.dest] for m in pos.generate_legal_moves() if m.origin == S[sq] and m.carry == carry
    }


# A slow, literal reading of 13.7's 3.1 with rules.md §3-4, to cross-check the generator.
def reference_moves(pos: Position) -> set[tuple[int, int, bool]]:
    squad = pos.first
    b = pos.blk[squad]
    g = pos.goal[squad]
    holes = set(pos.ablated)
    clouds = set(pos.rules.clouds) if "clouded" in pos.rules.variants else set()
    zone = set(NEIGHBOURS[b]) if b >= 0 else set()
    out: set[tuple[int, int, bool]] = set()
    for o in range(len(pos.sq)):
        code = pos.sq[o]
        if not code:
            continue
        kind = code & 7
        lo, hi, straight = STEPS[kind]
        if kind == VANGUARD and pos.rules.power_vanguards:
            lo, hi, straight = 1, 2, False
        # Every other warrior is an enemy; the Blockader's zone blocks all but itself.
        blocking = set() if kind == BLOCKADER else zone
        for path in _paths(o, lo, hi, straight):
            t = path[-1]
            if kind != FLIER and any(pos.sq[s] or s in blocking or s in holes for s in path[:-1]):
                continue
            if t in holes or t in blocking or (kind != BLOCKADER and t == b):
                continue
            if pos.sq[t] and t in clouds:
                continue
            if kind == BLOCKADER:
                if pos.sq[t]:
                    continue
                around = set(NEIGHBOURS[t])
                if any(pos.sq[s] and s != o for s in around) or g in around:
                    continue
            out.add((o, t, False))
            if g == o and IS_CARRIER[kind] and t not in zone and t not in clouds:
                out.add((o, t, True))
    return out


def reference_capturable(pos: Position) -> bool:
    g = pos.goal[pos.first]
    return g >= 0 and any(t == g and not c for (_o, t, c) in reference_moves(pos))


# --- the empty board --------------------------------------------------------------------------
def test_perft_from_the_empty_board():
    p = start()
    assert p.perft(0) == 1
    # Ply 1: a carrier (Fencer, Lancer or Vanguard) on any of 3 regions x 24 triangles: 216.
    assert p.perft(1) == 3 * 3 * 24
    # Ply 2 is the Goal on that carrier's triangle, the only Goal ply there is: still 216.
    assert p.perft(2) == 216
    # Ply 3, the second placer, in the same region (23 empty triangles): after a Fencer or a
    # Lancer 4 kinds besides the Blockader are left, after a Vanguard 5; the Blockader may not
    # stand next to the Goal, so it has 23 - n(g) triangles, n(g) the Goal triangle's
    # neighbours inside the region. A region (rows A-D: 16 triangles, 6 pointing down with 3
    # inner edges each = 18 edges; row E's 7 with 4 edges up to D and 6 along E; F37 one edge
    # up to E37) has 29 inner edges, so the n(g) sum to 58 over its 24 triangles.
    per_fencer = 24 * 4 * 23 + 24 * 23 - 58  # 2,702, and the same after a Lancer
    per_vanguard = 24 * 5 * 23 + 24 * 23 - 58  # 3,254
    assert p.perft(3) == 3 * (2 * per_fencer + per_vanguard) == 25_974


def test_forward_placement_perft():
    # 13.5: every region gains its 6 border triangles, and the three cover all 81: a carrier
    # on any of them (243), then its Goal (1 each).
    p = start(rules("forward-placement"))
    assert p.perft(1) == 3 * 81
    assert p.perft(2) == 3 * 81


# --- setup (13.7's 2.5 and 2.6) --------------------------------------------------------------
def test_setup_alternates_in_one_region_with_the_goal_on_the_first_carrier():
    p: Position = start(first=GOLD)
    assert p.stage() == (GOLD, "warrior")
    p = play(p, "L→C28")
    assert p.stage() == (GOLD, "goal")
    p = play(p, "G→C28")
    assert p.goal[GOLD] == S["C28"] and p.region[GOLD] == 0
    placers = []
    for text in ("V→A19", "Fe→B19", "S→B18", "Fl→C17", "Fl→D16", "V→D17", "V→D49", "B→E27"):
        side, what = p.stage()
        assert what == "warrior"
        placers.append(side)
        p = play(p, text)
    # After the first placer's carrier and Goal, the second placer places, then they alternate.
    assert placers == [GREEN, GOLD] * 4
    # Art. 2.7: the battle starts with the first placer (who also placed the last warrior).
    assert p.stage() == (GOLD, "battle")
    assert p.apply(p.generate_moves()[0]).stage() == (GREEN, "battle")
    # One squad: everything on the board is the first placer's colour.
    assert p.occ[GOLD].bit_count() == 9 and p.occ[GREEN] == 0


def test_the_first_warrior_is_a_carrier_and_the_goal_comes_with_it():
    p = start()
    for text in ("S→A19", "Fl→A19", "B→A19"):
        e = error_of(p, text)
        assert e.article == "13.7" and "carrier" in e.reason
    assert error_of(p, "G→A19").article == "13.7"
    p = play(p, "V→A19")
    e = error_of(p, "V→B19")
    assert e.article == "13.7" and "Goal" in e.reason
    assert error_of(p, "G→B19").article == "13.7"  # not on the first warrior
    p = play(p, "G→A19")
    assert error_of(p, "G→B19").article == "13.7"  # one Goal, already placed
    assert p.goal[GREEN] == S["A19"]


def test_both_combatants_place_into_the_one_region():
    p = play(start(), "V→A19", "G→A19")
    e = error_of(p, "L→I11")  # the second placer may not open another region
    assert e.article == "13.7" and "one region" in e.reason
    assert error_of(p, "L→E15").article == "2.2"  # border triangle
    p = play(p, "L→F37")
    assert error_of(p, "V→I99").article == "13.7"
    assert error_of(p, "V→F37").article == "3.3"
    p = play(p, "V→B19", "V→B18")
    assert error_of(p, "V→B29").article == "2.11"  # the squad's three Vanguards are placed


def test_blockader_not_placed_with_the_goal_in_its_zone():
    p = play(start(), "Fe→C28", "G→C28")
    # C28's neighbours are C18, C29 and D28.
    for sq in ("C18", "C29", "D28"):
        assert error_of(p, f"B→{sq}").article == "3.6"
    moves = {NAME[m.dest] for m in p.generate_legal_moves() if m.kind == BLOCKADER}
    assert moves == {NAME[s] for s in range(len(REGION)) if REGION[s] == 0} - {
        "C28",
        "C18",
        "C29",
        "D28",
    }


def test_forward_placement_region_follows_the_placements():
    p = play(start(rules("forward-placement")), "V→E15", "G→E15")
    assert p.region[GREEN] == -1  # E15 borders apex and west
    p = play(p, "V→A19")
    assert p.region[GREEN] == 0
    assert error_of(p, "V→I11").article == "13.7"


def test_clouded_first_carrier_not_in_a_cloud():
    p = start(rules("clouded", clouds=frozenset({S["A19"]})))
    assert error_of(p, "V→A19").article == "13.4"
    assert all(m.dest != S["A19"] for m in p.generate_legal_moves())
    p = play(p, "V→B19", "G→B19", "S→A19")  # other warriors may stand in a cloud
    assert p.sq[S["A19"]]


# --- battle: every other piece is an enemy (13.7's 3.1) --------------------------------------
def test_any_warrior_moves_and_same_coloured_pieces_are_killed():
    p = position("laws reflective green 10 apex/FeE37,SE38,VA19/A19 -/-/-")
    assert p.stage() == (GREEN, "battle")
    kill = Move(S["E37"], S["E38"], FENCER)
    p.check_move(kill)
    assert move_text(p, kill) == "Fe@E37 x S@E38"
    after = p.apply(kill)
    assert after.piece_at(S["E38"]) == (GREEN, FENCER)
    assert after.kbb[GREEN][SWIFT] == 0 and after.outcome is None
    # Gold commands the same warriors: the Fencer it moves back is the one green just moved.
    assert after.stage() == (GOLD, "battle")
    back = play(after, "Fe@E38 → E37")
    assert back.piece_at(S["E37"]) == (GREEN, FENCER)


def test_blockader_zone_blocks_everyone_but_the_blockader():
    # Blockader on E37 (zone F37, E27, E38), Fencer on D28, Vanguard holding the Goal on A19.
    p = position("laws reflective green 10 apex/VA19,BE37,FeD28/A19 -/-/-")
    # Fencer: 1 step C28 D27 D38; 2 steps C18 C29 D17 D39 (E27, E38 are in the zone);
    # 3 steps B18 C17 B29 C39 D16 D49: 13, none in the zone.
    assert dests(p, "D28") == {
        "C28",
        "D27",
        "D38",
        "C18",
        "C29",
        "D17",
        "D39",
        "B18",
        "C17",
        "B29",
        "C39",
        "D16",
        "D49",
    }
    for sq in ("E27", "E38"):
        assert error_of(p, f"Fe@D28 → {sq}").article == "3.5"
    # The zone is no obstacle to the Blockader itself: F37, E27, E38 and beyond (F36 F47 E26
    # E48); D27 and D38 would put the Fencer in its zone.
    assert dests(p, "E37") == {"F37", "E27", "E38", "F36", "F47", "E26", "E48"}
    e = error_of(p, "B@E37 → D27")
    assert e.article == "3.11.4" and "zone of control" in e.reason
    # Hand count: Fencer 13 + Blockader 7 + Vanguard to B19 with and without the Goal 2.
    assert p.perft(1) == 22
    # loyd-1989: leaving the Goal on A19 beside the Vanguard is unsafe (it can walk back),
    # and so are the Fencer's moves within three steps of A19 (B18, B29, C18, C29):
    # 22 - 1 - 4 = 17.
    strict = position("loyd-1989 reflective green 10 apex/VA19,BE37,FeD28/A19 -/-/-")
    assert strict.perft(1) == 17


def test_the_zone_blocks_both_combatants_and_paths_through_it():
    p = position("laws reflective green 11 apex/VA19,BE37,FeE26/A19 -/-/-")
    assert p.stage() == (GOLD, "battle")
    assert error_of(p, "Fe@E26 → E27").article == "3.5"
    # D27 is two steps away through E27, in the zone; around it (E16 D16 D17 D27) is four.
    e = error_of(p, "Fe@E26 → D27")
    assert e.article == "3.5" and "crosses" in e.reason


def test_nothing_kills_the_blockader_and_it_kills_nothing():
    p = position("laws reflective green 10 apex/VA19,BE37,FlG35,SD27/A19 -/-/-")
    # G35 -> G36 -> F36 -> F37 -> E37: four steps of one straight line.
    assert error_of(p, "Fl@G35 x B@E37").article == "3.11.4"
    e = error_of(p, "B@E37 x S@D27")
    assert e.article == "3.11.4"


def test_the_goal_is_captured_by_anyone_not_carrying_it():
    text = "laws reflective green {} apex/LD28,VD38,FeA19/D28 -/-/-"
    for ply, mover in ((10, GREEN), (11, GOLD)):
        p = position(text.format(ply))
        kill = Move(S["D38"], S["D28"], VANGUARD)
        assert move_text(p, kill) == "V@D38 x L@D28!"
        after = p.apply(kill)
        assert after.outcome is not None
        assert after.outcome.termination == "capture" and after.outcome.winner == mover
        assert after.goal[1 - mover] == CAPTURED
        assert after.generate_moves() == [] and after.final_outcome() == after.outcome


def test_a_goal_left_lying_is_captured_even_by_its_carrier():
    p = position("laws reflective green 10 apex/VE37,FlI99/E37 -/-/-")
    left = play(p, "V@E37 → E38")
    assert left.goal[GREEN] == S["E37"] and not left.sq[S["E37"]]
    back = Move(S["E38"], S["E37"], VANGUARD)
    assert move_text(left, back) == "V@E38 x G@E37!"
    after = left.apply(back)
    assert after.outcome is not None and after.outcome.winner == GOLD


def test_the_blockader_captures_a_lying_goal_never_a_held_one():
    lying = position("laws reflective green 10 apex/BE27,VA19/E37 -/-/-")
    m = Move(S["E27"], S["E37"], BLOCKADER)
    assert move_text(lying, m) == "B@E27 x G@E37!"
    assert lying.apply(m).outcome is not None
    held = position("laws reflective green 10 apex/BE27,VE37/E37 -/-/-")
    assert error_of(held, "B@E27 x V@E37!").article == "3.11.4"


def test_passing_over_a_lying_goal_captures_nothing():
    p = position("laws reflective green 10 apex/FeE27,VA19/E37 -/-/-")
    after = play(p, "Fe@E27 → E38")  # the only path runs E27, E37, E38
    assert after.outcome is None and after.goal[GREEN] == S["E37"]


def test_carrying_the_goal():
    p = position("laws reflective green 10 apex/VE37,FlI99,LA19/E37 -/-/-")
    after = play(p, "(V)@E37 → E38")
    assert after.goal[GREEN] == S["E38"] and after.outcome is None
    # Gold carries it on: the Goal is carried by whichever combatant moves its carrier.
    again = play(after, "(V)@E38 → D38")
    assert again.goal[GREEN] == S["D38"]
    assert error_of(p, "(Fl)@I99 → F69").article == "2.8"
    assert error_of(p, "(L)@A19 → B19").article == "3.11.1"


def test_decoration_mismatch_is_a_warning():
    text = (
        '[FirstPlacement "green"]\n[Variants "reflective"]\n\n'
        "V→A19\nG→A19\nFe→D28\nS→D38\nL→E37\nFl→E38\nFl→E48\nV→D17\nV→E49\nB→E26\n"
        "L@E37 → Fl@E38\n"
    )
    v = validate_text(text)
    assert v.valid, v.error
    assert [w.article for w in v.warnings] == ["Appendix C"]
    assert v.warnings[0].ply == 11


# --- safety and deadlock ---------------------------------------------------------------------
def test_unsafe_move_leaves_the_opponent_a_capture():
    p = position("laws reflective green 10 apex/VE37,FlI99/E37 -/-/-")
    assert not p.is_safe(Move(S["E37"], S["E38"], VANGUARD))  # the Vanguard can walk back
    assert p.is_safe(Move(S["E37"], S["E38"], VANGUARD, True))
    assert p.is_in_jeopardy(GREEN) is False
    # Hand count: V on E37 to F37, E27, E38 with and without the Goal: 6; Flier on I99 lands
    # 3-6 steps along its two edge lines (I78 I77 I67 I66 and H79 G79 G69 F69): 8. = 14.
    assert p.perft(1) == 14
    # loyd-1989: the three moves leaving the Goal beside the Vanguard are illegal; the
    # Flier lands on E37 only from C17 C39 D17 D39 E15 E16 E49 E59 G35 G36 G47 G57 H34 H35
    # H57 H67 - none of its 8 landings - so its moves are safe: 14 - 3 = 11.
    strict = position("loyd-1989 reflective green 10 apex/VE37,FlI99/E37 -/-/-")
    assert strict.perft(1) == 11
    assert sorted(m.carry for m in strict.generate_moves() if m.kind == VANGUARD) == [True] * 3


def test_deadlock_loses_for_the_side_to_move():
    # The Vanguard holds the Goal on A19, and B19 (A19's only neighbour) is ablated: it cannot
    # move. The Flier on D28 could land on B18 B29 D16 D49 E26 E48 F25 F26 F48 F58 G25 G58;
    # all but D16 and D49 are ablated, and from both of those it flies six steps along an
    # edge line onto A19. Every move leaves the opponent the capture: no safe move.
    holes = "B19+B18+B29+E26+E48+F25+F26+F48+F58+G25+G58"
    for ply, mover in ((10, GREEN), (11, GOLD)):
        squad = "apex/VA19,FlD28/A19 -/-/-"
        p = position(f"laws reflective,ablative green {ply} {squad} ablated={holes}")
        assert p.count_legal_moves() == 2
        assert dests(p, "D28") == {"D16", "D49"}
        assert not p.goal_capturable()
        assert p.perft(1) == 0 and p.perft(2) == 0
        outcome = p.final_outcome()
        assert outcome is not None and outcome.termination == "deadlock"
        assert outcome.winner == 1 - mover


# --- perft from built positions --------------------------------------------------------------
def test_perft_vanguards_by_hand():
    p = position("laws reflective green 10 apex/VE37,VI99/E37 -/-/-")
    # V on E37 holding the Goal: F37, E27, E38, with or without it: 6; V on I99: I89: 7.
    assert p.perft(1) == 7
    # Carried to X (3 moves): X has 3 neighbours, so 6 + 1 = 7 each: 21. Left lying (3): the
    # Vanguard's 3 steps (one back onto the Goal, a capture) + 1: 4 each: 12. I99 -> I89: the
    # holder's 6 + I89's three neighbours H89, I88, I99: 9. 21 + 12 + 9 = 42.
    assert p.perft(2) == 42
    strict = position("loyd-1989 reflective green 10 apex/VE37,VI99/E37 -/-/-")
    # Only carrying is safe for the holder: 3 + 1 = 4. Then after a carry: 3 carries + I89:
    # 4 each (12); after I99 -> I89: 3 carries + 3 steps of the far Vanguard: 6. 18.
    assert strict.perft(1) == 4
    assert strict.perft(2) == 18


def test_perft_with_a_blockader_by_hand():
    p = position("laws reflective green 10 apex/VA19,BE37/A19 -/-/-")
    # Blockader: F37 E27 E38 and, two steps on, F36 F47 D27 E26 D38 E48 - nothing beside any
    # of them: 9. Vanguard: B19 with or without the Goal: 2.
    assert p.perft(1) == 11
    strict = position("loyd-1989 reflective green 10 apex/VA19,BE37/A19 -/-/-")
    assert strict.perft(1) == 10  # leaving the Goal beside the Vanguard is unsafe


# --- combinations ----------------------------------------------------------------------------
def test_power_vanguards_and_reflective():
    p = position("laws reflective,power-vanguards green 10 apex/VE37,VI99/E37 -/-/-")
    # E37: 3 neighbours and their 6 further neighbours (F36 F47 D27 E26 D38 E48): 9 x 2 = 18;
    # I99: I89, then H89 and I88: 3. 21.
    assert p.perft(1) == 21
    far = position("laws reflective,power-vanguards green 10 apex/LE37,VD38/E37 -/-/-")
    # D38 -> E38 -> E37: two steps, killing the Lancer that holds the Goal.
    after = play(far, "V@D38 x L@E37!")
    assert after.outcome is not None and after.outcome.winner == GREEN
    plain = position("laws reflective green 10 apex/LE37,VD38/E37 -/-/-")
    assert error_of(plain, "V@D38 x L@E37!").article == "3.11.5"


def test_ablative_and_reflective():
    p = position("laws reflective,ablative green 10 apex/VE37,FeA19,VI99/E37 -/-/-")
    after = play(p, "(V)@E37 → E38")
    assert after.ablated == (S["E37"],)
    # Whoever moves next: E37 is out of play for every warrior.
    assert error_of(after, "(V)@E38 → E37").article == "13.6"
    lying = play(p, "V@E37 → E38")
    assert lying.ablated == ()  # a Goal left lying keeps its triangle open
    # I99 -> I89 is ablated; from E38 the Vanguard has D38 and E48 (E37 is ablated) with or
    # without the Goal: 4; the Fencer on A19: B19, B18, B29, C18, C29: 5; the far Vanguard:
    # H89 and I88 (I99 ablated): 2. 11.
    q = play(after, "V@I99 → I89")
    assert q.perft(1) == 11
    assert parse_position(position_to_string(q)) == q


def test_clouded_and_reflective():
    r = "laws reflective,clouded:E38 green 10 apex/VE37,FeE48,LA19/E37 -/-/-"
    p = position(r)
    e = error_of(p, "(V)@E37 → E38")
    assert e.article == "13.4"
    play(p, "V@E37 → E38")  # an empty cloud may be entered without the Goal
    q = position("laws reflective,clouded:E38 green 10 apex/VE37,FeE38,LA19/E37 -/-/-")
    assert error_of(q, "V@E37 x Fe@E38").article == "13.4"


def test_kaggas_crown_and_reflective():
    p = position("laws reflective,kaggas-crown:A19 green 10 apex/VB19,FlI99/B19 -/-/-")
    p = play(p, "(V)@B19 → A19")
    assert p.crowned == GREEN and p.outcome is None
    q = play(p, "Fl@I99 → I77")  # gold does not capture: green's crown stands
    assert q.outcome is not None
    assert (q.outcome.termination, q.outcome.winner) == ("crown", GREEN)
    # the string keeps the crown's win: read back, the battle is over
    assert parse_position(position_to_string(q)) == q
    assert parse_position(position_to_string(p)) == p and p.outcome is None


@pytest.mark.parametrize("other", ["alternating-placement", "honor-in-setup", "kinta", "tri-level"])
def test_refused_combinations(other):
    with pytest.raises(IllegalMoveError) as e:
        check_combination({"reflective", other})
    assert e.value.article == "13" and other in e.value.reason
    with pytest.raises(IllegalMoveError):
        ReflectivePosition(rules(other))


@pytest.mark.parametrize(
    "variants",
    [
        "reflective, alternating-placement",
        "reflective, honor-in-setup",
        "reflective, kinta",
        "reflective, tri-level",
        "reflective, kaggas-crown",  # without a Crown tag
    ],
)
def test_records_with_refused_combinations_are_invalid(variants):
    text = f'[FirstPlacement "green"]\n[Variants "{variants}"]\n\nV→A19\n'
    v = validate_text(text).as_dict()
    assert v["valid"] is False and v["plies"] == 0
    assert v["error"]["ply"] is None and v["error"]["article"] == "13"
    named = '[FirstPlacement "green"]\n[Variants "reflective, kaggas-crown"]\n[Crown "I99"]\n\n'
    assert validate_text(named + "V→A19\nG→A19\n").valid


def test_crown_must_be_named():
    with pytest.raises(IllegalMoveError, match="Crown"):
        check_combination({"reflective", "kaggas-crown"})
    check_combination({"reflective", "kaggas-crown"}, S["I99"])
    for ok in ("power-vanguards", "ablative", "clouded", "forward-placement"):
        check_combination({"reflective", ok})
    check_combination({"alternating-placement", "honor-in-setup"})  # not reflective


# --- clocks (Art. 6.7: a side's whole setup is its move 1) ----------------------------------
def test_clock_counts_each_sides_setup_as_move_one():
    from rules.clock import adjudicate, ply_turns

    text = (
        '[FirstPlacement "gold"]\n[Variants "reflective"]\n[TimeControl "3/600:300"]\n\n'
        "V→A19\nG→A19\nFe→D28\nS→D38\nL→E37\nFl→E38\nFl→E48\nV→D17\nV→E49\nB→E26\n"
        "L@E37 x Fl@E38\nFe@D28 → C28\n"
    )
    turns = [(t.side, t.move, t.completes) for t in ply_turns(read_record(text))]
    first, second = GOLD, GREEN
    assert turns[:2] == [(first, 1, False)] * 2
    # The second placer's setup ends with its fourth warrior (ply 9), the first placer's with
    # its fifth (ply 10); then the first placer's move 2 and the second's.
    assert turns[8] == (second, 1, True) and turns[9] == (first, 1, True)
    assert not any(c for (_s, _m, c) in turns[:8])
    assert turns[10:] == [(first, 2, True), (second, 2, True)]
    # Gold's flag falls during ply 10, before its setup was complete: gold loses on time.
    lines = text.splitlines()
    lines[lines.index("B→E26")] = "B→E26 {[%clk 0:00:00]}"
    verdict = adjudicate(read_record("\n".join(lines) + "\n"))
    assert (verdict.decision, verdict.loser) == ("time", "gold")
    # With one move required, green's flag during its first battle move (ply 12) decides
    # nothing: its setup, completed at ply 9, was that move.
    lines = text.replace("3/600:300", "1/600").splitlines()
    lines[-1] += " {[%clk 0:00:00]}"
    verdict = adjudicate(read_record("\n".join(lines) + "\n"))
    assert (verdict.decision, verdict.loser) == (None, None)


# --- position strings ------------------------------------------------------------------------
def test_position_string_round_trip():
    p = position("laws reflective gold 10 -/-/- east/BH78,VI99,FlG57/I99")
    assert p.first == GOLD and p.occ[GREEN] == 0
    assert position_to_string(p) == "laws reflective gold 10 -/-/- east/FlG57,VI99,BH78/I99"
    after = p.apply(next(m for m in p.generate_moves() if m.kind == FLIER))
    assert isinstance(parse_position(position_to_string(after)), ReflectivePosition)
    assert parse_position(position_to_string(after)) == after
    # A capture is written against the loser's colour, which gives back the winner.
    won = play(position("laws reflective gold 11 -/-/- east/LI99,VI89/I99"), "V@I89 x L@I99!")
    assert won.outcome is not None and won.outcome.winner == GREEN
    line = position_to_string(won)
    assert line == "laws reflective gold 12 -/-/- east/VI99/x"
    assert parse_position(line).outcome == won.outcome
    # Gold (the first placer) captures at ply 11: green lost, so green's field shows `x`.
    lost = play(position("laws reflective gold 10 -/-/- east/LI99,VI89/I99"), "V@I89 x L@I99!")
    line = position_to_string(lost)
    assert line == "laws reflective gold 11 -/-/x east/VI99/-"
    assert parse_position(line).outcome == lost.outcome and lost.outcome is not None
    assert lost.outcome.winner == GOLD


def test_position_string_with_two_squads_is_refused():
    with pytest.raises(PositionStringError, match="one squad"):
        parse_position("laws reflective green 10 apex/VE37/E37 east/VI99/-")
    with pytest.raises(PositionStringError, match="reflective"):
        parse_position("laws reflective,honor-in-setup green 10 apex/VE37/E37 -/-/-")


# --- whole games as records ------------------------------------------------------------------
def random_game(
    rng: random.Random, r: Rules, first: int, limit: int = 400
) -> tuple[list[Position], list[Move]]:
    pos: Position = start(r, first)
    positions = [pos]
    moves: list[Move] = []
    while len(moves) < limit:
        legal = pos.generate_moves()
        if not legal:
            break
        m = rng.choice(legal)
        moves.append(m)
        pos = pos.apply(m)
        positions.append(pos)
    return positions, moves


def record_of(positions: list[Position], moves: list[Move], extra: dict[str, str]) -> Record:
    start_pos = positions[0]
    tags = {
        "Event": "reflective",
        "FirstPlacement": ("green", "gold")[start_pos.first],
        "Ruleset": start_pos.rules.ruleset,
        **extra,
    }
    plies = []
    for pos, m in zip(positions, moves, strict=False):
        ply = describe_move(pos, m)
        text = format_ply(ply)
        assert parse_ply(text).to_move() == m
        plies.append(RecordPly(ply, text))
    outcome = positions[-1].final_outcome()
    tags["Result"] = outcome.winner_name if outcome else "*"
    return Record(tags, plies)


@pytest.mark.parametrize("seed", range(6))
def test_whole_random_games_validate(seed):
    rng = random.Random(seed)
    ruleset = ("laws", "loyd-1989")[seed % 2]
    r = rules(ruleset=ruleset)
    positions, moves = random_game(rng, r, seed % 2, limit=400 if ruleset == "laws" else 120)
    record = record_of(positions, moves, {"Variants": "reflective"})
    text = write_record(record)
    assert read_record(text) == record
    verdict = validate_record(read_record(text))
    assert verdict.valid, verdict.error
    assert verdict.plies == len(moves)
    assert verdict.position == positions[-1]
    assert verdict.outcome == positions[-1].final_outcome()
    if ruleset == "laws":
        assert verdict.outcome is not None  # random play soon leaves a capture
    if verdict.outcome is None:
        return
    # The winner is a combatant: the one who made the capture, or the deadlocked one's enemy.
    if verdict.outcome.termination == "capture":
        assert verdict.outcome.winner == positions[-2].stage()[0]
        if ruleset != "laws":
            # Every move being safe, no capture is ever left: only the first battle move
            # can capture, when the setup left one.
            assert len(moves) == 11
    else:
        assert verdict.outcome.winner == 1 - positions[-1].stage()[0]
    as_json = verdict.as_dict()
    assert as_json["valid"] and as_json["winner"] == verdict.outcome.winner_name


def test_an_illegal_ply_is_rejected_with_its_number_and_article():
    rng = random.Random(11)
    positions, moves = random_game(rng, rules(), GREEN, limit=14)
    record = record_of(positions, moves, {"Variants": "reflective"})
    lines = write_record(record).splitlines()
    body = lines.index("") + 1
    # Ply 3 placed outside the squad's region, in the opposite corner region.
    region = REGION[moves[0].dest]
    other = next(s for s in range(len(REGION)) if REGION[s] not in (None, region))
    kind = ("", "Fe", "L", "S", "Fl", "V", "B")[moves[2].kind]
    bad = lines[:]
    bad[body + 2] = f"{kind}→{NAME[other]}"
    v = validate_text("\n".join(bad) + "\n").as_dict()
    assert v["valid"] is False and v["plies"] == 2
    assert v["error"]["ply"] == 3 and v["error"]["article"] == "13.7"
    # Ply 2 not the Goal on the first carrier.
    bad = lines[:]
    bad[body + 1] = f"G→{NAME[moves[2].dest]}"
    v = validate_text("\n".join(bad) + "\n").as_dict()
    assert v["error"]["ply"] == 2 and v["error"]["article"] == "13.7"
    # Ply 11, the first battle move: a step into the Blockader's zone.
    pos = positions[10]
    assert isinstance(pos, ReflectivePosition)
    blk = pos.blk[GREEN]
    zone = set(NEIGHBOURS[blk])
    wrong = None
    for o in range(len(pos.sq)):
        code = pos.sq[o]
        if code and code & 7 not in (BLOCKADER, FLIER):
            for n in NEIGHBOURS[o]:
                if n in zone and not pos.sq[n]:
                    wrong = (o, n, code & 7)
    assert wrong is not None
    o, n, k = wrong
    text = f"{('', 'Fe', 'L', 'S', 'Fl', 'V', 'B')[k]}@{NAME[o]} → {NAME[n]}"
    bad = lines[: body + 10] + [text]
    v = validate_text("\n".join(bad) + "\n").as_dict()
    assert v["error"]["ply"] == 11 and v["error"]["article"] == "3.5"


def test_unsafe_ply_is_a_warning_under_the_laws_and_illegal_under_loyd():
    rng = random.Random(5)
    found = False
    for _ in range(30):
        # Moves chosen under loyd-1989 are all safe: the one unsafe ply is the last.
        positions, moves = random_game(rng, rules(ruleset="loyd-1989"), GREEN, limit=30)
        pos = positions[-1]
        if pos.outcome is not None or not pos.in_battle:
            continue
        unsafe = [m for m in pos.generate_legal_moves() if not pos.is_safe(m)]
        if not unsafe or not pos.has_safe_move():
            continue
        m = unsafe[0]
        record = record_of(positions + [pos.apply(m)], moves + [m], {"Variants": "reflective"})
        record.tags["Result"] = "*"
        record.tags["Ruleset"] = "laws"
        v = validate_record(record)
        assert v.valid, v.error
        assert [(w.ply, w.article) for w in v.warnings] == [(len(moves) + 1, "3.9")]
        record.tags["Ruleset"] = "loyd-1989"
        v = validate_record(record)
        assert not v.valid and v.error is not None
        assert (v.error.ply, v.error.article) == (len(moves) + 1, "3.9")
        found = True
        break
    assert found


# --- fuzz: the generator against a literal reading, and records replaying --------------------
VARIANT_SETS = [
    {},
    {"power-vanguards": ""},
    {"ablative": "6"},
    {"ablative": ""},
    {"clouded": "E37 D28 C28 H57 I99"},
    {"forward-placement": ""},
    {"power-vanguards": "", "ablative": "3", "clouded": "D38 E27"},
    {"kaggas-crown": "I11"},
]


@st.composite
def reflective_games(draw):
    chosen = draw(st.sampled_from(VARIANT_SETS))
    tags = {"Variants": ",".join(["reflective", *chosen])}
    if "ablative" in chosen and chosen["ablative"]:
        tags["AblationLimit"] = chosen["ablative"]
    if "clouded" in chosen:
        tags["Clouds"] = chosen["clouded"]
    if "kaggas-crown" in chosen:
        tags["Crown"] = chosen["kaggas-crown"]
    ruleset = draw(st.sampled_from(["laws", "loyd-1989"]))
    first = draw(st.integers(0, 1))
    from rules.validate import rules_from_tags

    r, _ = rules_from_tags({**tags, "Ruleset": ruleset})
    pos: Position = start(r, first)
    positions, moves = random_line(draw, pos, 10, 70)
    return positions, moves, tags


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reflective_games())
def test_random_reflective_games_replay_from_their_records(game):
    positions, moves, tags = game
    for pos in positions:
        if pos.in_battle and pos.outcome is None:
            got = {(m.origin, m.dest, m.carry) for m in pos.generate_legal_moves()}
            assert got == reference_moves(pos)
            assert pos.count_legal_moves() == len(got)
            assert isinstance(pos, ReflectivePosition)
            assert pos.goal_capturable() == reference_capturable(pos)
    record = record_of(positions, moves, tags)
    text = write_record(record)
    again = read_record(text)
    assert again == record
    verdict = validate_record(again)
    assert verdict.valid, verdict.error
    assert verdict.plies == len(moves)
    assert verdict.position == positions[-1]
    assert verdict.outcome == positions[-1].final_outcome()
    if positions[0].rules.ruleset == "loyd-1989":
        assert not any(w.article == "3.9" for w in verdict.warnings)
    assert not any(w.article == "Appendix C" for w in verdict.warnings)
    assert parse_position(position_to_string(positions[-1])) == positions[-1]


def test_goal_kinds_stay_consistent_in_long_games():
    # After every ply: one Goal at most, lying alone or held by a carrier, never in the zone.
    rng = random.Random(2)
    for _ in range(4):
        positions, _moves = random_game(rng, rules("power-vanguards"), GREEN)
        for pos in positions[2:]:
            g = pos.goal[GREEN]
            if g < 0:
                assert pos.outcome is not None
                continue
            code = pos.sq[g]
            assert not code or IS_CARRIER[code & 7]
            b = pos.blk[GREEN]
            if b >= 0:
                assert g not in NEIGHBOURS[b]
