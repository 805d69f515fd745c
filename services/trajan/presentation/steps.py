"""Trajan's words for the steps of a choice in the terminal client (its optional ``StepWording`` part).

The client asks for a command in steps: first its kind, then each field on which the remaining commands
differ (``services/client/steps.py``). Here each step gets a question and each value the words a player
needs to choose it: a bowl with the markers it holds and where the last one lands, a Trajan tile with
its VP, colours and effect, a province with its VP and tile, a site with its construction tile.
"""

from __future__ import annotations

from services.trajan.presentation.describe import TrajanDescriber
from services.trajan.presentation.labels import PILE, lower
from services.trajan.rules.commands import (
    Command,
    DiscardCommodity,
    DrawStartCommodity,
    PlaceStartMarkers,
    TakeStartTrajanTile,
)
from services.trajan.rules.view import TrajanView

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


def step_title(command: str, field: str) -> str | None:
    return TITLES.get((command, field))


def option_text(describer: TrajanDescriber, cmd: Command, field: str, view: TrajanView | None) -> str | None:
    """One field's value of ``cmd`` in words; a command with one field is worded whole."""
    lab = describer.labels
    match cmd:
        case PlaceStartMarkers(bowl, first, second):
            return {"bowl": lab.bowl(bowl), "first": lower(first), "second": lower(second)}.get(field)
        case DiscardCommodity(commodity, pile):
            return {"commodity": lower(commodity), "pile": PILE[pile]}.get(field)
        case TakeStartTrajanTile(_, slot):
            if field == "slot":
                return f"{lab.slot(slot)}, beside {lab.bowl(slot)}"
            return describer.command(cmd, view).removeprefix("Take ").split(" onto ")[0]
        case DrawStartCommodity():
            return describer.command(cmd, view).removeprefix("Take a starting card from ")
        case _:
            return describer.command(cmd, view)
