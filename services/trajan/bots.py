"""Trajan's bot hooks: the heuristic (victory points now plus a valuation of what may become points) and a
pruner of commands no better than another.

Meant to be reached through the game's manifest (``MANIFEST.bots()``); the bot levels themselves are
generic (``services/workers/bots/``). Bots evaluate determinized states (``rules.determinize``): the other
seats' hands and the draw pile there are resampled, so what the heuristic reads of them reveals nothing.
It is on the victory-point scale:

* the game's end as if it came now (``scoring.final_score``: VP, hand, work area, camp, unfinished Trajan
  tiles, construction sets, bonus tiles);
* what the time left may still turn into points: unfinished Trajan tiles by the markers already in their
  bowls, figures in the work area and the camp, the best shipment the hand makes, extra action tiles and
  [+2] markers, construction kinds one or two tiles short of a set;
* the people's demands: the penalty this quarter's demands are expected to cost (the hidden ones averaged
  over the face-down tiles), weighted by how far the quarter has gone, and kept tiles for later quarters;
* the bonus tile the current senate ranking would bring its consul and proconsul;
* for the seat whose turn it is, what the steps it still owes are worth (``greedy`` looks one command
  ahead, and a turn is several commands).

The weights are first estimates, measured with the bot bench but not tuned (docs/rules/trajan.md, "Bot hooks",
and docs/workers.md, "Bench", have the figures).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from math import comb
from typing import Any

from services.trajan.rules.commands import Decline, DiscardCommodity, TakeStartTrajanTile
from services.trajan.rules.content_types import (
    Action,
    Colour,
    Content,
    Demand,
    ForumKind,
    ForumTile,
    ShipKind,
    TrajanEffect,
)
from services.trajan.rules.model import Phase, PlayerState, State, StepKind
from services.trajan.rules.queries import bowl_action, senate_votes
from services.trajan.rules.scoring import (
    OwnedTiles,
    board_bonus_points,
    figures_on_board,
    mat_parts,
    own_bonus_points,
)
from shared.core.ranked_rules import settled

ACTION_VALUE = {  # what taking an action is worth on average, in VP, before its option is chosen
    Action.SEAPORT: 2.0,
    Action.FORUM: 2.5,
    Action.MILITARY: 2.5,
    Action.SENATE: 3.5,
    Action.TRAJAN: 2.0,
    Action.CONSTRUCTION: 3.0,
}
EXTRA_TILE = 2.0  # an extra action tile on the mat: one more action
PLUS_TWO = 1.0  # a [+2] marker, per extra action tile of its action
COMPLETION = (0.2, 0.45, 0.8)  # chance an unfinished Trajan tile completes, by its colours already there
CARDS_DRAWN = 2.5  # a Trajan tile's two cards
FIGURE = 1.5  # a figure moved onto the board by a Trajan tile, beyond its end-game VP
WORKER = 2.0  # a worker in the work area may still take a construction tile
LEGIONNAIRE = 2.0  # a legionnaire in the camp may still score a province
SHIPMENT = 0.5  # share of the best shipment the hand makes now
SET_PROGRESS = 0.25  # share of the next construction set's VP, per kind one or two tiles short
DEMAND_WEIGHT = 0.5  # the expected penalty weighs this much at a quarter's start, fully at its end
SPARE_DEMAND = 1.5  # a demand tile beyond this quarter's needs, per quarter still to come
KEPT_TILE = 2.0  # a kept Trajan demand tile, per quarter still to come after this one
CONSUL, PROCONSUL = 6.0, 3.5  # a bonus tile, yellow / grey side
EFFECT_STEP = 2.0  # an owed Trajan tile effect
CARGO_STEP = 2.0  # an owed shipment


DEMANDS = tuple(Demand)
Counts = tuple[int, ...]  # per kind of demand, in ``DEMANDS`` order
Outlook = tuple[tuple[float, Counts], ...]  # (probability, this quarter's demands)
Board = tuple[list[int], list[int]]  # workers on sites and legionnaires in provinces, by seat


@dataclass(frozen=True, slots=True)
class Clock:
    """How much of the game and of the quarter is left, and the demands still to come this quarter."""

    left: float  # share of the game's rounds still to play (1 at the start, 0 at the end)
    done: float  # share of the quarter's rounds begun
    quarters_after: int  # whole quarters after this one
    outlook: Outlook


def clock(c: Content, s: State) -> Clock:
    b = c.board
    rounds = b.rounds_per_quarter * b.quarters
    in_quarter = (s.round - 1) % b.rounds_per_quarter + 1 if s.round else 1
    outlook: Outlook = ()
    if s.phase in (Phase.TURNS, Phase.ROUND_END, Phase.DEMANDS):
        hidden = len(c.demands.reveal_after_rounds) - len(s.demands) if s.phase is not Phase.DEMANDS else 0
        outlook = _outlook(s.demands, s.demand_pool, max(0, min(hidden, len(s.demand_pool))))
    return Clock(
        left=max(rounds - s.round + 1, 0) / rounds if s.round else 1.0,
        done=in_quarter / b.rounds_per_quarter,
        quarters_after=max(b.quarters - max(s.quarter, 1), 0),
        outlook=outlook,
    )


@functools.lru_cache(maxsize=512)
def _outlook(revealed: tuple[Demand, ...], pool: tuple[Demand, ...], hidden: int) -> Outlook:
    """This quarter's demands: the revealed ones plus every way the ``hidden`` ones may come out of the
    face-down tiles, with its probability (multivariate hypergeometric). Cached: a quarter has few."""
    left = [pool.count(d) for d in DEMANDS]
    shown = [revealed.count(d) for d in DEMANDS]
    ways = comb(len(pool), hidden)
    out = []
    for split in product(range(hidden + 1), repeat=len(DEMANDS)):
        if sum(split) != hidden:
            continue
        weight = 1
        for n, k in zip(left, split, strict=True):
            weight *= comb(n, k)
        if weight:
            out.append((weight / ways, tuple(a + k for a, k in zip(shown, split, strict=True))))
    return tuple(out)


def evaluate(rules: Any, state: State, seat: int) -> float:
    """How good ``state`` looks for ``seat``, in victory points (higher is better)."""
    return evaluate_all(rules, state, len(state.players))[seat] if state.players else 0.0


def evaluate_all(rules: Any, state: State, seats: int) -> tuple[float, ...]:
    """``evaluate`` for every seat at once (what ``mcts`` scores each leaf with)."""
    content: Content = rules.content
    known = settled(state, seats, Phase.FINISHED)
    if known is not None:
        return known
    time = clock(content, state)
    own = [_own(content, p, time) for p in state.players]
    senate = _senate(state, time, [x.votes for x in own])
    board = figures_on_board(state) if any(x.board_bonus for x in own) else None
    return tuple(
        _value(content, state, p, x, time, board) + senate[p.seat]
        for p, x in zip(state.players, own, strict=True)
    )


def _value(c: Content, s: State, p: PlayerState, own: _Own, t: Clock, board: Board | None) -> float:
    """``board``: ``figures_on_board`` (only needed for the bonus tiles that count them)."""
    active = p.seat == s.active and s.phase is Phase.TURNS
    bonus = own.bonus
    if board is not None and own.board_bonus:
        bonus += board_bonus_points(own.board_bonus, board[0][p.seat], board[1][p.seat])
    return (
        p.vp
        + own.mat
        + bonus
        + t.left * own.potential
        - _demand_penalty(c, s, p, own, t)
        + own.reserves
        + (_pending(c, s, p) if active else 0.0)
    )


@dataclass(frozen=True, slots=True)
class _Own:
    """What the valuation reads of a player's own pieces (they change only with the ``PlayerState``)."""

    mat: int  # ``mat_parts``: hand, work area, camp, unfinished Trajan tiles, construction sets
    bonus: int  # the bonus tiles that count own pieces ...
    board_bonus: OwnedTiles  # ... and those that count figures on the board
    potential: float  # ``_potential``
    reserves: float  # ``_reserves``
    covers: Counts  # ``_covers``
    wild_demands: int  # wild demand forum tiles
    votes: int  # ``senate_votes``


