"""Tournament pairings, standings and the state machine, pure (services/lobby/domain/tournaments.py)."""

from __future__ import annotations

import itertools
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from services.lobby.domain import tournaments as tm
from services.lobby.domain.tournaments import Format, Status, TableState, Tournament
from shared.serving.errors import Conflict, InvalidArgument


def players(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


def tournament(fmt: Format, n: int, seats: int = 2, rounds: int = 3, bots: bool = False) -> Tournament:
    t = Tournament("t1", "Cup", "race", "p0", fmt, (), seats, rounds, 60, bots, "greedy", 1000, 64, 0)
    for i, p in enumerate(players(n)):
        t = tm.register(t, p, p.upper(), i)
    return t


def finish_round(t: Tournament, winner: dict[str, bool] | None = None) -> Tournament:
    """Every table of the current round ends: the first seat wins (or as ``winner`` says, by player)."""
    assert t.current is not None
    for table in t.current.tables:
        if table.is_bye:
            continue
        t = tm.mark_playing(t, table.match_id)
        first = next((s for s, p in enumerate(table.seats) if winner and winner.get(p)), 0)
        placings = [1 if s == first else 2 for s in range(len(table.seats))]
        t = tm.record(t, table.match_id, placings, [10 if s == first else 0 for s in range(len(table.seats))])
    return t


# ------------------------------------------------------------------ Swiss


def test_swiss_pairs_top_down_in_ranking_order() -> None:
    assert tm.swiss_pairs(players(4), {}, set()) == [("p0", "p1"), ("p2", "p3")]


def test_swiss_round_one_pairs_by_rating_then_registration() -> None:
    seeds = {"p3": 30.0, "p1": 28.0}
    t = tm.start(tournament(Format.SWISS, 4), 1000, 2, seeds)
    assert [table.seats for table in t.current.tables] == [("p3", "p1"), ("p0", "p2")]  # type: ignore[union-attr]


def test_swiss_avoids_a_repeat_when_the_round_allows_it() -> None:
    met = {"p0": {"p1"}, "p1": {"p0"}}
    assert tm.swiss_pairs(players(4), met, set()) == [("p0", "p2"), ("p1", "p3")]


def test_swiss_backtracks_when_the_greedy_choice_strands_the_last_pair() -> None:
    # p2 and p3 met: p0-p1 greedily would force p2-p3 again
    met = {"p2": {"p3"}, "p3": {"p2"}}
    pairs = tm.swiss_pairs(players(4), met, set())
    assert tm.repeats(pairs, met) == 0
    assert pairs == [("p0", "p2"), ("p1", "p3")]


def test_swiss_allows_a_repeat_only_when_none_is_avoidable() -> None:
    everyone = {p: set(players(2)) - {p} for p in players(2)}
    assert tm.swiss_pairs(players(2), everyone, set()) == [("p0", "p1")]


def test_swiss_odd_count_gives_the_bye_to_the_lowest_ranked_without_one() -> None:
    assert tm.swiss_pairs(players(5), {}, set())[-1] == ("p4",)
    assert tm.swiss_pairs(players(5), {}, {"p4"})[-1] == ("p3",)
    with_bots = tm.swiss_pairs(players(5), {}, set(), bots=True)
    assert with_bots[-1] == ("p4", "")


def test_swiss_tournament_of_five_no_repeats_and_one_bye_each_round() -> None:
    t = tm.start(tournament(Format.SWISS, 5, rounds=4), 1000, 2, {})
    seen: set[frozenset[str]] = set()
    byes: list[str] = []
    for number in range(1, 5):
        assert t.current is not None and t.current.number == number
        tables = t.current.tables
        assert sorted(p for table in tables for p in table.seats) == players(5)
        byes += [table.seats[0] for table in tables if table.is_bye]
        for table in tables:
            if not table.is_bye:
                pair = frozenset(table.seats)
                assert pair not in seen, f"round {number} repeats {set(pair)}"
                seen.add(pair)
        t = tm.advance(finish_round(t), 2000 + number)
    assert len(byes) == 4 and len(set(byes)) == 4  # nobody sits out twice while others have not
    assert t.status is Status.FINISHED and t.ended_reason == "finished"


def test_points_buchholz_and_the_games_own_score_rank_the_standings() -> None:
    t = tm.start(tournament(Format.SWISS, 4, rounds=2), 1000, 2, {})
    t = tm.advance(finish_round(t), 2000)  # p0 beats p1, p2 beats p3
    assert [tuple(tb.seats) for tb in t.current.tables] == [("p0", "p2"), ("p1", "p3")]  # type: ignore[union-attr]
    t = finish_round(t, {"p2": True, "p3": True})  # p2 beats p0, p3 beats p1
    rows = tm.standings(t)
    by = {r.player_id: r for r in rows}
    assert by["p2"].points == 2 and by["p0"].points == 1 and by["p3"].points == 1 and by["p1"].points == 0
    # p0 and p3 have one point each; p0 met p1 (0) and p2 (2): Buchholz 2; p3 met p2 (2) and p1 (0): 2
    assert by["p0"].buchholz == by["p3"].buchholz == 2
    # equal on every tie-break too (10 game points and one win each): one rank, registration order
    assert [r.player_id for r in rows] == ["p2", "p0", "p3", "p1"]
    assert [r.rank for r in rows] == [1, 2, 2, 4]


def test_buchholz_then_the_games_score_decide_between_equal_points() -> None:
    done = TableState.DONE

    def played(a: str, b: str, scores: tuple[int, int]) -> tm.Table:
        return tm.Table(1, (a, b), f"{a}-{b}", done, (1, 2) if scores[0] > scores[1] else (2, 1), scores)

    r1 = tm.Round(
        1, (played("p0", "p1", (0, 3)), played("p2", "p3", (5, 0)), tm.Table(3, ("p4",), "", done)), 0
    )
    r2 = tm.Round(
        2, (played("p4", "p2", (4, 1)), played("p1", "p3", (0, 7)), tm.Table(3, ("p0",), "", done)), 0
    )
    t = replace(tournament(Format.SWISS, 5), status=Status.RUNNING, played=(r1, r2))
    rows = tm.standings(t)
    # four players on 1 point: p2 met p3 (1) and p4 (2); p1 and p3 met two 1-pointers; p0 met p1 only
    # (a bye adds nothing); p3 scored 7 in the game, p1 3
    assert [(r.player_id, r.points, r.buchholz, r.game_score) for r in rows] == [
        ("p4", 2, 1, 4),
        ("p2", 1, 3, 6),
        ("p3", 1, 2, 7),
        ("p1", 1, 2, 3),
        ("p0", 1, 1, 0),
    ]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5]


