"""Names for the ids in Lorenzo views, commands and events, from the validated content, in one locale.

Views name cards, leaders, tiles and board spaces by id. :class:`Labels` turns them into words a
player reads (``"Forest"``, ``"character tower floor 2 (3)"``, ``"market: 5 coins"``), with the
few nested facts a player needs to choose: card costs, production exchanges, bonus tile goods,
leader requirements, excommunication penalties, council privileges. Everything comes from
``services.lorenzo.content.load_content()`` (the typed, checked content), never from the YAML
files themselves, worded by ``services.lorenzo.texts.Words`` in the labels' locale. Unknown ids
fall back to ``card #7`` and the like, so a label never fails. Whole components (a card with its
costs and effects, a leader, a tile) read as GetContent words them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from services.lorenzo.rules.content_types import CardType, Content, Gain, Space, SpaceKind
from services.lorenzo.rules.goods import GOODS_FIELDS, Goods
from services.lorenzo.texts import ROMAN, Words, amounts_text

__all__ = ["Labels", "amounts_text"]


@dataclass(frozen=True)
class Labels:
    """The typed content with helpers that never fail on an unknown id."""

    content: Content
    words: Words = field(default_factory=Words.of)

    @property
    def t(self) -> Callable[..., str]:
        return self.words.t

    def goods_text(self, goods: Goods) -> str:
        """A label's goods, a plain list: ``"1 wood, 1 stone"``."""
        return self.words.amounts_text({name: getattr(goods, name) for name in GOODS_FIELDS})

    def gain_text(self, gain: Gain) -> str:
        """Goods and council privileges: ``"1 coin, 1 privilege"``."""
        amounts = {name: getattr(gain.goods, name) for name in GOODS_FIELDS}
        return self.words.amounts_text({**amounts, "privileges": gain.privileges})

    # ------------------------------------------------------------ names
    def card(self, card_id: int) -> str:
        if not card_id:
            return "-"
        card = self.content.card.get(card_id)
        return self.words.card_name(card) if card else self.t("label.card_unknown", id=card_id)

    def leader(self, leader_id: int) -> str:
        leader = self.content.leader.get(leader_id)
        return self.words.leader_name(leader) if leader else self.t("label.leader_unknown", id=leader_id)

    def bonus_tile(self, tile_id: int) -> str:
        """``"tile A (harvest 1 wood, 1 stone, 1 military; production 1 coin, 2 servants)"``."""
        tile = self.content.bonus_tile.get(tile_id)
        if tile is None:
            return self.t("label.tile_unknown", id=tile_id)
        return self.t(
            "label.bonus_tile",
            name=self.words.bonus_tile_name(tile),
            harvest=self.goods_text(tile.harvest),
            production=self.goods_text(tile.production),
        )

    def excommunication(self, tile_id: int) -> str:
        """``"Excommunication I/5: each harvest action you take is worth 3 less"``."""
        tile = self.content.tile.get(tile_id)
        return (
            self.words.excommunication(tile) if tile else self.t("label.excommunication_unknown", id=tile_id)
        )

    def excommunication_name(self, tile_id: int) -> str:
        """``"Excommunication I/5"`` (the printed code ``1_5``)."""
        tile = self.content.tile.get(tile_id)
        return (
            self.words.excommunication_name(tile)
            if tile
            else self.t("label.excommunication_unknown", id=tile_id)
        )

    # ------------------------------------------------------------ whole texts (costs and effects)
    def card_text(self, card_id: int) -> str:
        card = self.content.card.get(card_id)
        return self.words.card(card) if card else self.card(card_id)

    def leader_text(self, leader_id: int) -> str:
        leader = self.content.leader.get(leader_id)
        return self.words.leader(leader) if leader else self.leader(leader_id)

    def card_effects(self, card_id: int) -> str:
        card = self.content.card.get(card_id)
        return self.words.card_effects(card) if card else ""

    def floor_bonus(self, space_id: int) -> str:
        """A tower floor's bonus (``1 wood``), "" for none."""
        space = self.content.space.get(space_id)
        if space is None or (space.bonus.goods == Goods() and not space.bonus.privileges):
            return ""
        return self.gain_text(space.bonus)

    def bonus_tile_text(self, tile_id: int) -> str:
        tile = self.content.bonus_tile.get(tile_id)
        return self.words.bonus_tile(tile) if tile else self.t("label.tile_unknown", id=tile_id)

    def explain(self, query: str, limit: int = 12) -> list[str]:
        """The texts of every component whose name contains ``query`` (any case), or that ``query``
        names by kind and id: ``card 12``, ``leader 3``, ``tile 2`` (personal bonus tile),
        ``excommunication 5``, the printed code ``1_5`` or ``I/5``, ``privilege 2``."""
        wanted = query.strip().lower()
        kind, _, number = wanted.rpartition(" ")
        if number.isdigit() and kind in BY_ID:
            return [BY_ID[kind](self, int(number))]
        found = [self.words.privilege(n, g) for n, g in enumerate(self.content.board.privileges, 1)]
        found += [self.words.card(c) for c in self.content.cards]
        found += [self.words.leader(x) for x in self.content.leaders]
        found += [self.words.bonus_tile(t) for t in self.content.bonus_tiles]
        found += [self.words.excommunication(t) for t in self.content.excommunications]
        codes = {t.code: t for t in self.content.excommunications}
        codes |= {f"{ROMAN.get(t.period, '')}/{t.code.partition('_')[2]}".lower(): t for t in codes.values()}
        if wanted in codes:
            return [self.words.excommunication(codes[wanted])]
        return [text for text in found if wanted in re.split("[:：]", text, maxsplit=1)[0].lower()][:limit]

    # ------------------------------------------------------------ the board
    def spaces(self) -> tuple[Space, ...]:
        return self.content.board.spaces

    def space(self, space_id: int) -> str:
        """``"territory tower floor 2 (3)"``, ``"market: 5 coins"``, ``"council palace"`` ..."""
        space = self.content.space.get(space_id)
        if space is None:
            return self.t("label.space_unknown", id=space_id)
        if space.kind is SpaceKind.TOWER and space.tower is not None:
            return self.t(
                "label.tower_space", type=self.words.lower(space.tower), floor=space.floor, value=space.value
            )
        name = self.t("label.council") if space.kind is SpaceKind.COUNCIL else self.words.lower(space.kind)
        if space.modifier:
            name = self.t("label.large", name=name, modifier=f"{space.modifier:+d}")
        if space.kind is SpaceKind.MARKET:
            name = self.t("label.market", name=name, bonus=self.gain_text(space.bonus))
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
            return self.words.privilege(index, privileges[index - 1])
        return self.t("label.privilege_unknown", id=index)

    def privilege(self, index: int) -> str:
        """Privilege number 1.. (printed order) -> its goods."""
        privileges = self.content.board.privileges
        if 1 <= index <= len(privileges):
            return self.goods_text(privileges[index - 1])
        return self.t("label.privilege_unknown", id=index)

    # ------------------------------------------------------------ costs, exchanges, requirements
    def costs(self, card_id: int) -> list[str]:
        """The card's cost alternatives, readable (``[]`` for a free card)."""
        card = self.content.card.get(card_id)
        return [self.words.cost(cost) for cost in card.costs] if card else []

    def exchange(self, card_id: int, option: int) -> str:
        """Production exchange ``option`` (1-based) of a card: ``"pay 1 wood for 3 coins"``."""
        card = self.content.card.get(card_id)
        exchanges = card.production.exchanges if card and card.production else ()
        if 1 <= option <= len(exchanges):
            return self.words.exchange(exchanges[option - 1].pay, exchanges[option - 1].gain)
        return self.t("label.option", option=option)

    def requirement(self, leader_id: int) -> str:
        """What a leader needs to be played: ``"3 building cards, 12 coins and 2 faith"``."""
        leader = self.content.leader.get(leader_id)
        return self.words.requirement(leader.requirement) if leader else ""


# ``? KIND N``: a component by kind and id.
BY_ID: dict[str, Callable[[Labels, int], str]] = {
    "card": Labels.card_text,
    "leader": Labels.leader_text,
    "tile": Labels.bonus_tile_text,
    "bonus tile": Labels.bonus_tile_text,
    "excommunication": Labels.excommunication,
    "privilege": Labels.privilege_text,
}
