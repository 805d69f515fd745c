"""Names for the ids in Lorenzo views, commands and events, from the validated content.

Views name cards, leaders, tiles and board spaces by id. :class:`Labels` turns them into words a
player reads (``"Forest"``, ``"character tower floor 2 (3)"``, ``"market: 5 coins"``), with the
few nested facts a player needs to choose: card costs, production exchanges, bonus tile goods,
leader requirements, excommunication penalties, council privileges. Everything comes from
``services.lorenzo.content.load_content()`` (the typed, checked content), never from the YAML
files themselves. Unknown ids fall back to ``card #7`` and the like, so a label never fails.
Whole components (a card with its costs and effects, a leader, a tile) read as GetContent words
them: ``services.lorenzo.texts``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from services.lorenzo import texts
from services.lorenzo.rules.content_types import CardType, Content, Gain, Space, SpaceKind
from services.lorenzo.rules.goods import GOODS_FIELDS, Goods
from services.lorenzo.texts import ROMAN, amounts_text, lower

__all__ = ["Labels", "amounts_text", "gain_text", "goods_text", "lower"]


def goods_text(goods: Goods) -> str:
    """A label's goods, a plain list: ``"1 wood, 1 stone"``."""
    return amounts_text({name: getattr(goods, name) for name in GOODS_FIELDS})


def gain_text(gain: Gain) -> str:
    """Goods and council privileges: ``"1 coin, 1 privilege"``."""
    amounts = {name: getattr(gain.goods, name) for name in GOODS_FIELDS}
    return amounts_text({**amounts, "privileges": gain.privileges})


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
        """``"Excommunication I/5: each harvest action you take is worth 3 less"``."""
        tile = self.content.tile.get(tile_id)
        return texts.excommunication(tile) if tile else f"excommunication #{tile_id}"

    def excommunication_name(self, tile_id: int) -> str:
        """``"Excommunication I/5"`` (the printed code ``1_5``)."""
        tile = self.content.tile.get(tile_id)
        return texts.excommunication_name(tile) if tile else f"excommunication #{tile_id}"

    # ------------------------------------------------------------ whole texts (costs and effects)
    def card_text(self, card_id: int) -> str:
        card = self.content.card.get(card_id)
        return texts.card(card) if card else self.card(card_id)

    def leader_text(self, leader_id: int) -> str:
        leader = self.content.leader.get(leader_id)
        return texts.leader(leader) if leader else self.leader(leader_id)

    def card_effects(self, card_id: int) -> str:
        card = self.content.card.get(card_id)
        return texts.card_effects(card) if card else ""

    def floor_bonus(self, space_id: int) -> str:
        """A tower floor's bonus (``1 wood``), "" for none."""
        space = self.content.space.get(space_id)
        if space is None or (space.bonus.goods == Goods() and not space.bonus.privileges):
            return ""
        return gain_text(space.bonus)

    def bonus_tile_text(self, tile_id: int) -> str:
        tile = self.content.bonus_tile.get(tile_id)
        return texts.bonus_tile(tile) if tile else f"tile #{tile_id}"

    def explain(self, query: str, limit: int = 12) -> list[str]:
        """The texts of every component whose name contains ``query`` (any case), or that ``query``
        names by kind and id: ``card 12``, ``leader 3``, ``tile 2`` (personal bonus tile),
        ``excommunication 5``, the printed code ``1_5`` or ``I/5``, ``privilege 2``."""
        wanted = query.strip().lower()
        kind, _, number = wanted.rpartition(" ")
        if number.isdigit() and kind in BY_ID:
            return [BY_ID[kind](self, int(number))]
        found = [texts.privilege(n, g) for n, g in enumerate(self.content.board.privileges, 1)]
        found += [texts.card(c) for c in self.content.cards]
        found += [texts.leader(x) for x in self.content.leaders]
        found += [texts.bonus_tile(t) for t in self.content.bonus_tiles]
        found += [texts.excommunication(t) for t in self.content.excommunications]
        codes = {t.code: t for t in self.content.excommunications}
        codes |= {f"{ROMAN.get(t.period, '')}/{t.code.partition('_')[2]}".lower(): t for t in codes.values()}
        if wanted in codes:
            return [texts.excommunication(codes[wanted])]
        return [text for text in found if wanted in text.partition(":")[0].lower()][:limit]

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

    def privilege_text(self, index: int) -> str:
        privileges = self.content.board.privileges
        if 1 <= index <= len(privileges):
            return texts.privilege(index, privileges[index - 1])
        return f"privilege #{index}"

    def privilege(self, index: int) -> str:
        """Privilege number 1.. (printed order) -> its goods."""
        privileges = self.content.board.privileges
        return goods_text(privileges[index - 1]) if 1 <= index <= len(privileges) else f"privilege #{index}"

    # ------------------------------------------------------------ costs, exchanges, requirements
    def costs(self, card_id: int) -> list[str]:
        """The card's cost alternatives, readable (``[]`` for a free card)."""
        card = self.content.card.get(card_id)
        return [texts.cost(cost) for cost in card.costs] if card else []

    def exchange(self, card_id: int, option: int) -> str:
        """Production exchange ``option`` (1-based) of a card: ``"pay 1 wood for 3 coins"``."""
        card = self.content.card.get(card_id)
        exchanges = card.production.exchanges if card and card.production else ()
        if 1 <= option <= len(exchanges):
            return texts.exchange(exchanges[option - 1].pay, exchanges[option - 1].gain)
        return f"option {option}"

    def requirement(self, leader_id: int) -> str:
        """What a leader needs to be played: ``"3 building cards, 12 coins and 2 faith"``."""
        leader = self.content.leader.get(leader_id)
        return texts.requirement(leader.requirement) if leader else ""


# ``? KIND N``: a component by kind and id.
BY_ID: dict[str, Callable[[Labels, int], str]] = {
    "card": Labels.card_text,
    "leader": Labels.leader_text,
    "tile": Labels.bonus_tile_text,
    "bonus tile": Labels.bonus_tile_text,
    "excommunication": Labels.excommunication,
    "privilege": Labels.privilege_text,
}
