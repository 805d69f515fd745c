"""Setup, advanced setup (bonus tiles, leader draft), rounds, the Vatican Report and final scoring."""

from __future__ import annotations

from services.lorenzo.rules.content_types import AbilityKind, CardType, Content, PenaltyKind
from services.lorenzo.rules.effects import Ctx
from services.lorenzo.rules.events import (
    BonusTileChosen,
    BonusTileSelectionStarted,
    ChurchSupported,
    DecksShuffled,
    DiceRolled,
    DraftHandReceived,
    Excommunicated,
    ExcommunicationTilesDrawn,
    FaithPointsConverted,
    FinalScoreComputed,
    GameEnded,
    GameStarted,
    LeaderDrafted,
    LeadersDealt,
    PhaseChanged,
    ResourcesGained,
    RoundEnded,
    RoundStarted,
    TowersFilled,
    TurnEnded,
    VaticanAnswerGiven,
)
from services.lorenzo.rules.goods import Goods
from services.lorenzo.rules.model import Config, Deck, FinalScore, Phase, PlayerState, Source, State
from services.lorenzo.rules.queries import ability, faith_required, faith_victory, has_penalty, penalties
from shared.core.decider import RuleViolation
from shared.core.rng import Rng

LEADERS_PER_PLAYER = 4


def setup(ctx: Ctx, config: Config, rng: Rng) -> None:
    """Rulebook "遊戲設置" / "Preparação do Jogo": tiles, decks by period, resources, coins by turn order."""
    c = ctx.content
    order = rng.shuffled(range(config.seats))
    ctx.emit(GameStarted(config.seats, config.advanced, order))
    tiles = tuple(rng.choice([t.id for t in c.excommunications if t.period == p]) for p in range(1, 4))
    ctx.emit(ExcommunicationTilesDrawn(tiles))
    decks = []
    for ct in CardType:
        cards: tuple[int, ...] = ()
        for period in range(1, c.board.periods + 1):
            cards += rng.shuffled([x.id for x in c.cards if x.card_type is ct and x.period == period])
        decks.append(Deck(ct, cards))
    ctx.emit(DecksShuffled(tuple(decks)))
    for position, seat in enumerate(order):
        goods = c.board.setup_goods + Goods(coins=c.board.coins_by_turn_order[position])
        ctx.emit(ResourcesGained(seat, goods, Source.SETUP))
    if not config.advanced:
        standard = next(t.id for t in c.bonus_tiles if not t.advanced)
        for seat in range(config.seats):
            ctx.emit(BonusTileChosen(seat, standard))
        ctx.emit(PhaseChanged(Phase.ROUND_START))
        return
    leaders = rng.shuffled([x.id for x in c.leaders])
    for seat in range(config.seats):
        hand = leaders[seat * LEADERS_PER_PLAYER : (seat + 1) * LEADERS_PER_PLAYER]
        ctx.emit(LeadersDealt(seat, tuple(hand)))
    advanced_tiles = tuple(t.id for t in c.bonus_tiles if t.advanced)
    ctx.emit(BonusTileSelectionStarted(tuple(reversed(order)), advanced_tiles))


def choose_bonus_tile(ctx: Ctx, seat: int, tile: int) -> None:
    s = ctx.state
    if not s.tile_pickers or s.tile_pickers[0] != seat:
        raise RuleViolation("not_your_turn", "another player chooses a bonus tile now")
    if tile not in s.bonus_tiles_left:
        raise RuleViolation("tile_unavailable", "that bonus tile is not available")
    ctx.emit(BonusTileChosen(seat, tile))
    if not ctx.state.tile_pickers:
        ctx.emit(PhaseChanged(Phase.DRAFT_LEADERS))


def drafters(s: State) -> tuple[int, ...]:
    """Seats that still pick in this pass of the draft (simultaneous)."""
    longest = max(len(p.draft_hand) for p in s.players)
    if longest == 0:
        return ()
    return tuple(p.seat for p in s.players if len(p.draft_hand) == longest)


def draft_leader(ctx: Ctx, seat: int, leader: int) -> None:
    """Keep one, pass the rest to the player on the right (seat - 1) once everyone has picked."""
    if seat not in drafters(ctx.state):
        raise RuleViolation("not_your_turn", "you already picked in this pass")
    if leader not in ctx.state.players[seat].draft_hand:
        raise RuleViolation("leader_not_offered", "that leader is not in the hand you hold")
    ctx.emit(LeaderDrafted(seat, leader))
    s = ctx.state
    if len({len(p.draft_hand) for p in s.players}) != 1:
        return
    n = len(s.players)
    if not s.players[0].draft_hand:
        ctx.emit(PhaseChanged(Phase.ROUND_START))
        return
    passed = [s.players[(seat2 + 1) % n].draft_hand for seat2 in range(n)]
    for seat2 in range(n):
        ctx.emit(DraftHandReceived(seat2, passed[seat2]))


def start_round(ctx: Ctx, rng: Rng) -> None:
    """Round setup: four cards per tower from the decks, roll the three dice; turns in turn order
    (excommunication 2_7: skip the first turn, place the last member after everyone)."""
    c, s = ctx.content, ctx.state
    order = s.turn_order
    skip = [seat for seat in order if has_penalty(c, s.players[seat], PenaltyKind.SKIP_FIRST_TURN)]
    queue = tuple(x for x in order if x not in skip) + order * 3 + tuple(skip)
    ctx.emit(RoundStarted(s.round + 1, queue))
    n = c.board.cards_per_tower_per_round
    towers = [0] * 16
    for space in c.board.spaces:
        if space.tower is not None:
            deck = ctx.state.decks[int(space.tower) - 1]
            towers[space.id - 1] = deck.cards[space.floor - 1] if space.floor <= n else 0
    ctx.emit(TowersFilled(tuple(towers)))
    ctx.emit(DiceRolled(rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)))