def test_a_draw_is_half_a_point_and_a_forfeit_is_none() -> None:
    table = tm.Table(1, ("a", "b"), "m", TableState.DONE, (1, 1), (3, 3))
    assert table.points(0) == table.points(1) == Fraction(1, 2)
    lost = replace(table, placings=(2, 1), forfeited=(0,))
    assert lost.points(0) == 0 and lost.points(1) == 1
    four = tm.Table(1, ("a", "b", "c", ""), "m", TableState.DONE, (1, 2, 2, 4), (9, 5, 5, 0))
    assert [four.points(s) for s in range(4)] == [1, Fraction(1, 2), Fraction(1, 2), 0]


# ------------------------------------------------------------------ multi-seat score groups


def test_score_groups_seat_by_ranking_and_leave_byes_to_the_lowest() -> None:
    tables = tm.score_groups(players(7), {}, set(), 3, bots=False)
    assert tables == [("p0", "p1", "p2"), ("p3", "p4", "p5"), ("p6",)]


def test_score_groups_with_bots_spread_humans_and_fill_seats() -> None:
    tables = tm.score_groups(players(5), {}, set(), 4, bots=True)
    assert tables == [("p0", "p1", "p2", ""), ("p3", "p4", "", "")]


def test_score_groups_swap_to_avoid_repeats() -> None:
    met = {"p0": {"p1"}, "p1": {"p0"}}
    tables = tm.score_groups(players(6), met, set(), 3, bots=False)
    assert tm.repeats(tables, met) == 0
    assert sorted(p for t in tables for p in t) == players(6)


def test_multi_seat_swiss_plays_every_round_at_full_tables() -> None:
    t = tm.start(tournament(Format.SWISS, 9, seats=3, rounds=3), 1000, 2, {})
    for number in range(3):
        assert t.current is not None
        assert [len(table.seats) for table in t.current.tables] == [3, 3, 3]
        if number == 1:  # round 2 can avoid every repeat: it does
            met = {p: set() for p in players(9)}  # who met in round 1
            for table in t.played[0].tables:
                for p in table.seats:
                    met[p] |= set(table.seats) - {p}
            assert tm.repeats((tb.seats for tb in t.current.tables), met) == 0
        t = tm.advance(finish_round(t), 5000)
    assert t.status is Status.FINISHED
    # placings 1, 2, 2 at every table: 1 + 1/4 + 1/4 points
    assert sum(r.points for r in tm.standings(t)) == 9 * Fraction(3, 2)


# ------------------------------------------------------------------ round robin


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8])
def test_round_robin_every_pair_meets_exactly_once(n: int) -> None:
    schedule = tm.round_robin(players(n))
    rounds = n - 1 if n % 2 == 0 else n
    assert len(schedule) == rounds
    pairs = [frozenset(p) for r in schedule for p in r if "" not in p]
    assert sorted(map(sorted, pairs)) == sorted(
        map(sorted, map(frozenset, itertools.combinations(players(n), 2)))
    )
    for r in schedule:  # everyone once a round
        assert sorted(p for pair in r for p in pair if p) == players(n)


