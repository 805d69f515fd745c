"""Vatican Report (rulebook example), all 21 excommunication penalties, final scoring and tie-breaks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from services.lorenzo.rules.commands import (
    AnswerVaticanReport,
    EndGame,
    PlaceFamilyMember,
    ResolveVaticanReport,
    StartRound,
)
from services.lorenzo.rules.events import (
    Excommunicated,
    FaithPointsConverted,
    FamilyMemberPlaced,
    GameEnded,
    RoundStarted,
)
from services.lorenzo.rules.goods import Goods
from services.lorenzo.rules.model import Member, Phase, Source
from shared.core.decider import SYSTEM, Actor, RuleViolation

from .helpers import RULES, game, net, of_type, then, when, with_player

B, N = Member.BLACK, Member.NEUTRAL


def _report(round: int = 2, seats: int = 2) -> object:
    return replace(game(seats=seats, round=round), phase=Phase.VATICAN)


def test_rulebook_vatican_example() -> None:
    # Seed 000, period I needs 3 faith: red (2) is excommunicated and keeps the marker; green (3) may choose.
    s = with_player(with_player(_report(), 0, goods=Goods(faith=2)), 1, goods=Goods(faith=3))  # type: ignore[arg-type]
    assert RULES.to_act(s) == (Actor.of_seat(1),)
    supported = then(then(s, 1, AnswerVaticanReport(True)), -1, ResolveVaticanReport())
    assert supported.players[1].goods == Goods(faith=0, victory=3)
    assert supported.players[0].goods == Goods(faith=2) and supported.players[0].excommunications == (1,)
    refused = then(then(s, 1, AnswerVaticanReport(False)), -1, ResolveVaticanReport())
    assert refused.players[1].goods == Goods(faith=3) and refused.players[1].excommunications == (1,)


def test_vatican_answers_are_simultaneous_and_hidden() -> None:
    s = with_player(with_player(_report(), 0, goods=Goods(faith=5)), 1, goods=Goods(faith=3))  # type: ignore[arg-type]
    assert set(RULES.to_act(s)) == {Actor.of_seat(0), Actor.of_seat(1)}
    s = then(s, 0, AnswerVaticanReport(True))
    assert RULES.view(s, Actor.of_seat(1)).players[0].vatican_answer is None
    assert RULES.to_act(then(s, 1, AnswerVaticanReport(True))) == (SYSTEM,)


def test_faith_victory_table_and_sisto_iv() -> None:
    s = with_player(_report(), 0, goods=Goods(faith=16), leaders=(12,))  # type: ignore[arg-type]
    s = then(then(s, 0, AnswerVaticanReport(True)), -1, ResolveVaticanReport())
    assert s.players[0].goods.victory == 30 + 5


def test_after_round_six_the_excommunicated_still_score_their_faith() -> None:
    s = with_player(_report(round=6), 0, goods=Goods(faith=4))  # type: ignore[arg-type]
    events = when(s, -1, ResolveVaticanReport())
    assert of_type(events, Excommunicated)[0].tile == 15
    assert of_type(events, FaithPointsConverted)[0].victory == 4


def _excommunicated(tile: int, **player: object) -> object:
    s = game(seats=3, dice=(4, 4, 4))
    return with_player(s, 0, excommunications=(tile,), **player)


@pytest.mark.parametrize(
    ("tile", "space", "expected"),
    [
        (1, 19, Goods(military=2, coins=2)),  # 1_1: one military point fewer per source
        (2, 17, Goods(coins=4)),  # 1_2
        (3, 18, Goods(servants=4)),  # 1_3
    ],
)
def test_period_one_tiles_reduce_each_gain(tile: int, space: int, expected: Goods) -> None:
    s = replace(_excommunicated(tile), config=replace(game(seats=4).config))  # type: ignore[type-var]
    s = replace(s, players=(*s.players, game(seats=4).players[3]))
    assert net(when(s, 0, PlaceFamilyMember(B, space)), 0, Source.MARKET) == expected


def test_tile_1_4_reduces_wood_and_stone_per_source() -> None:
    s = _excommunicated(4, territories=(2,))  # Woods gives 1 wood at harvest 2
    assert net(when(s, 0, PlaceFamilyMember(B, 22)), 0, Source.HARVEST) == Goods(servants=1)


@pytest.mark.parametrize(("tile", "space"), [(5, 22), (6, 24)])
def test_tiles_1_5_and_1_6_take_three_from_harvest_and_production(tile: int, space: int) -> None:
    s = _excommunicated(tile)
    assert of_type(when(s, 0, PlaceFamilyMember(B, space)), FamilyMemberPlaced)[0].value == 1


def test_tile_1_7_takes_one_from_coloured_members() -> None:
    s = _excommunicated(7)
    assert of_type(when(s, 0, PlaceFamilyMember(B, 2)), FamilyMemberPlaced)[0].value == 3 + 0  # 4-1 reaches 3
    with pytest.raises(RuleViolation):
        when(with_player(s, 0, excommunications=(7,)), 0, PlaceFamilyMember(B, 3))


@pytest.mark.parametrize(("tile", "space"), [(8, 2), (9, 10), (10, 6), (11, 14)])
def test_period_two_tiles_take_four_from_card_actions_of_their_type(tile: int, space: int) -> None:
    s = _excommunicated(tile, goods=Goods(coins=9, wood=9, stone=9, servants=9, military=9))
    with pytest.raises(RuleViolation) as e:
        when(s, 0, PlaceFamilyMember(B, space))  # 4 - 4 = 0 cannot reach floor 2's 3 without servants
    assert e.value.code == "wrong_servants"
    assert when(s, 0, PlaceFamilyMember(B, space, servants=3))


def test_tile_2_5_forbids_the_market() -> None:
    with pytest.raises(RuleViolation) as e:
        when(_excommunicated(12), 0, PlaceFamilyMember(B, 17))  # type: ignore[arg-type]
    assert e.value.code == "market_forbidden"


def test_tile_2_6_costs_two_servants_per_point() -> None:
    s = _excommunicated(13, goods=Goods(servants=2, coins=5))
    with pytest.raises(RuleViolation):
        when(s, 0, PlaceFamilyMember(B, 3, servants=1))
    assert of_type(when(s, 0, PlaceFamilyMember(B, 3, servants=2)), FamilyMemberPlaced)[0].value == 5


def test_tile_2_7_skips_the_first_turn_and_places_last() -> None:
    s = replace(with_player(game(seats=3), 1, excommunications=(14,)), phase=Phase.ROUND_START, round=2)
    queue = of_type(when(s, -1, StartRound()), RoundStarted)[0].turn_queue
    assert queue == (0, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 1)


def _final(*players: dict[str, object], order: tuple[int, ...] | None = None) -> GameEnded:
    s = game(seats=len(players), order=order)
    for seat, fields in enumerate(players):
        s = with_player(s, seat, **fields)
    s = replace(s, phase=Phase.GAME_END)
    return of_type(when(s, -1, EndGame()), GameEnded)[0]


def test_final_scoring_tables() -> None:
    ended = _final(
        {
            "territories": (1, 2, 3, 4),
            "characters": (49, 50, 51),
            "ventures": (73, 74),
            "goods": Goods(coins=11),
        },
        {"goods": Goods(military=1)},
    )
    # 4 territories 4, 3 characters 6, ventures 4 + 5, military: second (2), 11 coins -> 2
    assert ended.scores[0] == 4 + 6 + 9 + 2 + 2
    assert ended.scores[1] == 5


def test_military_tie_for_first_gives_five_to_all_and_no_second() -> None:
    ended = _final({"goods": Goods(military=4)}, {"goods": Goods(military=4)}, {"goods": Goods(military=1)})
    assert ended.scores == (5, 5, 0)


def test_military_tie_for_second_gives_two_to_each() -> None:
    ended = _final({"goods": Goods(military=4)}, {"goods": Goods(military=2)}, {"goods": Goods(military=2)})
    assert ended.scores == (5, 2, 2)


def test_score_ties_go_to_the_player_ahead_in_turn_order() -> None:
    ended = _final({"goods": Goods(victory=10)}, {"goods": Goods(victory=10)}, order=(1, 0))
    assert ended.placings == (2, 1)


@pytest.mark.parametrize(
    ("tile", "fields", "score"),
    [
        (15, {"characters": (49, 50)}, 0),  # 3_1 no character points
        (16, {"ventures": (73,)}, 0),  # 3_2 no venture points
        (17, {"territories": (1, 2, 3)}, 0),  # 3_3 no territory points
        (18, {"goods": Goods(victory=26)}, 21),  # 3_4: lose 1 per 5 VP before scoring
        (19, {"goods": Goods(victory=10, military=3)}, 10 + 5 - 3),  # 3_5 (alone: first in military)
        (20, {"goods": Goods(victory=10), "buildings": (25,)}, 10 - 4),  # 3_6 Mint costs 1 wood 3 stone
        (21, {"goods": Goods(victory=10, coins=5, wood=2)}, 10 + 1 - 7),  # 3_7 per resource
    ],
)
def test_period_three_tiles_bite_at_final_scoring(tile: int, fields: dict[str, object], score: int) -> None:
    ended = _final({"excommunications": (tile,), **fields}, {"goods": Goods(military=0)})
    # both players tie for first in military (5 each) except with 3_5, where the score already counts it
    assert ended.scores[0] == (score if tile == 19 else score + 5)
