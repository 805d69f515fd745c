"""Florenza's bot hooks: the heuristic (victory points now plus a valuation of what may become points)
and the pruner of placements not worth searching.

Reached only through the manifest (``MANIFEST.bots()``); the bot levels are generic
(``services/workers/bots/``). Florenza hides nothing (docs/rules/florenza.md, "Hidden information"),
so the hooks read the whole state. The scale is victory points: the final scoring's lines as they
stand (``rules.rounds.final_score``), plus what is under way and what the assets will still earn:

* money and cubes at their end-game rate (300 fiorini, 3 cubes a point), worth more while rounds are
  left to turn them into art works (an artist buys about a prestige per 100 fiorini);
* works in progress: a hired art work at its expected result in step 7 (its prestige and influence,
  the artist's die, the Palazzo / Chiesa bonus, the final penalty it lifts, minus the price), or its
  failure penalties when the family cannot pay now; a worker on a workshop at what it produces; a
  planned workshop at its build (or the failed build's penalty);
* built workshops and completed works with an income, by the rounds they still pay;
* church influence toward the Cardinal's 5 prestige and the Bishop; titles; workers still to place.

The weights were tuned with ``tabula bench --only bots`` (docs/rules/florenza.md, "Bots").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from services.florenza.rules.commands import HireArtist, PlanWorkshop
from services.florenza.rules.content_types import Area, Artist, Content, EffectKind, Reward, Skill
from services.florenza.rules.goods import Goods
from services.florenza.rules.model import NO_SEAT, Phase, PlayerState, State
from services.florenza.rules.rounds import final_score

# Rate of a fiorino and of a cube (victory points) on top of the end-game rate, with every round left.
MONEY_EARLY = 1 / 200
CUBE_EARLY = 0.45
CHURCH_EARLY = 0.45  # a point of influence toward the Cardinal's 5 prestige, early on
CHURCH_LATE = 0.1
WORKER = 0.7  # a worker still to place this round
MARKET = 0.35  # a worker at the market, its trades still to come
TITLE = 0.5  # a title now, before the last round elects the ones that score
USE = 0.55  # how often a built workshop is worked in a round left
SHORTFALL_CUBES = 2  # the market fixes at most two missing cubes (a purchase and an exchange)

PLACING = (Phase.CHOOSE_WORKSHOPS, Phase.INCOME, Phase.CAPTAIN, Phase.BISHOP, Phase.PLACEMENT)


def evaluate(rules: Any, state: State, seat: int) -> float:
    """How good ``state`` looks for ``seat``, in victory points (higher is better)."""
    if not state.players:
        return 0.0
    if state.phase is Phase.FINISHED and state.final:
        return float(state.final[seat].total)
    return _value(rules.content, state, seat)


def evaluate_all(rules: Any, state: State, seats: int) -> tuple[float, ...]:
    """``evaluate`` for every seat (what ``mcts`` scores each leaf with)."""
    if not state.players:
        return (0.0,) * seats
    if state.phase is Phase.FINISHED and state.final:
        return tuple(float(state.final[seat].total) for seat in range(seats))
    return tuple(_value(rules.content, state, seat) for seat in range(seats))


# ---------------------------------------------------------------- the valuation


def _rounds_left(c: Content, s: State) -> int:
    """Rounds after the current one (the current one's income is still due in INCOME)."""
    return max(c.board.rounds - max(s.round, 1), 0) + (1 if s.phase is Phase.INCOME else 0)


def _value(c: Content, s: State, seat: int) -> float:
    p = s.players[seat]
    left = _rounds_left(c, s)
    early = left / c.board.rounds
    f = final_score(c, s, seat)
    value = f.certificates + f.prestige + f.unfinished_workshops + f.incomplete_works + f.empty_areas
    value += TITLE * ((seat == s.captain) + (seat == s.bishop))
    value += _goods(c, p.goods, early)
    value += p.church * (CHURCH_LATE + CHURCH_EARLY * early)
    if s.phase in PLACING and not p.passed:
        value += WORKER * p.workers
    if p.market and s.phase in (*PLACING, Phase.MARKET):
        value += MARKET * (3 - len(p.trades)) / 3
    value += _district(c, s, p, left, early)
    value += _works(c, s, p, left, early)
    return value


def _goods(c: Content, g: Goods, early: float) -> float:
    b = c.board
    money = g.money * (1 / b.money_per_point + MONEY_EARLY * early)
    return money + g.resource_count * (1 / b.resources_per_point + CUBE_EARLY * early)


def _reward(c: Content, r: Reward, early: float) -> float:
    church = CHURCH_LATE + CHURCH_EARLY * early
    return r.prestige + church * r.church + _goods(c, r.goods, early) + WORKER * r.workers * early


def _district(c: Content, s: State, p: PlayerState, left: int, early: float) -> float:
    """Built workshops by the rounds they still work or pay; this round's workers at what they do."""
    value = 0.0
    for x in p.district:
        if not x.workshop:
            continue
        w = c.workshop[x.workshop]
        if x.built:
            per_round = _produce(c, w.effect.kind, w.effect.gain, w.effect.pay, early)
            value += per_round * (left if w.is_purple else USE * left)
        elif x.worker == p.seat:  # planned this round: built in step 6 if the family can pay then
            if _missing(p.goods, w.cost) == 0:
                per_round = _produce(c, w.effect.kind, w.effect.gain, w.effect.pay, early)
                value += w.build_prestige - _goods(c, w.cost, early) + per_round * USE * left
            else:
                value -= c.board.failed_build_penalty
    for owner in s.players:  # this round's workers on built workshops, anyone's
        for x in owner.district:
            if x.worker == p.seat and x.built:
                w = c.workshop[x.workshop]
                value += _produce_now(c, p, w.effect.kind, w.effect.gain, w.effect.pay, early)
    return value


def _produce(c: Content, kind: EffectKind, gain: Reward, pay: Reward, early: float) -> float:
    if kind is EffectKind.CONVERT:
        return max(_reward(c, gain, early) - _reward(c, pay, early), 0.0)
    return _reward(c, gain, early)


def _produce_now(
    c: Content, p: PlayerState, kind: EffectKind, gain: Reward, pay: Reward, early: float
) -> float:
    if kind is EffectKind.CONVERT and not (p.goods.covers(pay.goods) and p.church >= pay.church):
        return 0.0
    return _produce(c, kind, gain, pay, early)


def _works(c: Content, s: State, p: PlayerState, left: int, early: float) -> float:
    """Completed works' incomes by the rounds left; hired works at their expected result."""
    value = 0.0
    for spot in s.works:
        if spot.crest == p.seat and not c.work[spot.work].income.is_empty:
            value += _reward(c, c.work[spot.work].income, early) * left
        if spot.worker == p.seat:
            value += _hired(c, s, p, spot.work, spot.district, spot.artist, early)
    return value


def _hired(
    c: Content, s: State, p: PlayerState, work: int, district: int, artist: int, early: float
) -> float:
    """The expected result of a hired work in step 7, with the talent that pays best."""
    w, a = c.work[work], c.artist[artist]
    failure = c.board.failure(w.area) + (0 if a.anonymous else c.board.unpaid_artist_penalty)
    best = -float(failure)
    for skill in (k for k in w.skills if k in a.skills):
        fee = 0 if a.anonymous else a.row(skill).fee
        price = w.cost + Goods(money=fee)
        if _missing(p.goods, price) > 0:
            continue
        gain = _reward(c, w.reward, early) - _goods(c, price, early)
        gain += artist_die(c, a, skill, w.area is Area.DUOMO, artist not in s.masterpieces)
        gain += _lifted(c, s, p.seat, work, district)
        best = max(best, gain)
    return best


def _lifted(c: Content, s: State, seat: int, work: int, district: int) -> float:
    """Final penalties a district work lifts, and the area's bonus when it is the last one."""
    if district != seat:
        return 0.0
    area = c.work[work].area
    b = c.board
    others = [x for x in s.works if x.district == seat and x.work != work and c.work[x.work].area is area]
    done = sum(1 for x in others if x.crest != NO_SEAT)
    value = float(b.incomplete_work_penalty) + (b.empty_area_penalty if done == 0 else 0)
    if done == len(others):
        value += b.palazzo_bonus if area is Area.PALAZZO else b.chiesa_bonus * CHURCH_EARLY
    return value


def artist_die(c: Content, a: Artist, skill: Skill, duomo: bool, masterpiece: bool) -> float:
    """The mean prestige of the artist's bonus die (two dice keeping the better in the Duomo)."""
    if a.anonymous:
        return 0.0
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


def _missing(have: Goods, price: Goods) -> int:
    """Cubes short of ``price`` (money short counts as one cube per 200 fiorini, the market's price)."""
    short = price - have
    cubes = sum(max(getattr(short, k), 0) for k in ("marble", "wood", "metal", "gold", "fabric", "spices"))
    return cubes + (max(short.money, 0) + 199) // 200


# ---------------------------------------------------------------- pruning


def prune(rules: Any, state: State, seat: int, commands: Sequence[Any], coarse: bool = False) -> list[Any]:
    """The placements worth searching.

    Exact: anonymous artists of the same talents are interchangeable (no fee, no die, no card), so one
    of them per work and talent set is kept. Then hires and plans whose price the family is more than
    the market's two cubes short of (they can only fail and cost prestige) are dropped, and for each
    work only the named artists with the best expected die for their fee are kept (two, or one when
    ``coarse``: another seat's move, where only its likely choice matters; a rival also plans only what
    it can pay now). Everything else is kept; the list never ends up empty.
    """
    c: Content = rules.content
    if state.phase is not Phase.PLACEMENT or state.pending is not None:
        return list(commands)
    p = state.players[seat]
    keep_named = 1 if coarse else 2
    hires: dict[int, list[tuple[float, HireArtist]]] = {}
    anonymous: set[tuple[int, tuple[Skill, ...]]] = set()
    out: list[Any] = []
    for command in commands:
        if isinstance(command, HireArtist):
            a, w = c.artist[command.artist], c.work[command.work]
            if _missing(p.goods, w.cost) > SHORTFALL_CUBES:
                continue
            if a.anonymous:
                key = (command.work, a.skills)
                if key not in anonymous:
                    anonymous.add(key)
                    out.append(command)
                continue
            hires.setdefault(command.work, []).append((_hire_value(c, state, a, command.work), command))
        elif isinstance(command, PlanWorkshop):
            if _missing(p.goods, c.workshop[command.workshop].cost) <= (0 if coarse else SHORTFALL_CUBES):
                out.append(command)
        else:
            out.append(command)
    for ranked in hires.values():
        ranked.sort(key=lambda item: -item[0])
        out += [command for _, command in ranked[:keep_named]]
    return _in_order(commands, out) or list(commands)


def _hire_value(c: Content, s: State, a: Artist, work: int) -> float:
    """The best talent's expected die minus its fee at a prestige per 100 fiorini."""
    w = c.work[work]
    return max(
        artist_die(c, a, k, w.area is Area.DUOMO, a.id not in s.masterpieces) - a.row(k).fee / 100
        for k in w.skills
        if k in a.skills
    )


def _in_order(commands: Sequence[Any], kept: list[Any]) -> list[Any]:
    chosen = {id(x) for x in kept}
    return [x for x in commands if id(x) in chosen]