def test_round_robin_tournament_with_an_odd_count_has_one_bye_a_round() -> None:
    t = tm.start(tournament(Format.ROUND_ROBIN, 3, rounds=0), 1000, 2, {})
    assert t.rounds == 3
    for _ in range(3):
        assert t.current is not None
        assert sum(1 for table in t.current.tables if table.is_bye) == 1
        t = tm.advance(finish_round(t), 2000)
    assert t.status is Status.FINISHED
    assert all(r.byes == 1 and r.played == 2 for r in tm.standings(t))


# ------------------------------------------------------------------ single elimination


def test_bracket_seeds_apart_and_byes_to_the_top_seeds() -> None:
    assert tm.bracket(players(4)) == [("p0", "p3"), ("p1", "p2")]
    assert tm.bracket(players(8)) == [("p0", "p7"), ("p3", "p4"), ("p1", "p6"), ("p2", "p5")]
    five = tm.bracket(players(5))
    assert five == [("p0",), ("p3", "p4"), ("p1",), ("p2",)]
    assert tm.bracket(players(2)) == [("p0", "p1")]


def test_single_elimination_of_five_crowns_one_in_three_rounds() -> None:
    seeds = {p: float(10 - i) for i, p in enumerate(players(5))}  # p0 the top seed
    t = tm.start(tournament(Format.SINGLE_ELIMINATION, 5, rounds=0), 1000, 2, seeds)
    assert t.rounds == 3
    t = tm.advance(finish_round(t, {"p4": True}), 2000)  # the lowest seed wins its match
    assert t.current is not None
    assert [table.seats for table in t.current.tables] == [("p0", "p4"), ("p1", "p2")]
    t = tm.advance(finish_round(t), 3000)
    assert [table.seats for table in t.current.tables] == [("p0", "p1")]  # type: ignore[union-attr]
    t = tm.advance(finish_round(t), 4000)
    assert t.status is Status.FINISHED
    rows = tm.standings(t)
    assert rows[0].player_id == "p0" and not rows[0].eliminated
    assert all(r.eliminated for r in rows[1:])


def test_a_single_elimination_draw_goes_to_the_higher_seed() -> None:
    table = tm.Table(1, ("a", "b"), "m", TableState.DONE, (1, 1), (0, 0))
    assert table.winner() == "a"
    assert replace(table, forfeited=(0,)).winner() == "b"


# ------------------------------------------------------------------ refusals and the state machine


def test_shape_refusals() -> None:
    for fmt, seats, rounds, reason in [
        (Format.SINGLE_ELIMINATION, 3, 0, "tournament_seats"),
        (Format.ROUND_ROBIN, 4, 0, "tournament_seats"),
        (Format.SWISS, 2, 0, "tournament_rounds"),
        (Format.SWISS, 2, tm.MAX_ROUNDS + 1, "tournament_rounds"),
        (Format.ROUND_ROBIN, 2, 3, "tournament_rounds"),
    ]:
        with pytest.raises(InvalidArgument) as err:
            tm.check_shape(fmt, seats, rounds)
        assert err.value.reason == reason
    tm.check_shape(Format.SWISS, 4, 5)


def test_registration_refusals() -> None:
    t = tournament(Format.SWISS, 2)
    with pytest.raises(Conflict) as err:
        tm.register(t, "p0", "P0", 5)
    assert err.value.reason == "already_registered"
    with pytest.raises(Conflict) as err:
        tm.withdraw(t, "nobody")
    assert err.value.reason == "not_registered"
    with pytest.raises(Conflict) as err:
        tm.register(replace(t, max_players=2), "p9", "P9", 5)
    assert err.value.reason == "tournament_full"
    with pytest.raises(Conflict) as err:
        tm.register(t, "p9", "P9", t.start_ms)
    assert err.value.reason == "registration_closed"
    running = tm.start(t, 1000, 2, {})
    with pytest.raises(Conflict) as err:
        tm.register(running, "p9", "P9", 5)
    assert err.value.reason == "tournament_running"
    with pytest.raises(Conflict) as err:
        tm.cancel(running, "p1", 5)
    assert err.value.reason == "not_creator"


def test_withdrawing_before_the_start_leaves_the_list_after_it_stops_pairings() -> None:
    t = tournament(Format.SWISS, 4)
    assert [e.player_id for e in tm.withdraw(t, "p1").entrants] == ["p0", "p2", "p3"]
    running = tm.withdraw(tm.start(t, 1000, 2, {}), "p3")
    t2 = tm.advance(finish_round(running), 2000)
    assert t2.current is not None
    assert "p3" not in [p for table in t2.current.tables for p in table.seats]


