"""Family member placements and the extra actions of card and leader effects: checks and resolution.

Checks raise ``RuleViolation`` and are shared by ``decide`` and ``legal_commands`` so both agree.
Servants: a command names exactly the servants the action uses (towers, market, council: the minimum
that reaches the space's value; harvest/production: any amount up to the highest activation value).
"""

from __future__ import annotations

from services.lorenzo.rules.content_types import (
    MAX_ACTIVATION,
    NO_GAIN,
    ActionKind,
    Card,
    CardType,
    Content,
    Gain,
    Space,
    SpaceKind,
    take_action,
)
from services.lorenzo.rules.effects import Ctx, apply_immediate, gain, harvest, pay, production
from services.lorenzo.rules.events import (
    BonusActionPerformed,
    BonusActionSkipped,
    BonusCardActionTaken,
    CardTaken,
    CouncilPrivilegesChosen,
    ExchangeChosen,
    FamilyMemberPlaced,
)
from services.lorenzo.rules.goods import ZERO, Goods
from services.lorenzo.rules.model import Decision, DecisionKind, Member, Privilege, Source, State
from services.lorenzo.rules.queries import (
    SeatCache,
    action_modifier,
    servant_rate,
)
from shared.core.decider import RuleViolation
from shared.core.records import record


@record
class TakePlan:
    card: Card
    space: Space
    servants: int
    fee: int
    bonus: Gain
    pay: Goods
    value: int


@record
class PlacePlan:
    space: Space
    servants: int
    value: int
    take: TakePlan | None


def servant_range(v0: int, target: int, flexible: bool) -> tuple[int, int]:
    """Allowed value raises: exactly the missing amount, or up to the highest activation value."""
    need = max(0, target - v0)
    return need, (max(need, MAX_ACTIVATION - v0) if flexible else need)


def check_servants(c: Content, s: State, seat: int, servants: int, lo: int, hi: int) -> int:
    """Validate the servants of a command; returns the value raise they buy."""
    p = s.players[seat]
    return _check_servants(servant_rate(c, p), p.goods.servants, servants, lo, hi)


def _check_servants(rate: int, owned: int, servants: int, lo: int, hi: int) -> int:
    if servants < 0 or servants % rate or not lo <= servants // rate <= hi:
        raise RuleViolation(
            "wrong_servants",
            "spend {low}..{high} servants (by {rate}) here",
            low=lo * rate,
            high=hi * rate,
            rate=rate,
        )
    if servants > owned:
        raise RuleViolation("not_enough_servants", "you do not have that many servants")
    return servants // rate


def base_value(x: SeatCache, member: Member, space: Space) -> int:
    """Action value of ``member`` on ``space`` before servants."""
    return x.member_value(member) + x.space_modifier(space)


def check_take(
    x: SeatCache,
    space: Space,
    v0: int,
    servants: int,
    cost_option: int,
    discount_option: int,
    extra_discount: Goods = ZERO,
) -> TakePlan:
    """Taking the card on a tower space (by a member or a card effect): value, fee, bonus, cost, slots."""
    cid = x.state.towers[space.id - 1]
    if not cid:
        raise RuleViolation("no_card", "that floor has no card left")
    card = x.content.card[cid]
    lo, hi = servant_range(v0, space.value, False)
    boost = _check_servants(x.rate, x.player.goods.servants, servants, lo, hi)
    base = take_base(x, space, card)
    have = base.have - Goods(servants=servants) if servants else base.have
    cost_to_pay = _cost(x, card, cost_option, discount_option, extra_discount, have)
    return TakePlan(card, space, servants, base.fee, base.bonus, cost_to_pay, v0 + boost)


@record
class TakeBase:
    """What taking the card on a tower space asks and gives before the servants and the cost: the
    servants spent only lower ``have.servants``, so one ``TakeBase`` answers for every servant count."""

    fee: int
    bonus: Gain
    have: Goods  # the seat's goods after the fee and with the floor bonus, before the servants


def take_base(x: SeatCache, space: Space, card: Card) -> TakeBase:
    """The checks of taking ``card`` that depend on neither the servants nor the cost: the occupied
    tower's fee (paid before the floor bonus), the six cards of a type, the territory slots."""
    c, p = x.content, x.player
    have = p.goods
    fee = 0
    if card.card_type in x.occupied_towers and not x.no_fee:
        fee = c.board.occupied_tower_fee
    if have.coins < fee:
        raise RuleViolation("cannot_pay_tower_fee", "an occupied tower costs 3 coins, paid before the bonus")
    if fee:
        have = have - Goods(coins=fee)
    bonus = NO_GAIN if x.no_floor_bonus else space.bonus
    floor_goods = x.floor_bonus(space)
    if floor_goods is not ZERO:
        have = have + floor_goods
    owned = len(p.cards_of(card.card_type))
    if owned >= c.board.max_cards_per_type:
        raise RuleViolation("card_limit", "you already have 6 cards of that type")
    is_territory = card.card_type is CardType.TERRITORY
    borgia = x.ignore_territory_requirement
    if is_territory and not borgia and have.military < c.board.territory_slot_military[owned]:
        raise RuleViolation("territory_slot_locked", "not enough military points for the next territory slot")
    return TakeBase(fee, bonus, have)


