"""Every command in a box of parameters around the legal ones (for the legal/decide sweeps)."""

from __future__ import annotations

import functools
from itertools import combinations_with_replacement, product

from services.trajan.rules.commands import (
    AdvanceInSenate,
    ChooseBonusTile,
    ChooseBowl,
    Command,
    Decline,
    DeliverShipment,
    DeployLegionnaire,
    DiscardCommodity,
    DisplayCommodities,
    DrawCommodities,
    DrawStartCommodity,
    EndGame,
    EndQuarter,
    EndRound,
    LoadCommodity,
    LoadWildCommodity,
    MeetDemands,
    MoveLeader,
    PlaceStartMarkers,
    PlaceWorker,
    RecruitLegionnaire,
    RecruitWorker,
    ScoreQuarter,
    SowMarker,
    StartShipment,
    TakeDiscard,
    TakeForumTile,
    TakeStartTrajanTile,
    TakeTrajanTile,
    UseExtraAction,
    UseTrajanEffect,
)
from services.trajan.rules.content_types import Action, Colour, Commodity, ForumTile
from services.trajan.rules.model import Payment, Pile, State

SIMPLE: list[Command] = [
    Decline(),
    DrawCommodities(),
    LoadWildCommodity(),
    DeliverShipment(),
    RecruitLegionnaire(),
    DeployLegionnaire(),
    AdvanceInSenate(),
    RecruitWorker(),
    EndRound(),
    ScoreQuarter(),
    EndQuarter(),
    EndGame(),
]


def box(state: State) -> list[Command]:
    """Commands of every type over ranges a little wider than the legal values."""
    return [*_fixed(), *_plans(len(state.demands))]


@functools.cache
def _plans(demands: int) -> tuple[Command, ...]:
    return tuple(MeetDemands(plan) for n in {0, demands} for plan in product(Payment, repeat=n))


@functools.cache
def _fixed() -> tuple[Command, ...]:
    out = list(SIMPLE)
    out += [ChooseBowl(b) for b in range(8)] + [SowMarker(c) for c in Colour]
    out += [UseTrajanEffect(), *(UseTrajanEffect(a) for a in Action)]
    out += [UseExtraAction(t) for t in ForumTile] + [TakeForumTile(t) for t in ForumTile]
    out += [DiscardCommodity(c, p) for c in Commodity for p in Pile] + [TakeDiscard(p) for p in Pile]
    out += [
        DisplayCommodities(cards) for n in (1, 2) for cards in combinations_with_replacement(Commodity, n)
    ]
    out += [DisplayCommodities((Commodity.WINE, Commodity.FISH, Commodity.WINE)), DisplayCommodities(())]
    out += [StartShipment(x) for x in range(5)] + [LoadCommodity(c) for c in Commodity]
    out += [MoveLeader(p) for p in range(12)] + [TakeTrajanTile(k) for k in range(8)]
    out += [PlaceWorker(x) for x in range(22)] + [ChooseBonusTile(t) for t in range(14)]
    out += [PlaceStartMarkers(b, x, y) for b in range(1, 7) for x in Colour for y in Colour]
    out += [DrawStartCommodity(p) for p in Pile]
    out += [TakeStartTrajanTile(k, slot) for k in range(8) for slot in range(1, 8)]
    return tuple(out)
