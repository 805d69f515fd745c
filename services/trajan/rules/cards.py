"""Commodity cards: drawing at random from the face-down pile, flipping onto empty discard piles, and
forming a new draw pile from the discard piles when it runs out (docs/rules/trajan.md, Decisions)."""

from __future__ import annotations

from services.trajan.rules.content_types import Commodity
from services.trajan.rules.ctx import Ctx
from services.trajan.rules.events import CommoditiesDrawn, CommodityFlipped, DiscardsReshuffled
from services.trajan.rules.model import Pile
from services.trajan.rules.queries import pile


def reshuffle(ctx: Ctx) -> bool:
    """The draw pile is empty: the discard piles' cards below their top cards become the new one."""
    s = ctx.state
    under = (*s.left_pile[:-1], *s.right_pile[:-1])
    if not under:
        return False
    ctx.emit(DiscardsReshuffled(tuple(sorted(under))))
    return True


def draw(ctx: Ctx, seat: int, n: int) -> None:
    """Draw ``n`` cards (as many as can be had) into ``seat``'s hand."""
    remaining = n
    while remaining > 0:
        deck = list(ctx.state.deck)
        if not deck:
            if not reshuffle(ctx):
                return
            continue
        picked: list[Commodity] = []
        for _ in range(min(remaining, len(deck))):
            picked.append(deck.pop(ctx.rng.below(len(deck))))
        ctx.emit(CommoditiesDrawn(seat, tuple(sorted(picked))))
        remaining -= len(picked)


def refill_pile(ctx: Ctx, which: Pile) -> None:
    """An emptied discard pile gets the top card of the draw pile (seed (p4) 只要弃牌堆的卡片空了 …)."""
    if pile(ctx.state, which):
        return
    if not ctx.state.deck and not reshuffle(ctx):
        return
    deck = ctx.state.deck
    ctx.emit(CommodityFlipped(which, deck[ctx.rng.below(len(deck))]))
