"""Trajan's bot hooks: the heuristic and the pruner, and greedy play with them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from services.trajan import bots
from services.trajan.rules.commands import DiscardCommodity
from services.trajan.rules.content_types import Commodity, Demand, ForumTile
from services.trajan.rules.model import Phase, Pile
from services.workers.bots.simple import GreedyBot, RandomBot
from shared.rng import Rng
from tests.support.playout import random_playout

from .helpers import RULES, fold, game, then, with_player


def test_finished_games_are_valued_by_their_final_scores() -> None:
    _, final = random_playout(RULES, RULES.make_config(3, {}), 4)
    assert bots.evaluate_all(RULES, final, 3) == tuple(float(f.total) for f in final.final)


def test_evaluate_all_agrees_with_evaluate_and_rises_with_points() -> None:
    events, _ = random_playout(RULES, RULES.make_config(4, {}), 5)
    s = fold(events[: len(events) // 2])
    assert bots.evaluate_all(RULES, s, 4) == tuple(bots.evaluate(RULES, s, x) for x in range(4))
    richer = with_player(s, 2, vp=s.players[2].vp + 10)
    assert bots.evaluate(RULES, richer, 2) > bots.evaluate(RULES, s, 2)


def test_an_unmet_demand_weighs_more_as_the_quarter_ends() -> None:
    s = with_player(replace(game(2), demands=(Demand.BREAD,)), 0, forum_tiles=())
    for round_, share in ((1, 0.25), (4, 1.0)):
        at = replace(s, round=round_)
        calm = replace(at, demands=())
        assert bots.evaluate(RULES, calm, 0) - bots.evaluate(RULES, at, 0) == pytest.approx(4 * share)
    covered = with_player(replace(s, round=4), 0, forum_tiles=(ForumTile.BREAD,))
    assert bots.evaluate(RULES, covered, 0) > bots.evaluate(RULES, replace(s, round=4), 0)


def test_coarse_pruning_keeps_one_discard_pile_per_card() -> None:
    commands = [
        DiscardCommodity(c, p) for c in (Commodity.FISH, Commodity.WINE) for p in (Pile.LEFT, Pile.RIGHT)
    ]
    assert bots.prune(RULES, game(2), 0, commands) == commands
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
            state = then(state, actor.seat if actor.is_seat else -1, cmd, seed=rng.below(1 << 30))
        assert state.phase is Phase.FINISHED and not RULES.invariant_violations(state)
        wins += state.placings[0] == 1
    assert wins >= 2
