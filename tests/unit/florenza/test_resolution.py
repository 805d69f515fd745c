"""Steps 5 (market), 6 (district actions, with the seed's order example) and 7 (art works)."""

from __future__ import annotations

import dataclasses
from dataclasses import replace
from typing import Any

import pytest

from services.florenza.rules.commands import (
    BuyResource,
    ChooseDie,
    CompleteArtWork,
    ExchangeResources,
    LeaveMarket,
    ResolveDistricts,
    SellResource,
)
from services.florenza.rules.content_types import Skill
from services.florenza.rules.events import (
    ArtWorkCompleted,
    ArtWorkFailed,
    DiceChoiceOffered,
    DiceRolled,
    MasterpieceCreated,
    WorkshopBuildFailed,
    WorkshopBuilt,
    WorkshopWorked,
)
from services.florenza.rules.goods import Goods, Resource
from services.florenza.rules.model import NO_SEAT, Phase, Presence, Source, Trade
from shared.core.decider import Actor, RuleViolation

from .helpers import (
    ABSIDE,
    AFFRESCO,
    ANGELICO,
    ANON_ARCHITECT,
    ANON_PAINTER,
    ANON_SCULPTOR,
    ATRIO,
    BATTILORO,
    BOSCAIUOLO,
    BOTTICELLI,
    CAMPANILE,
    CAPPELLA,
    CASA,
    CERAIOLO,
    CROCIFISSO,
    FABBRO,
    FACCIATA,
    GIARDINO,
    LEGNAIUOLO,
    MICHELANGELO,
    PALA,
    PICCONIERE,
    RULES,
    SALONE_SIGNORIA,
    STATUA,
    C,
    Dice,
    church,
    fold,
    game,
    net,
    of_type,
    prestige,
    then,
    when,
    with_goods,
    with_player,
    with_spot,
)

# ---------------------------------------------------------------- step 5: market


def _market(**goods: int) -> Any:
    s = with_player(game(phase=Phase.MARKET), 0, market=True, workers=3)
    return with_goods(s, 0, **goods) if goods else s


def test_sell_one_resource_for_one_hundred() -> None:
    events = when(_market(gold=1), 0, SellResource(Resource.GOLD))
    assert net(events, 0) == Goods(money=100, gold=-1)


def test_buy_one_resource_for_two_hundred() -> None:
    events = when(_market(money=200), 0, BuyResource(Resource.SPICES))
    assert net(events, 0) == Goods(money=-200, spices=1)


def test_exchange_two_identical_resources_for_one_of_another_kind() -> None:
    events = when(_market(wood=2), 0, ExchangeResources(Resource.WOOD, Resource.METAL))
    assert net(events, 0) == Goods(wood=-2, metal=1)
    with pytest.raises(RuleViolation, match="cannot_pay"):
        when(_market(wood=2), 0, ExchangeResources(Resource.WOOD, Resource.WOOD))
    with pytest.raises(RuleViolation, match="cannot_pay"):
        when(_market(wood=1, marble=1), 0, ExchangeResources(Resource.WOOD, Resource.METAL))


def test_each_trade_only_once_and_the_worker_goes_home_after_the_third() -> None:
    s = then(_market(gold=2, money=200, wood=2), 0, SellResource(Resource.GOLD))
    with pytest.raises(RuleViolation, match="trade_used"):
        when(s, 0, SellResource(Resource.GOLD))
    s = then(s, 0, BuyResource(Resource.MARBLE))
    s = then(s, 0, ExchangeResources(Resource.WOOD, Resource.FABRIC))
    assert (s.players[0].trades, s.players[0].market) == ((Trade.SELL, Trade.BUY, Trade.EXCHANGE), False)
    assert s.phase is Phase.DISTRICTS


def test_the_bank_sells_only_cubes_it_has() -> None:
    s = _market(money=200)
    s = replace(s, supply=replace(s.supply, spices=0))
    with pytest.raises(RuleViolation, match="sold_out"):
        when(s, 0, BuyResource(Resource.SPICES))
    assert BuyResource(Resource.SPICES) not in RULES.legal_commands(s, Actor.of_seat(0))


