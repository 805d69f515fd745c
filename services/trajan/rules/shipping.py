"""Which shipments a ship takes (seed (p6) 海港行动 4): the cargo is loaded card by card, so a partial
cargo must still be completable from what is left in the hand and on the mat."""

from __future__ import annotations

import functools
from collections import Counter

from services.trajan.rules.content_types import Commodity, Ship, ShipKind


def units(ship: Ship, size: int) -> int:
    """Cards, or pairs for the pairs ship."""
    return size // 2 if ship.kind is ShipKind.PAIRS else size


def fits(ship: Ship, cargo: tuple[Commodity, ...], wilds: int) -> bool:
    """Whether more cards may still make a valid shipment of this cargo (nothing breaks the ship's rule)."""
    kinds = set(cargo)
    size, n = len(cargo) + wilds, len(ship.yellow)
    match ship.kind:
        case ShipKind.IDENTICAL:
            return len(kinds) <= 1 and size <= n
        case ShipKind.DIFFERENT:
            return len(kinds) == len(cargo) and size <= n
        case ShipKind.PAIRS:
            return all(cargo.count(k) <= 2 for k in kinds) and len(kinds) <= n and size <= 2 * n


def complete(ship: Ship, cargo: tuple[Commodity, ...], wilds: int) -> bool:
    """Whether the cargo is a shipment the ship scores (wilds stand for any card)."""
    if not fits(ship, cargo, wilds):
        return False
    size = len(cargo) + wilds
    if ship.kind is not ShipKind.PAIRS:
        return size >= 1
    counts = Counter(cargo)
    singles = sum(1 for v in counts.values() if v == 1)
    spare = wilds - singles  # wilds left after completing every single card's pair; they pair up
    return size >= 2 and spare >= 0 and spare % 2 == 0 and len(counts) + spare // 2 <= len(ship.yellow)


@functools.lru_cache(maxsize=4096)
def completable(
    ship: Ship, cargo: tuple[Commodity, ...], wilds: int, hand: tuple[Commodity, ...], wilds_left: int
) -> bool:
    """Whether loading more from ``hand`` and ``wilds_left`` can make the cargo complete (cached: legal
    commands ask it of every ship at every seaport action)."""
    seen: set[tuple[tuple[Commodity, ...], int]] = set()

    def search(cargo: tuple[Commodity, ...], wilds: int, hand: tuple[Commodity, ...], left: int) -> bool:
        if (cargo, wilds) in seen or not fits(ship, cargo, wilds):
            return False
        seen.add((cargo, wilds))
        if complete(ship, cargo, wilds):
            return True
        for card in sorted(set(hand)):
            rest = list(hand)
            rest.remove(card)
            if search(tuple(sorted((*cargo, card))), wilds, tuple(rest), left):
                return True
        return left > 0 and search(cargo, wilds + 1, hand, left - 1)

    return search(tuple(sorted(cargo)), wilds, hand, wilds_left)


def value(ship: Ship, yellow: bool, cargo: tuple[Commodity, ...], wilds: int) -> int:
    table = ship.yellow if yellow else ship.grey
    return table[units(ship, len(cargo) + wilds) - 1]
