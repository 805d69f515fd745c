"""Views, event visibility and determinization.

Florenza has no hidden information (docs/rules/florenza.md, "Hidden information"): the only concealed
component is the cloth bag, whose contents everybody knows and whose order nobody does until a tile is
drawn. The engine draws at random at the moment of drawing (the tiles go into a public event), so no
event is seat-only or server-only, every viewer sees the whole state, and determinization has nothing
to resample.
"""

from __future__ import annotations

from services.florenza.rules.events import Event
from services.florenza.rules.model import NO_SEAT, State
from shared.core.decider import PUBLIC, Actor, Visibility
from shared.core.rng import Rng
from shared.core.wire import message, pb


@message
class FlorenzaView:
    """Everything on the table: the same for every seat and for spectators."""

    viewer_seat: int = pb(1)  # -1 for spectators and the system
    game: State = pb(2)


def view(s: State, viewer: Actor) -> FlorenzaView:
    return FlorenzaView(viewer.seat if viewer.is_seat else NO_SEAT, s)


def visibility(event: Event) -> Visibility:
    """Every event is public: no component is secret to one seat (see the module docstring)."""
    return PUBLIC


def determinize(s: State, seat: int, rng: Rng) -> State:
    """The state unchanged: nothing is hidden from ``seat``. Future draws from the bag come from the
    ``rng`` of the decision that draws them, so a search already samples them there."""
    return s
