"""Decision context and effect resolution: gains, card immediate effects, harvest and production."""

from __future__ import annotations

from services.lorenzo.rules.content_types import (
    AbilityKind,
    Card,
    Content,
    Gain,
    ImmediateKind,
)
from services.lorenzo.rules.events import (
    DecisionsQueued,
    Event,
    ExchangeBudgetSet,
    ResourcesGained,
    ResourcesPaid,
)
from services.lorenzo.rules.evolve import evolve
from services.lorenzo.rules.goods import ZERO, Goods
from services.lorenzo.rules.model import Decision, DecisionKind, Source, State
from services.lorenzo.rules.queries import ability, reduce_gain
from shared.core.event_context import EventContext
from shared.core.folds import Folds

# decide's folds, looked up by ``rules.evolve`` (shared.core.folds)
FOLDS: Folds[State, Event] = Folds(evolve)


class Ctx(EventContext[Content, State, Event]):
    """The events of one decision, folded as they are emitted.

    Decisions owed because of this command are collected and queued (ahead of older ones) by ``flush``.
    """

    __slots__ = ("queued", "seat")
    folds = FOLDS

    def __init__(self, content: Content, state: State, seat: int = -1) -> None:
        super().__init__(content, state)
        self.seat = seat
        self.queued: list[Decision] = []

    def owe(self, decision: Decision) -> None:
        self.queued.append(decision)

    def flush(self) -> None:
        if self.queued:
            self.emit(DecisionsQueued(self.seat, tuple(self.queued)))
            self.queued = []


def gain(ctx: Ctx, seat: int, what: Gain, source: Source, card_effect: bool = False) -> None:
    """Receive goods (after excommunication reductions) and owe the privileges, all different."""
    c = ctx.content
    p = ctx.state.players[seat]
    goods = what.goods
    if card_effect and ability(c, p, AbilityKind.DOUBLE_CARD_RESOURCES):
        goods = goods + Goods(goods.coins, goods.wood, goods.stone, goods.servants)
    if p.excommunications:
        goods = reduce_gain(c, p, goods)
    if goods != ZERO:
        ctx.emit(ResourcesGained(seat, goods, source))
    if what.privileges:
        ctx.owe(Decision(DecisionKind.PRIVILEGES, count=what.privileges))


def pay(ctx: Ctx, seat: int, goods: Goods, source: Source) -> None:
    if goods != ZERO:
        ctx.emit(ResourcesPaid(seat, goods, source))


def apply_immediate(ctx: Ctx, seat: int, card: Card) -> None:
    """A taken card's immediate effects, in printed order (the card already counts as owned)."""
    for e in card.immediate:
        p = ctx.state.players[seat]
        match e.kind:
            case ImmediateKind.GAIN:
                gain(ctx, seat, e.gain, Source.CARD_EFFECT, card_effect=True)
            case ImmediateKind.GAIN_PER_CARD:
                assert e.card_type is not None
                n = len(p.cards_of(e.card_type))
                gain(ctx, seat, Gain(e.gain.goods.times(n)), Source.CARD_EFFECT)
            case ImmediateKind.GAIN_PER_MILITARY:
                n = p.goods.military // e.value
                gain(ctx, seat, Gain(e.gain.goods.times(n)), Source.CARD_EFFECT)
            case ImmediateKind.TAKE_CARD:
                ctx.owe(
                    Decision(
                        DecisionKind.TAKE_CARD, card_type=e.card_type, value=e.value, discount=e.discount
                    )
                )
            case ImmediateKind.HARVEST:
                ctx.owe(Decision(DecisionKind.HARVEST, value=e.value))
            case ImmediateKind.PRODUCTION:
                ctx.owe(Decision(DecisionKind.PRODUCTION, value=e.value))


def harvest(ctx: Ctx, seat: int, value: int) -> None:
    """Personal bonus tile (value 1) and every territory whose activation value is <= value."""
    c = ctx.content
    p = ctx.state.players[seat]
    if value >= 1:
        gain(ctx, seat, Gain(c.bonus_tile[p.bonus_tile].harvest), Source.HARVEST)
    for cid in p.territories:
        h = c.card[cid].harvest
        if h is not None and h.value <= value:
            gain(ctx, seat, h.gain, Source.HARVEST)


def production(ctx: Ctx, seat: int, value: int) -> None:
    """Personal bonus tile and every building whose value is <= value; exchanges become decisions,
    paid only from what was owned before the action (rulebook: production example)."""
    c = ctx.content
    p = ctx.state.players[seat]
    ctx.emit(ExchangeBudgetSet(seat, p.goods))
    if value >= 1:
        gain(ctx, seat, Gain(c.bonus_tile[p.bonus_tile].production), Source.PRODUCTION)
    for cid in p.buildings:
        prod = c.card[cid].production
        if prod is None or prod.value > value:
            continue
        if prod.gain.goods != ZERO or prod.gain.privileges:
            gain(ctx, seat, prod.gain, Source.PRODUCTION)
        if prod.per_card is not None:
            n = len(ctx.state.players[seat].cards_of(prod.per_card))
            gain(ctx, seat, Gain(prod.per_card_gain.times(n)), Source.PRODUCTION)
        if any(ctx.state.budget.covers(x.pay) for x in prod.exchanges):
            ctx.owe(Decision(DecisionKind.EXCHANGE, card=cid))
