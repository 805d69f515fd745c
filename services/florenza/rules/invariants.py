"""What must hold after every event: no negative count, every piece somewhere, nothing created or lost.

Checked after every step of the seeded playouts and simulations (``FlorenzaRules.invariant_violations``).
"""

from __future__ import annotations

from collections import Counter

from services.florenza.rules.content_types import Content
from services.florenza.rules.model import PlayerState, State


def violations(c: Content, s: State) -> list[str]:
    if s.config is None:
        return []
    out = [f"seat {p.seat}: {problem}" for p in s.players for problem in _player(c, s, p)]
    if not s.supply.is_non_negative:
        out.append(f"negative supply {s.supply}")
    cubes = s.supply
    for p in s.players:
        cubes = cubes + p.goods.cubes()
    if cubes != c.board.supply:
        out.append(f"cubes created or lost: {cubes} in play, {c.board.supply} printed")
    tiles = Counter(s.workshop_supply) + Counter(s.starting_pool)
    tiles += Counter(x.workshop for p in s.players for x in p.district if x.workshop)
    if tiles != Counter({w.id: w.copies for w in c.workshops}):
        out.append("workshop tiles created or lost")
    named = sorted([x.character for x in s.present] + [*s.bag, *s.departed])
    if named != sorted(c.named_characters):
        out.append("named character tiles created, lost or in two places")
    if any(not 1 <= x.card <= len(c.life) for x in s.present):
        out.append("a character outside the Life in Florenza cards")
    return out


def placed_workers(s: State, seat: int) -> int:
    """Workers of ``seat`` on a workshop, an art work, a pulpit, at the market or on card VI."""
    placed = sum(1 for q in s.players for x in q.district if x.worker == seat)
    placed += sum(1 for w in s.works if w.worker == seat) + sum(1 for x in s.pulpits if x.seat == seat)
    return placed + s.players[seat].market + (s.withheld_worker == seat)


def _player(c: Content, s: State, p: PlayerState) -> list[str]:
    out = []
    if not p.goods.is_non_negative:
        out.append(f"negative goods {p.goods}")
    if min(p.workers, p.reserve, p.church, p.certificates) < 0:
        out.append("negative workers, reserve, church influence or certificates")
    total = p.workers + p.reserve + placed_workers(s, p.seat)
    if total != c.board.workers_per_family:
        out.append(f"{total} workers, the family has {c.board.workers_per_family}")
    return out
