"""The engine's readings where Art. 13 leaves room (docs/rules.md, "Readings"), each pinned:
Kagga's Crown against a side that cannot capture, the Goal on a carrier in a cloud, paths
over ablated triangles, the triangle under a Goal left lying, honour in setup with forward
placement, and a warrior in the enemy zone from a forward placement."""

from __future__ import annotations

import pytest

from rules.board import BIT, NAME, NB, SQUARE_OF, iter_bits
from rules.errors import IllegalMoveError
from rules.position import BLOCKADER, FENCER, FLIER, GOAL, LANCER, VANGUARD, Move, Position
from rules.posstring import parse_position
from rules.validate import validate_text

S = SQUARE_OF
GOLD_WEST = "FeI11,LI12,SI22,FlI23,FlI33,VI34,VI44,VI45,BH13"


def reach(p: Position, origin: str) -> set[str]:
    return {NAME[m.dest] for m in p.generate_moves() if m.origin == S[origin]}


def refused(p: Position, move: Move, article: str) -> None:
    with pytest.raises(IllegalMoveError) as err:
        p.check_move(move)
    assert err.value.article == article


# 1. Kagga's Crown: the opponent always has its next move; the crown wins after it.
def test_the_crown_waits_for_the_opponents_move_even_when_it_cannot_capture():
    p = parse_position("laws kaggas-crown:I99 green 20 apex/LH89,VA19/H89 west/VI11/I11")
    p = p.apply(Move(S["H89"], S["I99"], LANCER, True))
    assert not any(m.dest == p.goal[0] for m in p.generate_moves())  # no capture possible
    assert p.outcome is None and p.final_outcome() is None  # not over at the crowning ply
    after = p.apply(p.generate_moves()[0])
    assert after.outcome is not None and after.outcome.termination == "crown"
    assert after.outcome.winner == 0


def test_a_goal_placed_on_the_apex_in_setup_does_not_crown():
    green = "FeE37,LA19,SB18,FlB19,FlB29,VC17,VC18,VC28,BD49"
    p = parse_position(f"laws kaggas-crown:A19 green 18 apex/{green}/- west/{GOLD_WEST}/-")
    p = p.apply(Move(None, S["A19"], GOAL)).apply(Move(None, S["I11"], GOAL))
    for _ in range(2):
        p = p.apply(next(m for m in p.generate_moves() if m.origin != S["A19"]))
    assert p.crowned < 0 and p.outcome is None


# 2. Clouds: warriors may be placed in a cloud, the Goal may not be placed on one there.
def test_the_goal_is_not_placed_on_a_carrier_in_a_cloud():
    empty = parse_position("laws clouded:E37 green 0 -/-/- -/-/-")
    empty.check_move(Move(None, S["E37"], FENCER))
    green = "FeE37,LA19,SB18,FlB19,FlB29,VC17,VC18,VC28,BD49"
    p = parse_position(f"laws clouded:E37 green 18 apex/{green}/- west/{GOLD_WEST}/-")
    refused(p, Move(None, S["E37"], GOAL), "13.4")
    p.check_move(Move(None, S["A19"], GOAL))


# 3. Ablation: walking warriors neither pass through nor land on it; Fliers fly over it.
def test_walkers_do_not_pass_an_ablated_triangle_and_fliers_fly_over_it():
    green = "FeE37,LA19,SB18,FlB29,FlD16,VC17,VC18,VC28,BD49"
    base = f"apex/{green}/A19 west/{GOLD_WEST}/I11"
    open_ = parse_position(f"laws ablative green 20 {base}")
    holed = parse_position(f"laws ablative green 20 {base} ablated=E27")
    # The Fencer's paths through E27 are gone with it (D17, D27, E16, E26).
    assert reach(open_, "E37") - reach(holed, "E37") == {"D17", "D27", "E16", "E26", "E27"}
    refused(holed, Move(S["E37"], S["D27"], FENCER), "3.11.6")
    # The Lancer's line through an ablated B19 stops there.
    assert reach(parse_position(f"laws ablative green 20 {base} ablated=B19"), "A19") == set()
    # Every triangle a Flier may fly over stays open to it: ablating one removes at most
    # that landing.
    flier = reach(open_, "B29")
    for sq in iter_bits(sum(BIT[S[n]] for n in ("C28", "C39", "D38", "D49", "E38", "D28"))):
        if open_.sq[sq]:
            continue
        again = parse_position(f"laws ablative green 20 {base} ablated={NAME[sq]}")
        assert reach(again, "B29") == flier - {NAME[sq]}


