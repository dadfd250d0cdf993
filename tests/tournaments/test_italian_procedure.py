"""The Italian society's tournament procedure on plain objects: coin and die from a seed,
the final's variants, and time-out decisions."""

from __future__ import annotations

from collections import Counter

from rules.italian import BACHSAN_KIND_OF_FACE
from rules.position import GOLD, GREEN
from tests.rules.test_italian import battle
from tournaments.italian_procedure import bachsan_die, coin_toss, game_variants, timeout_decide


def test_coin_and_die_are_reproducible_and_fair():
    assert coin_toss("event/1/3") == coin_toss("event/1/3")
    coins = Counter(coin_toss(f"seed-{i}") for i in range(2000))
    assert set(coins) == {0, 1} and abs(coins[0] - coins[1]) < 200
    kinds = Counter(bachsan_die(f"seed-{i}") for i in range(3000))
    assert set(kinds) == set(BACHSAN_KIND_OF_FACE.values())
    assert max(kinds.values()) - min(kinds.values()) < 200


def test_final_plays_with_power_vanguards():
    assert game_variants("clouded", "italian-society", final=True) == {
        "clouded",
        "power-vanguards",
    }
    assert game_variants("clouded", "italian-society", final=False) == {"clouded"}
    assert game_variants("", "laws", final=True) == frozenset()


def _position(green_extra: str = "", gold_extra: str = ""):
    return battle(
        "Fe:E37 B:D28 V:B19 " + green_extra,
        "Fe:H23 B:G35 V:I12 " + gold_extra,
        goals=("A19", "I11"),
        carriers=("B19", "H23"),
    )


def test_timeout_decided_by_the_count():
    # Green keeps its Lancer and one more Vanguard: gold has lost more.
    pos = _position("L:C17 V:C29", "")
    decision = timeout_decide(pos, seed="s", final=False, bachsan=False)
    assert decision.how == "count" and decision.winner == GREEN
    pos = _position("", "L:H34 Fl:H45 V:H56")
    decision = timeout_decide(pos, seed="s", final=False, bachsan=False)
    assert decision.how == "count" and decision.winner == GOLD


def test_tied_count_goes_to_the_coin():
    pos = _position()
    decision = timeout_decide(pos, seed="s", final=False, bachsan=False)
    assert decision.how == "coin" and decision.winner == coin_toss("s")
    assert "without honour" in decision.explanation


def test_final_goes_to_bachsan_and_bachsan_to_the_coin():
    pos = _position("L:C17")
    decision = timeout_decide(pos, seed="f", final=True, bachsan=False)
    assert decision.how == "bachsan" and decision.winner is None
    assert decision.removed == bachsan_die("f")
    again = timeout_decide(pos, seed="f", final=True, bachsan=True)
    assert again.how == "coin" and again.winner in (GREEN, GOLD)
