"""Goods: the seven counters a player owns (resources and track points) and their arithmetic."""

from __future__ import annotations

from dataclasses import dataclass

GOODS_FIELDS = ("coins", "wood", "stone", "servants", "military", "faith", "victory")


@dataclass(frozen=True, slots=True)
class Goods:
    """Coins, wood, stone, servants and Military / Faith / Victory points."""

    coins: int = 0
    wood: int = 0
    stone: int = 0
    servants: int = 0
    military: int = 0
    faith: int = 0
    victory: int = 0

    def __add__(self, o: Goods) -> Goods:
        return Goods(
            self.coins + o.coins,
            self.wood + o.wood,
            self.stone + o.stone,
            self.servants + o.servants,
            self.military + o.military,
            self.faith + o.faith,
            self.victory + o.victory,
        )

    def __sub__(self, o: Goods) -> Goods:
        return Goods(
            self.coins - o.coins,
            self.wood - o.wood,
            self.stone - o.stone,
            self.servants - o.servants,
            self.military - o.military,
            self.faith - o.faith,
            self.victory - o.victory,
        )

    def times(self, n: int) -> Goods:
        return Goods(
            self.coins * n,
            self.wood * n,
            self.stone * n,
            self.servants * n,
            self.military * n,
            self.faith * n,
            self.victory * n,
        )

    def floor0(self) -> Goods:
        """Each counter clamped at zero (a discount never makes a cost negative)."""
        return Goods(
            max(self.coins, 0),
            max(self.wood, 0),
            max(self.stone, 0),
            max(self.servants, 0),
            max(self.military, 0),
            max(self.faith, 0),
            max(self.victory, 0),
        )

    def covers(self, o: Goods) -> bool:
        """True when every counter is at least the other's."""
        return (
            self.coins >= o.coins
            and self.wood >= o.wood
            and self.stone >= o.stone
            and self.servants >= o.servants
            and self.military >= o.military
            and self.faith >= o.faith
            and self.victory >= o.victory
        )

    @property
    def is_zero(self) -> bool:
        return self == ZERO

    @property
    def resource_count(self) -> int:
        """Coins, wood, stone and servants together (end-game resource scoring)."""
        return self.coins + self.wood + self.stone + self.servants


ZERO = Goods()
