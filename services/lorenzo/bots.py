"""Lorenzo il Magnifico's bot hooks: the heuristic (victory points now plus a valuation of what may
become points) and the pruner of placements that waste servants.

Reached only through the manifest (``MANIFEST.bots()``); the bot levels themselves are generic
(``services/workers/bots/``). Reads only the public fields of ``State`` / ``PlayerState`` and the
board tables of the content (the same tables the final scoring uses). Weights are hand-tuned
against the ``random`` and ``greedy`` levels with ``tabula simulate``; the scale is victory points.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from services.lorenzo.rules.commands import PlaceFamilyMember
from services.lorenzo.rules.content_types import Board, Content, SpaceKind
from services.lorenzo.rules.model import DecisionKind, Phase, PlayerState, State
from services.lorenzo.rules.queries import SeatCache
from shared.core.ranked_rules import settled

ROUNDS = 6
PRIVILEGE_VALUE = 1.5  # a council privilege is about two resources
LEADER_IN_HAND = 1.0
LEADER_PLAYED = 2.5
EXCOMMUNICATION = 3.0


def evaluate(rules: Any, state: State, seat: int) -> float:
    """How good ``state`` looks for ``seat``, in victory points (higher is better)."""
    content: Content = rules.content
    known = settled(state, seat + 1, Phase.FINISHED)
    if known is not None:
        return known[seat]
    return _value(content, state, state.players[seat], _rounds_left(state))


def evaluate_all(rules: Any, state: State, seats: int) -> tuple[float, ...]:
    """``evaluate`` for every seat at once (what ``mcts`` scores each leaf with)."""
    content: Content = rules.content
    known = settled(state, seats, Phase.FINISHED)
    if known is not None:
        return known
    left = _rounds_left(state)
    return tuple(_value(content, state, state.players[seat], left) for seat in range(seats))


def _value(content: Content, state: State, player: PlayerState, left: int) -> float:
    board = content.board
    return (
        player.goods.victory
        + _cards(content, player, left)
        + _military(board, state, player.seat, left)
        + _faith(board, state, player)
        + _resources(board, player, left)
        + _leaders(player)
        - EXCOMMUNICATION * len(player.excommunications)
        + _pending(state, player.seat)
    )


_FLEXIBLE = (SpaceKind.HARVEST, SpaceKind.PRODUCTION)


def prune(rules: Any, state: State, seat: int, commands: Sequence[Any], coarse: bool = False) -> list[Any]:
    """The placements worth searching: one per outcome, the one with the fewest servants.

    Harvest / production: the action value only matters against the activation values of the
    seat's cards (and 1 for the bonus tile), so servants beyond the last value reached are
    wasted: such a command ends like the same placement with fewer servants, minus servants.
    ``coarse`` (another seat's move, where only its likely choice matters) also ignores which
    family member goes: one command per space (and card cost option) and value reached.
    """
    content: Content = rules.content
    if not any(isinstance(c, PlaceFamilyMember) for c in commands):
        return list(commands)
    player = state.players[seat]
    cards = [content.card[c] for c in (*player.territories, *player.buildings)]
    useful = {  # the bonus tile works from value 1
        SpaceKind.HARVEST: {1} | {card.harvest.value for card in cards if card.harvest},
        SpaceKind.PRODUCTION: {1} | {card.production.value for card in cards if card.production},
    }
    cache = SeatCache(content, state, seat)
    kept: dict[Any, PlaceFamilyMember] = {}
    out: list[Any] = []
    for c in commands:
        if not isinstance(c, PlaceFamilyMember):
            out.append(c)
            continue
        space = content.space[c.space]
        reached = 0
        if space.kind in _FLEXIBLE:
            value = cache.member_value(c.member) + cache.space_modifier(space) + c.servants // cache.rate
            reached = max((v for v in useful[space.kind] if v <= value), default=0)
        elif not coarse:
            out.append(c)
            continue
        key = (c.space, c.cost_option, c.discount_option, reached, None if coarse else c.member)
        if key not in kept or c.servants < kept[key].servants:
            kept[key] = c
    chosen = set(kept.values())
    return [*out, *(c for c in commands if c in chosen)]


def _rounds_left(state: State) -> int:
    return max(ROUNDS - max(state.round, 1), 0)


def _cards(content: Content, p: PlayerState, left: int) -> float:
    """End-of-game card points, plus what cards still earn in the rounds left."""
    board = content.board
    territories = board.territory_victory[min(len(p.territories), len(board.territory_victory) - 1)]
    characters = board.character_victory[min(len(p.characters), len(board.character_victory) - 1)]
    ventures = sum(content.card[card].end_victory for card in p.ventures)
    engines = 0.6 * left * (len(p.territories) + len(p.buildings)) / 2
    return territories + characters + ventures + engines + 0.5 * len(p.characters)


def _military(board: Board, state: State, seat: int, left: int) -> float:
    """Projected 5 / 2 points for the military race, and room for more territories."""
    mine = state.players[seat].goods.military
    ahead = sum(1 for other in state.players if other.seat != seat and other.goods.military > mine)
    race = board.military_victory[ahead] if ahead < len(board.military_victory) else 0.0
    return race * (0.5 + 0.5 * (ROUNDS - left) / ROUNDS) + 0.15 * mine


def _faith(board: Board, state: State, p: PlayerState) -> float:
    """Faith scores at the next Vatican report; below the requirement it costs an excommunication."""
    table = board.faith_victory
    value = 0.8 * table[min(p.goods.faith, len(table) - 1)]
    period = max(min(state.period, len(board.vatican_faith_required)), 1)
    if p.goods.faith < board.vatican_faith_required[period - 1]:
        value -= 0.4 * EXCOMMUNICATION
    return value


def _resources(board: Board, p: PlayerState, left: int) -> float:
    """Early, a resource buys cards (worth ~0.5 point); at the end only 1 point per 5 remains."""
    g = p.goods
    per = 1.0 / board.resources_per_victory + 0.06 * left
    return per * (g.coins + g.wood + g.stone) + (per + 0.05) * g.servants


def _leaders(p: PlayerState) -> float:
    return LEADER_IN_HAND * len(p.hand) + LEADER_PLAYED * len(p.played)


def _pending(state: State, seat: int) -> float:
    """Choices the seat still owes are worth something before they are made (greedy sees one ply)."""
    if state.active_seat != seat:
        return 0.0
    value = 0.0
    for decision in state.pending:
        if decision.kind is DecisionKind.PRIVILEGES:
            value += PRIVILEGE_VALUE * decision.count
        elif decision.kind is DecisionKind.TAKE_CARD:
            value += 1.5
        elif decision.kind in (DecisionKind.HARVEST, DecisionKind.PRODUCTION):
            value += 0.3 * decision.value
    return value