class _OwnCache:
    """What a player's own pieces are worth (``_Own``), kept per ``PlayerState``.

    ``evolve`` copies only the players an event changes and shares the others between states, so the search
    meets the same ``PlayerState`` objects again and again: a seat's own value is computed once per object
    (and per quarters still to come, which a kept Trajan tile's value depends on). Entries hold the object
    itself, so its id cannot be reused while it is cached; the cache is emptied when it grows large.
    """

    LIMIT = 50_000

    def __init__(self) -> None:
        self.entries: dict[tuple[int, int], tuple[PlayerState, _Own]] = {}

    def get(self, c: Content, p: PlayerState, t: Clock) -> _Own:
        key = (id(p), t.quarters_after)
        found = self.entries.get(key)
        if found is not None and found[0] is p:
            return found[1]
        if len(self.entries) >= self.LIMIT:
            self.entries.clear()
        bonus, board_bonus = own_bonus_points(c, p)
        own = _Own(
            mat=sum(mat_parts(c, p)),
            bonus=bonus,
            board_bonus=board_bonus,
            potential=_potential(c, p, t),
            reserves=_reserves(c, p, t),
            covers=_covers(c, p),
            wild_demands=p.forum_tiles.count(ForumTile.WILD_DEMAND),
            votes=senate_votes(c, p),
        )
        self.entries[key] = (p, own)
        return own


