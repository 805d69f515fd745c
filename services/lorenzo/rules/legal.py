"""``legal_commands``: candidate commands filtered through the same checks ``decide`` runs."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache, partial
from itertools import combinations

from services.lorenzo.rules.actions import (
    bonus_action_range,
    card_cost,
    check_action,
    check_bonus_take,
    check_spot,
    servant_range,
    take_base,
)
from services.lorenzo.rules.commands import (
    ActivateLeader,
    AnswerVaticanReport,
    ChooseBonusTile,
    ChooseCouncilPrivileges,
    ChooseExchange,
    Command,
    DiscardLeader,
    DraftLeader,
    EndGame,
    EndRound,
    EndTurn,
    Pass,
    PerformBonusAction,
    PlaceFamilyMember,
    PlayLeader,
    ResolveVaticanReport,
    SkipBonusAction,
    StartRound,
    TakeBonusCard,
)
from services.lorenzo.rules.content_types import (
    AbilityKind,
    Content,
    Space,
    SpaceKind,
    take_action,
)
from services.lorenzo.rules.goods import ZERO, Goods
from services.lorenzo.rules.leaders import activation_members, check_play, copy_targets
from services.lorenzo.rules.model import ALL_MEMBERS, DecisionKind, Member, Phase, Privilege, State
from services.lorenzo.rules.queries import SeatCache, servant_rate
from services.lorenzo.rules.rounds import drafters, vatican_voters
from shared.core.decider import Actor, RuleViolation


def to_act(c: Content, s: State) -> tuple[Actor, ...]:
    match s.phase:
        case Phase.CHOOSE_BONUS_TILES:
            return (Actor.of_seat(s.tile_pickers[0]),)
        case Phase.DRAFT_LEADERS:
            return tuple(Actor.of_seat(x) for x in drafters(s))
        case Phase.ACTIONS:
            return (Actor.of_seat(s.active_seat),)
        case Phase.VATICAN:
            voters = vatican_voters(c, s)
            return tuple(Actor.of_seat(x) for x in voters) if voters else (_system(),)
        case Phase.ROUND_START | Phase.ROUND_END | Phase.GAME_END:
            return (_system(),)
        case Phase.FINISHED:
            return ()


def _system() -> Actor:
    from shared.core.decider import SYSTEM

    return SYSTEM


def legal_commands(c: Content, s: State, actor: Actor) -> list[Command]:
    if actor not in to_act(c, s):
        return []
    match s.phase:
        case Phase.CHOOSE_BONUS_TILES:
            return [ChooseBonusTile(t) for t in s.bonus_tiles_left]
        case Phase.DRAFT_LEADERS:
            return [DraftLeader(x) for x in s.players[actor.seat].draft_hand]
        case Phase.ROUND_START:
            return [StartRound()]
        case Phase.ROUND_END:
            return [EndRound()]
        case Phase.GAME_END:
            return [EndGame()]
        case Phase.VATICAN:
            if actor.is_system:
                return [ResolveVaticanReport()]
            return [AnswerVaticanReport(True), AnswerVaticanReport(False)]
        case Phase.ACTIONS:
            return _turn_commands(c, s, actor.seat)
        case Phase.FINISHED:
            return []


def _turn_commands(c: Content, s: State, seat: int) -> list[Command]:
    if s.pending:
        return _decision_commands(c, s, seat)
    out: list[Command] = list(_leader_commands(c, s, seat))
    if s.acted:
        out.append(EndTurn())
        return out
    placements = list(placement_commands(c, s, seat))
    return out + (placements if placements else [Pass()])


def _ok_action(x: SeatCache, space: Space, v0: int, servants: int, co: int, do: int) -> bool:
    try:
        check_action(x, space, v0, servants, co, do)
    except RuleViolation:
        return False
    return True


def _options(x: SeatCache, space_id: int) -> tuple[tuple[int, int], ...]:
    """(cost_option, discount_option) pairs worth checking for the card on a tower space."""
    card = x.content.card[x.state.towers[space_id - 1]]
    costs, discounts = max(1, len(card.costs)), max(1, len(x.discounts(card.card_type)[1]))
    return _pairs(costs, discounts)


@cache
def _pairs(costs: int, discounts: int) -> tuple[tuple[int, int], ...]:
    return tuple((co, do) for co in range(costs) for do in range(discounts))


def _open_spaces(x: SeatCache) -> list[tuple[Space, int, bool, bool, bool, int]]:
    """Spaces worth checking for this seat, each with its value, whether it is a tower, whether servants
    may raise the value freely (harvest / production), whether a coloured member of the seat is already in
    its area and the space's value modifier.

    A cheap pre-filter only: every candidate still goes through ``check_spot`` and ``check_action``."""
    s = x.state
    assert s.config is not None
    out = []
    for space in x.content.board.spaces:
        kind = space.kind
        if space.min_players > s.config.seats or (x.no_market and kind is SpaceKind.MARKET):
            continue
        tower = kind is SpaceKind.TOWER
        if tower and not s.towers[space.id - 1]:
            continue
        full = space.capacity and x.taken.get(space.id, 0) >= space.capacity
        if full and (tower or not x.occupied_spaces):
            continue
        flexible = kind is SpaceKind.HARVEST or kind is SpaceKind.PRODUCTION
        out.append(
            (space, space.value, tower, flexible, x.has_colored_in_area(space), x.space_modifier(space))
        )
    return out


# A tower space's card for one seat: its goods before servants (``TakeBase.have``) and, per
# (cost_option, discount_option), the goods to pay and the military points required.
Priced = tuple[Goods, list[tuple[int, int, Goods, int]]]


def _priced(x: SeatCache, space: Space) -> Priced | None:
    """``check_take`` less the servants: None when no servant count can take the card."""
    card = x.content.card[x.state.towers[space.id - 1]]
    try:
        base = take_base(x, space, card)
    except RuleViolation:
        return None
    return base.have, [(co, do, *card_cost(x, card, co, do, ZERO)) for co, do in _options(x, space.id)]


def _affordable(priced: Priced | None, servants: int) -> list[tuple[int, int]]:
    """The cost options ``check_take``'s last checks (``_cost``) accept after spending ``servants``."""
    if priced is None:
        return []
    have = priced[0] - Goods(servants=servants) if servants else priced[0]
    return [(co, do) for co, do, pay, military in priced[1] if have.military >= military and have.covers(pay)]


