"""Trajan's bot hooks: the heuristic and the pruner, and greedy play with them."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from services.trajan import bots
from services.trajan.rules.commands import Decline, DiscardCommodity, UseExtraAction
from services.trajan.rules.content_types import Action, Commodity, Demand, ForumTile
from services.trajan.rules.model import Phase, Pile, State, Step, StepKind
from services.workers.bots import Budget, MctsBot
from services.workers.bots.simple import GreedyBot, RandomBot
from shared.core.decider import Actor
from shared.core.rng import Rng
from tests.support.playout import random_playout

from .helpers import RULES, acting, fold, game, then, with_player


def test_finished_games_are_valued_by_their_final_scores() -> None:
    _, final = random_playout(RULES, RULES.make_config(3, {}), 4)
    assert bots.evaluate_all(RULES, final, 3) == tuple(float(f.total) for f in final.final)


def test_evaluate_all_agrees_with_evaluate_and_rises_with_points() -> None:
    events, _ = random_playout(RULES, RULES.make_config(4, {}), 5)
    s = fold(events[: len(events) // 2])
    assert bots.evaluate_all(RULES, s, 4) == tuple(bots.evaluate(RULES, s, x) for x in range(4))
    richer = with_player(s, 2, vp=s.players[2].vp + 10)
    assert bots.evaluate(RULES, richer, 2) > bots.evaluate(RULES, s, 2)


def test_the_revealed_demands_cost_their_penalty_more_as_the_quarter_ends() -> None:
    """Three revealed demands a seat cannot meet cost what the seed's table says (-15), weighed by how
    far the quarter has gone; once the demands are being paid they count in full."""
    s = with_player(
        replace(game(2), demands=(Demand.BREAD, Demand.GAMES, Demand.RELIGION)), 0, forum_tiles=()
    )
    covered = with_player(s, 0, forum_tiles=(ForumTile.BREAD, ForumTile.GAMES, ForumTile.RELIGION))
    gaps = []
    for round_ in (1, 2, 3, 4):
        at, safe = replace(s, round=round_), replace(covered, round=round_)
        gaps.append(bots.evaluate(RULES, safe, 0) - bots.evaluate(RULES, at, 0))
    assert gaps == sorted(gaps) and gaps[0] < gaps[-1]
    paying = replace(s, round=4, phase=Phase.DEMANDS, demand_choosers=(0,))
    paid = replace(paying, demands_paid=(0,))
    assert bots.evaluate(RULES, paid, 0) - bots.evaluate(RULES, paying, 0) == pytest.approx(15)


def test_hidden_demands_are_averaged_over_the_face_down_tiles() -> None:
    """Before any demand is revealed (round 1 of 4), three will come from 5 bread, 5 games and 5 religion
    tiles: of the C(15, 3) = 455 draws, 125 are all different, 300 have two of a kind and 30 three. A seat
    without a demand tile risks -15 on every draw; one with a tile of each kind -4 on 300 draws and -9 on
    30; both weighed by the quarter's first round."""
    s = replace(game(2), round=1, demands=(), demand_pool=tuple(sorted(Demand)) * 5)
    s = with_player(s, 0, bonus_tiles=())
    none = with_player(s, 0, forum_tiles=())
    each = with_player(s, 0, forum_tiles=(ForumTile.BREAD, ForumTile.GAMES, ForumTile.RELIGION))
    clock = bots.clock(RULES.content, s)
    assert sum(chance for chance, _ in clock.outlook) == pytest.approx(1)
    weight = bots.DEMAND_WEIGHT + (1 - bots.DEMAND_WEIGHT) * 0.25
    expected_each = (300 * 4 + 30 * 9) / 455
    spread = bots.evaluate(RULES, each, 0) - bots.evaluate(RULES, none, 0)
    assert spread == pytest.approx((15 - expected_each) * weight)


def test_pruning_drops_declining_an_action_but_not_an_extra_action() -> None:
    s = acting(game(2), 0, Action.SENATE)
    commands = list(RULES.legal_commands(s, Actor.of_seat(0)))
    assert Decline() in commands and len(commands) > 1
    assert bots.prune(RULES, s, 0, commands) == [c for c in commands if c != Decline()]
    extra = replace(s, pending=(Step(StepKind.EXTRA_ACTION, action=Action.SENATE),))
    offered = [UseExtraAction(ForumTile.EXTRA_SENATE), Decline()]
    assert bots.prune(RULES, extra, 0, offered) == offered


def test_pruning_keeps_one_discard_pile_per_card() -> None:
    commands = [
        DiscardCommodity(c, p) for c in (Commodity.FISH, Commodity.WINE) for p in (Pile.LEFT, Pile.RIGHT)
    ]
    assert bots.prune(RULES, game(2), 0, commands) == [commands[0], commands[2]]
    assert bots.prune(RULES, game(2), 0, commands, coarse=True) == [commands[0], commands[2]]


def test_greedy_with_the_heuristic_beats_random_play_over_a_few_games() -> None:
    greedy, rand = GreedyBot(bots.evaluate), RandomBot()
    wins = 0
    for seed in range(3):
        rng = Rng(seed)
        state = fold(list(RULES.setup(RULES.make_config(2, {}), rng.fork("setup"))))
        while actors := RULES.to_act(state):
            actor = actors[0]
            if actor.is_system:
                cmd = RULES.legal_commands(state, actor)[0]
            else:
                bot = greedy if actor.seat == 0 else rand
                cmd = bot.choose(RULES, state, actor.seat, 2, rng.fork("bot"))
            state = then(state, actor.seat if actor.is_seat else -1, cmd, rng.below(1 << 30))
        assert state.phase is Phase.FINISHED and not RULES.invariant_violations(state)
        wins += state.placings[0] == 1
    assert wins >= 2


def test_bots_choose_alike_wherever_the_cards_they_cannot_see_really_are() -> None:
    """Bots see only what their seat sees: with the unseen cards (other hands, the draw pile) dealt
    otherwise, greedy and mcts (an iteration budget, so no clock) choose the same command."""
    points: list[tuple[State, int]] = []

    def keep(state: State, actor: Actor, command: Any, legal: Any, events: Any) -> None:
        if actor.is_seat and len(legal) > 1 and state.phase is Phase.TURNS:
            points.append((state, actor.seat))

    random_playout(RULES, RULES.make_config(4, {}), 12, on_step=keep)
    for s, seat in points[100::150]:
        unseen = sorted([*s.deck, *(c for p in s.players if p.seat != seat for c in p.hand)])
        moved, players = list(reversed(unseen)), list(s.players)
        for p in s.players:
            if p.seat != seat:
                players[p.seat] = replace(p, hand=tuple(sorted(moved[: len(p.hand)])))
                moved = moved[len(p.hand) :]
        other = replace(s, players=tuple(players), deck=tuple(sorted(moved)))
        assert other != s
        budget = Budget(seconds=60, iterations=15)
        mcts = MctsBot(bots.evaluate, budget, all_seats=bots.evaluate_all, prune=bots.prune)
        for bot in (GreedyBot(bots.evaluate), mcts):
            assert bot.choose(RULES, s, seat, 4, Rng(9)) == bot.choose(RULES, other, seat, 4, Rng(9))