_own = _OwnCache().get


def _potential(c: Content, p: PlayerState, t: Clock) -> float:
    """What figures, cards, tiles and markers may still become (scaled by the time left by the caller)."""
    trajan = 0.0
    for slot, tile in enumerate(p.slots, start=1):
        if tile:
            there = _matched(c.trajan_tile[tile].colours, p.bowls[slot - 1].markers)
            trajan += COMPLETION[there] * (c.trajan_tile[tile].vp + _effect(c, tile, t) - 1)
    extra = [c.forum_tile[x] for x in p.forum_tiles if c.forum_tile[x].kind is ForumKind.EXTRA_ACTION]
    wild_extra = p.forum_tiles.count(ForumTile.WILD_EXTRA_ACTION)
    plus_two = sum(1 for x in extra if x.action in p.plus_two) + wild_extra * len(p.plus_two)
    return (
        trajan
        + WORKER * p.work_area
        + LEGIONNAIRE * p.camp
        + SHIPMENT * _best_shipment(c, p)
        + EXTRA_TILE * (len(extra) + wild_extra)
        + PLUS_TWO * plus_two
        + _set_progress(c, p)
    )


def _matched(colours: tuple[Colour, ...], markers: tuple[Colour, ...]) -> int:
    """How many of a Trajan tile's two colours its bowl already holds (0, 1 or 2)."""
    first, second = colours
    if first == second:
        return min(markers.count(first), 2)
    return (first in markers) + (second in markers)


def _effect(c: Content, tile: int, t: Clock) -> float:
    """What a Trajan tile's effect is worth beyond its VP."""
    spec = c.trajan_tile[tile]
    match spec.effect:
        case TrajanEffect.DRAW_CARDS:
            return CARDS_DRAWN
        case TrajanEffect.WORKERS | TrajanEffect.LEGIONNAIRES:
            return spec.amount * FIGURE
        case TrajanEffect.PLUS_TWO:
            return PLUS_TWO
        case TrajanEffect.DEMAND:
            return KEPT_TILE * (t.quarters_after + 1)
        case TrajanEffect.VICTORY_POINTS:
            return 0.0


