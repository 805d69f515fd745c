"""Final scoring (seed "游戏结束"): points, penalties and the tie-break, and the track examples."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from services.florenza.rules.commands import ScoreGame
from services.florenza.rules.events import GameScored, PrestigeChanged
from services.florenza.rules.goods import Goods
from services.florenza.rules.model import Phase, Source
from shared.core.decider import SYSTEM

from .helpers import (
    AFFRESCO,
    CAMPANILE,
    CROCIFISSO,
    FABBRO,
    RULES,
    fold,
    game,
    of_type,
    then,
    when,
    with_goods,
    with_player,
    with_spot,
)


def _end(seats: int = 2) -> Any:
    return game(seats=seats, phase=Phase.GAME_END, round=8)


def _score(s: Any, seat: int = 0) -> Any:
    return of_type(when(s, -1, ScoreGame()), GameScored)[0].scores[seat]


def test_every_line_of_the_final_score() -> None:
    s = with_player(_end(), 0, certificates=23, prestige=6)
    s = with_goods(s, 0, money=950, marble=4, gold=3)  # 7 resources: 2 points; 950 fiorini: 3 points
    s = replace(s, captain=0, bishop=0)
    s = with_spot(with_spot(s, AFFRESCO, 0, crest=0), CAMPANILE, 0, crest=0)
    f = _score(s)
    assert (f.certificates, f.prestige, f.titles, f.resources, f.money) == (23, 6, 2, 2, 3)
    assert (f.unfinished_workshops, f.incomplete_works, f.empty_areas) == (0, -6, 0)
    assert f.total == 23 + 6 + 2 + 2 + 3 - 6


def test_an_empty_palazzo_and_an_empty_chiesa_cost_four_each_on_top_of_one_per_work() -> None:
    f = _score(_end())
    assert (f.incomplete_works, f.empty_areas, f.total) == (-8, -8, -16)
    s = with_spot(_end(), CROCIFISSO, 0, crest=0)
    assert _score(s).empty_areas == -4


def test_an_unbuilt_workshop_in_the_district_costs_one() -> None:
    # Under step 6 an unbuilt tile never outlives its round (docs: Decisions, unfinished workshops);
    # the scoring line itself still counts one if a district held one.
    s = with_player(_end(), 0, district={1: (FABBRO, True), 2: (FABBRO, False)})
    assert _score(s).unfinished_workshops == -1


def test_a_negative_prestige_track_counts_against_the_total() -> None:
    assert _score(with_player(_end(), 0, prestige=-5)).prestige == -5


def test_seed_example_prestige_past_fifty_keeps_counting() -> None:
    # Seed 2: at 53 the marker shows +50 and stands on 3; the engine keeps the plain number.
    s = with_player(game(), 0, prestige=48)
    s = fold([PrestigeChanged(0, 5, Source.ART_WORK)], s)
    assert s.players[0].prestige == 53
    s = replace(s, phase=Phase.GAME_END)
    assert _score(s).prestige == 53


def test_the_highest_total_wins_ties_go_to_resources_then_money_then_are_shared() -> None:
    s = game(seats=4, phase=Phase.GAME_END, round=8)
    for seat in range(4):
        s = with_player(s, seat, certificates=20)
    s = with_goods(s, 0, marble=2, money=200)  # 0 points from either
    s = with_goods(s, 1, marble=1, money=299)
    s = with_goods(s, 2, marble=2, money=100)
    s = with_goods(s, 3, marble=2, money=200)
    scored = of_type(when(s, -1, ScoreGame()), GameScored)[0]
    assert len({f.total for f in scored.scores}) == 1
    assert scored.placings == (1, 4, 3, 1)


def test_scoring_ends_the_match_and_the_outcome_follows() -> None:
    s = with_player(_end(), 1, certificates=5)
    assert RULES.outcome(s) is None
    assert list(RULES.legal_commands(s, SYSTEM)) == [ScoreGame()]
    s = then(s, -1, ScoreGame())
    assert s.phase is Phase.FINISHED and RULES.to_act(s) == ()
    outcome = RULES.outcome(s)
    assert outcome is not None and outcome.placings == (2, 1)
    assert outcome.scores == tuple(f.total for f in s.final)


def test_the_money_and_resource_lines_round_down() -> None:
    s = with_goods(_end(), 0, money=299, wood=2)
    f = _score(s)
    assert (f.money, f.resources, f.money_left, f.resource_count) == (0, 0, 299, 2)
    assert s.players[0].goods == Goods(money=299, wood=2)
