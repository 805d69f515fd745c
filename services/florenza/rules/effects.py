"""The decision context and the small shared pieces of every step: gains, payments, lookups."""

from __future__ import annotations

from services.florenza.rules.content_types import Area, ArtWork, Content, Reward
from services.florenza.rules.events import (
    ChurchInfluenceChanged,
    Event,
    GoodsGained,
    GoodsPaid,
    PrestigeChanged,
    WorkersGained,
)
from services.florenza.rules.evolve import evolve
from services.florenza.rules.goods import RESOURCE_FIELDS, Goods
from services.florenza.rules.model import NO_SEAT, PlayerState, Source, State, WorkSpot
from shared.core.event_context import EventContext
from shared.core.folds import Folds

# decide's folds, looked up by ``rules.evolve`` (shared.core.folds)
FOLDS: Folds[State, Event] = Folds(evolve)


class Ctx(EventContext[Content, State, Event]):
    """The events of one decision, folded into a working state as they are emitted."""

    __slots__ = ()
    folds = FOLDS


def limited(goods: Goods, supply: Goods) -> Goods:
    """What the bank can hand out of ``goods``: every resource at most what the supply holds."""
    capped = {f: min(getattr(goods, f), max(getattr(supply, f), 0)) for f in RESOURCE_FIELDS}
    return Goods(money=goods.money, **capped)


def gain(ctx: Ctx, seat: int, reward: Reward, source: Source) -> None:
    """Receive a reward: cubes only while the supply lasts, workers only while the reserve lasts."""
    goods = limited(reward.goods, ctx.state.supply)
    if not goods.is_zero:
        ctx.emit(GoodsGained(seat, goods, source))
    if reward.prestige:
        ctx.emit(PrestigeChanged(seat, reward.prestige, source))
    if reward.church:
        ctx.emit(ChurchInfluenceChanged(seat, reward.church, source))
    workers = min(reward.workers, ctx.state.players[seat].reserve)
    if workers > 0:
        ctx.emit(WorkersGained(seat, workers, source))


def can_pay(p: PlayerState, price: Reward) -> bool:
    """A formula's price (never workers, the loader checks): goods owned, track points held, so a
    formula never takes a track below 0."""
    return p.goods.covers(price.goods) and p.prestige >= price.prestige and p.church >= price.church


def pay(ctx: Ctx, seat: int, price: Reward, source: Source) -> None:
    if not price.goods.is_zero:
        ctx.emit(GoodsPaid(seat, price.goods, source))
    if price.prestige:
        ctx.emit(PrestigeChanged(seat, -price.prestige, source))
    if price.church:
        ctx.emit(ChurchInfluenceChanged(seat, -price.church, source))


def spot_district(work: ArtWork, seat: int) -> int:
    """The district holding ``seat``'s copy of a Palazzo or Chiesa work; -1 for a public work."""
    return seat if work.in_district else NO_SEAT


def find_spot(s: State, work: int, district: int) -> WorkSpot | None:
    for w in s.works:
        if w.work == work and w.district == district:
            return w
    return None


def area_complete(c: Content, s: State, seat: int, area: Area) -> bool:
    return all(w.crest != NO_SEAT for w in s.works if w.district == seat and c.work[w.work].area is area)


def has_crest_in(c: Content, s: State, seat: int, area: Area) -> bool:
    return any(w.crest == seat and c.work[w.work].area is area for w in s.works)


def characters_on_works(s: State) -> set[int]:
    return {w.artist for w in s.works if w.artist}


def available_artists(c: Content, s: State) -> list[int]:
    """Artists whose tile is on its card: in Florence (anonymous ones always are), not on a work,
    not withheld by the Captain (seed 4.3: a tile not on its card cannot be moved)."""
    busy = characters_on_works(s)
    present = {p.character for p in s.present}
    return [
        a.id
        for a in c.artists
        if (a.anonymous or a.id in present) and a.id not in busy and a.id != s.withheld_artist
    ]


def available_preachers(c: Content, s: State) -> list[int]:
    """Preachers whose tile is on its card: in Florence, not on a pulpit, not expelled (seed 4.5)."""
    busy = {p.preacher for p in s.pulpits}
    present = {p.character for p in s.present}
    return [
        p.id
        for p in c.preachers
        if (p.anonymous or p.id in present) and p.id not in busy and p.id != s.expelled
    ]


def lowest_free_slot(p: PlayerState) -> int | None:
    """Seed 4.2: a planned workshop goes into the lowest empty building space."""
    for i, slot in enumerate(p.district):
        if slot.workshop == 0:
            return i + 1
    return None


def next_in_order(order: tuple[int, ...], after: int) -> tuple[int, ...]:
    """The turn order, starting with the seat after ``after`` (from the start if -1) and cycling."""
    if after == NO_SEAT:
        return order
    at = order.index(after) + 1
    return order[at:] + order[:at]
