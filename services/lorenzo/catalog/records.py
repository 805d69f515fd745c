"""``LorenzoContent`` from the validated ``Content``: the typed records plus their texts."""

from __future__ import annotations

from services.lorenzo import texts
from services.lorenzo.catalog.messages import (
    ActionBonusEffect,
    BoardInfo,
    BonusTileInfo,
    CardCount,
    CardInfo,
    CostInfo,
    ExchangeOption,
    ExcommunicationInfo,
    GainInfo,
    HarvestEffect,
    ImmediateEffect,
    LeaderInfo,
    LorenzoContent,
    PrivilegeInfo,
    ProductionEffect,
    RequirementInfo,
    SpaceInfo,
)
from services.lorenzo.presentation.labels import Labels
from services.lorenzo.rules.content_types import (
    Board,
    BonusTile,
    Card,
    CardType,
    Content,
    ExcommunicationTile,
    Gain,
    Leader,
    Production,
    Space,
)
from services.lorenzo.rules.model import Privilege


def content_message(content: Content) -> LorenzoContent:
    labels = Labels(content)
    return LorenzoContent(
        cards=tuple(card(c) for c in content.cards),
        leaders=tuple(leader(x) for x in content.leaders),
        excommunications=tuple(excommunication(t) for t in content.excommunications),
        bonus_tiles=tuple(bonus_tile(t) for t in content.bonus_tiles),
        spaces=tuple(space(s, labels.space(s.id)) for s in content.board.spaces),
        privileges=tuple(
            PrivilegeInfo(Privilege(n), goods, texts.privilege(n, goods))
            for n, goods in enumerate(content.board.privileges, start=1)
        ),
        board=board(content.board),
    )


def gain(g: Gain) -> GainInfo:
    return GainInfo(g.goods, g.privileges)


def card(c: Card) -> CardInfo:
    return CardInfo(
        id=c.id,
        name=c.name,
        card_type=c.card_type,
        period=c.period,
        costs=tuple(CostInfo(x.pay, x.require_military, texts.cost(x)) for x in c.costs),
        immediate=tuple(
            ImmediateEffect(e.kind, gain(e.gain), e.card_type, e.value, e.discount, texts.immediate(e, c))
            for e in c.immediate
        ),
        harvest=HarvestEffect(c.harvest.value, gain(c.harvest.gain), texts.harvest(c.harvest))
        if c.harvest
        else None,
        production=production(c.production) if c.production else None,
        action_bonus=ActionBonusEffect(
            c.action_bonus.action,
            c.action_bonus.value,
            c.action_bonus.discounts,
            texts.action_bonus(c.action_bonus),
        )
        if c.action_bonus
        else None,
        no_floor_bonus=c.no_floor_bonus,
        end_victory=c.end_victory,
        text=texts.card(c),
    )


def production(p: Production) -> ProductionEffect:
    return ProductionEffect(
        value=p.value,
        gain=gain(p.gain),
        per_card=p.per_card,
        per_card_gain=p.per_card_gain,
        exchanges=tuple(
            ExchangeOption(x.pay, gain(x.gain), texts.exchange(x.pay, x.gain)) for x in p.exchanges
        ),
        text=texts.production(p),
    )


def leader(x: Leader) -> LeaderInfo:
    need = x.requirement
    cards = tuple(CardCount(t, n) for t, n in zip(CardType, need.cards, strict=True) if n)
    return LeaderInfo(
        id=x.id,
        name=x.name,
        ability=x.ability,
        requirement=RequirementInfo(cards, need.same_type, need.goods, texts.requirement(need)),
        once_per_round=x.once_per_round,
        gain=gain(x.gain),
        value=x.value,
        ability_text=texts.ability_line(x),
        text=texts.leader(x),
    )


def excommunication(t: ExcommunicationTile) -> ExcommunicationInfo:
    return ExcommunicationInfo(
        t.id, t.code, t.period, t.penalty, t.goods, t.action, t.card_type, t.value, texts.excommunication(t)
    )


def bonus_tile(t: BonusTile) -> BonusTileInfo:
    return BonusTileInfo(t.id, t.name, t.advanced, t.harvest, t.production, texts.bonus_tile(t))


def space(s: Space, name: str) -> SpaceInfo:
    return SpaceInfo(
        id=s.id,
        kind=s.kind,
        value=s.value,
        tower=s.tower,
        floor=s.floor,
        bonus=gain(s.bonus),
        capacity=s.capacity,
        min_players=s.min_players,
        modifier=s.modifier,
        name=name,
        text=texts.space(s, name),
    )


def board(b: Board) -> BoardInfo:
    return BoardInfo(
        periods=b.periods,
        rounds_per_period=b.rounds_per_period,
        occupied_tower_fee=b.occupied_tower_fee,
        max_cards_per_type=b.max_cards_per_type,
        territory_slot_military=b.territory_slot_military,
        vatican_faith_required=b.vatican_faith_required,
        faith_victory=b.faith_victory,
        territory_victory=b.territory_victory,
        character_victory=b.character_victory,
        military_victory=b.military_victory,
        resources_per_victory=b.resources_per_victory,
        setup_goods=b.setup_goods,
        coins_by_turn_order=b.coins_by_turn_order,
        text=texts.board(b),
    )