def _best_shipment(c: Content, p: PlayerState) -> float:
    """VP of the best yellow-side shipment the hand (and wild commodity tiles) makes now, less the cards'
    end-game VP in hand."""
    if not p.hand:
        return 0.0
    runs = _runs(p.hand)
    wilds = p.forum_tiles.count(ForumTile.WILD_COMMODITY)
    best = 0.0
    for ship in c.ships:
        n = len(ship.yellow)
        match ship.kind:
            case ShipKind.IDENTICAL:
                size = min(max(runs) + wilds, n)
                units = size
            case ShipKind.DIFFERENT:
                size = min(len(runs) + wilds, n)
                units = size
            case ShipKind.PAIRS:
                pairs = sum(1 for v in runs if v >= 2)
                units = min(pairs + wilds // 2, n)
                size = 2 * units
        if units:
            best = max(best, ship.yellow[units - 1] - size)
    return best


def _runs(cards: tuple[Any, ...]) -> list[int]:
    """How many cards of each kind a sorted hand holds (a hot path: no ``Counter``)."""
    runs: list[int] = []
    for i, card in enumerate(cards):
        if i and card == cards[i - 1]:
            runs[-1] += 1
        else:
            runs.append(1)
    return runs


def _set_progress(c: Content, p: PlayerState) -> float:
    """Kinds one or two tiles short of their next construction set (3 tiles: 10 VP, 4: 20 VP)."""
    if not p.construction:
        return 0.0
    value = 0.0
    for n in _runs(tuple(sorted(c.construction_tile[x].kind for x in p.construction))):
        for s in reversed(c.scoring.construction_sets):  # smallest set first
            if n < s.tiles:
                value += SET_PROGRESS * s.vp * (1 if s.tiles - n == 1 else 0.4)
                break
    return value


def _covers(c: Content, p: PlayerState) -> Counts:
    """Demands the seat can meet by kind: its demand forum tiles and kept Trajan tiles."""
    have = [0] * len(DEMANDS)
    kinds = [c.forum_tile[x].demand for x in p.forum_tiles] + [
        c.trajan_tile[x].demand for x in p.demand_tiles
    ]
    for demand in kinds:
        if demand is not None:
            have[demand - 1] += 1
    return tuple(have)


@functools.lru_cache(maxsize=8192)
def _expected_penalty(outlook: Outlook, have: Counts, wilds: int, penalties: tuple[int, ...]) -> float:
    expected = 0.0
    for chance, need in outlook:
        unmet = max(0, sum(max(0, n - h) for n, h in zip(need, have, strict=True)) - wilds)
        if unmet:
            expected += chance * penalties[min(unmet, len(penalties)) - 1]
    return expected


def _demand_penalty(c: Content, s: State, p: PlayerState, own: _Own, t: Clock) -> float:
    """This quarter's expected penalty, weighing more as the quarter goes (seed (p9-10): -4 / -9 / -15);
    nothing once the seat has paid (its VP already show the penalty)."""
    if not t.outlook or p.seat in s.demands_paid:
        return 0.0
    expected = _expected_penalty(t.outlook, own.covers, own.wild_demands, c.demands.penalties)
    return expected * (DEMAND_WEIGHT + (1 - DEMAND_WEIGHT) * t.done)


def _reserves(c: Content, p: PlayerState, t: Clock) -> float:
    """Demand tiles beyond this quarter's needs and kept Trajan tiles help the quarters still to come."""
    if not t.quarters_after:
        return 0.0
    tiles = sum(1 for x in p.forum_tiles if c.forum_tile[x].kind in (ForumKind.DEMAND, ForumKind.WILD_DEMAND))
    spare = max(0, tiles - len(c.demands.reveal_after_rounds))
    return SPARE_DEMAND * spare + KEPT_TILE * len(p.demand_tiles) * t.quarters_after


def _senate(s: State, t: Clock, votes: list[int]) -> dict[int, float]:
    """The bonus tiles the senate ranking would bring, weighted by how far the quarter has gone (``votes``:
    ``senate_votes`` of each seat)."""
    out = {p.seat: 0.0 for p in s.players}
    if s.phase not in (Phase.TURNS, Phase.ROUND_END, Phase.DEMANDS) or not s.senate_offer:
        return out
    height = {seat: i for i, seat in enumerate(s.senate_order)}
    ranking = sorted(s.players, key=lambda p: (-votes[p.seat], -p.senate, -height.get(p.seat, 0)))
    out[ranking[0].seat] += t.done * CONSUL
    if len(s.senate_offer) > 1:
        out[ranking[1].seat] += t.done * PROCONSUL
    return out


def _pending(c: Content, s: State, p: PlayerState) -> float:
    """Steps the active seat still owes this turn are worth something before they are taken."""
    value = 0.0
    for step in s.pending:
        match step.kind:
            case StepKind.SOW:
                target = (s.next_bowl - 1 + len(s.in_hand) - 1) % len(c.board.bowls) + 1
                value += ACTION_VALUE[bowl_action(c, target)]
            case StepKind.ACTION:
                assert step.action is not None
                value += ACTION_VALUE[step.action]
            case StepKind.EXTRA_ACTION:
                assert step.action is not None
                value += 0.5 * ACTION_VALUE[step.action]
            case StepKind.TRAJAN_EFFECT:
                value += EFFECT_STEP
            case StepKind.LOAD_CARGO:
                value += CARGO_STEP
            case StepKind.CHOOSE_BOWL | StepKind.DISCARD:
                pass
    return value


# ---------------------------------------------------------------- pruning


DECLINABLE = (StepKind.ACTION, StepKind.TRAJAN_EFFECT)


def prune(rules: Any, state: State, seat: int, commands: Sequence[Any], coarse: bool = False) -> list[Any]:
    """The commands worth searching (never empty).

    Declining an action or a Trajan tile's effect is dropped when there is something else to do: every
    option of an action and every effect adds a figure, a card, a tile, a move or VP, so declining is
    hardly ever better than the least of them (an extra action stays declinable: its tile may be worth
    more later). A
    discard onto either pile ends the same for the discarding seat: one pile per card. ``coarse`` (another
    seat's move, where only its likely choice matters) also keeps one starting slot per Trajan stack.
    """
    owed = state.pending[0].kind if state.phase is Phase.TURNS and state.pending else None
    out = []
    seen: set[Any] = set()
    for cmd in commands:
        key: Any = cmd
        if isinstance(cmd, Decline) and owed in DECLINABLE and len(commands) > 1:
            continue
        if isinstance(cmd, DiscardCommodity):
            key = ("discard", cmd.commodity)
        elif coarse and isinstance(cmd, TakeStartTrajanTile):
            key = ("start_tile", cmd.stack)
        if key not in seen:
            seen.add(key)
            out.append(cmd)
    return out or list(commands)
