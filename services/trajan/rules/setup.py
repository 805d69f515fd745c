"""Setting up a match in the seed's order ((p3) 游戏设定, then (p4) 游戏准备).

``prepare`` lays out the board (forum tiles on the provinces and in the forum, extra action tiles,
construction tiles, figures in the camps); every seat then fills its bowls (``PlaceStartMarkers``,
before the Trajan tiles are laid out: (p3) 在抽图拉真板块之前). ``after_markers`` draws the rest: the
Trajan stacks' tops, the start player and senate stack, bonus tiles, the two discard piles. Then each
seat in turn order takes three cards and three Trajan tiles of different stacks onto slots II/IV/VI.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from services.trajan.rules.actions import take_trajan_tile
from services.trajan.rules.cards import draw, refill_pile
from services.trajan.rules.commands import Command, DrawStartCommodity, PlaceStartMarkers, TakeStartTrajanTile
from services.trajan.rules.content_types import Colour, Content
from services.trajan.rules.ctx import Ctx
from services.trajan.rules.events import (
    BonusTileDealt,
    CommodityFlipped,
    ConstructionTilesPlaced,
    DiscardTaken,
    ForumFilled,
    GameStarted,
    PhaseChanged,
    ProvinceTilesPlaced,
    QuarterStarted,
    RoundStarted,
    SenateOfferDrawn,
    SenateRestacked,
    StartMarkersPlaced,
    StartPlayerChosen,
    SuppliesPrepared,
    TokensMoved,
    TrajanStackTopRevealed,
)
from services.trajan.rules.model import Config, Phase, Pile, Place, PlayerState, State, TrajanStack
from services.trajan.rules.queries import pile, seat_order
from services.trajan.rules.turn import start_turn
from shared.core.decider import RuleViolation
from shared.core.rng import Rng

T = TypeVar("T")


def pick(rng: Rng, pool: Sequence[T], k: int) -> tuple[T, ...]:
    """``k`` pieces drawn at random from ``pool`` (without putting back), in draw order."""
    rest = list(pool)
    return tuple(rest.pop(rng.below(len(rest))) for _ in range(min(k, len(rest))))


def supplies(c: Content) -> SuppliesPrepared:
    """Every face-down pool as the component list makes it (sorted: their order is drawn later)."""
    forum = tuple(sorted(t.tile for t in c.forum_tiles for _ in range(t.count)))
    extra = tuple(sorted(c.extra_tile_of[t.action] for t in c.extra_action_tiles for _ in range(t.count)))
    deck = tuple(sorted(x.commodity for x in c.commodities for _ in range(x.count)))
    demands = tuple(sorted(d.demand for d in c.demands.tiles for _ in range(d.count)))
    stacks = tuple(
        TrajanStack(0, tuple(t.id for t in c.trajan_tiles if t.stack == k)) for k in c.trajan_stacks
    )
    bag = tuple(t.id for t in c.bonus_tiles)
    return SuppliesPrepared(forum, extra, deck, bag, demands, stacks)


def prepare(ctx: Ctx, config: Config) -> None:
    c, rng, n = ctx.content, ctx.rng, config.seats
    b = c.board
    ctx.emit(GameStarted(n, b.lap(n), b.tokens, b.arch_start, len(c.provinces), len(c.ships)))
    ctx.emit(supplies(c))
    provinces = tuple(p.id for p in c.provinces)
    ctx.emit(ProvinceTilesPlaced(provinces, pick(rng, ctx.state.forum_stack, len(provinces))))
    forum = pick(rng, ctx.state.forum_stack, b.forum_tiles_per_player * n)
    ctx.emit(ForumFilled(forum, pick(rng, ctx.state.extra_stack, b.forum_extra_action_tiles)))
    tiles = tuple(t.id for t in c.construction_tiles)
    ctx.emit(ConstructionTilesPlaced(pick(rng, tiles, len(tiles))))
    for seat in range(n):
        ctx.emit(TokensMoved(seat, Place.SUPPLY, Place.CAMP, b.tokens_in_camp))
        ctx.emit(TokensMoved(seat, Place.SUPPLY, Place.WORK_AREA, b.tokens_in_work_area))


# ---------------------------------------------------------------- the bowls


def next_empty_bowl(p: PlayerState) -> int:
    return next((i + 1 for i, b in enumerate(p.bowls) if not b.markers), 0)


def markers_left(c: Content, p: PlayerState) -> list[Colour]:
    left = [colour for colour in c.board.colours for _ in range(c.board.markers_per_colour)]
    for bowl in p.bowls:
        for m in bowl.markers:
            left.remove(m)
    return left


def check_markers(c: Content, s: State, seat: int, cmd: Command) -> None:
    if not isinstance(cmd, PlaceStartMarkers):
        raise RuleViolation("wrong_phase", "fill your bowls first")
    p = s.players[seat]
    if cmd.bowl != next_empty_bowl(p):
        raise RuleViolation("wrong_bowl", "fill the bowls in order, I to VI")
    if cmd.first > cmd.second:
        raise RuleViolation("bad_order", "name the two colours in order")
    left = markers_left(c, p)
    if (
        cmd.first not in left
        or cmd.second not in left
        or (cmd.first == cmd.second and left.count(cmd.first) < 2)
    ):
        raise RuleViolation("no_marker", "you have no such markers left")


def marker_candidates(c: Content, s: State, seat: int) -> list[Command]:
    bowl = next_empty_bowl(s.players[seat])
    colours = c.board.colours
    return [PlaceStartMarkers(bowl, a, b) for a in colours for b in colours if a <= b]


def place_markers(ctx: Ctx, seat: int, cmd: PlaceStartMarkers) -> None:
    ctx.emit(StartMarkersPlaced(seat, cmd.bowl, (cmd.first, cmd.second)))
    if all(next_empty_bowl(p) == 0 for p in ctx.state.players):
        after_markers(ctx)


def after_markers(ctx: Ctx) -> None:
    c, rng, s = ctx.content, ctx.rng, ctx.state
    for k, stack in enumerate(s.trajan_stacks, start=1):
        ctx.emit(TrajanStackTopRevealed(k, pick(rng, stack.rest, 1)[0]))
    ctx.emit(StartPlayerChosen(rng.below(s.seats)))
    order = seat_order(ctx.state)
    ctx.emit(SenateRestacked(order))  # (p4) 起始玩家开始…依序堆叠(起始玩家在最下方)
    for seat in order:
        for tile in pick(rng, ctx.state.bonus_bag, c.board.bonus_tiles_per_player):
            ctx.emit(BonusTileDealt(seat, tile))
    ctx.emit(SenateOfferDrawn(pick(rng, ctx.state.bonus_bag, c.board.senate_offer)))
    for which in (Pile.LEFT, Pile.RIGHT):
        ctx.emit(CommodityFlipped(which, pick(rng, ctx.state.deck, 1)[0]))
    ctx.emit(PhaseChanged(Phase.START_CARDS))


# ---------------------------------------------------------------- starting cards and Trajan tiles


def card_taker(c: Content, s: State) -> int:
    """The first seat in turn order still short of its starting hand."""
    return next((x for x in seat_order(s) if len(s.players[x].hand) < c.board.starting_hand), -1)


def check_card(s: State, cmd: Command) -> None:
    if not isinstance(cmd, DrawStartCommodity):
        raise RuleViolation("wrong_phase", "take your starting cards first")
    if cmd.pile is Pile.DECK:
        if not s.deck:
            raise RuleViolation("no_cards", "the draw pile is empty")
    elif not pile(s, cmd.pile):
        raise RuleViolation("empty_pile", "that discard pile is empty")


def take_card(ctx: Ctx, seat: int, cmd: DrawStartCommodity) -> None:
    if cmd.pile is Pile.DECK:
        draw(ctx, seat, 1)
    else:
        ctx.emit(DiscardTaken(seat, cmd.pile, pile(ctx.state, cmd.pile)[-1]))
        refill_pile(ctx, cmd.pile)
    if card_taker(ctx.content, ctx.state) < 0:
        ctx.emit(PhaseChanged(Phase.START_TILES))


def tile_taker(c: Content, s: State) -> int:
    wanted = len(c.board.start_slots)
    return next((x for x in seat_order(s) if sum(1 for t in s.players[x].slots if t) < wanted), -1)


def check_tile(c: Content, s: State, seat: int, cmd: Command) -> None:
    if not isinstance(cmd, TakeStartTrajanTile):
        raise RuleViolation("wrong_phase", "take your starting Trajan tiles first")
    p = s.players[seat]
    if cmd.slot not in c.board.start_slots or p.slots[cmd.slot - 1]:
        raise RuleViolation("bad_slot", "lay it on an empty slot II, IV or VI")
    if not 1 <= cmd.stack <= len(s.trajan_stacks) or not s.trajan_stacks[cmd.stack - 1].top:
        raise RuleViolation("empty_stack", "take the top tile of a stack that has one")
    if any(c.trajan_tile[t].stack == cmd.stack for t in p.slots if t):
        # seed (p4): 三张必须不同种类
        raise RuleViolation("same_kind", "three tiles of different kinds")


def tile_candidates(c: Content, s: State) -> list[Command]:
    return [TakeStartTrajanTile(k, slot) for k in c.trajan_stacks for slot in c.board.start_slots]


def take_tile(ctx: Ctx, seat: int, cmd: TakeStartTrajanTile) -> None:
    take_trajan_tile(ctx, seat, cmd.stack, cmd.slot)
    if tile_taker(ctx.content, ctx.state) < 0:
        ctx.emit(QuarterStarted(1))
        ctx.emit(RoundStarted(1))
        ctx.emit(PhaseChanged(Phase.TURNS))
        start_turn(ctx, ctx.state.start_seat)
