"""What Florenza's balance report counts (``tabula balance florenza``): in one game's log, which family
took which workshop, artist, preacher and opening.

* workshop: a kind the family built (or chose as a starting workshop, built from the start);
* artist: a named artist the family hired (anonymous ones by their kind: "Anonymous painter");
* preacher: a preacher the family made an offering to;
* opening: each starting workshop chosen (seed setup §5), and the kind of the family's first placement
  of round 1 (step 4).

Reached through the manifest (``balance``: :func:`hook`); the command itself is generic
(``services/cli/balance.py``): it plays the games, counts wins against each item's share and writes the
report into ``DOC`` between its markers.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from services.florenza.rules.content_types import Content
from services.florenza.rules.events import (
    ArtistHired,
    MarketVisited,
    OfferingMade,
    PlacementPassed,
    RoundStarted,
    StartingWorkshopChosen,
    WorkerSentToWorkshop,
    WorkshopBuilt,
    WorkshopPlanned,
)
from shared.core.manifest import BalanceHook

DOC = "docs/rules/florenza.md"
FAMILIES = ("workshop", "artist", "preacher", "opening")
PLACEMENTS = {  # the first placement of round 1, by its event
    WorkerSentToWorkshop: "first placement: work a workshop",
    WorkshopPlanned: "first placement: plan a workshop",
    ArtistHired: "first placement: hire an artist",
    MarketVisited: "first placement: the market",
    OfferingMade: "first placement: an offering",
    PlacementPassed: "first placement: pass",
}


def items(rules: Any) -> dict[str, list[str]]:
    """Every item of every family, so that an item nobody took is listed too."""
    c: Content = rules.content
    return {
        "workshop": [w.name for w in c.workshops],
        "artist": list(dict.fromkeys(a.name for a in c.artists)),
        "preacher": list(dict.fromkeys(p.name for p in c.preachers)),
        "opening": [f"starting workshop: {w.name}" for w in c.workshops if w.starting]
        + list(PLACEMENTS.values()),
    }


def takers(rules: Any, events: Sequence[Any]) -> Iterator[tuple[str, str, int]]:
    """(family, item, seat) for everything a seat took in one game (repeats are counted once by the
    command)."""
    c: Content = rules.content
    first: set[int] = set()
    round_ = 0
    for e in events:
        match e:
            case RoundStarted(number, _):
                round_ = number
            case StartingWorkshopChosen(seat, workshop, _):
                yield "opening", f"starting workshop: {c.workshop[workshop].name}", seat
                yield "workshop", c.workshop[workshop].name, seat
            case WorkshopBuilt(seat, _, workshop):
                yield "workshop", c.workshop[workshop].name, seat
            case ArtistHired(seat, _, _, artist):
                yield "artist", c.artist[artist].name, seat
            case OfferingMade(seat, preacher, _):
                yield "preacher", c.preacher[preacher].name, seat
        if round_ == 1 and type(e) in PLACEMENTS and e.seat not in first:
            first.add(e.seat)
            yield "opening", PLACEMENTS[type(e)], e.seat


def hook() -> BalanceHook:
    """The manifest's ``balance`` loader."""
    return BalanceHook(FAMILIES, items, takers, DOC)
