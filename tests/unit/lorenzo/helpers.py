"""Given/when/then helpers for Lorenzo rules tests: build a state from events, decide, sum the effects."""

from __future__ import annotations

from typing import Any

from services.lorenzo.content import load_content
from services.lorenzo.manifest import MANIFEST
from services.lorenzo.rules import LorenzoRules
from services.lorenzo.rules.commands import Command
from services.lorenzo.rules.content_types import CardType
from services.lorenzo.rules.events import (
    BonusTileChosen,
    DecksShuffled,
    DiceRolled,
    Event,
    ExcommunicationTilesDrawn,
    GameStarted,
    PhaseChanged,
    ResourcesGained,
    ResourcesPaid,
    RoundStarted,
    TowersFilled,
)
from services.lorenzo.rules.goods import ZERO, Goods
from services.lorenzo.rules.model import Deck, Phase, PlayedLeader, Source, State
from tests.support.given import Given
from tests.support.given import of_type as of_type
from tests.support.given import with_player as replace_player

C = load_content()
RULES: LorenzoRules = MANIFEST.load_rules()  # named and seated by the manifest
GIVEN: Given[State, Command, Event] = Given(RULES)
fold, when, then = GIVEN.fold, GIVEN.when, GIVEN.then
DEFAULT_TOWERS = (1, 2, 3, 4, 49, 50, 51, 52, 25, 26, 27, 28, 73, 74, 75, 76)


def game(
    seats: int = 2,
    dice: tuple[int, int, int] = (3, 3, 3),
    towers: dict[int, int] | None = None,
    round: int = 1,
    order: tuple[int, ...] | None = None,
    tiles: tuple[int, int, int] = (1, 8, 15),
) -> State:
    """A match in the action phase of ``round`` with everybody's goods at zero and seat order 0, 1..."""
    order = order or tuple(range(seats))
    cards = list(DEFAULT_TOWERS)
    for space, card in (towers or {}).items():
        cards[space - 1] = card
    decks = tuple(Deck(t, tuple(c.id for c in C.cards if c.card_type is t)) for t in CardType)
    events: list[Event] = [
        GameStarted(seats, False, order),
        ExcommunicationTilesDrawn(tiles),
        DecksShuffled(decks),
        *[BonusTileChosen(s, 1) for s in range(seats)],
        PhaseChanged(Phase.ROUND_START),
        RoundStarted(round, order * 4),
        TowersFilled(tuple(cards)),
        DiceRolled(*dice),
    ]
    return fold(events)


def with_player(state: State, seat: int, **fields: Any) -> State:
    """Set a player's fields directly (``goods`` replaces the goods; ``leaders`` plays leader ids)."""
    if "leaders" in fields:
        fields["played"] = tuple(
            x if isinstance(x, PlayedLeader) else PlayedLeader(x) for x in fields.pop("leaders")
        )
    return replace_player(state, seat, **fields)


def net(events: list[Any], seat: int, source: Source | None = None) -> Goods:
    """Goods gained minus paid by ``seat`` in these events (optionally only one source)."""
    total = ZERO
    for e in events:
        wanted = source is None or getattr(e, "source", None) is source
        if isinstance(e, ResourcesGained | ResourcesPaid) and e.seat == seat and wanted:
            total = total + e.goods if isinstance(e, ResourcesGained) else total - e.goods
    return total