def test_market_visitors_trade_in_turn_order_and_leave() -> None:
    s = game(seats=3, order=(2, 0, 1), phase=Phase.MARKET)
    s = with_player(with_player(s, 1, market=True), 2, market=True)
    s = replace(s, active=2)
    s = then(s, 2, LeaveMarket())
    assert s.active == 1 and s.players[2].reserve == 5
    s = then(s, 1, LeaveMarket())
    assert s.phase is Phase.DISTRICTS


# ---------------------------------------------------------------- step 6: districts


def _districts(seats: int, order: tuple[int, ...] | None = None) -> Any:
    return game(seats=seats, order=order, phase=Phase.DISTRICTS)


def _worker(s: Any, owner: int, slot: int, seat: int, kind: int, built: bool = True) -> Any:
    s = with_player(s, owner, district={slot: (kind, built)})
    district = list(s.players[owner].district)
    district[slot - 1] = replace(district[slot - 1], worker=seat)
    s = with_player(s, owner, district=tuple(district))
    return with_player(s, seat, workers=s.players[seat].workers - 1)


def test_seed_example_district_actions_go_space_by_space_then_in_turn_order() -> None:
    # Seed 6: A's space 1, B's space 1, ... E's space 1, then A's space 2, and so on.
    order = (3, 1, 4, 0, 2)  # A..E
    s = _districts(5, order)
    for seat in range(5):
        s = _worker(s, seat, 1, seat, BOSCAIUOLO)
        s = _worker(s, seat, 2, seat, FABBRO, built=seat % 2 == 0)  # some built now, some not
    s = with_goods(s, 0, wood=1, marble=1)
    events = when(s, -1, ResolveDistricts())
    done = [
        (e.slot, e.seat)
        for e in events
        if isinstance(e, WorkshopWorked | WorkshopBuilt | WorkshopBuildFailed)
    ]
    assert done == [(1, a) for a in order] + [(2, a) for a in order]


def test_a_worker_on_another_familys_workshop_produces_for_its_own_family() -> None:
    s = _worker(_districts(2), 1, 1, 0, PICCONIERE)
    events = when(s, -1, ResolveDistricts())
    assert (net(events, 0), net(events, 1)) == (Goods(marble=1), Goods())
    assert fold(events, s).players[0].reserve == 5


def test_production_gives_goods_church_influence_or_a_paid_formula() -> None:
    s = _worker(_districts(2), 0, 1, 0, CERAIOLO)
    assert church(when(s, -1, ResolveDistricts()), 0, Source.PRODUCTION) == 1
    s = with_goods(_worker(_districts(2), 0, 1, 0, LEGNAIUOLO), 0, wood=2)
    assert net(when(s, -1, ResolveDistricts()), 0) == Goods(money=200, wood=-1)


def test_a_formula_the_family_cannot_pay_gives_nothing() -> None:
    s = _worker(_districts(2), 0, 1, 0, BATTILORO)
    events = when(s, -1, ResolveDistricts())
    assert of_type(events, WorkshopWorked) and net(events, 0) == Goods() and prestige(events, 0) == 0


def test_production_stops_at_the_banks_last_cube() -> None:
    s = _worker(_districts(2), 0, 1, 0, PICCONIERE)
    s = replace(s, supply=replace(s.supply, marble=0))
    assert net(when(s, -1, ResolveDistricts()), 0) == Goods()


def test_construction_pays_the_cost_turns_the_tile_and_gives_its_prestige() -> None:
    cost = C.workshop[CASA].cost
    s = with_goods(_worker(_districts(2), 0, 3, 0, CASA, built=False), 0, **dataclasses.asdict(cost))
    events = when(s, -1, ResolveDistricts())
    assert net(events, 0, Source.CONSTRUCTION) == Goods() - cost
    s7 = _worker(_districts(2), 0, 3, 0, 7, built=False)  # Casamento: 1 prestige on the black side
    s7 = with_goods(s7, 0, **dataclasses.asdict(C.workshop[7].cost))
    assert prestige(when(s7, -1, ResolveDistricts()), 0, Source.CONSTRUCTION) == 1
    assert fold(events, s).players[0].district[2].built