def placement_commands(c: Content, s: State, seat: int) -> Iterator[PlaceFamilyMember]:
    """Candidates checked as ``decide`` does (``check_place`` = ``check_spot`` + ``check_action``), with
    one ``SeatCache`` for the whole call and each check run once for all the members it answers for."""
    x = SeatCache(c, s, seat)
    p = x.player
    rate = x.rate
    affordable = p.goods.servants // rate
    spaces = _open_spaces(x)
    # Per space, whether it takes a member at all: ``check_spot``, whose member checks (placed, a
    # coloured member in the area) are the filters below, so what is left answers alike for every member
    # that reaches it; off the towers also ``check_action``, where only the servant check depends on the
    # member and the raise, and every ``lo..hi`` below is inside its range and within the servants owned.
    space_ok: dict[int, bool] = {}
    # Tower space and servants -> the legal (cost_option, discount_option) pairs. On a tower the member's
    # value only decides the servants (exactly the missing amount), so with the same servants the card
    # check gives the same answer for every member; and the servants only lower the goods left, so the
    # rest of ``check_take`` (``take_base``, ``card_cost``) is run once per space (``_priced``).
    tower_options: dict[tuple[int, int], list[tuple[int, int]]] = {}
    priced: dict[int, Priced | None] = {}
    for member in ALL_MEMBERS:
        if member in p.placed:
            continue
        value = x.member_value(member)
        colored = member is not Member.NEUTRAL
        for space, target, tower, flexible, colored_there, modifier in spaces:
            if colored_there and colored:
                continue
            v0 = value + modifier  # base_value(x, member, space)
            lo = target - v0 if target > v0 else 0  # servant_range's lower end: the missing amount
            if lo > affordable:
                continue
            ok = space_ok.get(space.id)
            if ok is None:
                ok = _ok(partial(check_spot, x, member, space.id)) and (
                    tower or _ok_action(x, space, v0, lo * rate, 0, 0)
                )
                space_ok[space.id] = ok
            if not ok:
                continue
            if tower:
                servants = lo * rate
                options = tower_options.get((space.id, servants))
                if options is None:
                    if space.id not in priced:
                        priced[space.id] = _priced(x, space)
                    options = tower_options[(space.id, servants)] = _affordable(priced[space.id], servants)
                for co, do in options:
                    yield PlaceFamilyMember(member, space.id, servants, co, do)
            else:
                hi = servant_range(v0, target, flexible)[1] if flexible else lo
                for boost in range(lo, min(hi, affordable) + 1):
                    yield PlaceFamilyMember(member, space.id, boost * rate)


