"""Florenza's bot hooks: the heuristic (victory points now plus a valuation of what may become points)
and the pruner of placements not worth searching.

Reached only through the manifest (``MANIFEST.bots()``); the bot levels are generic
(``services/workers/bots/``). Florenza hides nothing (docs/rules/florenza.md, "Hidden information"),
so the hooks read the whole state. The scale is victory points: the final scoring's lines as they
stand (certificates, prestige, the penalties for incomplete works and empty Palazzo / Chiesa), plus
what is under way and what the assets will still earn:

* money and cubes at their end-game rate (300 fiorini, 3 cubes a point), worth more while rounds are
  left to turn them into art works (works cost cubes above all: about a prestige a cube);
* works in progress: a hired art work at its expected result in step 7 (its prestige and influence,
  the artist's die, the Palazzo / Chiesa bonus, the final penalties it lifts, minus the price), paid in
  step 7's order out of one purse, or its failure penalties when the purse cannot pay; a worker on a
  workshop at what it produces; a planned workshop at its build (or the failed build's penalty);
* built workshops and completed works with an income, by the rounds they still pay;
* church influence toward the Cardinal's 5 prestige and the Bishop; titles; workers still to place.

The weights were tuned with the bot bench (docs/rules/florenza.md, "Bots").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from services.florenza.rules.commands import HireArtist, MakeOffering, PlanWorkshop, WorkWorkshop
from services.florenza.rules.content_types import Area, Artist, Content, EffectKind, Reward, Skill, Workshop
from services.florenza.rules.effects import lowest_free_slot
from services.florenza.rules.goods import ZERO, Goods
from services.florenza.rules.model import NO_SEAT, DistrictSlot, Phase, PlayerState, State, WorkSpot
from services.florenza.rules.resolution import AREA_ORDER
from shared.core.decider import Actor, RuleViolation
from shared.core.ranked_rules import settled
from shared.core.rng import Rng

MONEY_EARLY = 1 / 400  # a fiorino's worth above the end-game rate, with every round left
CUBE_EARLY = 0.7  # a cube's worth above the end-game rate, early on
CHURCH_EARLY = 0.45  # a point of influence toward the Cardinal's 5 prestige, early on
CHURCH_LATE = 0.1
WORKER = 0.7  # a worker still to place this round
MARKET = 0.35  # a worker at the market, its three trades still to come
TITLE = 0.5  # a title now, before the last round elects the ones that score
USE = 0.55  # how often a built workshop is worked in a round left
SHORTFALL_CUBES = 2  # the market fixes at most two missing cubes (a purchase and an exchange)
KEEP: dict[bool, dict[str, int]] = {  # by ``coarse``: placements kept per family
    False: {"hire": 8, "plan": 4, "work": 8},
    True: {"hire": 3, "plan": 2, "work": 3},
}

OWN_BEST = 6  # the searching seat's commands kept after applying them ...
OWN_MARGIN = 3.0  # ... those within this many points of the best one

PLACING = (Phase.CHOOSE_WORKSHOPS, Phase.INCOME, Phase.CAPTAIN, Phase.BISHOP, Phase.PLACEMENT)
CUBES = ("marble", "wood", "metal", "gold", "fabric", "spices")


def evaluate(rules: Any, state: State, seat: int) -> float:
    """How good ``state`` looks for ``seat``, in victory points (higher is better)."""
    known = settled(state, seat + 1, Phase.FINISHED)
    if known is not None:
        return known[seat]
    return _Valuation(rules.content, state).value(seat)


def evaluate_all(rules: Any, state: State, seats: int) -> tuple[float, ...]:
    """``evaluate`` for every seat, the state's shared facts gathered once (``mcts`` leaves)."""
    known = settled(state, seats, Phase.FINISHED)
    if known is not None:
        return known
    valuation = _Valuation(rules.content, state)
    return tuple(valuation.value(seat) for seat in range(seats))


def horizon(rules: Any, start: State, state: State) -> bool:
    """Where an ``mcts`` line ends: when the step it began in is over (or at the search's ply limit).
    So a line never reaches the dice of the steps after (the artists', the income die, the tiles
    drawn), which the valuation already counts at their expectation, and the searching seat's own
    later turns of the step are searched too: in step 4 a placement is judged with the seat's next
    placements, not only the others' replies (lines that ended at the seat's next turn won 32 of 100
    bench games against 3 ``greedy``, these 37 at 12 plies and 40 at the 24 the manifest sets:
    docs/workers.md)."""
    return state.phase is not start.phase or state.round != start.round


