"""Resigning: a platform rule, the same in every game (docs/workers.md, "Resigning").

A seat's player may resign a match (the rule service's ``Resign``). The platform records it in the
match's log as its own event (:data:`SEAT_RESIGNED`, the payload a ``tabula.common.v1.SeatResigned``),
never as a game's event: the rules neither see nor fold it. The runner keeps what it says beside the
game's state, as :class:`Seating`, and from there:

- a resigned seat is played by a greedy bot from then on (the workers plan it like a bot seat);
- the outcome places resigned seats last, below every seat that did not resign, the later resigner
  above the earlier; the scores stay those the rules computed;
- once at most one human seat has not resigned (bots' seats never resign), the match ends at once:
  the remaining human first, the bots next (sharing a placing), the resigned seats last; the rules
  computed no scores then, so every score is 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from shared.core.decider import Actor, Outcome
from shared.core.undo import COMMANDS_UNDONE

SEAT_RESIGNED = "tabula.common.v1.SeatResigned"  # the envelope type of a resignation
PLATFORM_TYPES = frozenset(
    {SEAT_RESIGNED, COMMANDS_UNDONE}
)  # event types the platform appends, never the rules


@dataclass(frozen=True, slots=True)
class Seating:
    """What the platform knows of a match's seats beside the game's state: how many there are, which
    hold bots (from the match meta) and which resigned, in the order they did."""

    seats: int = 0
    bots: frozenset[int] = frozenset()
    resigned: tuple[int, ...] = ()

    def resign(self, seat: int) -> Seating:
        return self if seat in self.resigned else replace(self, resigned=(*self.resigned, seat))

    @property
    def ended(self) -> bool:
        """Whether resignations ended the match: someone resigned and at most one human seat has not."""
        humans = [s for s in range(self.seats) if s not in self.bots and s not in self.resigned]
        return bool(self.resigned) and len(humans) <= 1

    def outcome(self, rules: Outcome | None) -> Outcome | None:
        """The match's outcome, from the rules' (None while they go on): resigned seats placed last."""
        if not self.resigned:
            return rules
        if rules is None:
            if not self.ended:
                return None
            # ended early: the human left ranks above the bots; the rules computed no scores
            rules = Outcome((0,) * self.seats, tuple(2 if s in self.bots else 1 for s in range(self.seats)))
        return Outcome(rules.scores, placings_with(rules.placings, self.resigned))

    def to_act(self, actors: tuple[Actor, ...]) -> tuple[Actor, ...]:
        """Who acts now, as the rules say, unless resignations ended the match (nobody)."""
        return () if self.ended else actors


NO_RESIGNATIONS = Seating()  # a match nobody resigned (its seats and bots matter only once someone does)


def placings_with(placings: Sequence[int], resigned: Sequence[int]) -> tuple[int, ...]:
    """``placings`` (1 = first, ties share) with the ``resigned`` seats (in the order they resigned)
    last: the others keep their order among themselves (ranked 1 + how many of them placed better),
    then the last resigner, ..., the first resigner last of all."""
    staying = [s for s in range(len(placings)) if s not in resigned]
    out = [0] * len(placings)
    for seat in staying:
        out[seat] = 1 + sum(1 for other in staying if placings[other] < placings[seat])
    for order, seat in enumerate(resigned):
        out[seat] = len(placings) - order
    return tuple(out)