def test_start_waits_for_its_time_and_cancels_with_too_few_players() -> None:
    t = tournament(Format.SWISS, 1)
    assert tm.start(t, 999, 2, {}) is t
    gone = tm.start(t, 1000, 2, {})
    assert gone.status is Status.CANCELLED and gone.ended_reason == "too_few_players"
    three_seats = tournament(Format.SWISS, 2, seats=3)
    assert tm.start(three_seats, 1000, 2, {}).status is Status.CANCELLED
    assert tm.start(replace(three_seats, allow_bots=True), 1000, 2, {}).status is Status.RUNNING


def test_match_ids_derive_from_tournament_round_and_table() -> None:
    t = tm.start(tournament(Format.SWISS, 4), 1000, 2, {})
    assert [table.match_id for table in t.current.tables] == ["t1-r1-t1", "t1-r1-t2"]  # type: ignore[union-attr]
    assert tm.start(tournament(Format.SWISS, 4), 1000, 2, {}) == t  # the same whoever computes it


def test_advance_waits_for_every_table_and_a_result_is_recorded_once() -> None:
    t = tm.start(tournament(Format.SWISS, 4), 1000, 2, {})
    first = t.current.tables[0]  # type: ignore[union-attr]
    t = tm.record(t, first.match_id, [1, 2], [5, 0])
    assert tm.advance(t, 2000) is t  # table 2 still plays
    again = tm.record(t, first.match_id, [2, 1], [0, 5])
    assert again.current.tables[0].placings == (1, 2)  # type: ignore[union-attr]
    t = tm.forfeit(t, t.current.tables[1].match_id, 1)  # type: ignore[union-attr]
    t = tm.record(t, t.current.tables[1].match_id, [1, 2], [0, 0])  # type: ignore[union-attr]
    assert tm.advance(t, 2000).current.number == 2  # type: ignore[union-attr]
    assert {r.player_id: r.forfeits for r in tm.standings(t)}["p3"] == 1


def test_single_elimination_keeps_its_bracket_when_a_winner_withdraws() -> None:
    seeds = {p: float(10 - i) for i, p in enumerate(players(8))}
    t = tm.start(tournament(Format.SINGLE_ELIMINATION, 8, rounds=0), 1000, 2, seeds)
    t = finish_round(t)  # the top seed of each table goes on: p0, p3, p1, p2
    t = tm.withdraw(t, "p3")
    t = tm.advance(t, 2000)
    assert t.current is not None
    assert [table.seats for table in t.current.tables] == [("p0",), ("p1", "p2")]  # p0's opponent left


def test_single_elimination_seats_the_higher_seed_first_after_an_upset() -> None:
    seeds = {p: float(10 - i) for i, p in enumerate(players(8))}
    t = tm.start(tournament(Format.SINGLE_ELIMINATION, 8, rounds=0), 1000, 2, seeds)
    t = tm.advance(finish_round(t, {"p7": True, "p4": True}), 2000)  # seeds 8 and 5 win
    assert t.current is not None
    assert [table.seats for table in t.current.tables] == [("p4", "p7"), ("p1", "p2")]


def test_swiss_with_bots_turns_the_bot_table_over_as_byes_would() -> None:
    t = tm.start(tournament(Format.SWISS, 5, rounds=4, bots=True), 1000, 2, {})
    at_the_bot: list[str] = []
    for number in range(1, 5):
        assert t.current is not None
        at_the_bot += [table.humans[0] for table in t.current.tables if "" in table.seats]
        t = tm.advance(finish_round(t, {"": True}), 2000 + number)  # the bot wins every time
    assert len(at_the_bot) == 4 and len(set(at_the_bot)) == 4


def test_multi_seat_swiss_ends_when_no_full_table_is_left() -> None:
    t = tm.start(tournament(Format.SWISS, 4, seats=4, rounds=5), 1000, 2, {})
    t = tm.withdraw(tm.withdraw(finish_round(t), "p2"), "p3")
    t = tm.advance(t, 2000)
    assert t.status is Status.FINISHED and t.ended_reason == "finished"


def test_listing_reads_a_bounded_number_of_tournaments() -> None:
    from services.lobby.service_layer import tournaments as service

    read = [0]

    class Repo:
        def newest(self, limit: int) -> Any:
            for i in range(10 * service.LIST_SCAN):
                read[0] += 1
                yield replace(tournament(Format.SWISS, 2), tournament_id=f"t{i}", status=Status.FINISHED)

    listing = service.TournamentService(Repo(), None, None, lambda: 0, None)  # type: ignore[arg-type]
    assert listing.list("", 20, include_ended=False) == []  # every one ended: none shown
    assert read[0] == service.LIST_SCAN
    assert len(listing.list("", 20, include_ended=True)) == 20
