"""Trajan's words for the steps of a choice in the terminal client (its optional ``StepWording`` part).

The client asks for a command in steps: first its kind, then each field on which the remaining commands
differ (``services/client/steps.py``). Here each step gets a question and each value the words a player
needs to choose it: a bowl with the markers it holds and where the last one lands, a Trajan tile with
its VP, colours and effect, a province with its VP and tile, a site with its construction tile.
Sowing is one choice of the markers' order (the optional ``Planner`` part), which the client then
sends as the rules' ``SowMarker`` commands one by one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from math import factorial, prod
from typing import Any

from services.trajan.presentation.describe import TrajanDescriber
from services.trajan.presentation.labels import NUMERALS, Labels
from services.trajan.rules.commands import (
    Command,
    DiscardCommodity,
    DrawStartCommodity,
    PlaceStartMarkers,
    SowMarker,
    TakeStartTrajanTile,
)
from services.trajan.rules.content_types import Colour
from services.trajan.rules.view import TrajanView
from shared.core.describe import union_member

ORDER_LIMIT = 24  # more orders of the markers in hand than this: asked marker by marker

TITLES = {
    ("ChooseBowl", "bowl"): "Which bowl do you pick up?",
    ("SowMarker", "colour"): "Which marker goes into the next bowl?",
    ("UseTrajanEffect", "action"): "Beside which action does the [+2] marker go?",
    ("UseExtraAction", "tile"): "Which extra action tile do you spend?",
    ("DiscardCommodity", "commodity"): "Which card do you discard?",
    ("DiscardCommodity", "pile"): "Onto which discard pile?",
    ("TakeDiscard", "pile"): "From which discard pile?",
    ("DisplayCommodities", "cards"): "Which cards do you play face up?",
    ("StartShipment", "ship"): "Which ship do you load?",
    ("LoadCommodity", "commodity"): "Which card do you load?",
    ("TakeForumTile", "tile"): "Which forum tile do you take?",
    ("MoveLeader", "province"): "Where does your leader go?",
    ("TakeTrajanTile", "stack"): "Which Trajan tile do you take?",
    ("PlaceWorker", "site"): "On which site does your worker go?",
    ("MeetDemands", "payments"): "How do you meet the demands?",
    ("ChooseBonusTile", "tile"): "Which bonus tile do you take, yellow side up?",
    ("PlaceStartMarkers", "first"): "The first marker for this bowl?",
    ("PlaceStartMarkers", "second"): "The second marker for this bowl?",
    ("DrawStartCommodity", "pile"): "Where do you take a starting card from?",
    ("TakeStartTrajanTile", "stack"): "From which stack do you take a starting Trajan tile?",
    ("TakeStartTrajanTile", "slot"): "Onto which slot does it go?",
}


def title_key(command: str, field: str) -> str:
    """``title.chooseBowl.bowl``: the key of a step's question (the web module asks the same)."""
    return f"title.{command[:1].lower()}{command[1:]}.{field}"


WORDS: dict[str, str] = {
    **{title_key(command, field): text for (command, field), text in TITLES.items()},
    "title.placeStartMarkers.first.bowl": "The first marker for {bowl}?",
    "title.placeStartMarkers.second.bowl": "The second marker for {bowl}?",
    "title.sowMarker.colour.bowl": "Which marker goes into {bowl}?",
    "option.slot": "{slot}, beside {bowl}",
    "option.sow": "{numeral} {colour}",
    "option.start_tile": "{top} from {stack}",
    "title.sowing": "In which order do you sow your markers (the last lands in {bowl})?",
}
"""The English of the steps' keys."""


def step_title(
    command: str,
    field: str,
    cmd: Command | None = None,
    labels: Labels | None = None,
    view: TrajanView | None = None,
) -> str | None:
    """The question for ``field`` of ``command``, naming the bowl a marker goes into."""
    if labels is None:
        return TITLES.get((command, field))
    if isinstance(cmd, PlaceStartMarkers) and field in ("first", "second"):
        return labels.t(f"title.placeStartMarkers.{field}.bowl", bowl=labels.bowl(cmd.bowl))
    if isinstance(cmd, SowMarker) and view is not None and view.next_bowl:
        return labels.t("title.sowMarker.colour.bowl", bowl=labels.bowl(view.next_bowl))
    return labels.t(title_key(command, field)) if (command, field) in TITLES else None


def option_text(describer: TrajanDescriber, cmd: Command, field: str, view: TrajanView | None) -> str | None:
    """One field's value of ``cmd`` in words; a command with one field is worded whole."""
    lab = describer.labels
    match cmd:
        case PlaceStartMarkers(bowl, first, second):
            return {"bowl": lab.bowl(bowl), "first": lab.word(first), "second": lab.word(second)}.get(field)
        case DiscardCommodity(commodity, pile):
            return {"commodity": lab.word(commodity), "pile": lab.word(pile)}.get(field)
        case TakeStartTrajanTile(stack, slot):
            if field == "slot":
                return lab.t("option.slot", slot=lab.slot(slot), bowl=lab.bowl(slot))
            return lab.t(
                "option.start_tile", top=describer.stack_top(stack, view), stack=lab.trajan_stack(stack)
            )
        case DrawStartCommodity(pile):
            return describer.pile(pile, view)
        case _:
            return describer.command(cmd, view)


def orders(hand: Sequence[Colour]) -> Iterator[tuple[Colour, ...]]:
    """Every distinct order of the markers in ``hand``, each once."""
    if not hand:
        yield ()
        return
    for first in sorted(set(hand)):
        rest = list(hand)
        rest.remove(first)
        yield from ((first, *tail) for tail in orders(rest))


def sowing_plans(labels: Labels, view: TrajanView, commands: Sequence[Any]) -> tuple[str, list[Any]] | None:
    """Sowing as one choice: each order of the markers in hand is a plan of ``SowMarker`` commands (up
    to the point where the rules sow the rest themselves: markers of one colour). None when the legal
    commands are not the sowing or there are more than ORDER_LIMIT orders (then marker by marker)."""
    by_colour: dict[Colour, Any] = {}
    for command in commands:
        member = union_member(command)
        if member is None or member.DESCRIPTOR.name != SowMarker.__name__:
            return None
        by_colour[Colour(member.colour)] = command
    hand = view.in_hand
    if (
        len(by_colour) < 2
        or factorial(len(hand)) // prod(map(factorial, Counter(hand).values())) > ORDER_LIMIT
    ):
        return None
    bowls = [(view.next_bowl - 1 + i) % len(view.players[0].bowls) + 1 for i in range(len(hand))]
    plans = []
    for order in orders(hand):
        sent = next(i for i in range(len(order) + 1) if len(set(order[i:])) <= 1)
        label = labels.listed(
            labels.t("option.sow", numeral=NUMERALS[b], colour=labels.word(c))
            for b, c in zip(bowls, order, strict=True)
        )
        plans.append((label, [by_colour[c] for c in order[:sent]]))
    title = labels.t("title.sowing", bowl=labels.bowl(bowls[-1]))
    return title, plans
