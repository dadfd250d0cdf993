"""Ruleset italian-society: its placement protocol, carrier, trapping Blockader, Flier, strict
goal safety, the time-out count, the Bach'san squad, and records validated under it."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.board import BIT, NB, SQUARE_OF, iter_bits
from rules.engines import new_position
from rules.errors import IllegalMoveError
from rules.italian import (
    ART_CARRIER,
    ART_FLIER,
    ART_PLACEMENT,
    ART_TRAP,
    ItalianPosition,
    timeout_count,
)
from rules.notation import describe_move, move_text
from rules.position import (
    BLOCKADER,
    FENCER,
    FLIER,
    GOAL,
    GOLD,
    GREEN,
    LANCER,
    SWIFT,
    VANGUARD,
    Move,
    Position,
    Rules,
)
from rules.record import Record, RecordPly, read_record, write_record
from rules.validate import validate_text

S = SQUARE_OF
ITALIAN = Rules("italian-society")
KEY = {"Fe": FENCER, "L": LANCER, "S": SWIFT, "Fl": FLIER, "V": VANGUARD, "B": BLOCKADER}


def fresh(first: int = GREEN, rules: Rules = ITALIAN) -> ItalianPosition:
    pos = new_position(rules, first)
    assert isinstance(pos, ItalianPosition)
    return pos


def battle(
    green: str,
    gold: str,
    *,
    goals: tuple[str, str],
    carriers: tuple[str, str],
    to_move: int = GREEN,
    rules: Rules = ITALIAN,
) -> ItalianPosition:
    """A battle position put straight on the board: "Fe:E37 B:D28" per side."""
    # The second placer moves first: make `to_move` the second placer, at the first battle ply.
    pos = fresh(1 - to_move, rules)
    for side, text in ((GREEN, green), (GOLD, gold)):
        for item in text.split():
            key, name = item.split(":")
            kind, sq = KEY[key], S[name]
            pos.sq[sq] = side * 8 + kind
            pos.occ[side] |= BIT[sq]
            pos.kbb[side][kind] |= BIT[sq]
            if kind == BLOCKADER:
                pos.blk[side] = sq
        pos.goal[side] = S[goals[side]]
        pos.carrier[side] = S[carriers[side]] if carriers[side] else -1
    pos.ply = pos.setup_plies
    assert pos.stage() == (to_move, "battle")
    return pos


def play(pos: Position, text: str) -> Position:
    """Check and play a ply written in English geometric notation."""
    from rules.notation import parse_ply

    move = parse_ply(text).to_move()
    pos.check_move(move)
    return pos.apply(move)


def error_of(pos: Position, text: str) -> IllegalMoveError:
    from rules.notation import parse_ply

    with pytest.raises(IllegalMoveError) as info:
        pos.check_move(parse_ply(text).to_move())
    return info.value


# --- placement protocol ---------------------------------------------------------------------
def test_protocol_order_and_second_placer_moves_first():
    pos = fresh(GOLD)
    stages = []
    for _ in range(pos.setup_plies + 2):
        stages.append(pos.stage())
        pos.ply += 1
    assert stages[0] == (GOLD, "goal") and stages[1] == (GOLD, "warrior")
    assert stages[2] == (GREEN, "goal")
    assert stages[3:12] == [(GREEN, "warrior")] * 9
    assert stages[12:20] == [(GOLD, "warrior")] * 8
    # The lower cast (the second placer) moves first.
    assert stages[20:] == [(GREEN, "battle"), (GOLD, "battle")]


def test_perft_of_the_protocol_by_hand():
    pos = fresh()
    # Ply 1: the Goal alone on any of 3 x 24 region triangles.
    assert pos.perft(1) == 72
    # Ply 2: the declared carrier (Fencer, Lancer or Vanguard) on the 23 others of that region.
    assert pos.perft(2) == 72 * 3 * 23
    # Ply 3: the second placer's Goal in one of the two other regions.
    assert pos.perft(3) == 72 * 3 * 23 * 48


def test_placement_rules():
    pos = fresh()
    assert error_of(pos, "V→A19").article == ART_PLACEMENT  # the Goal comes first
    assert error_of(pos, "G→E15").article == "2.2"  # a shared triangle
    pos = play(pos, "G→A19")
    assert error_of(pos, "S→B19").article == ART_CARRIER  # the carrier is a carrier
    assert error_of(pos, "V→A19").article == ART_CARRIER  # the Goal is not loaded at once
    assert error_of(pos, "V→H23").article == "2.5"  # outside the Goal's region
    pos = play(pos, "V→B29")
    assert pos.carrier[GREEN] == S["B29"]
    pos = play(pos, "G→I11")
    assert error_of(pos, "G→H23").article == ART_PLACEMENT
    assert error_of(pos, "L→B18").article == "2.5"  # the enemy's region
    pos = play(pos, "L→H23")
    pos = play(pos, "B→G35")
    # Inside the Blockader's field (G25 G36 H35), and a Blockader's field over a warrior.
    assert error_of(pos, "V→H35").article == ART_PLACEMENT


def test_a_blockader_is_not_placed_with_a_warrior_or_goal_in_its_field():
    pos = fresh()
    for text in ("G→A19", "V→C28", "G→I11", "L→H23"):
        pos = play(pos, text)
    assert "field" in error_of(pos, "B→H24").reason  # H23 would be in its field
    assert "field" in error_of(pos, "B→I12").reason  # so would the Goal on I11


def test_no_warrior_behind_the_own_blockader():
    pos = fresh()
    for text in ("G→A19", "V→B19", "G→I11", "Fe→I22"):
        pos = play(pos, text)
    # A Blockader on H23 (field H13 H24 I23) would shut the carrier on I22 into the corner
    # with the Goal: every warrior must stay reachable from the border outside its field.
    e = error_of(pos, "B→H23")
    assert e.article == ART_PLACEMENT and "behind" in e.reason
    assert Move(None, S["H23"], BLOCKADER) not in pos.generate_legal_moves()
    # The same Blockader is fine once the carrier stands outside that corner.
    pos = fresh()
    for text in ("G→A19", "V→B19", "G→I11", "Fe→G35"):
        pos = play(pos, text)
    play(pos, "B→H23")


def setup_before_last_placement(seed: int) -> tuple[ItalianPosition, list[Move]]:
    """A random setup of seed `seed` up to the first placer's last placement: the position
    and the placements made."""
    rng = random.Random(seed)
    pos, moves = fresh(), list[Move]()
    while pos.ply < pos.setup_plies - 1:
        moves.append(rng.choice(pos.generate_moves()))
        pos = pos.apply(moves[-1])
    return pos, moves


def test_setup_that_leaves_the_goal_open_is_refused():
    # The first placer's last placement: if the second placer, moving first, could capture
    # the Goal, the setup is made again (reminder 4): such a ply is not generated, the
    # validator refuses it, and while a safe placement is left the position is no deadlock.
    for seed in range(400):
        pos, moves = setup_before_last_placement(seed)
        legal = pos.generate_legal_moves()
        unsafe = [m for m in legal if not pos.is_safe(m)]
        if not unsafe or len(unsafe) == len(legal):
            continue  # none to refuse, or a deadlock (the test below)
        assert not set(unsafe) & set(pos.generate_moves())
        assert not pos.is_deadlock()
        verdict = validate_text(_record_text([*moves, unsafe[0]]))
        assert not verdict.valid
        assert verdict.error.ply == pos.setup_plies and verdict.error.article == "3.9"
        return
    pytest.fail("no seed gave an exposing last placement")


# --- the battle -----------------------------------------------------------------------------
def trap_position() -> ItalianPosition:
    return battle(
        "Fe:E37 B:D28 V:B19",
        "V:E38 B:G35 Fe:H23",
        goals=("A19", "I11"),
        carriers=("B19", "H23"),
    )


def test_blockader_traps_instead_of_being_refused():
    pos = trap_position()
    laws = _as_laws(pos)
    move = Move(S["D28"], S["D38"], BLOCKADER)
    with pytest.raises(IllegalMoveError) as info:
        laws.check_move(move)
    assert info.value.article == "3.11.4"
    pos.check_move(move)
    after = pos.apply(move)
    assert after.trapped() == BIT[S["E38"]]
    # The trapped Vanguard cannot move; the arbiter is told why.
    e = error_of(after, "V@E38 → E48")
    assert e.article == ART_TRAP and "trapped" in e.reason
    assert not any(m.origin == S["E38"] for m in after.generate_legal_moves())


def test_trapped_warrior_killed_and_released():
    pos = trap_position().apply(Move(S["D28"], S["D38"], BLOCKADER))
    pos = play(pos, "Fe@H23 → H24")
    # Green may kill in its own Blockader's field.
    killed = play(pos, "Fe@E37 x V@E38")
    assert killed.kbb[GOLD][VANGUARD] == 0
    # Or move the Blockader away: the Vanguard is free again.
    freed = play(pos, "B@D38 → D28")
    assert not freed.trapped()


def test_own_warrior_in_own_field_is_trapped_too():
    pos = battle(
        "Fe:E37 B:C28 V:B19",
        "B:G35 Fe:H23",
        goals=("A19", "I11"),
        carriers=("B19", "H23"),
    )
    moved = play(pos, "B@C28 → D28")  # field C28 D27 D38: empty
    assert not moved.trapped()
    pos2 = play(pos, "Fe@E37 → D38")
    pos2 = play(pos2, "Fe@H23 → H24")
    trapped = play(pos2, "B@C28 → D28")
    assert trapped.trapped() == BIT[S["D38"]]


def test_only_the_declared_carrier_carries():
    pos = battle(
        "Fe:B18 V:C28 B:E16",
        "B:G35 Fe:H23",
        goals=("A19", "I11"),
        carriers=("C28", "H23"),
    )
    shares = play(pos, "Fe@B18 → A19")
    assert shares.holds_goal(GREEN, S["A19"]) is False
    shares = play(shares, "Fe@H23 → H24")
    assert error_of(shares, "(Fe)@A19 → B19").article == ART_CARRIER
    # The declared Vanguard picks it up by ending on it, then carries it.
    pos = battle(
        "Fe:B18 V:B19 B:E16",
        "B:G35 Fe:H23",
        goals=("A19", "I11"),
        carriers=("B19", "H23"),
    )
    picked = play(play(pos, "V@B19 → A19"), "Fe@H23 → H24")
    assert picked.holds_goal(GREEN, S["A19"])
    carried = play(picked, "(V)@A19 → B19")
    assert carried.goal[GREEN] == S["B19"] and carried.carrier[GREEN] == S["B19"]


def test_a_killed_carrier_leaves_the_goal_for_good():
    pos = battle(
        "V:B19 Fe:B18 B:E16",
        "Fe:D28 B:G35 V:H23",
        goals=("A19", "I11"),
        carriers=("B19", "H23"),
        to_move=GOLD,
    )
    pos = play(pos, "Fe@D28 → C28")
    pos = play(pos, "Fe@B18 → C18")
    pos = play(pos, "Fe@C28 x V@B19")  # C28 C29 B29 B19
    assert pos.carrier[GREEN] == -1


def test_flier_does_not_fly_over_a_blockader():
    over_blockader = battle(
        "Fl:I11 B:C28 V:B19",
        "B:I22 Fe:G14",
        goals=("A19", "G13"),
        carriers=("B19", "G14"),
    )
    e = error_of(over_blockader, "Fl@I11 → I34")
    assert e.article == ART_FLIER
    laws = _as_laws(over_blockader)
    laws.check_move(Move(S["I11"], S["I34"], FLIER))  # the Laws let it fly over
    over_vanguard = battle(
        "Fl:I11 B:C28 V:B19",
        "V:I22 B:G35 Fe:G14",
        goals=("A19", "G13"),
        carriers=("B19", "G14"),
    )
    over_vanguard.check_move(Move(S["I11"], S["I34"], FLIER))


def test_blockader_captures_a_goal_only_when_alone():
    goal = S["G35"]
    mid = S["G36"]
    origin = next(s for s in iter_bits(NB[mid]) if s != goal and not NB[s] & BIT[goal])
    crowd = battle(
        f"B:{_name(origin)} V:B19 Fe:A19",
        "B:D28 Fe:H23",
        goals=("A19", "G35"),
        carriers=("A19", "H23"),
    )
    capture = Move(origin, goal, BLOCKADER)
    assert capture not in crowd.generate_legal_moves()
    with pytest.raises(IllegalMoveError):
        crowd.check_move(capture)
    alone = battle(
        f"B:{_name(origin)}",
        "B:D28 Fe:H23",
        goals=("A19", "G35"),
        carriers=("", "H23"),
    )
    assert capture in alone.generate_legal_moves()
    assert alone.apply(capture).outcome is not None


def test_goal_crosses_the_enemy_field_only_in_jeopardy():
    threatened = battle(
        "L:E37 B:B19 V:A19",
        "B:D27 Fe:G36",
        goals=("E37", "I11"),
        carriers=("E37", "G36"),
    )
    assert threatened.is_in_jeopardy(GREEN)
    through = Move(S["E37"], S["E26"], LANCER, True)
    threatened.check_move(through)
    assert through in threatened.generate_legal_moves()
    # Without the Goal the Lancer may not cross the field, threat or not.
    e = error_of(threatened, "L@E37 → E26")
    assert e.article == "3.5"
    calm = battle(
        "L:E37 B:B19 V:A19",
        "B:D27 Fe:H23",
        goals=("E37", "I11"),
        carriers=("E37", "H23"),
    )
    assert not calm.is_in_jeopardy(GREEN)
    assert error_of(calm, "(L)@E37 → E26").article == "3.5"


def test_strict_safety_makes_an_exposing_move_illegal():
    pos = battle(
        "L:E37 B:B19 V:A19",
        "B:I99 Fe:G36",
        goals=("E37", "I11"),
        carriers=("E37", "G36"),
    )
    assert pos.rules.strict_safety
    moves = pos.generate_moves()
    assert moves and all(pos.is_safe(m) for m in moves)
    assert len(moves) < len(pos.generate_legal_moves())


# --- the time-out count ---------------------------------------------------------------------
def test_timeout_count_by_hand():
    # Gold lost a Lancer (2) and has a Vanguard trapped in green's field (1/2): green 2 1/2.
    # Green lost a Flier (5) and a Vanguard (1): gold 6.
    pos = battle(
        "Fe:E37 L:C17 S:A19 Fl:B19 V:B18 V:C29 B:D28",
        "Fe:H23 S:I11 Fl:H24 Fl:I12 V:D38 V:H34 V:H45 B:G35",
        goals=("A19", "I11"),
        carriers=("E37", "H23"),
    )
    assert pos.trapped() == BIT[S["D38"]]
    count = timeout_count(pos)
    assert count.points == (2.5, 6.0)
    assert count.winner == GOLD
    assert count.describe() == "time-out count green 2½, gold 6"


def _record_text(
    moves: list[Move],
    first: int = GREEN,
    tags: dict[str, str] | None = None,
    rules: Rules = ITALIAN,
) -> str:
    pos = fresh(first, rules)
    plies = []
    for m in moves:
        plies.append(RecordPly(describe_move(pos, m), move_text(pos, m)))
        pos = pos.apply(m)
    base = {
        "Event": "test",
        "FirstPlacement": ("green", "gold")[first],
        "Ruleset": "italian-society",
        "Result": "*",
    }
    base.update(tags or {})
    return write_record(Record(base, plies))


def random_game(seed: int, first: int = GREEN, rules: Rules = ITALIAN) -> list[Move]:
    rng = random.Random(seed)
    pos = new_position(rules, first)
    moves = []
    for _ in range(80):
        legal = pos.generate_moves()
        if not legal:
            break
        m = rng.choice(legal)
        moves.append(m)
        pos = pos.apply(m)
    return moves


def test_random_games_validate_and_time_out_tags_follow_the_count():
    for seed in range(6):
        moves = random_game(seed, seed % 2)
        text = _record_text(moves, seed % 2)
        verdict = validate_text(text)
        assert verdict.valid, verdict.error
        assert verdict.plies == len(moves)
        pos = verdict.position
        assert isinstance(pos, ItalianPosition)
        if pos.final_outcome() is not None or not pos.in_battle:
            continue
        count = timeout_count(pos)
        winner = count.winner
        if winner is None:
            tags = {"Termination": "time", "Result": "gold", "Coin": "gold"}
            assert validate_text(_record_text(moves, seed % 2, tags)).valid
            tags["Coin"] = ""
            assert not validate_text(_record_text(moves, seed % 2, tags)).valid
            continue
        right = ("green", "gold")[winner]
        wrong = ("green", "gold")[1 - winner]
        ok = validate_text(_record_text(moves, seed % 2, {"Termination": "time", "Result": right}))
        assert ok.valid, ok.error
        bad = validate_text(_record_text(moves, seed % 2, {"Termination": "time", "Result": wrong}))
        assert not bad.valid and "time-out count" in bad.error.reason


def test_clock_time_out_is_decided_by_the_count():
    from rules.clock import adjudicate

    for seed in range(40):
        moves = random_game(seed)
        if len(moves) < 40:
            continue
        record = read_record(_record_text(moves, tags={"TimeControl": "600"}))
        # Gold's flag falls after ply 40: the count of the position then decides, whoever
        # flagged.
        record.tags["Flag"] = "gold"
        record.tags["FlagPly"] = "40"
        decision = adjudicate(record)
        pos = validate_text(_record_text(moves[:39])).position
        count = timeout_count(pos)
        if count.winner is None:
            assert (decision.decision, decision.loser) == ("coin", None)
        else:
            assert decision.decision == "count"
            assert decision.loser == ("green", "gold")[1 - count.winner]
        laws = read_record(_record_text(moves, tags={"TimeControl": "600"}))
        laws.tags.update(Ruleset="laws", Flag="gold", FlagPly="40")
        assert adjudicate(laws).decision == "time"
        return
    pytest.fail("no long enough game")


def test_no_draws_in_the_society():
    # A battle still going (80 plies), not one ended by deadlock, whose Result names a winner.
    moves = next(m for m in map(random_game, range(3, 60)) if len(m) == 80)
    verdict = validate_text(_record_text(moves, tags={"Result": "draw"}))
    assert not verdict.valid and "no draws" in verdict.error.reason


def test_an_illegal_ply_is_named_with_its_rule():
    moves = random_game(4)
    pos = fresh().apply(moves[0])
    # Ply 2: a Swift as the declared carrier.
    text = _record_text(moves[:1]) + "S→" + _name(_free_in_region(pos)) + "\n"
    verdict = validate_text(text)
    assert not verdict.valid
    assert verdict.error.ply == 2 and verdict.error.article == ART_CARRIER


def test_bachsan_squad_without_one_warrior():
    rules = Rules("italian-society", removed=FLIER)
    pos = fresh(GREEN, rules)
    assert pos.warriors_per_squad == 8 and pos.setup_plies == 18
    moves = next(m for m in (random_game(s, GREEN, rules) for s in range(50)) if len(m) > 18)
    tagged = _record_text(moves, tags={"Removed": "Fl"}, rules=rules)
    verdict = validate_text(tagged)
    assert verdict.valid, verdict.error
    assert verdict.position.in_battle and verdict.position.rules.removed == FLIER
    # Without the tag the squads have nine warriors: the setup's plies no longer fit.
    untagged = validate_text(tagged.replace('[Removed "Fl"]\n', ""))
    assert not untagged.valid and untagged.error.ply <= 19
    # Each squad has one Flier only.
    after_goal_and_carrier = fresh(GREEN, rules)
    for text in ("G→A19", "V→B19", "G→I11", "V→I12", "Fl→G35"):
        after_goal_and_carrier = play(after_goal_and_carrier, text)
    assert error_of(after_goal_and_carrier, "Fl→H23").article == "2.11"
    laws = tagged.replace('"italian-society"', '"laws"')
    assert "Bach'san" in validate_text(laws).error.reason


def test_combinations():
    base = '[Ruleset "italian-society"]\n[Variants "{}"]\n\nG→A19\n'
    assert validate_text(base.format("power-vanguards")).valid
    bad = validate_text(base.format("alternating-placement"))
    assert not bad.valid and bad.error.article == "13"


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(0, 1))
def test_fuzz_random_italian_games_replay_from_their_records(seed, first):
    moves = random_game(seed, first)
    text = _record_text(moves, first)
    record = read_record(text)
    assert [rp.ply.to_move() for rp in record.plies] == moves
    verdict = validate_text(text)
    assert verdict.valid and verdict.plies == len(moves)


# --- small helpers ---
def _as_laws(pos: ItalianPosition) -> Position:
    """The same pieces under the Laws, the same side to move."""
    laws = Position(Rules("laws"), 1 - pos.first)
    laws.sq, laws.occ = pos.sq[:], pos.occ[:]
    laws.kbb = [pos.kbb[0][:], pos.kbb[1][:]]
    laws.blk, laws.goal, laws.ply = pos.blk[:], pos.goal[:], 20
    assert laws.stage()[0] == pos.stage()[0]
    return laws


# --------------------------------------------------------------------------
def _name(sq: int) -> str:
    return next(n for n, s in SQUARE_OF.items() if s == sq)


def _free_in_region(pos: ItalianPosition) -> int:
    from rules.board import REGION_BB

    free = REGION_BB[pos.region[GREEN]] & ~(pos.occ[0] | pos.occ[1] | pos.goals_bb())
    return next(iter_bits(free))


assert GOAL and SWIFT  # kinds used through KEY


# --- reminder 2: one way per move -----------------------------------------------------------
def test_a_warrior_does_not_advance_and_fall_back_in_one_move():
    # "in un sol senso": a Swift advancing two and falling back one would land next to its
    # origin; the record is refused there (Art. 3.11.3), and its two-step path forward is valid.
    moves = random_game(0)[:20]
    pos = fresh()
    for m in moves:
        pos = pos.apply(m)
    side = pos.stage()[0]
    free = ~(pos.occ[GREEN] | pos.occ[GOLD] | pos.goals_bb())
    origin = next(iter_bits(pos.kbb[side][SWIFT]))
    beside = next(iter_bits(NB[origin] & free))
    back = validate_text(_record_text(moves) + f"S@{_name(origin)} → {_name(beside)}\n")
    assert not back.valid
    assert back.error.ply == 21 and back.error.article == "3.11.3"
    onward = next(iter_bits(NB[beside] & free & ~NB[origin] & ~BIT[origin]))
    ahead = validate_text(_record_text(moves) + f"S@{_name(origin)} → {_name(onward)}\n")
    assert ahead.valid and ahead.plies == 21


# --- a setup whose last placer has no safe placement ----------------------------------------
def test_a_last_placer_with_no_safe_placement_is_deadlocked():
    # Reminder 8: the side that cannot move correctly has lost; a placement is its move.
    for seed in range(60):
        pos, moves = setup_before_last_placement(seed)
        legal = pos.generate_legal_moves()
        if not legal or any(pos.is_safe(m) for m in legal):
            continue
        assert pos.generate_moves() == [] and pos.perft(1) == 0
        verdict = validate_text(_record_text(moves, tags={"Result": "gold"}))
        assert verdict.valid, verdict.error
        d = verdict.as_dict()
        assert (d["termination"], d["winner"]) == ("deadlock", "gold")
        late = validate_text(_record_text([*moves, legal[0]]))
        assert late.error.ply == pos.setup_plies and late.error.article == "5.1.2"
        return
    pytest.fail("no seed left the last placer without a safe placement")


# --- reminder 6 with reminder 5: a threat that opens the enemy carrier a way through the field --
def test_threatening_a_carrier_that_may_then_cross_the_own_field_onto_the_goal_is_illegal():
    # Gold's Lancer holds gold's Goal on E37; green's Goal lies on E26 behind green's field
    # (Blockader D27). Green's Fencer to G36 threatens gold's Goal, which lets the Lancer carry
    # it through the field onto green's Goal: the move endangers green's Goal (reminder 5).
    pos = battle("B:D27 Fe:G24 V:I11", "L:E37 V:A19", goals=("E26", "E37"), carriers=("G24", "E37"))
    threat = Move(S["G24"], S["G36"], FENCER)
    assert not pos.is_in_jeopardy(GREEN)
    pos.check_move(threat)  # a legal move (Art. 3), but not a safe one (3.9)
    assert not pos.is_safe(threat)
    assert threat not in pos.generate_moves() and pos.count_moves() == len(pos.generate_moves())
    # Were it played, the capture through the field follows.
    after = pos.apply(threat)
    assert after.is_in_jeopardy(GREEN)
    capture = Move(S["E37"], S["E26"], LANCER, True)
    after.check_move(capture)
    outcome = after.apply(capture).outcome
    assert outcome is not None and (outcome.termination, outcome.winner) == ("capture", GOLD)
    # Without the Goal to carry, the Lancer may not cross: the same move is then safe.
    calm = battle("B:D27 Fe:G24 V:I11", "L:E37 V:A19", goals=("E26", "E38"), carriers=("G24", ""))
    assert calm.is_safe(threat)


def test_record_of_a_threat_that_opens_the_field_stops_at_the_threat(example_text):
    # Ply 21 gold's Lancer takes up its Goal on F15; ply 22 green's Flier threatens it, which
    # opens the Lancer the line through green's field (Blockader E26) onto green's lying Goal
    # on D16; ply 23 would capture there. The threat is the illegal ply (reminder 5, Art. 3.9).
    text = example_text("italian-threat-opens-the-field.kzr")
    verdict = validate_text(text)
    assert not verdict.valid
    assert verdict.error.ply == 22 and verdict.error.article == "3.9"
    # The plies before it stand; after the threat the capture through the field is a move.
    before = validate_text(text.split("Fl@E37")[0]).position
    threat = Move(S["E37"], S["G35"], FLIER)
    before.check_move(threat)
    after = before.apply(threat)
    capture = Move(S["F15"], S["D16"], LANCER, True)
    after.check_move(capture)
    assert after.apply(capture).outcome.termination == "capture"


# --- Kagga's Crown: the reply to a crowning endangers nothing (docs/rules.md, Readings 1) -----
def test_a_reply_to_a_crowning_is_never_refused_for_its_goal():
    rules = Rules("italian-society", frozenset({"kaggas-crown"}), crown=S["A19"])
    pos = battle(
        "Fe:B19 L:C17 S:C18 Fl:E37 Fl:B29 V:C28 V:D16 V:D17 B:D49",
        "Fe:F15 L:F14 S:H24 Fl:H45 Fl:H23 V:H34 V:H35 V:I12 B:G25",
        goals=("B19", "F15"),
        carriers=("B19", "F15"),
        rules=rules,
    )
    after = pos.apply(Move(S["B19"], S["A19"], FENCER, True))
    reply = Move(S["F15"], S["E15"], FENCER, True)  # next to green's Vanguards
    assert not after.is_battle_move_safe(GOLD, S["F15"], S["E15"], FENCER, True)
    assert after.is_safe(reply) and reply in after.generate_moves()
    outcome = after.apply(reply).outcome
    assert outcome is not None and (outcome.termination, outcome.winner) == ("crown", GREEN)
