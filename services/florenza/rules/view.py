"""Views, event visibility and determinization.

Florenza's one secret is optional: the certificates (docs/rules/florenza.md, "Hidden information",
D24). In a match with ``hidden_certificates`` a family's certificate total is its own until the game
is scored: other seats' views and spectators' show it as 0 and name the seat in ``hidden_certificates``,
and the amount a new Captain banks goes into a seat-only ``CertificatesTaken``. Everything else is on the
table. The cloth bag hides nothing: its contents are public and the engine draws at random at the
moment of drawing (the tiles go into a public event).
"""

from __future__ import annotations

from services.florenza.rules.events import CertificatesTaken, Event
from services.florenza.rules.model import NO_SEAT, Phase, PlayerState, State
from shared.core.decider import PUBLIC, Actor, Visibility
from shared.core.records import copier
from shared.core.rng import Rng
from shared.core.wire import message, pb

_copy_player = copier(PlayerState)
_copy_state = copier(State)


@message
class FlorenzaView:
    """Everything on the table; with certificates hidden, other families' certificates read 0."""

    viewer_seat: int = pb(1)  # -1 for spectators and the system
    game: State = pb(2)
    # Seats whose certificates this viewer may not see (shown as 0 in ``game``): every other seat while
    # a match with hidden certificates runs; empty once it is scored, for the system, with open ones.
    hidden_certificates: tuple[int, ...] = pb(3)


def hidden_from(s: State, seat: int) -> tuple[int, ...]:
    """The seats whose certificates ``seat`` (-1: a spectator) may not see now."""
    if s.config is None or not s.config.hidden_certificates or s.phase is Phase.FINISHED:
        return ()
    return tuple(p.seat for p in s.players if p.seat != seat)


def _without_certificates(s: State, seats: tuple[int, ...]) -> State:
    if not seats:
        return s
    players = tuple(_copy_player(p, {"certificates": 0}) if p.seat in seats else p for p in s.players)
    redacted: State = _copy_state(s, {"players": players})
    return redacted


def view(s: State, viewer: Actor) -> FlorenzaView:
    seat = viewer.seat if viewer.is_seat else NO_SEAT
    hidden = () if viewer.is_system else hidden_from(s, seat)
    return FlorenzaView(seat, _without_certificates(s, hidden), hidden)


def visibility(event: Event) -> Visibility:
    """The certificates a Captain banks in secret are his seat's; every other event is public."""
    if isinstance(event, CertificatesTaken):
        return Visibility.to_seat(event.seat)
    return PUBLIC


def determinize(s: State, seat: int, rng: Rng) -> State:
    """The state as ``seat`` sees it: other families' hidden certificates read 0, as in its view, so a
    bot never values what it may not see. Future draws from the bag come from the ``rng`` of the
    decision that draws them, so a search already samples them there."""
    return _without_certificates(s, hidden_from(s, seat))