# ---------------------------------------------------------------- the valuation


@dataclass(frozen=True)
class DistrictWorker:
    """One more worker of the valued seat on a district space (0-based ``slot``): a placement not made."""

    owner: int
    slot: int
    workshop: int
    built: bool


@dataclass
class _Valuation:
    """One state's valuation: the rates by rounds left and the works sorted by seat, found once."""

    c: Content
    s: State
    left: int = 0
    early: float = 0.0
    money_rate: float = 0.0
    cube_rate: float = 0.0
    church_rate: float = 0.0
    own: dict[int, list[WorkSpot]] = field(default_factory=dict)  # district works by seat
    hired: dict[int, list[WorkSpot]] = field(default_factory=dict)
    crests: dict[int, list[WorkSpot]] = field(default_factory=dict)
    _bases: dict[tuple[int, int], float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        b, s = self.c.board, self.s
        # Rounds after the current one (the current one's income is still due in INCOME).
        self.left = max(b.rounds - max(s.round, 1), 0) + (1 if s.phase is Phase.INCOME else 0)
        self.early = self.left / b.rounds
        self.money_rate = 1 / b.money_per_point + MONEY_EARLY * self.early
        self.cube_rate = 1 / b.resources_per_point + CUBE_EARLY * self.early
        self.church_rate = CHURCH_LATE + CHURCH_EARLY * self.early
        for spot in s.works:
            if spot.district != NO_SEAT:
                self.own.setdefault(spot.district, []).append(spot)
            if spot.worker != NO_SEAT:
                self.hired.setdefault(spot.worker, []).append(spot)
            if spot.crest != NO_SEAT:
                self.crests.setdefault(spot.crest, []).append(spot)

    def value(self, seat: int) -> float:
        s = self.s
        p = s.players[seat]
        value = float(p.certificates + p.prestige) - self._penalties(p)
        value += TITLE * ((seat == s.captain) + (seat == s.bishop))
        value += self.goods(p.goods) + p.church * self.church_rate
        if s.phase in PLACING and not p.passed:
            value += WORKER * p.workers
        if p.market and s.phase in (*PLACING, Phase.MARKET):
            value += MARKET * (3 - len(p.trades)) / 3
        return value + self._assets(p) + self._this_round(p)

    # ------------------------------------------------------------ pieces
    def goods(self, g: Goods) -> float:
        return g.money * self.money_rate + g.resource_count * self.cube_rate

    def reward(self, r: Reward) -> float:
        return (
            r.prestige + self.church_rate * r.church + self.goods(r.goods) + WORKER * r.workers * self.early
        )

    def produce(self, w: Workshop) -> float:
        """One use of a workshop (a formula at its net gain, never below nothing)."""
        if w.effect is EffectKind.CONVERT:
            return max(self.reward(w.gain) - self.reward(w.pay), 0.0)
        return self.reward(w.gain)

    def produce_now(self, purse: Goods, church: int, w: Workshop) -> tuple[float, Goods]:
        """A worker on the workshop this round: its value and the purse after it (a formula gives
        nothing when the purse cannot pay it)."""
        if w.effect is EffectKind.CONVERT:
            if not (purse.covers(w.pay.goods) and church >= w.pay.church):
                return 0.0, purse
            return self.produce(w), purse - w.pay.goods + w.gain.goods
        return self.produce(w), purse + w.gain.goods

    def build(self, purse: Goods, w: Workshop) -> float:
        """Planning ``w`` now: its build in step 6 and its uses in the rounds left, or the failed
        build's penalty when the purse cannot pay."""
        if not purse.covers(w.cost):
            return -float(self.c.board.failed_build_penalty)
        uses = self.left if w.is_purple else USE * self.left
        return w.build_prestige - self.goods(w.cost) + self.produce(w) * uses

    def _penalties(self, p: PlayerState) -> float:
        """The final penalties as they stand: incomplete own works, empty Palazzo / Chiesa, unbuilt tiles."""
        b, c = self.c.board, self.c
        own = self.own.get(p.seat, [])
        incomplete = sum(1 for w in own if w.crest == NO_SEAT)
        done = {c.work[w.work].area for w in own if w.crest != NO_SEAT}
        empty = sum(1 for area in (Area.PALAZZO, Area.CHIESA) if area not in done)
        unbuilt = sum(1 for x in p.district if x.workshop and not x.built and x.worker == NO_SEAT)
        return (
            b.incomplete_work_penalty * incomplete
            + b.empty_area_penalty * empty
            + b.unfinished_workshop_penalty * unbuilt
        )

    def _assets(self, p: PlayerState) -> float:
        """Built workshops by the rounds they still work (or pay, purple ones), completed works'
        incomes by the rounds left."""
        c, value = self.c, 0.0
        for x in p.district:
            if x.workshop and x.built:
                w = c.workshop[x.workshop]
                value += self.produce(w) * (self.left if w.is_purple else USE * self.left)
        for spot in self.crests.get(p.seat, []):
            income = c.work[spot.work].income
            if not income.is_empty:
                value += self.reward(income) * self.left
        return value

    def _this_round(self, p: PlayerState) -> float:
        """This round's workers at what they will do, in the order of the round out of one purse:
        step 6 space by space (a build pays its cost, a formula its price, production fills the
        purse), then step 7's hired works (own district, city, Duomo), so nothing counts the same
        fiorino or cube twice."""
        return self.round_with(p)

    def round_with(
        self, p: PlayerState, district: DistrictWorker | None = None, hire: WorkSpot | None = None
    ) -> float:
        """``_this_round`` with one more worker of the seat: on a district space or hiring an artist."""
        districts, purse = self.districts(p, district)
        works, _ = self.works(p.seat, purse, hire)
        return districts + works

    def districts(self, p: PlayerState, extra: DistrictWorker | None = None) -> tuple[float, Goods]:
        """Step 6 for the seat's workers placed so far (and ``extra``, one more of its workers in its
        place in the order): their value and the purse after it."""
        c, s, value = self.c, self.s, 0.0
        purse = p.goods
        for slot in range(c.board.district_slots):
            for owner in s.turn_order:
                x = s.players[owner].district[slot]
                if extra is not None and (owner, slot) == (extra.owner, extra.slot):
                    x = DistrictSlot(workshop=extra.workshop, built=extra.built, worker=p.seat)
                if x.worker != p.seat or not x.workshop:
                    continue
                w = c.workshop[x.workshop]
                if x.built:
                    gain, purse = self.produce_now(purse, p.church, w)
                    value += gain
                else:
                    value += self.build(purse, w)
                    purse = purse - w.cost if purse.covers(w.cost) else purse
        return value, purse

    def works(self, seat: int, purse: Goods, extra: WorkSpot | None = None) -> tuple[float, Goods]:
        """Step 7 for the seat's works hired so far (and ``extra``, one more hire), out of ``purse``:
        their value and what is left."""
        c, value = self.c, 0.0
        hired = self.hired.get(seat, [])
        if extra is not None:  # in the order of the board's works, as the others are
            place = {(x.work, x.district): i for i, x in enumerate(self.s.works)}
            hired = sorted([*hired, extra], key=lambda x: place[x.work, x.district])
        for spot in sorted(hired, key=lambda x: AREA_ORDER[c.work[x.work].area]):
            gain, price = self.hired_work(seat, purse, spot.work, spot.district, spot.artist)
            value += gain
            purse = purse - price
        return value, purse

    def hired_work(
        self, seat: int, purse: Goods, work: int, district: int, artist: int
    ) -> tuple[float, Goods]:
        """A hired work's expected result in step 7 with the talent that pays best, and its price
        (nothing when the purse cannot pay: then the failure's penalties)."""
        c = self.c
        w, a = c.work[work], c.artist[artist]
        if not purse.covers(w.cost):
            return -float(self._failure(w.area, a)), ZERO
        base = self.work_base(seat, work, district)
        spare = purse.money - w.cost.money
        best, fee = -float(self._failure(w.area, a)), -1
        for skill in (k for k in w.skills if k in a.skills):
            due = 0 if a.anonymous else a.row(skill).fee
            if due > spare:
                continue
            gain = base - due * self.money_rate
            gain += artist_die(a, skill, w.area is Area.DUOMO, artist not in self.s.masterpieces)
            if gain > best:
                best, fee = gain, due
        return best, (w.cost + Goods(money=fee) if fee >= 0 else ZERO)

    def work_base(self, seat: int, work: int, district: int) -> float:
        """A work's reward, the penalties it lifts, minus its own cost (the artist aside); memoized."""
        key = (seat, work)
        if key not in self._bases:
            w = self.c.work[work]
            self._bases[key] = self.reward(w.reward) - self.goods(w.cost) + self._lifted(seat, work, district)
        return self._bases[key]

    def _failure(self, area: Area, a: Artist) -> int:
        b = self.c.board
        return b.failure(area) + (0 if a.anonymous else b.unpaid_artist_penalty)

    def _lifted(self, seat: int, work: int, district: int) -> float:
        """Final penalties a district work lifts, and the area's bonus when it is its last work."""
        if district != seat:
            return 0.0
        c, b = self.c, self.c.board
        area = c.work[work].area
        others = [x for x in self.own.get(seat, []) if x.work != work and c.work[x.work].area is area]
        done = sum(1 for x in others if x.crest != NO_SEAT)
        value = float(b.incomplete_work_penalty) + (b.empty_area_penalty if done == 0 else 0)
        if done == len(others):
            value += b.palazzo_bonus if area is Area.PALAZZO else b.chiesa_bonus * self.church_rate
        return value


_DIE: dict[tuple[int, int, bool, bool], float] = {}


def artist_die(a: Artist, skill: Skill, duomo: bool, masterpiece: bool) -> float:
    """The mean prestige of the artist's bonus die (two dice keeping the better one in the Duomo);
    memoized by artist object, talent and case (content is loaded once per process)."""
    if a.anonymous:
        return 0.0
    key = (id(a), skill, duomo, masterpiece)
    if key not in _DIE:
        _DIE[key] = _die(a, skill, duomo, masterpiece)
    return _DIE[key]


def _die(a: Artist, skill: Skill, duomo: bool, masterpiece: bool) -> float:
    row = a.row(skill)
    faces = [
        float(row.masterpiece)
        if masterpiece and i + 1 in row.masterpiece_faces
        else f.prestige + 0.4 * f.church
        for i, f in enumerate(row.faces)
    ]
    if not duomo:
        return sum(faces) / len(faces)
    return sum(max(x, y) for x in faces for y in faces) / len(faces) ** 2


def missing(have: Goods, price: Goods) -> int:
    """Cubes short of ``price``, money short counting one cube per 200 fiorini (the market's price)."""
    short = price - have
    cubes = sum(max(int(getattr(short, k)), 0) for k in CUBES)
    return cubes + (max(short.money, 0) + 199) // 200


# ---------------------------------------------------------------- pruning


def prune(rules: Any, state: State, seat: int, commands: Sequence[Any], coarse: bool = False) -> list[Any]:
    """The commands worth searching, in the rules' order; never empty.

    First the placements the valuation ranks below others of their kind go (:func:`candidates`).
    Then every candidate left is applied (with the same dice for all, as ``greedy`` compares them)
    and valued for the seat: the searching seat keeps its ``OWN_BEST`` best within ``OWN_MARGIN``
    points of the best one (wider would spread the search's few iterations over moves the valuation
    already finds clearly worse), another seat (``coarse``) only its best one: its likely choice, as
    a seat that maximises its own value plays it.
    """
    kept = (
        candidates(rules, state, seat, commands, coarse) if state.phase is Phase.PLACEMENT else list(commands)
    )
    if len(kept) <= 1:
        return kept or list(commands)
    actor = Actor.of_seat(seat)
    valued = []
    for i, command in enumerate(kept):
        try:
            after = _apply(rules, state, actor, command)
        except RuleViolation:
            continue
        valued.append((evaluate(rules, after, seat), -i, command))
    valued.sort(key=lambda item: item[:2], reverse=True)
    near = [item for item in valued if item[0] >= valued[0][0] - OWN_MARGIN] if valued else []
    best = {id(command) for _, _, command in (valued[:1] if coarse else near[:OWN_BEST])}
    return [x for x in kept if id(x) in best] or list(commands)


def _apply(rules: Any, state: State, actor: Actor, command: Any) -> State:
    """``command`` applied with the dice of this decision: the same for every candidate (as ``greedy``
    compares them), different from one decision to the next (a fixed roll would favour or shun
    every offering and every artist's die alike)."""
    dice = Rng(((state.round * 16 + state.phase) * 8 + actor.seat) * 64 + len(state.pulpits) + 1)
    for event in rules.decide(state, actor, command, dice):
        state = rules.evolve(state, event)
    return state


def candidates(rules: Any, state: State, seat: int, commands: Sequence[Any], coarse: bool) -> list[Any]:
    """Placements minus those ranked below others of their kind, without applying any.

    Exact: anonymous artists of the same talents are interchangeable (no fee, no die, no card), so
    one of them per work and talent set is kept. Hires and plans more than the market's two cubes
    short of their price go (they can only fail and cost prestige); of the rest the best hires, plans
    and workshops to work (``KEEP``), and the best offering per pulpit. ``coarse`` plans only what the
    seat can pay. What the seat can pay is its purse as the valuation sees it at that point of the
    round: after step 6's production and builds of the workers placed so far, not its goods now.
    A hire, a plan or a workshop to work is ranked by what it adds to the round as the valuation plays
    it out of that one purse (:meth:`_Valuation.round_with`): a build that spends the cubes of a work
    already hired costs that work, a production that completes a work's price earns it.
    Visiting the market and passing are always kept.
    """
    c: Content = rules.content
    valuation = _Valuation(c, state)
    p = state.players[seat]
    _, at_districts = valuation.districts(p)
    now = valuation.round_with(p)
    keep = KEEP[coarse]
    ranked: dict[str, list[tuple[float, Any]]] = {"hire": [], "plan": [], "work": []}
    offerings: dict[bool, tuple[float, Any]] = {}
    anonymous: set[tuple[int, tuple[Skill, ...]]] = set()
    short: dict[int, int] = {}  # cubes short of each work's own cost
    out: list[Any] = []
    for command in commands:
        match command:
            case HireArtist(work, artist):
                a = c.artist[artist]
                if work not in short:
                    short[work] = missing(at_districts, c.work[work].cost)
                if short[work] > SHORTFALL_CUBES:
                    continue
                if a.anonymous:
                    if (work, a.skills) in anonymous:
                        continue
                    anonymous.add((work, a.skills))
                ranked["hire"].append((added(valuation, seat, command, now), command))
            case PlanWorkshop(kind):
                if missing(at_districts, c.workshop[kind].cost) <= (0 if coarse else SHORTFALL_CUBES):
                    ranked["plan"].append((added(valuation, seat, command, now), command))
            case WorkWorkshop():
                ranked["work"].append((added(valuation, seat, command, now), command))
            case MakeOffering(preacher, duomo):
                value = _offering(valuation, c, preacher, duomo)
                if duomo not in offerings or value > offerings[duomo][0]:
                    offerings[duomo] = (value, command)
            case _:
                out.append(command)
    for family, items in ranked.items():
        items.sort(key=lambda item: -item[0])
        out += [command for _, command in items[: keep[family]]]
    out += [command for _, command in offerings.values()]
    chosen = {id(x) for x in out}
    return [x for x in commands if id(x) in chosen]


def added(
    valuation: _Valuation, seat: int, command: HireArtist | PlanWorkshop | WorkWorkshop, now: float
) -> float:
    """What a hire, a plan or a workshop to work adds to the seat's round as the valuation plays it out
    of one purse (``now``: the round without it), less a rival's fee; the worker it takes aside."""
    c, s = valuation.c, valuation.s
    p = s.players[seat]
    match command:
        case HireArtist(work, artist):
            district = seat if c.work[work].in_district else NO_SEAT
            hire = WorkSpot(work=work, district=district, worker=seat, artist=artist)
            return valuation.round_with(p, hire=hire) - now
        case PlanWorkshop(kind):
            free = lowest_free_slot(p) or 1  # legal only with a free space
            return valuation.round_with(p, district=DistrictWorker(seat, free - 1, kind, built=False)) - now
        case WorkWorkshop(owner, slot):
            fee = 0 if owner == seat else c.board.opponent_workshop_fee
            kind = s.players[owner].district[slot - 1].workshop
            return (
                valuation.round_with(p, district=DistrictWorker(owner, slot - 1, kind, built=True))
                - now
                - fee
            )


def _offering(valuation: _Valuation, c: Content, preacher: int, duomo: bool) -> float:
    """Expected workers (the better of two dice in the Duomo) at a worker's worth, minus the offering."""
    faces = c.preacher[preacher].faces
    if duomo:
        workers = sum(max(x, y) for x in faces for y in faces) / len(faces) ** 2
    else:
        workers = sum(faces) / len(faces)
    return WORKER * workers - valuation.goods(Goods(money=c.preacher[preacher].offering))
