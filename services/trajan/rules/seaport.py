"""The seaport action's four options (seed (p6) 海港行动), the discard after drawing two, loading a ship."""

from __future__ import annotations

from services.trajan.rules.bag import contains, distinct
from services.trajan.rules.cards import draw, refill_pile
from services.trajan.rules.commands import (
    Command,
    DeliverShipment,
    DiscardCommodity,
    DisplayCommodities,
    DrawCommodities,
    LoadCommodity,
    LoadWildCommodity,
    StartShipment,
    TakeDiscard,
)
from services.trajan.rules.content_types import Content, ForumTile
from services.trajan.rules.ctx import Ctx
from services.trajan.rules.events import (
    CommoditiesDisplayed,
    CommodityDiscarded,
    CommodityLoaded,
    DiscardTaken,
    PointsScored,
    ShipmentDelivered,
    WildCommodityLoaded,
)
from services.trajan.rules.model import Pile, Reason, State, Step, StepKind
from services.trajan.rules.queries import drawable, pile
from services.trajan.rules.shipping import completable, complete, value
from shared.core.decider import RuleViolation

DRAW_THEN_DISCARD = 2  # option 1: draw two, discard one
DISCARD_PILES = (Pile.LEFT, Pile.RIGHT)


def _wilds(s: State, seat: int) -> int:
    return s.players[seat].forum_tiles.count(ForumTile.WILD_COMMODITY)


def check(c: Content, s: State, seat: int, cmd: Command) -> None:
    """Raise unless ``cmd`` is one of the seaport's options now."""
    p = s.players[seat]
    match cmd:
        case DrawCommodities():
            if drawable(s) < 1:
                raise RuleViolation("no_cards", "no card is left to draw")
        case TakeDiscard(which):
            if which not in DISCARD_PILES or not pile(s, which):
                raise RuleViolation("empty_pile", "take the top card of a discard pile that has one")
        case DisplayCommodities(cards):
            if not 1 <= len(cards) <= 2 or tuple(sorted(cards)) != cards:
                raise RuleViolation("bad_cards", "play one or two cards, listed in order")
            if not contains(p.hand, cards):
                raise RuleViolation("not_in_hand", "you do not hold those cards")
        case StartShipment(ship):
            if ship not in c.ship:
                raise RuleViolation("no_ship", "there is no ship {ship}", ship=ship)
            if not completable(c.ship[ship], (), 0, p.hand, _wilds(s, seat)):
                raise RuleViolation("cannot_ship", "your cards make no shipment this ship takes")
        case _:
            raise RuleViolation(
                "wrong_action", "{command} is not a seaport option", command=type(cmd).__name__
            )


def candidates(c: Content, s: State, seat: int) -> list[Command]:
    kinds = distinct(s.players[seat].hand)
    out: list[Command] = [DrawCommodities(), *(TakeDiscard(x) for x in DISCARD_PILES)]
    for i, a in enumerate(kinds):
        out += [DisplayCommodities((a,)), *(DisplayCommodities((a, b)) for b in kinds[i:])]
    return out + [StartShipment(ship.id) for ship in c.ships]


def perform(ctx: Ctx, seat: int, cmd: Command) -> tuple[Step, ...]:
    """Carry out a checked option; returns the steps it still owes."""
    match cmd:
        case DrawCommodities():
            draw(ctx, seat, DRAW_THEN_DISCARD)
            return (Step(StepKind.DISCARD),)
        case TakeDiscard(which):
            ctx.emit(DiscardTaken(seat, which, pile(ctx.state, which)[-1]))
            refill_pile(ctx, which)
        case DisplayCommodities(cards):
            ctx.emit(CommoditiesDisplayed(seat, cards))
            draw(ctx, seat, len(cards))  # seed (p6) 3: 再从牌堆中抽回等数量的商品卡
        case StartShipment(ship):
            return (Step(StepKind.LOAD_CARGO, ship=ship),)
    return ()


# ---------------------------------------------------------------- discard and cargo steps


def check_discard(s: State, seat: int, cmd: DiscardCommodity) -> None:
    if cmd.pile not in DISCARD_PILES or cmd.commodity not in s.players[seat].hand:
        raise RuleViolation("bad_discard", "discard a card from your hand onto a discard pile")


def discard(ctx: Ctx, seat: int, cmd: DiscardCommodity) -> None:
    ctx.emit(CommodityDiscarded(seat, cmd.commodity, cmd.pile))


def check_cargo(c: Content, s: State, seat: int, ship: int, cmd: Command) -> None:
    p, the_ship = s.players[seat], c.ship[ship]
    wilds = _wilds(s, seat)
    match cmd:
        case LoadCommodity(commodity):
            if commodity not in p.hand:
                raise RuleViolation("not_in_hand", "you hold no such card")
            rest = list(p.hand)
            rest.remove(commodity)
            if not completable(the_ship, (*s.cargo, commodity), s.cargo_wilds, tuple(rest), wilds):
                raise RuleViolation("cannot_ship", "with this card the shipment cannot be completed")
        case LoadWildCommodity():
            if not wilds:
                raise RuleViolation("no_wild", "you have no wild commodity tile")
            if not completable(the_ship, s.cargo, s.cargo_wilds + 1, p.hand, wilds - 1):
                raise RuleViolation("cannot_ship", "with this tile the shipment cannot be completed")
        case DeliverShipment():
            if not complete(the_ship, s.cargo, s.cargo_wilds):
                raise RuleViolation("incomplete", "this cargo is no shipment the ship takes")
        case _:
            raise RuleViolation("wrong_step", "load the ship or deliver the shipment")


def cargo_candidates(s: State, seat: int) -> list[Command]:
    kinds = distinct(s.players[seat].hand)
    return [*(LoadCommodity(k) for k in kinds), LoadWildCommodity(), DeliverShipment()]


def load(ctx: Ctx, seat: int, ship: int, cmd: Command) -> bool:
    """Load or deliver; True once the shipment is delivered (the step is done)."""
    match cmd:
        case LoadCommodity(commodity):
            ctx.emit(CommodityLoaded(seat, commodity))
        case LoadWildCommodity():
            ctx.emit(WildCommodityLoaded(seat))
        case DeliverShipment():
            s = ctx.state
            the_ship = ctx.content.ship[ship]
            vp = value(the_ship, s.ships_yellow[ship - 1], s.cargo, s.cargo_wilds)
            ctx.emit(ShipmentDelivered(seat, ship))
            if vp:
                ctx.emit(PointsScored(seat, vp, Reason.SHIPMENT))
            return True
    return False