# 4. The triangle under a Goal left lying is not ablated; carried away, it is.
def test_a_goal_left_lying_keeps_its_triangle_open():
    green = "FeE37,LA19,SB18,FlB29,FlD16,VC17,VC18,VC28,BD49"
    p = parse_position(f"laws ablative:3 green 20 apex/{green}/A19 west/{GOLD_WEST}/I11")
    left = p.apply(Move(S["A19"], S["B19"], LANCER, False))
    assert left.ablated == () and left.goal[0] == S["A19"]
    carried = p.apply(Move(S["A19"], S["B19"], LANCER, True))
    assert carried.ablated == (S["A19"],)


# 5. Honour in setup with forward placement: either Blockader's zone bars a warrior.
GREEN_8 = "FeA19,LB18,SB19,FlB29,FlC17,VC18,VC28,VD16"


def test_honour_with_forward_placement_counts_both_blockaders_zones():
    variants = "forward-placement,honor-in-setup"
    honour = parse_position(f"laws {variants} green 8 apex/{GREEN_8}/- -/-/-")
    honour = honour.apply(Move(None, S["F36"], BLOCKADER))  # its zone: F26, F37, G36
    assert S["G36"] in iter_bits(NB[S["F36"]])
    refused(honour, Move(None, S["G36"], FENCER), "13.8")  # gold, in green's zone
    honour.check_move(Move(None, S["G35"], FENCER))
    # The Blockaders themselves are outside the test: zones may touch from placement.
    honour.check_move(Move(None, S["G46"], BLOCKADER))
    # A Blockader whose zone would hold a warrior already placed is refused.
    squad = GREEN_8.replace("VD16", "VF47") + ",BD16"
    with_v = parse_position(f"laws forward-placement,honor-in-setup green 9 apex/{squad}/- -/-/-")
    refused(with_v, Move(None, S["G47"], BLOCKADER), "13.8")


# 6. Forward placement alone: a warrior may stand in the enemy zone from setup and leave it.
def test_a_warrior_placed_in_the_enemy_zone_may_leave_it_and_be_killed_there():
    p = parse_position(f"laws forward-placement green 9 apex/{GREEN_8},BF36/- -/-/-")
    p.check_move(Move(None, S["G36"], FENCER))  # in green's zone: allowed without honour
    green = "FeA19,LB18,SB19,FlB29,FlD16,VC18,VC28,VE38,BF36"
    gold = GOLD_WEST.replace("FeI11", "FeG36").replace("LI12", "LI11")
    battle = parse_position(f"laws forward-placement gold 20 apex/{green}/B18 west/{gold}/I11")
    out = reach(battle, "G36")
    assert {"G35", "G46"} <= out and not out & {"F26", "F37", "F36"}
    green_turn = parse_position(f"laws forward-placement green 20 apex/{green}/B18 west/{gold}/I11")
    green_turn.check_move(Move(S["D16"], S["G36"], FLIER))


def test_a_power_vanguard_walks_and_does_not_pass_an_ablated_triangle():
    green = "FeE37,LA19,SB18,FlB29,FlD16,VC17,VC18,VE27,BD49"
    base = f"apex/{green}/A19 west/{GOLD_WEST}/I11"
    open_ = parse_position(f"laws ablative,power-vanguards green 20 {base}")
    holed = parse_position(f"laws ablative,power-vanguards green 20 {base} ablated=E26")
    assert reach(open_, "E27") - reach(holed, "E27") == {"E26", "E16", "F26"}
    refused(holed, Move(S["E27"], S["E16"], VANGUARD), "3.11.5")