def _cost(
    x: SeatCache,
    card: Card,
    cost_option: int,
    discount_option: int,
    extra: Goods,
    have: Goods,
) -> Goods:
    to_pay, military = card_cost(x, card, cost_option, discount_option, extra)
    if have.military < military:
        raise RuleViolation("military_requirement", "you need {military} military points", military=military)
    if not have.covers(to_pay):
        raise RuleViolation("cannot_afford", "you cannot pay the card's cost")
    return to_pay


def card_cost(
    x: SeatCache, card: Card, cost_option: int, discount_option: int, extra: Goods
) -> tuple[Goods, int]:
    """The goods a cost alternative asks after the chosen discounts, and the military points it
    requires (held, not paid)."""
    costs = card.costs
    if not 0 <= cost_option < max(1, len(costs)):
        raise RuleViolation("bad_cost_option", "no such cost alternative")
    fixed, options = x.discounts(card.card_type)
    if not 0 <= discount_option < max(1, len(options)):
        raise RuleViolation("bad_discount_option", "no such discount alternative")
    if not costs:
        return ZERO, 0
    cost = costs[cost_option]
    chosen = options[discount_option] if options else ZERO
    to_pay = cost.pay
    if fixed is not ZERO or chosen is not ZERO or extra is not ZERO:
        to_pay = (to_pay - fixed - chosen - extra).floor0()
    pico = x.coin_discount
    if pico and cost.pay.coins > 0:
        to_pay = Goods(max(0, to_pay.coins - pico.value), *_rest(to_pay))
    return to_pay, cost.require_military


def _rest(g: Goods) -> tuple[int, int, int, int, int, int]:
    return g.wood, g.stone, g.servants, g.military, g.faith, g.victory


def check_place(
    x: SeatCache,
    member: Member,
    space_id: int,
    servants: int,
    cost_option: int,
    discount_option: int,
) -> PlacePlan:
    space = check_spot(x, member, space_id)
    return check_action(x, space, base_value(x, member, space), servants, cost_option, discount_option)


def check_spot(x: SeatCache, member: Member, space_id: int) -> Space:
    """The checks of a placement that depend on neither servants nor cost options; returns the space."""
    c, s, p = x.content, x.state, x.player
    if member in p.placed:
        raise RuleViolation("member_already_placed", "that family member is already on the board")
    space = c.space.get(space_id)
    if space is None:
        raise RuleViolation("unknown_space", "no space {space}", space=space_id)
    assert s.config is not None
    if space.min_players > s.config.seats:
        raise RuleViolation("space_covered", "that space is covered with this many players")
    full = space.capacity and x.taken.get(space_id, 0) >= space.capacity
    if full and (space.kind is SpaceKind.TOWER or not x.occupied_spaces):
        raise RuleViolation("space_occupied", "that action space is taken")
    if member is not Member.NEUTRAL and x.has_colored_in_area(space):
        raise RuleViolation("colored_member_in_area", "you already have a coloured member there")
    return space


def check_action(
    x: SeatCache, space: Space, v0: int, servants: int, cost_option: int, discount_option: int
) -> PlacePlan:
    """The rest of ``check_place`` (``v0``: the member's value on the space before servants): servants,
    and on a tower taking the card."""
    if space.kind is SpaceKind.TOWER:
        take = check_take(x, space, v0, servants, cost_option, discount_option)
        return PlacePlan(space, servants, take.value, take)
    if cost_option or discount_option:
        raise RuleViolation("bad_cost_option", "only cards have cost alternatives")
    if space.kind is SpaceKind.MARKET and x.no_market:
        raise RuleViolation("market_forbidden", "your excommunication forbids the market")
    flexible = space.kind in (SpaceKind.HARVEST, SpaceKind.PRODUCTION)
    lo, hi = servant_range(v0, space.value, flexible)
    boost = _check_servants(x.rate, x.player.goods.servants, servants, lo, hi)
    return PlacePlan(space, servants, v0 + boost, None)


def place(ctx: Ctx, seat: int, member: Member, plan: PlacePlan) -> None:
    ctx.emit(FamilyMemberPlaced(seat, member, plan.space.id, plan.value))
    if plan.take is not None:
        pay(ctx, seat, Goods(servants=plan.servants), Source.SERVANTS)
        resolve_take(ctx, seat, plan.take)
        return
    pay(ctx, seat, Goods(servants=plan.servants), Source.SERVANTS)
    match plan.space.kind:
        case SpaceKind.MARKET:
            gain(ctx, seat, plan.space.bonus, Source.MARKET)
        case SpaceKind.COUNCIL:
            gain(ctx, seat, plan.space.bonus, Source.COUNCIL)
        case SpaceKind.HARVEST:
            harvest(ctx, seat, plan.value)
        case SpaceKind.PRODUCTION:
            production(ctx, seat, plan.value)
        case SpaceKind.TOWER:
            raise AssertionError("towers are resolved by resolve_take")


