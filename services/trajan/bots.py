"""Trajan's bot hooks: the heuristic (victory points now plus a valuation of what may become points) and a
pruner of commands whose outcomes coincide.

Meant to be reached through the game's manifest (``MANIFEST.bots()``); the bot levels themselves are
generic (``services/workers/bots/``). The heuristic reads only what a seat may see of any seat (hands only
by their size) and scores the end of the game as if it came now (``final_score``: hand, work area, camp,
unfinished Trajan tiles, construction sets, bonus tiles), then adds what the time left may still turn into
points. The weights are first estimates on the victory-point scale, not yet tuned with ``tabula simulate``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from services.trajan.rules.commands import DiscardCommodity, TakeStartTrajanTile
from services.trajan.rules.content_types import Action, Content, ForumKind
from services.trajan.rules.model import Payment, Phase, PlayerState, State, StepKind
from services.trajan.rules.quarter import payment_plans, senate_ranking
from services.trajan.rules.queries import bowl_action
from services.trajan.rules.scoring import final_score

ROUNDS = 16
ACTION_VALUE = {  # what taking an action is worth on average, in VP, before its option is chosen
    Action.SEAPORT: 2.0,
    Action.FORUM: 2.5,
    Action.MILITARY: 2.0,
    Action.SENATE: 3.0,
    Action.TRAJAN: 2.0,
    Action.CONSTRUCTION: 2.5,
}
EXTRA_TILE = 2.0  # an extra action tile on the mat: one more action
PLUS_TWO = 1.0  # a [+2] marker: worth something only with extra action tiles
TRAJAN_TILE_SHARE = 0.5  # of an unfinished tile's VP, for every marker of its colours already in its bowl
FIGURE = 0.8  # a worker in the work area / legionnaire in the camp may still take a tile or a province
HAND_CARD = 0.5  # a card may still ship (beyond the 1 VP it scores in hand)
CONSUL, PROCONSUL = 5.0, 3.0  # a bonus tile, yellow / grey side


def evaluate(rules: Any, state: State, seat: int) -> float:
    """How good ``state`` looks for ``seat``, in victory points (higher is better)."""
    return evaluate_all(rules, state, len(state.players))[seat] if state.players else 0.0


def evaluate_all(rules: Any, state: State, seats: int) -> tuple[float, ...]:
    """``evaluate`` for every seat at once (what ``mcts`` scores each leaf with)."""
    content: Content = rules.content
    if not state.players:
        return (0.0,) * seats
    if state.phase is Phase.FINISHED and state.final:
        return tuple(float(state.final[seat].total) for seat in range(seats))
    left = max(ROUNDS - state.round, 0) / ROUNDS  # share of the game still to come
    senate = _senate(content, state)
    return tuple(_value(content, state, p, left) + senate[p.seat] for p in state.players)


def _value(c: Content, s: State, p: PlayerState, left: float) -> float:
    return (
        final_score(c, s, p.seat).total
        + left * _potential(c, p)
        - _demand_risk(c, s, p.seat)
        + (_pending(c, s) if p.seat == s.active and s.phase is Phase.TURNS else 0.0)
    )


def _potential(c: Content, p: PlayerState) -> float:
    """What figures, cards, tiles and markers may still become, scaled by the time left."""
    extra = sum(1 for t in p.forum_tiles if c.forum_tile[t].kind is ForumKind.EXTRA_ACTION)
    trajan = 0.0
    for slot, tile in enumerate(p.slots, start=1):
        if tile:
            have = Counter(p.bowls[slot - 1].markers)
            need = Counter(c.trajan_tile[tile].colours)
            there = sum(min(have[x], n) for x, n in need.items())
            trajan += TRAJAN_TILE_SHARE * c.trajan_tile[tile].vp * there / 2
    figures = FIGURE * (p.work_area + p.camp)
    return trajan + figures + HAND_CARD * len(p.hand) + EXTRA_TILE * extra + PLUS_TWO * len(p.plus_two)


def _demand_risk(c: Content, s: State, seat: int) -> float:
    """The penalty the revealed demands would cost now, weighted by how far the quarter has gone."""
    if not s.demands or s.phase not in (Phase.TURNS, Phase.ROUND_END, Phase.DEMANDS):
        return 0.0
    unmet = payment_plans(c, s, seat)[0].count(Payment.UNMET)
    if not unmet:
        return 0.0
    done = ((s.round - 1) % c.board.rounds_per_quarter + 1) / c.board.rounds_per_quarter
    return done * c.demands.penalties[unmet - 1]


def _senate(c: Content, s: State) -> dict[int, float]:
    """The bonus tiles the senate ranking would bring, weighted by how far the quarter has gone."""
    out = {p.seat: 0.0 for p in s.players}
    if s.phase not in (Phase.TURNS, Phase.ROUND_END, Phase.DEMANDS) or s.quarter < 1:
        return out
    ranking = senate_ranking(c, s)
    done = ((s.round - 1) % c.board.rounds_per_quarter + 1) / c.board.rounds_per_quarter
    out[ranking[0]] += done * CONSUL
    out[ranking[1]] += done * PROCONSUL
    return out


def _pending(c: Content, s: State) -> float:
    """Steps the active seat still owes this turn are worth something before they are taken (``greedy``
    looks one command ahead, and a turn is several commands)."""
    value = 0.0
    for step in s.pending:
        match step.kind:
            case StepKind.SOW:
                target = (s.next_bowl - 1 + len(s.in_hand) - 1) % len(c.board.bowls) + 1
                value += ACTION_VALUE[bowl_action(c, target)]
            case StepKind.ACTION | StepKind.EXTRA_ACTION:
                assert step.action is not None
                value += ACTION_VALUE[step.action] * (0.5 if step.kind is StepKind.EXTRA_ACTION else 1.0)
            case StepKind.TRAJAN_EFFECT:
                value += 1.5
            case StepKind.LOAD_CARGO:
                value += 2.0
    return value


def prune(rules: Any, state: State, seat: int, commands: Sequence[Any], coarse: bool = False) -> list[Any]:
    """The commands worth searching. Exact duplicates do not occur (``legal_commands`` lists each outcome
    once); ``coarse`` (another seat's move, where only its likely choice matters) keeps one discard pile per
    card and one starting slot per Trajan stack."""
    if not coarse:
        return list(commands)
    seen: set[Any] = set()
    out = []
    for c in commands:
        key: Any = c
        if isinstance(c, DiscardCommodity):
            key = ("discard", c.commodity)
        elif isinstance(c, TakeStartTrajanTile):
            key = ("start_tile", c.stack)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out
