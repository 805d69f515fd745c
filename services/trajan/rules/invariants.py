"""The game's own invariants, checked after every step of seeded playouts and simulations."""

from __future__ import annotations

from collections import Counter

from services.trajan.rules.content_types import Content
from services.trajan.rules.model import Phase, PlayerState, State


def violations(c: Content, s: State) -> list[str]:
    """What is wrong with ``s`` (empty when sound)."""
    if not s.players:
        return []
    out = [*_cards(c, s)]
    on_board = Counter(x for site in s.sites for x in site.workers)
    on_board.update(x for province in s.provinces for x in province.legionnaires)
    for p in s.players:
        out += [f"seat {p.seat}: {problem}" for problem in _player(c, s, p, on_board[p.seat])]
    for x in s.provinces:
        if len(set(x.legionnaires)) != len(x.legionnaires):
            out.append(f"province {x.province}: two legionnaires of one seat")
    for site in s.sites:
        if len(set(site.workers)) != len(site.workers):
            out.append(f"site {site.site}: two workers of one seat")
    return out


def _cards(c: Content, s: State) -> list[str]:
    held = sum(len(p.hand) + len(p.display) for p in s.players)
    total = len(s.deck) + len(s.left_pile) + len(s.right_pile) + len(s.cargo) + held
    expected = sum(x.count for x in c.commodities)
    return [] if total == expected else [f"{total} commodity cards, not {expected}"]


def _markers(c: Content, s: State, p: PlayerState) -> str:
    markers = [m for bowl in p.bowls for m in bowl.markers]
    if s.phase is Phase.TURNS and p.seat == s.active:
        markers += s.in_hand
    full = sorted(x for x in c.board.colours for _ in range(c.board.markers_per_colour))
    if s.phase is Phase.MARKERS:  # bowls still being filled
        wrong = any(markers.count(x) > c.board.markers_per_colour for x in set(markers))
    else:
        wrong = sorted(markers) != full
    return f"markers {sorted(markers)}" if wrong else ""


def _player(c: Content, s: State, p: PlayerState, on_board: int) -> list[str]:
    b = c.board
    out = [problem for problem in (_markers(c, s, p),) if problem]
    counts = (p.supply, p.work_area, p.camp)
    if min(counts) < 0:
        out.append(f"negative figures {counts}")
    if sum(counts) + on_board != b.tokens:
        out.append("figures not conserved")
    if not 0 <= p.senate < len(b.senate_track):
        out.append(f"senate space {p.senate}")
    if p.arch and p.slots[p.arch - 1]:
        out.append(f"the arch marks the full slot {p.arch}")
    if len(set(p.plus_two)) != len(p.plus_two):
        out.append("two [+2] markers on one action")
    return out