def test_a_failed_construction_costs_one_prestige_and_returns_tile_and_worker() -> None:
    s = _worker(_districts(2), 0, 3, 0, CASA, built=False)
    s = replace(s, workshop_supply=tuple(x for x in s.workshop_supply if x != CASA))
    events = when(s, -1, ResolveDistricts())
    assert of_type(events, WorkshopBuildFailed) == [WorkshopBuildFailed(0, 3, CASA)]
    assert prestige(events, 0, Source.FAILED_CONSTRUCTION) == -1
    s = fold(events, s)
    assert s.players[0].district[2].workshop == 0 and CASA in s.workshop_supply
    assert s.players[0].reserve == 5


def test_after_the_districts_the_art_works_or_the_round_end() -> None:
    s = fold(when(_districts(2), -1, ResolveDistricts()), _districts(2))
    assert s.phase is Phase.ROUND_END
    s = with_spot(_districts(2), AFFRESCO, 1, worker=1, artist=ANON_PAINTER)
    s = fold(when(s, -1, ResolveDistricts()), s)
    assert (s.phase, s.active) == (Phase.ART_WORKS, 1)


# ---------------------------------------------------------------- step 7: art works


def _art(seats: int = 2) -> Any:
    return replace(game(seats=seats, phase=Phase.ART_WORKS), active=0)


def _hired(s: Any, work: int, seat: int, artist: int) -> Any:
    district = seat if C.work[work].in_district else NO_SEAT
    s = with_spot(s, work, district, worker=seat, artist=artist)
    return with_player(s, seat, workers=s.players[seat].workers - 1)


def test_completing_pays_the_works_cost_and_the_artists_fee_for_the_talent_used() -> None:
    s = _hired(_art(), STATUA, 0, MICHELANGELO)
    cost = C.work[STATUA].cost
    fee = C.artist[MICHELANGELO].row(Skill.SCULPTURE).fee
    s = with_goods(s, 0, metal=2, money=cost.money + fee)
    events = when(s, 0, CompleteArtWork(STATUA, Skill.SCULPTURE), Dice(2))
    assert net(events, 0, Source.ART_WORK) == Goods(money=-(cost.money + fee), metal=-2)
    assert prestige(events, 0, Source.ART_WORK) == C.work[STATUA].reward.prestige
    assert (
        prestige(events, 0, Source.ARTIST_DIE)
        == C.artist[MICHELANGELO].row(Skill.SCULPTURE).faces[1].prestige
    )
    s = fold(events, s)
    spot = next(w for w in s.works if w.work == STATUA and w.district == 0)
    assert (spot.crest, spot.worker, spot.artist) == (0, NO_SEAT, 0)
    assert s.players[0].reserve == 5


def test_a_talent_the_work_does_not_ask_for_is_refused() -> None:
    s = with_goods(_hired(_art(), STATUA, 0, MICHELANGELO), 0, money=2000, metal=2)
    with pytest.raises(RuleViolation, match="wrong_skill"):
        when(s, 0, CompleteArtWork(STATUA, Skill.PAINTING))


def test_anonymous_artists_work_for_the_works_price_only_and_roll_no_die() -> None:
    s = with_goods(_hired(_art(), STATUA, 0, ANON_SCULPTOR), 0, metal=2, money=100)
    events = when(s, 0, CompleteArtWork(STATUA, Skill.SCULPTURE), Dice())
    assert net(events, 0) == Goods(money=-100, metal=-2)
    assert not of_type(events, DiceRolled)