def end_turn(ctx: Ctx, seat: int) -> None:
    ctx.emit(TurnEnded(seat))
    s = ctx.state
    if s.turn_index >= len(s.turn_queue):
        report = s.round % ctx.content.board.rounds_per_period == 0
        ctx.emit(PhaseChanged(Phase.VATICAN if report else Phase.ROUND_END))


def vatican_voters(c: Content, s: State) -> tuple[int, ...]:
    """Seats that reached the period's faith requirement and have not answered yet."""
    need = faith_required(c, s)
    return tuple(p.seat for p in s.players if p.goods.faith >= need and p.vatican_answer is None)


def answer_vatican(ctx: Ctx, seat: int, support: bool) -> None:
    if seat not in vatican_voters(ctx.content, ctx.state):
        raise RuleViolation("not_your_turn", "you have no Vatican Report answer to give")
    ctx.emit(VaticanAnswerGiven(seat, support))


def resolve_vatican(ctx: Ctx) -> None:
    """Rulebook "梵諦岡發言": supporters spend all faith for the track's victory points (Sisto IV +5);
    the rest take the period's excommunication and keep their faith, except after round 6 when they
    score it anyway."""
    c, s = ctx.content, ctx.state
    need = faith_required(c, s)
    tile = s.excommunication_tiles[s.period - 1]
    last = s.period == c.board.periods
    for p in s.players:
        faith = p.goods.faith
        if p.vatican_answer:
            sisto = ability(c, p, AbilityKind.CHURCH_BONUS)
            extra = sisto.gain.goods.victory if sisto else 0
            ctx.emit(ChurchSupported(p.seat, faith, faith_victory(c, faith) + extra))
            continue
        ctx.emit(Excommunicated(p.seat, tile))
        if last and faith < need:
            ctx.emit(FaithPointsConverted(p.seat, faith, faith_victory(c, faith)))
    ctx.emit(PhaseChanged(Phase.ROUND_END))


def next_turn_order(s: State, council: int) -> tuple[int, ...]:
    """Council Palace arrival order first (leftmost member counts), then the others in previous order."""
    first: list[int] = []
    for o in s.occupants:
        if o.space == council and o.seat not in first:
            first.append(o.seat)
    return tuple(first) + tuple(x for x in s.turn_order if x not in first)


def end_round(ctx: Ctx) -> None:
    c, s = ctx.content, ctx.state
    council = next(x.id for x in c.board.spaces if x.kind.name == "COUNCIL")
    ctx.emit(RoundEnded(s.round, next_turn_order(s, council)))
    ctx.emit(PhaseChanged(Phase.GAME_END if s.round >= c.board.rounds else Phase.ROUND_START))


def _military_points(c: Content, players: tuple[PlayerState, ...]) -> list[int]:
    """5 to the most Military Points, 2 to the second; a tie for first gives all of them 5 and no 2."""
    first_vp, second_vp = c.board.military_victory
    values = [p.goods.military for p in players]
    top = max(values)
    out = [first_vp if v == top else 0 for v in values]
    if values.count(top) == 1:
        rest = [v for v in values if v != top]
        if rest:
            second = max(rest)
            out = [second_vp if v == second else o for v, o in zip(values, out, strict=True)]
    return out


def final_score(c: Content, p: PlayerState, military: int) -> FinalScore:
    before = p.goods.victory
    loss_first = sum(before // t.value for t in penalties(c, p, PenaltyKind.LOSE_PER_VICTORY))
    banned = {t.card_type for t in penalties(c, p, PenaltyKind.NO_END_POINTS)}
    b = c.board
    terr = 0 if CardType.TERRITORY in banned else b.territory_victory[len(p.territories)]
    chars = 0 if CardType.CHARACTER in banned else b.character_victory[len(p.characters)]
    vents = 0 if CardType.VENTURE in banned else sum(c.card[x].end_victory for x in p.ventures)
    res = p.goods.resource_count // b.resources_per_victory
    loss = loss_first
    loss += sum(p.goods.military // t.value for t in penalties(c, p, PenaltyKind.LOSE_PER_MILITARY))
    if has_penalty(c, p, PenaltyKind.LOSE_PER_BUILDING_COST):
        loss += sum(c.card[x].costs[0].pay.wood + c.card[x].costs[0].pay.stone for x in p.buildings)
    if has_penalty(c, p, PenaltyKind.LOSE_PER_RESOURCE):
        loss += p.goods.resource_count
    total = max(0, before + terr + chars + vents + military + res - loss)
    return FinalScore(p.seat, before, terr, chars, vents, military, res, loss, total)


def end_game(ctx: Ctx) -> None:
    """Final scoring ("遊戲結束與最終計分"); ties go to the player further ahead in turn order."""
    c, s = ctx.content, ctx.state
    military = _military_points(c, s.players)
    scores = [final_score(c, p, military[p.seat]) for p in s.players]
    for sc in scores:
        ctx.emit(FinalScoreComputed(sc))
    ranking = sorted(s.turn_order, key=lambda seat: (-scores[seat].total, s.turn_order.index(seat)))
    placings = [0] * len(scores)
    for place, seat in enumerate(ranking, start=1):
        placings[seat] = place
    ctx.emit(GameEnded(tuple(sc.total for sc in scores), tuple(placings)))
