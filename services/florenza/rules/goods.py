"""Goods: money and the six resources a player (or the bank's supply) holds, and their arithmetic."""

from __future__ import annotations

import enum

from shared.core.wire import message, pb


class Resource(enum.IntEnum):
    """The six kinds of resource cube (seed, components: 84 cubes in six colours)."""

    MARBLE = 1
    WOOD = 2
    METAL = 3
    GOLD = 4
    FABRIC = 5
    SPICES = 6


RESOURCE_FIELDS = ("marble", "wood", "metal", "gold", "fabric", "spices")
GOODS_FIELDS = ("money", *RESOURCE_FIELDS)


@message
class Goods:
    """Money (fiorini) and resource cubes."""

    money: int = pb(1, default=0, ge=0)
    marble: int = pb(2, default=0, ge=0)
    wood: int = pb(3, default=0, ge=0)
    metal: int = pb(4, default=0, ge=0)
    gold: int = pb(5, default=0, ge=0)
    fabric: int = pb(6, default=0, ge=0)
    spices: int = pb(7, default=0, ge=0)

    @staticmethod
    def of(resource: Resource, n: int = 1) -> Goods:
        """``n`` cubes of one resource."""
        return Goods(**{RESOURCE_FIELDS[resource - 1]: n})

    def count(self, resource: Resource) -> int:
        return int(getattr(self, RESOURCE_FIELDS[resource - 1]))

    def __add__(self, o: Goods) -> Goods:
        return Goods(
            self.money + o.money,
            self.marble + o.marble,
            self.wood + o.wood,
            self.metal + o.metal,
            self.gold + o.gold,
            self.fabric + o.fabric,
            self.spices + o.spices,
        )

    def __sub__(self, o: Goods) -> Goods:
        return Goods(
            self.money - o.money,
            self.marble - o.marble,
            self.wood - o.wood,
            self.metal - o.metal,
            self.gold - o.gold,
            self.fabric - o.fabric,
            self.spices - o.spices,
        )

    def covers(self, o: Goods) -> bool:
        """True when every counter is at least the other's."""
        return (
            self.money >= o.money
            and self.marble >= o.marble
            and self.wood >= o.wood
            and self.metal >= o.metal
            and self.gold >= o.gold
            and self.fabric >= o.fabric
            and self.spices >= o.spices
        )

    def cubes(self) -> Goods:
        """The resources only: what moves to and from the bank's limited supply (money is not limited)."""
        return Goods(0, self.marble, self.wood, self.metal, self.gold, self.fabric, self.spices)

    @property
    def resource_count(self) -> int:
        """All resource cubes together (final scoring and the tie-break)."""
        return self.marble + self.wood + self.metal + self.gold + self.fabric + self.spices

    @property
    def is_zero(self) -> bool:
        return self == ZERO

    @property
    def is_non_negative(self) -> bool:
        return self.covers(ZERO)


ZERO = Goods()
