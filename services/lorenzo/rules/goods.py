"""Goods: the seven counters a player owns (resources and track points) and their arithmetic."""

from __future__ import annotations

from shared.core.records import builder
from shared.core.wire import message, pb

GOODS_FIELDS = ("coins", "wood", "stone", "servants", "military", "faith", "victory")


@message
class Goods:
    """Coins, wood, stone, servants and Military / Faith / Victory points."""

    coins: int = pb(1, default=0, ge=0)
    wood: int = pb(2, default=0, ge=0)
    stone: int = pb(3, default=0, ge=0)
    servants: int = pb(4, default=0, ge=0)
    military: int = pb(5, default=0, ge=0)
    faith: int = pb(6, default=0, ge=0)
    victory: int = pb(7, default=0, ge=0)

    def __add__(self, o: Goods) -> Goods:
        return _goods(
            self.coins + o.coins,
            self.wood + o.wood,
            self.stone + o.stone,
            self.servants + o.servants,
            self.military + o.military,
            self.faith + o.faith,
            self.victory + o.victory,
        )

    def __sub__(self, o: Goods) -> Goods:
        return _goods(
            self.coins - o.coins,
            self.wood - o.wood,
            self.stone - o.stone,
            self.servants - o.servants,
            self.military - o.military,
            self.faith - o.faith,
            self.victory - o.victory,
        )

    def times(self, n: int) -> Goods:
        return _goods(
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
        return _goods(
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
# Goods(*seven counters) without the frozen __init__: the arithmetic above runs for most events
_goods = builder(Goods)
