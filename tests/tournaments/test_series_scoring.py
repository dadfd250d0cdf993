"""Series scoring on plain objects: placing tables with shared places, knockouts by the
round reached, scores, best N, categories and the tie-breaks between rows."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.series_scoring import (
    SCORING_SCORE,
    Category,
    EventPlacings,
    Placing,
    SeriesRules,
    category_standings,
    knockout_places,
    places_shared,
    placing_points,
    series_standings,
)

TABLE = (10.0, 6.0, 4.0, 3.0, 2.0, 1.0)


def test_a_shared_place_takes_the_average_of_the_places_shared() -> None:
    assert placing_points(TABLE, 1) == 10
    assert placing_points(TABLE, 2, shared=2) == 5  # (6 + 4) / 2
    assert placing_points(TABLE, 4, shared=3) == 2  # (3 + 2 + 1) / 3
    assert placing_points(TABLE, 6, shared=2) == 0.5  # the 7th place is worth 0
    assert placing_points(TABLE, 9) == 0


def test_a_place_below_one_is_refused() -> None:
    with pytest.raises(ValueError):
        placing_points(TABLE, 0)


def test_equal_keys_share_places_in_finishing_order() -> None:
    got = places_shared([(7, (3.0,)), (8, (2.5,)), (9, (2.5,)), (5, (1.0,))])
    assert [(p.player, p.place, p.shared) for p in got] == [
        (7, 1, 1),
        (8, 2, 2),
        (9, 2, 2),
        (5, 4, 1),
    ]


def test_a_knockout_places_by_the_round_reached() -> None:
    reached = {1: 3, 2: 3, 3: 2, 4: 2, 5: 1, 6: 1, 7: 1, 8: 1}
    got = {p.player: (p.place, p.shared) for p in knockout_places(reached, champion=2)}
    assert got[2] == (1, 1)
    assert got[1] == (2, 1)
    assert got[3] == got[4] == (3, 2)
    assert all(got[p] == (5, 4) for p in (5, 6, 7, 8))
    rows = series_standings(
        [EventPlacings(1, tuple(knockout_places(reached, champion=2)))], SeriesRules(table=TABLE)
    )
    points = {r.player: r.total for r in rows}
    assert points[3] == points[4] == 3.5  # (4 + 3) / 2
    assert points[5] == 0.75  # (2 + 1 + 0 + 0) / 4


def test_an_undecided_final_shares_first_and_second() -> None:
    got = {p.player: (p.place, p.shared) for p in knockout_places({1: 2, 2: 2, 3: 1}, None)}
    assert got[1] == got[2] == (1, 2)
    assert got[3] == (3, 1)


def test_best_n_counts_the_best_results_only() -> None:
    events = [
        EventPlacings(1, (Placing(1, 1), Placing(2, 2))),
        EventPlacings(2, (Placing(1, 5), Placing(2, 1))),
        EventPlacings(3, (Placing(1, 2), Placing(2, 6))),
    ]
    rows = series_standings(events, SeriesRules(table=TABLE, best=2))
    by = {r.player: r for r in rows}
    assert by[1].total == 16  # 10 + 6, the 5th place's 2 dropped
    assert [r.counted for r in by[1].results] == [True, False, True]
    assert by[2].total == 16  # 10 + 6
    assert all_rows_counted(rows, 2)
    everything = series_standings(events, SeriesRules(table=TABLE))
    assert {r.player: r.total for r in everything} == {1: 18, 2: 17}


def all_rows_counted(rows: list, n: int) -> bool:
    return all(sum(r.counted for r in row.results) == min(n, row.played) for row in rows)


def test_ties_go_to_more_events_then_the_best_result_then_a_playoff() -> None:
    events = [
        EventPlacings(1, (Placing(1, 1), Placing(2, 3), Placing(3, 3), Placing(4, 2))),
        EventPlacings(2, (Placing(2, 2), Placing(3, 5), Placing(4, 4))),
    ]
    # 1: 10 in one event; 2: 4 + 6 = 10 in two; 3: 4 + 2 = 6; 4: 6 + 3 = 9
    rows = series_standings(events, SeriesRules(table=TABLE))
    assert [r.player for r in rows] == [2, 1, 4, 3]
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    assert not any(r.playoff for r in rows)
    # Equal totals and events: the best single result parts them.
    same_total = series_standings(
        [
            EventPlacings(1, (Placing(1, 1), Placing(2, 2))),
            EventPlacings(2, (Placing(1, 4), Placing(2, 3))),
        ],
        SeriesRules(table=(10.0, 7.0, 5.0, 2.0)),
    )
    # 1: 10 + 2 = 12, 2: 7 + 5 = 12; both played two; 1's best (10) wins
    assert [r.player for r in same_total] == [1, 2]
    assert [r.rank for r in same_total] == [1, 2]


def test_rows_nothing_parts_share_a_rank_and_are_marked_for_a_playoff() -> None:
    rows = series_standings(
        [EventPlacings(1, (Placing(1, 1, shared=2), Placing(2, 1, shared=2), Placing(3, 3)))],
        SeriesRules(table=TABLE),
        name={1: "Worf", 2: "Kor", 3: "Kang"}.__getitem__,
    )
    assert [(r.player, r.rank, r.playoff) for r in rows] == [
        (2, 1, True),
        (1, 1, True),
        (3, 3, False),
    ]


def test_score_scoring_sums_the_event_scores() -> None:
    events = [
        EventPlacings(1, (Placing(1, 1, score=4.5), Placing(2, 2, score=3.0))),
        EventPlacings(2, (Placing(1, 2, score=2.0), Placing(2, 1, score=5.0))),
    ]
    rows = series_standings(events, SeriesRules(scoring=SCORING_SCORE, best=1))
    assert [(r.player, r.total) for r in rows] == [(2, 5.0), (1, 4.5)]


def test_bad_rules_are_refused() -> None:
    with pytest.raises(ValueError):
        series_standings([], SeriesRules(scoring="guess"))
    with pytest.raises(ValueError):
        series_standings([], SeriesRules(best=0))


def test_a_category_ranks_its_players_among_themselves() -> None:
    events = [EventPlacings(1, (Placing(1, 1), Placing(2, 2), Placing(3, 3), Placing(4, 4)))]
    rows = series_standings(events, SeriesRules(table=TABLE))
    ratings = {1: 2100, 2: 1700, 3: 1500, 4: 1650}
    under = category_standings(rows, Category("U1800", high=1800), ratings)
    assert [(r.player, r.rank) for r in under] == [(2, 1), (3, 2), (4, 3)]
    band = category_standings(rows, Category("1600-1800", low=1600, high=1800), ratings)
    assert [r.player for r in band] == [2, 4]
    juniors = category_standings(rows, Category("Juniors", players=frozenset({3, 1})), ratings)
    assert [(r.player, r.rank) for r in juniors] == [(1, 1), (3, 2)]


@given(
    st.lists(
        st.lists(st.integers(1, 12), min_size=1, max_size=8, unique=True), min_size=1, max_size=6
    ),
    st.integers(1, 6),
)
def test_best_n_never_counts_more_than_n_nor_a_worse_result_over_a_better(
    events_players: list[list[int]], n: int
) -> None:
    events = [
        EventPlacings(i, tuple(Placing(p, place) for place, p in enumerate(players, start=1)))
        for i, players in enumerate(events_players)
    ]
    rows = series_standings(events, SeriesRules(table=TABLE, best=n))
    assert all_rows_counted(rows, n)
    for row in rows:
        kept = [r.points for r in row.results if r.counted]
        dropped = [r.points for r in row.results if not r.counted]
        assert not dropped or min(kept) >= max(dropped)
        assert row.total == pytest.approx(sum(kept))
    totals = [r.total for r in rows]
    assert totals == sorted(totals, reverse=True)