@pytest.mark.parametrize(("work", "loss"), [(STATUA, 1), (CROCIFISSO, 1), (SALONE_SIGNORIA, 2), (ABSIDE, 3)])
def test_a_failed_work_costs_prestige_by_location_and_nothing_is_paid(work: int, loss: int) -> None:
    skill = C.work[work].skills[0]
    anonymous = {
        Skill.PAINTING: ANON_PAINTER,
        Skill.SCULPTURE: ANON_SCULPTOR,
        Skill.ARCHITECTURE: ANON_ARCHITECT,
    }
    s = with_goods(_hired(_art(), work, 0, anonymous[skill]), 0, wood=1)
    events = when(s, 0, CompleteArtWork(work, skill))
    assert of_type(events, ArtWorkFailed) and net(events, 0) == Goods()
    assert prestige(events, 0) == -loss


def test_an_unpaid_named_artist_costs_one_more_prestige_and_the_resources_stay() -> None:
    # FAQ: enough for the work but not for the artist: nothing is paid, the named artist adds 1.
    s = with_goods(_hired(_art(), STATUA, 0, MICHELANGELO), 0, metal=2, money=100)
    events = when(s, 0, CompleteArtWork(STATUA, Skill.SCULPTURE))
    assert net(events, 0) == Goods()
    assert (prestige(events, 0, Source.ART_WORK_FAILURE), prestige(events, 0, Source.UNPAID_ARTIST)) == (
        -1,
        -1,
    )
    s = fold(events, s)
    assert MICHELANGELO not in {w.artist for w in s.works}  # back on his card
    assert next(w for w in s.works if w.work == STATUA and w.district == 0).crest == NO_SEAT


def test_own_works_first_then_the_city_then_the_duomo() -> None:
    s = _hired(
        _hired(_hired(_art(), ABSIDE, 0, ANON_PAINTER), SALONE_SIGNORIA, 0, ANON_PAINTER + 1),
        STATUA,
        0,
        ANON_SCULPTOR,
    )
    assert list(RULES.legal_commands(s, Actor.of_seat(0))) == [CompleteArtWork(STATUA, Skill.SCULPTURE)]
    with pytest.raises(RuleViolation, match="wrong_order"):
        when(s, 0, CompleteArtWork(ABSIDE, Skill.PAINTING))


def test_works_of_one_area_in_any_order_and_the_player_picks_the_talent() -> None:
    s = _hired(_hired(_art(), FACCIATA, 0, MICHELANGELO), GIARDINO, 0, ANON_ARCHITECT)
    legal = set(RULES.legal_commands(s, Actor.of_seat(0)))
    assert legal == {
        CompleteArtWork(FACCIATA, Skill.ARCHITECTURE),
        CompleteArtWork(FACCIATA, Skill.SCULPTURE),
        CompleteArtWork(GIARDINO, Skill.ARCHITECTURE),
    }


def test_players_try_one_work_at_a_time_in_turn_order() -> None:
    s = _hired(
        _hired(_hired(_art(), STATUA, 0, ANON_SCULPTOR), AFFRESCO, 0, ANON_PAINTER),
        STATUA,
        1,
        ANON_SCULPTOR + 1,
    )
    s = then(s, 0, CompleteArtWork(STATUA, Skill.SCULPTURE))
    assert s.active == 1
    s = then(s, 1, CompleteArtWork(STATUA, Skill.SCULPTURE))
    assert s.active == 0
    s = then(s, 0, CompleteArtWork(AFFRESCO, Skill.PAINTING))
    assert s.phase is Phase.ROUND_END


def test_the_masterpiece_face_gives_the_masterpiece_once_per_card() -> None:
    row = C.artist[BOTTICELLI].row(Skill.PAINTING)
    s = with_goods(_hired(_art(), AFFRESCO, 0, BOTTICELLI), 0, money=1000, spices=1, fabric=1)
    events = when(s, 0, CompleteArtWork(AFFRESCO, Skill.PAINTING), Dice(row.masterpiece_faces[0]))
    assert of_type(events, MasterpieceCreated) == [MasterpieceCreated(0, BOTTICELLI)]
    assert prestige(events, 0, Source.MASTERPIECE) == row.masterpiece
    s = fold(events, s)
    assert s.masterpieces == (BOTTICELLI,)
    s = with_goods(
        _hired(replace(s, phase=Phase.ART_WORKS, active=1), AFFRESCO, 1, BOTTICELLI),
        1,
        money=1000,
        spices=1,
        fabric=1,
    )
    events = when(s, 1, CompleteArtWork(AFFRESCO, Skill.PAINTING), Dice(row.masterpiece_faces[0]))
    assert not of_type(events, MasterpieceCreated)
    assert prestige(events, 1, Source.ARTIST_DIE) == row.faces[row.masterpiece_faces[0] - 1].prestige


