"""The ``mcts`` level's opt-in hooks: a game's horizon ends the search lines, common dice pair the
root commands' lines (the n-th line of every root command rolls the same dice), random ties draw among
equally ranked root commands."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from typing import Any

from services.workers.bots import Budget, make_bot, rollout_depth
from services.workers.bots.base import DEFAULT_ROLLOUT_DEPTH
from services.workers.bots.heuristics import bot_hooks
from services.workers.bots.mcts import MctsBot
from shared.core.decider import Actor
from shared.core.rng import Rng


@dataclass(frozen=True)
class Dice:
    """Two seats take turns for ``plies`` plies; a turn rolls a die and adds it, plus ``bonus``."""

    ply: int = 0
    scores: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class Bet:
    bonus: int


@dataclass
class DiceRules:
    """A tiny game with luck at every step; records the die of every step from the root's state."""

    plies: int = 6
    root_rolls: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))

    def to_act(self, state: Dice) -> tuple[Actor, ...]:
        return () if state.ply >= self.plies else (Actor.of_seat(state.ply % 2),)

    def legal_commands(self, state: Dice, actor: Actor) -> list[Bet]:
        return [Bet(0), Bet(1), Bet(2)]

    def decide(self, state: Dice, actor: Actor, command: Bet, rng: Rng) -> list[tuple[int, int]]:
        die = rng.randint(1, 6)
        if state.ply == 0:
            self.root_rolls[command.bonus].append(die)
        return [(actor.seat, die + command.bonus)]

    def evolve(self, state: Dice, event: tuple[int, int]) -> Dice:
        seat, gain = event
        scores = (state.scores[0] + gain * (seat == 0), state.scores[1] + gain * (seat == 1))
        return replace(state, ply=state.ply + 1, scores=scores)

    def outcome(self, state: Dice) -> None:
        return None

    def determinize(self, state: Dice, seat: int, rng: Rng) -> Dice:
        return state


def _heuristic(seen: list[int]) -> Any:
    def value(rules: Any, state: Dice, seat: int) -> float:
        seen.append(state.ply)
        return float(state.scores[seat])

    return value


BUDGET = Budget(seconds=60.0, iterations=40)


def test_common_dice_give_the_nth_line_of_every_root_command_the_same_roll() -> None:
    rules = DiceRules()
    MctsBot(_heuristic([]), BUDGET, common_dice=True).search(rules, Dice(), 0, 2, Rng(7))
    rolls = list(rules.root_rolls.values())
    assert len(rolls) == 3 and min(len(r) for r in rolls) >= 3
    shortest = min(len(r) for r in rolls)
    assert all(r[:shortest] == rolls[0][:shortest] for r in rolls)


def test_without_common_dice_the_root_commands_roll_apart() -> None:
    rules = DiceRules()
    MctsBot(_heuristic([]), BUDGET).search(rules, Dice(), 0, 2, Rng(7))
    rolls = list(rules.root_rolls.values())
    shortest = min(len(r) for r in rolls)
    assert any(r[:shortest] != rolls[0][:shortest] for r in rolls)


def test_the_horizon_ends_every_line_where_it_says() -> None:
    seen: list[int] = []
    after_one = MctsBot(_heuristic(seen), BUDGET, horizon=lambda rules, start, state: state.ply > start.ply)
    after_one.search(DiceRules(), Dice(), 0, 2, Rng(7))
    assert set(seen) == {1}
    seen.clear()
    MctsBot(_heuristic(seen), BUDGET).search(DiceRules(), Dice(), 0, 2, Rng(7))
    assert 2 in seen  # without it the lines go on to the seat's next turn


def test_random_ties_draw_among_equally_ranked_root_commands() -> None:
    def flat(rules: Any, state: Dice, seat: int) -> float:
        return 0.0  # every command ties

    def chosen(bot: MctsBot) -> set[Bet]:
        return {bot.choose(DiceRules(), Dice(), 0, 2, Rng(seed)) for seed in range(12)}

    assert chosen(MctsBot(flat, BUDGET, common_dice=True)) == {Bet(0)}  # the first legal one
    assert chosen(MctsBot(flat, BUDGET, common_dice=True, random_ties=True)) == {Bet(0), Bet(1), Bet(2)}


def test_a_line_goes_at_most_the_rollout_depth() -> None:
    never = lambda rules, start, state: False  # noqa: E731 - no horizon but the depth
    for depth in (3, 7):
        seen: list[int] = []
        bot = MctsBot(_heuristic(seen), replace(BUDGET, rollout_depth=depth), horizon=never)
        bot.search(DiceRules(plies=40), Dice(), 0, 2, Rng(7))
        assert max(seen) == depth


def test_a_game_sets_its_own_rollout_depth_and_a_budget_that_sets_one_overrides_it() -> None:
    assert bot_hooks("florenza").rollout_depth == rollout_depth("florenza") == 24
    assert bot_hooks("lorenzo").rollout_depth is None and rollout_depth("lorenzo") == DEFAULT_ROLLOUT_DEPTH
    assert rollout_depth("florenza", Budget(rollout_depth=6)) == 6
    assert make_bot("florenza", "mcts").budget.rollout_depth == 24  # type: ignore[attr-defined]
    assert make_bot("florenza", "mcts", Budget(rollout_depth=6)).budget.rollout_depth == 6  # type: ignore[attr-defined]
    assert make_bot("lorenzo", "mcts", BUDGET).budget.rollout_depth == DEFAULT_ROLLOUT_DEPTH  # type: ignore[attr-defined]