def test_under_the_italian_society_pieces_pass_over_an_ablated_triangle():
    """The booklet: "i pezzi potranno passarci sopra ma non sostarvi" (the second placer,
    here green, moves first under its protocol)."""
    green = "FeE37,LA19,SB18,FlB29,FlD16,VC17,VC18,VC28,BD49"
    base = f"apex/{green}/A19 west/{GOLD_WEST}/I11 ablated=E27"
    italian = parse_position(f"italian-society ablative gold 20 {base}")
    laws = parse_position(f"laws ablative green 20 {base}")
    assert reach(italian, "E37") - reach(laws, "E37") == {"D17", "D27", "E16", "E26"}
    italian.check_move(Move(S["E37"], S["D27"], FENCER))  # over E27
    refused(italian, Move(S["E37"], S["E27"], FENCER), "13.6")  # but not onto it


# 1 (continued). The reply to a crowning ends the battle, so it endangers nothing (13.3, 3.9).
CROWN_GREEN = "FeB19,LC17,SC18,FlE37,FlB29,VC28,VD16,VD17,BD49"


def crown_record(ruleset: str, gold: str, gold_goal: str, reply: str, variants: str = "") -> str:
    """Green places first (its Fencer holding the Goal beside the apex A19), gold in the
    west; green crowns with its first battle move and gold replies."""
    tags = {
        "Event": "t",
        "Green": "Kor",
        "Gold": "Kang",
        "FirstPlacement": "green",
        "Ruleset": ruleset,
        "Variants": ", ".join(["kaggas-crown", *variants.split()]),
        "Crown": "A19",
        "Result": "green",
        "Termination": "crown",
    }
    plies = [f"{w[:-3]}→{w[-3:]}" for w in (*CROWN_GREEN.split(","), *gold.split(","))]
    plies += ["G→B19", f"G→{gold_goal}", "(Fe)@B19 → A19", reply]
    head = "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
    return head + "\n" + "\n".join(plies) + "\n"


@pytest.mark.parametrize("variants", ["", "kinta"])
def test_laws_a_crowning_with_every_reply_exposing_the_goal_is_no_deadlock(variants):
    # Green's Flier on E37 already reaches gold's Goal, held on H34, and nothing of gold's can
    # stop it: every reply leaves the Goal attackable, but after the reply the crown wins.
    gold = "FeH34,LF14,SI45,FlI44,FlI22,VI34,VH24,BG25,VH35"
    text = crown_record("laws", gold, "H34", "V@I34 → I33", variants)
    v = validate_text(text)
    assert v.valid, v.error
    d = v.as_dict()
    assert (d["termination"], d["winner"], d["plies"]) == ("crown", "green", 22)
    assert not [w for w in v.warnings if w.ply == 22]  # the reply endangers nothing
    before = validate_text(text.rsplit("V@I34", 1)[0]).position
    legal = before.generate_legal_moves()
    assert legal and not any(before.is_battle_move_safe(1, *m) for m in legal)
    assert before.final_outcome() is None and before.generate_moves() == legal


@pytest.mark.parametrize("variants", ["", "kinta"])
def test_loyd_a_reply_to_a_crowning_that_exposes_the_goal_is_accepted(variants):
    # Gold's Fencer carries its Goal next to green's warriors: refused by 3.9 any other time.
    gold = "FeF15,LF14,SH24,FlH45,FlH23,VH34,VH35,VI12,BG25"
    v = validate_text(crown_record("loyd-1989", gold, "F15", "(Fe)@F15 → E15", variants))
    assert v.valid, v.error
    d = v.as_dict()
    assert (d["termination"], d["winner"], d["plies"]) == ("crown", "green", 22)
    # Without the crowning the same move is refused as endangering the Goal.
    calm = parse_position(
        f"loyd-1989 kaggas-crown:A19 gold 21 apex/{CROWN_GREEN}/B19 west/{gold}/F15"
    )
    assert not calm.is_safe(Move(S["F15"], S["E15"], FENCER, True))