def test_a_bad_roll_can_cost_prestige() -> None:
    row = C.artist[ANGELICO].row(Skill.PAINTING)
    assert row.faces[0].prestige < 0
    s = replace(_art(), present=(Presence(ANGELICO, 2),))
    s = with_goods(_hired(s, AFFRESCO, 0, ANGELICO), 0, money=1000, spices=1, fabric=1)
    events = when(s, 0, CompleteArtWork(AFFRESCO, Skill.PAINTING), Dice(1))
    assert prestige(events, 0, Source.ARTIST_DIE) == row.faces[0].prestige


def test_in_the_duomo_two_dice_are_rolled_and_one_is_kept() -> None:
    cost = C.work[ABSIDE].cost
    s = with_goods(_hired(_art(), ABSIDE, 0, BOTTICELLI), 0, money=cost.money + 200)
    s = with_goods(s, 0, wood=cost.wood, marble=cost.marble, gold=cost.gold, spices=cost.spices)
    events = when(s, 0, CompleteArtWork(ABSIDE, Skill.PAINTING), Dice(1, 5))
    assert of_type(events, DiceChoiceOffered)[0].pending.dice == (1, 5)
    s = fold(events, s)
    assert RULES.to_act(s) == (Actor.of_seat(0),) and s.phase is Phase.ART_WORKS
    events = when(s, 0, ChooseDie(5))
    row = C.artist[BOTTICELLI].row(Skill.PAINTING)
    assert prestige(events, 0, Source.ARTIST_DIE) == row.faces[4].prestige
    s = fold(events, s)
    assert (s.pending, s.phase) == (None, Phase.ROUND_END)


def test_completing_the_palazzo_gives_four_prestige_and_the_chiesa_four_church_influence() -> None:
    s = _art()
    for work in (FACCIATA, AFFRESCO, GIARDINO):
        s = with_spot(s, work, 0, crest=0)
    s = with_goods(_hired(s, STATUA, 0, ANON_SCULPTOR), 0, metal=2, money=100)
    events = when(s, 0, CompleteArtWork(STATUA, Skill.SCULPTURE))
    assert prestige(events, 0, Source.PALAZZO_BONUS) == 4
    s = _art()
    for work in (CAMPANILE, PALA, CROCIFISSO):
        s = with_spot(s, work, 0, crest=0)
    s = with_goods(_hired(s, CAPPELLA, 0, ANON_SCULPTOR), 0, **dataclasses.asdict(C.work[CAPPELLA].cost))
    events = when(s, 0, CompleteArtWork(CAPPELLA, Skill.SCULPTURE))
    assert church(events, 0, Source.CHIESA_BONUS) == 4
    assert church(events, 0, Source.ART_WORK) == C.work[CAPPELLA].reward.church


def test_a_completed_work_is_closed_for_good() -> None:
    s = with_goods(_hired(_art(), ATRIO, 0, ANON_SCULPTOR), 0, wood=1, fabric=1, gold=1, metal=1, money=200)
    events = when(s, 0, CompleteArtWork(ATRIO, Skill.SCULPTURE))
    assert of_type(events, ArtWorkCompleted) == [
        ArtWorkCompleted(0, ATRIO, NO_SEAT, ANON_SCULPTOR, Skill.SCULPTURE)
    ]
    s = replace(fold(events, s), phase=Phase.PLACEMENT, active=1)
    assert not [c for c in RULES.legal_commands(s, Actor.of_seat(1)) if getattr(c, "work", 0) == ATRIO]
