"""Lorenzo il Magnifico's content files, loaded into the typed records of the rules package.

The only module of the game that reads files. Each file holds records of
``services.lorenzo.rules.content_types``, validated on those records by
:func:`shared.core.content.load_file`; anything malformed raises one :class:`ContentError`
listing every problem with its file, entry id and field. The board comes first: the other
files are checked against it (periods, deck sizes). An immediate effect is the one record
the files write in a form of its own (:class:`ImmediateForm`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Annotated, Any, Self

from pydantic import AfterValidator, BaseModel, Field, model_validator

from services.lorenzo.rules import content_types as ct
from services.lorenzo.rules.content_types import Board, CardType, Content, Gain, Immediate, ImmediateKind
from services.lorenzo.rules.goods import ZERO, Goods
from shared.core.content import AS_FILED, CONTENT_CONFIG, ContentError, File, by_name, dump, load_file, public
from shared.core.content import register_form as _register

CONTENT_DIR = Path(__file__).parent

Count = Annotated[int, Field(ge=0)]


class TakeCardForm(BaseModel):
    model_config = CONTENT_CONFIG

    type: Annotated[CardType | None, by_name(CardType, any=None)]
    value: Count
    discount: Annotated[Goods, AS_FILED] = ZERO


# The forms of an immediate effect: the keys each one takes.
EFFECTS = (
    ("gain",),
    ("gain_per_card", "per"),
    ("gain_per", "every_military"),
    ("take_card",),
    ("harvest",),
    ("production",),
)


class ImmediateForm(BaseModel):
    """One immediate effect as cards.yaml writes it: exactly one of the forms in :data:`EFFECTS`."""

    model_config = CONTENT_CONFIG

    gain: Annotated[Gain | None, AS_FILED] = None
    gain_per_card: Annotated[Goods | None, AS_FILED] = None
    per: Annotated[CardType | None, by_name(CardType)] = None
    gain_per: Annotated[Goods | None, AS_FILED] = None
    every_military: Annotated[int, Field(ge=1)] | None = None
    take_card: TakeCardForm | None = None
    harvest: Count | None = None
    production: Count | None = None

    @model_validator(mode="after")
    def _one_effect(self) -> Self:
        given = {k for k in type(self).model_fields if getattr(self, k) is not None}
        if given not in [set(form) for form in EFFECTS]:
            forms = " | ".join(" + ".join(form) for form in EFFECTS)
            raise ValueError(f"an immediate effect is one of: {forms}")
        return self

    def record(self) -> Immediate:
        if self.gain is not None:
            return Immediate(ImmediateKind.GAIN, self.gain)
        if self.gain_per_card is not None:
            return Immediate(ImmediateKind.GAIN_PER_CARD, Gain(self.gain_per_card), self.per)
        if self.gain_per is not None and self.every_military is not None:
            return Immediate(ImmediateKind.GAIN_PER_MILITARY, Gain(self.gain_per), value=self.every_military)
        if self.take_card is not None:
            t = self.take_card
            return Immediate(ImmediateKind.TAKE_CARD, card_type=t.type, value=t.value, discount=t.discount)
        if self.harvest is not None:
            return Immediate(ImmediateKind.HARVEST, value=self.harvest)
        assert self.production is not None  # _one_effect
        return Immediate(ImmediateKind.PRODUCTION, value=self.production)


def _write_immediate(e: Immediate) -> dict[str, Any]:
    """An immediate effect as cards.yaml writes it."""
    per = dump(e.card_type)
    match e.kind:
        case ImmediateKind.GAIN:
            return {"gain": dump(e.gain)}
        case ImmediateKind.GAIN_PER_CARD:
            return {"gain_per_card": dump(e.gain.goods), "per": per}
        case ImmediateKind.GAIN_PER_MILITARY:
            return {"gain_per": dump(e.gain.goods), "every_military": e.value}
        case ImmediateKind.TAKE_CARD:
            take = {"type": per or "any", "value": e.value} | (
                {"discount": dump(e.discount)} if e.discount != ZERO else {}
            )
            return {"take_card": take}
        case ImmediateKind.HARVEST:
            return {"harvest": e.value}
        case _:
            return {"production": e.value}


_register(Immediate, Annotated[ImmediateForm, AfterValidator(ImmediateForm.record)], _write_immediate)


def _periods(records: tuple[Any, ...], context: Mapping[str, Any]) -> Iterator[tuple[int | None, str, str]]:
    """Every card or tile lies in one of the board's periods."""
    periods = _board(context).periods
    for i, r in enumerate(records):
        if r.period > periods:
            yield i, "period", f"outside the game's {periods} periods"


def _cards(cards: tuple[Any, ...], context: Mapping[str, Any]) -> Iterator[tuple[int | None, str, str]]:
    """Periods, then 8 cards of each type per period (the deck dealt over a period's rounds)."""
    wrong = list(_periods(cards, context))
    if wrong:
        yield from wrong
        return
    board = _board(context)
    per_deck = board.cards_per_tower_per_round * board.rounds_per_period
    for card_type in CardType:
        for period in range(1, board.periods + 1):
            n = sum(1 for c in cards if c.card_type is card_type and c.period == period)
            if n != per_deck:
                yield None, "", f"{card_type.name.lower()} cards of period {period}: {n}, not {per_deck}"
                return


def _board(context: Mapping[str, Any]) -> Board:
    board: Board = context["board"]
    return board


BOARD = File("board.yaml", Board, public=("spaces", "privileges"))
CARDS = File("cards.yaml", ct.Card, "cards", ct.CARDS, _cards)
LEADERS = File("leaders.yaml", ct.Leader, "leaders", ct.LEADERS)
EXCOMMUNICATIONS = File(
    "excommunications.yaml", ct.ExcommunicationTile, "tiles", ct.EXCOMMUNICATIONS, _periods
)
BONUS_TILES = File("bonus_tiles.yaml", ct.BonusTile, "tiles", ct.BONUS_TILES)


def load_from(directory: Path) -> Content:
    """Load content from a directory of the same five YAML files (tests use this for malformed files)."""
    board = load_file(directory, BOARD)
    context = {"board": board}
    return Content(
        cards=load_file(directory, CARDS, context),
        leaders=load_file(directory, LEADERS, context),
        excommunications=load_file(directory, EXCOMMUNICATIONS, context),
        bonus_tiles=load_file(directory, BONUS_TILES, context),
        board=board,
    )


@functools.cache
def load_content() -> Content:
    """The game's content, read and validated once per process."""
    return load_from(CONTENT_DIR)


def tables(content: Content) -> dict[str, dict[str, list[Any]]]:
    """Every component of ``content`` as its file writes it, keyed by file and list: what front-ends
    read (``/content``: names for the ids of views). Plain JSON values; zero goods and default
    values are left out, as the files leave them out."""
    return {
        "board": public(BOARD, content.board),
        "bonus_tiles": public(BONUS_TILES, content.bonus_tiles),
        "cards": public(CARDS, content.cards),
        "excommunications": public(EXCOMMUNICATIONS, content.excommunications),
        "leaders": public(LEADERS, content.leaders),
    }


__all__ = [
    "CONTENT_DIR",
    "ContentError",
    "load_content",
    "load_from",
    "tables",
]