def resolve_take(ctx: Ctx, seat: int, plan: TakePlan) -> None:
    """Fee, floor bonus (usable for the cost, not for the fee), cost, card, immediate effects."""
    pay(ctx, seat, Goods(coins=plan.fee), Source.TOWER_FEE)
    if plan.bonus.goods != ZERO:
        gain(ctx, seat, plan.bonus, Source.FLOOR_BONUS)
    pay(ctx, seat, plan.pay, Source.CARD_COST)
    ctx.emit(CardTaken(seat, plan.card.id, plan.card.card_type, plan.space.id))
    apply_immediate(ctx, seat, plan.card)


def head(s: State, *kinds: DecisionKind) -> Decision:
    if not s.pending or s.pending[0].kind not in kinds:
        raise RuleViolation("no_such_decision", "that choice is not owed now")
    return s.pending[0]


def check_bonus_take(
    x: SeatCache, space_id: int, servants: int, cost_option: int, discount_option: int
) -> TakePlan:
    d = head(x.state, DecisionKind.TAKE_CARD)
    space = x.content.space.get(space_id)
    if space is None or space.kind is not SpaceKind.TOWER:
        raise RuleViolation("unknown_space", "a card action needs a tower space")
    assert space.tower is not None
    if d.card_type is not None and space.tower is not d.card_type:
        raise RuleViolation("wrong_tower", "this action takes a {type} card", type=d.card_type.name.lower())
    v0 = d.value + x.action_modifier(take_action(space.tower))
    return check_take(x, space, v0, servants, cost_option, discount_option, d.discount)


def take_bonus_card(ctx: Ctx, seat: int, plan: TakePlan) -> None:
    ctx.emit(BonusCardActionTaken(seat, plan.space.id, plan.value))
    pay(ctx, seat, Goods(servants=plan.servants), Source.SERVANTS)
    resolve_take(ctx, seat, plan)


def bonus_action_range(c: Content, s: State, seat: int) -> tuple[int, int, int]:
    """(base value, min raise, max raise) of the owed harvest / production action."""
    d = head(s, DecisionKind.HARVEST, DecisionKind.PRODUCTION)
    kind = ActionKind.HARVEST if d.kind is DecisionKind.HARVEST else ActionKind.PRODUCTION
    v0 = d.value + action_modifier(c, s.players[seat], kind, d.servants_only)
    return v0, 0, max(0, MAX_ACTIVATION - v0)


def perform_bonus_action(ctx: Ctx, seat: int, servants: int) -> None:
    c, s = ctx.content, ctx.state
    d = head(s, DecisionKind.HARVEST, DecisionKind.PRODUCTION)
    v0, lo, hi = bonus_action_range(c, s, seat)
    value = v0 + check_servants(c, s, seat, servants, lo, hi)
    ctx.emit(BonusActionPerformed(seat, value))
    pay(ctx, seat, Goods(servants=servants), Source.SERVANTS)
    if d.kind is DecisionKind.HARVEST:
        harvest(ctx, seat, value)
    else:
        production(ctx, seat, value)


def skip_bonus_action(ctx: Ctx, seat: int) -> None:
    head(ctx.state, DecisionKind.TAKE_CARD, DecisionKind.HARVEST, DecisionKind.PRODUCTION)
    ctx.emit(BonusActionSkipped(seat))


def choose_privileges(ctx: Ctx, seat: int, privileges: tuple[Privilege, ...]) -> None:
    d = head(ctx.state, DecisionKind.PRIVILEGES)
    values = [int(x) for x in privileges]
    if len(values) != d.count or values != sorted(set(values)) or not all(1 <= v <= 5 for v in values):
        raise RuleViolation(
            "bad_privileges", "choose {count} different privileges in ascending order", count=d.count
        )
    ctx.emit(CouncilPrivilegesChosen(seat, tuple(Privilege(v) for v in values)))
    for v in values:
        gain(ctx, seat, Gain(ctx.content.board.privileges[v - 1]), Source.PRIVILEGE)


def choose_exchange(ctx: Ctx, seat: int, card: int, option: int) -> None:
    d = head(ctx.state, DecisionKind.EXCHANGE)
    if card != d.card:
        raise RuleViolation("no_such_decision", "the owed exchange is card {card}", card=d.card)
    prod = ctx.content.card[card].production
    assert prod is not None
    if not 0 <= option <= len(prod.exchanges):
        raise RuleViolation("bad_exchange", "no such exchange alternative")
    if option == 0:
        ctx.emit(ExchangeChosen(seat, card, 0, ZERO))
        return
    x = prod.exchanges[option - 1]
    if not ctx.state.budget.covers(x.pay):
        raise RuleViolation("cannot_afford", "exchanges are paid from what you owned before the action")
    ctx.emit(ExchangeChosen(seat, card, option, x.pay))
    pay(ctx, seat, x.pay, Source.EXCHANGE)
    gain(ctx, seat, x.gain, Source.EXCHANGE)