def has_placement(c: Content, s: State, seat: int) -> bool:
    return next(placement_commands(c, s, seat), None) is not None


def _leader_commands(c: Content, s: State, seat: int) -> Iterator[Command]:
    p = s.players[seat]
    for leader in p.hand:
        if c.leader[leader].ability is AbilityKind.COPY:
            for target in copy_targets(c, s, seat):
                if _ok(lambda t=target, x=leader: check_play(c, s, seat, x, t)):
                    yield PlayLeader(leader, target)
        elif _ok(lambda x=leader: check_play(c, s, seat, x, None)):
            yield PlayLeader(leader)
    for leader in p.hand:
        yield DiscardLeader(leader)
    for pl in p.played:
        for member in activation_members(c, s, seat, pl):
            yield ActivateLeader(pl.leader, member)


def _ok(check: object) -> bool:
    try:
        check()  # type: ignore[operator]
    except RuleViolation:
        return False
    return True


def _decision_commands(c: Content, s: State, seat: int) -> list[Command]:
    d = s.pending[0]
    p = s.players[seat]
    rate = servant_rate(c, p)
    match d.kind:
        case DecisionKind.PRIVILEGES:
            return [ChooseCouncilPrivileges(combo) for combo in combinations(tuple(Privilege), d.count)]
        case DecisionKind.EXCHANGE:
            prod = c.card[d.card].production
            assert prod is not None
            out: list[Command] = [ChooseExchange(d.card, 0)]
            for i, x in enumerate(prod.exchanges, start=1):
                if s.budget.covers(x.pay):
                    out.append(ChooseExchange(d.card, i))
            return out
        case DecisionKind.HARVEST | DecisionKind.PRODUCTION:
            _, lo, hi = bonus_action_range(c, s, seat)
            hi = min(hi, p.goods.servants // rate)
            bonus: list[Command] = [PerformBonusAction(b * rate) for b in range(lo, hi + 1)]
            return [*bonus, SkipBonusAction()]
        case DecisionKind.TAKE_CARD:
            out = []
            cache = SeatCache(c, s, seat)
            for space in c.board.spaces:
                if space.kind is not SpaceKind.TOWER or not s.towers[space.id - 1]:
                    continue
                if d.card_type is not None and space.tower is not d.card_type:
                    continue
                assert space.tower is not None
                v0 = d.value + cache.action_modifier(take_action(space.tower))
                servants = max(0, space.value - v0) * rate
                for co, do in _options(cache, space.id):
                    try:
                        check_bonus_take(cache, space.id, servants, co, do)
                    except RuleViolation:
                        continue
                    out.append(TakeBonusCard(space.id, servants, co, do))
            return [*out, SkipBonusAction()]
