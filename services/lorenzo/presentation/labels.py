"""Names for the ids in Lorenzo views, commands and events, from the validated content.

Views name cards, leaders, tiles and board spaces by id. :class:`Labels` turns them into words a
player reads (``"Forest"``, ``"character tower floor 2 (3)"``, ``"market: 5 coins"``), with the
few nested facts a player needs to choose: card costs, production exchanges, bonus tile goods,
leader requirements, excommunication penalties, council privileges. Everything comes from
``services.lorenzo.content.load_content()`` (the typed, checked content), never from the YAML
files themselves. Unknown ids fall back to ``card #7`` and the like, so a label never fails.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.lorenzo.rules.content_types import (
    CardType,
    Content,
    ExcommunicationTile,
    Gain,
    PenaltyKind,
    Space,
    SpaceKind,
)
from services.lorenzo.rules.goods import GOODS_FIELDS, Goods

# Singular units; coins, servants and privileges take an "s" (``3 coins``), the others do not.
UNITS = {"victory": "VP", "privileges": "privilege"}
PLURAL = ("coins", "servants", "privileges")
# Penalties whose value is "lose 1 VP for every N" rather than an action value modifier.
EVERY = (PenaltyKind.LOSE_PER_VICTORY, PenaltyKind.LOSE_PER_MILITARY)


def amounts_text(amounts: dict[str, int]) -> str:
    """``{"coins": 3, "wood": 1}`` -> ``"3 coins, 1 wood"``; zero amounts left out, ``nothing`` if all are."""
    parts = []
    for key, amount in amounts.items():
        if amount:
            unit = UNITS.get(key, key)
            if key in PLURAL:
                unit = unit.removesuffix("s") + ("s" if abs(amount) != 1 else "")
            parts.append(f"{amount} {unit}")
    return ", ".join(parts) or "nothing"


def goods_text(goods: Goods) -> str:
    return amounts_text({name: getattr(goods, name) for name in GOODS_FIELDS})


def gain_text(gain: Gain) -> str:
    """Goods and council privileges: ``"1 coin, 1 privilege"``."""
    amounts = {name: getattr(gain.goods, name) for name in GOODS_FIELDS}
    return amounts_text({**amounts, "privileges": gain.privileges})


def lower(kind: object) -> str:
    """An enum member's name in words: ``CardType.TERRITORY`` -> ``territory``."""
    return str(getattr(kind, "name", kind)).replace("_", " ").lower()


@dataclass(frozen=True)
class Labels:
    """The typed content with helpers that never fail on an unknown id."""

    content: Content

    # ------------------------------------------------------------ names
    def card(self, card_id: int) -> str:
        if not card_id:
            return "-"
        card = self.content.card.get(card_id)
        return card.name if card else f"card #{card_id}"

    def leader(self, leader_id: int) -> str:
        leader = self.content.leader.get(leader_id)
        return leader.name if leader else f"leader #{leader_id}"

    def bonus_tile(self, tile_id: int) -> str:
        """``"tile A (harvest 1 wood, 1 stone, 1 military; production 1 coin, 2 servants)"``."""
        tile = self.content.bonus_tile.get(tile_id)
        if tile is None:
            return f"tile #{tile_id}"
        return (
            f"tile {tile.name} (harvest {goods_text(tile.harvest)}; production {goods_text(tile.production)})"
        )

    def excommunication(self, tile_id: int) -> str:
        """``"1_5: action modifier (harvest, -3)"``: the printed code and the penalty."""
        tile = self.content.tile.get(tile_id)
        if tile is None:
            return f"excommunication #{tile_id}"
        details = self._penalty_details(tile)
        return f"{tile.code}: {lower(tile.penalty)}" + (f" ({', '.join(details)})" if details else "")

    @staticmethod
    def _penalty_details(tile: ExcommunicationTile) -> list[str]:
        details = []
        if tile.goods != Goods():
            details.append(goods_text(tile.goods))
        if tile.action is not None:
            details.append(lower(tile.action))
        if tile.card_type is not None:
            details.append(f"{lower(tile.card_type)} cards")
        if tile.value and tile.penalty in EVERY:
            details.append(f"every {tile.value}")
        elif tile.value:
            details.append(f"{tile.value:+d}")
        return details

    def excommunication_code(self, tile_id: int) -> str:
        tile = self.content.tile.get(tile_id)
        return tile.code if tile else f"#{tile_id}"

    # ------------------------------------------------------------ the board
    def spaces(self) -> tuple[Space, ...]:
        return self.content.board.spaces

    def space(self, space_id: int) -> str:
        """``"territory tower floor 2 (3)"``, ``"market: 5 coins"``, ``"council palace"`` ..."""
        space = self.content.space.get(space_id)
        if space is None:
            return f"space #{space_id}"
        if space.kind is SpaceKind.TOWER and space.tower is not None:
            return f"{lower(space.tower)} tower floor {space.floor} ({space.value})"
        name = "council palace" if space.kind is SpaceKind.COUNCIL else lower(space.kind)
        if space.modifier:
            name = f"{name} (large, {space.modifier:+d})"
        if space.kind is SpaceKind.MARKET:
            name = f"{name}: {gain_text(space.bonus)}"
        return name

    def tower_space(self, space_id: int) -> tuple[CardType, int] | None:
        """(tower, floor) of a tower space, else None."""
        space = self.content.space.get(space_id)
        if space is None or space.kind is not SpaceKind.TOWER or space.tower is None:
            return None
        return space.tower, space.floor

    def privilege(self, index: int) -> str:
        """Privilege number 1.. (printed order) -> its goods."""
        privileges = self.content.board.privileges
        return goods_text(privileges[index - 1]) if 1 <= index <= len(privileges) else f"privilege #{index}"

    # ------------------------------------------------------------ costs, exchanges, requirements
    def costs(self, card_id: int) -> list[str]:
        """The card's cost alternatives, readable (``[]`` for a free card)."""
        card = self.content.card.get(card_id)
        out = []
        for cost in card.costs if card else ():
            text = goods_text(cost.pay)
            if cost.require_military:
                text += f" (needs {cost.require_military} military)"
            out.append(text)
        return out

    def exchange(self, card_id: int, option: int) -> str:
        """Production exchange ``option`` (1-based) of a card: ``"pay 1 wood -> 3 coins"``."""
        card = self.content.card.get(card_id)
        exchanges = card.production.exchanges if card and card.production else ()
        if 1 <= option <= len(exchanges):
            chosen = exchanges[option - 1]
            return f"pay {goods_text(chosen.pay)} -> {gain_text(chosen.gain)}"
        return f"option {option}"

    def requirement(self, leader_id: int) -> str:
        """What a leader needs to be played: ``"4 character, 2 territory cards; 10 wood"``."""
        leader = self.content.leader.get(leader_id)
        if leader is None:
            return ""
        need = leader.requirement
        cards = [f"{n} {lower(t)}" for t, n in zip(CardType, need.cards, strict=True) if n]
        parts = [", ".join(cards) + " cards"] if cards else []
        if need.same_type:
            parts.append(f"{need.same_type} cards of one type")
        if need.goods != Goods():
            parts.append(goods_text(need.goods))
        return "; ".join(parts)
