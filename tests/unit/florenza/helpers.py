"""Given/when/then helpers for Florenza rules tests: build a state from events, decide, sum the effects."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from services.florenza.content import load_content
from services.florenza.manifest import MANIFEST
from services.florenza.rules import FlorenzaRules
from services.florenza.rules.commands import Command
from services.florenza.rules.events import (
    CertificatesKeptHidden,
    CharactersArrived,
    ChurchInfluenceChanged,
    Event,
    GameStarted,
    GoodsGained,
    GoodsPaid,
    MarketTraded,
    PhaseChanged,
    PrestigeChanged,
    RoundStarted,
    WorkersGained,
)
from services.florenza.rules.goods import ZERO, Goods
from services.florenza.rules.model import (
    NO_SEAT,
    DistrictSlot,
    Phase,
    PlayerState,
    Presence,
    Source,
    State,
    WorkSpot,
)
from shared.core.rng import Rng
from tests.support.given import Given
from tests.support.given import of_type as of_type
from tests.support.given import with_player as replace_player

C = load_content()
RULES: FlorenzaRules = MANIFEST.load_rules()  # named and seated by the manifest
GIVEN: Given[State, Command, Event] = Given(RULES)
fold, when, then = GIVEN.fold, GIVEN.when, GIVEN.then
B = C.board

# Workshop kinds (ids printed in the seed's setup list, others from workshops.yaml).
BOSCAIUOLO, CAMBIAVALUTE, CASA, CASAMENTO, PALAGIO = 3, 4, 6, 7, 21
FABBRO, LEGNAIUOLO, ORAFO, PICCONIERE, CERAIOLO, BATTILORO = 12, 15, 19, 22, 9, 2
# Characters.
ANGELICO, BOTTICELLI, MICHELANGELO, LEONARDO, DONATELLO, BRUNELLESCHI = 2, 5, 8, 12, 15, 7
SAVONAROLA, BRUNO = 35, 36
ANON_PAINTER, ANON_SCULPTOR, ANON_ARCHITECT, ANON_PREACHER = 41, 43, 45, 47
# Art works.
FACCIATA, AFFRESCO, STATUA, GIARDINO = 1, 2, 3, 4  # Palazzo
CAMPANILE, PALA, CROCIFISSO, CAPPELLA = 5, 6, 7, 8  # Chiesa
ATRIO, SALONE_SIGNORIA = 9, 17  # city
ABSIDE, PULPITO = 20, 27  # Duomo

ALL_TILES = tuple(sorted(w.id for w in C.workshops for _ in range(w.copies)))


def game(*args: Any, **kwargs: Any) -> State:
    """The match of :func:`game_events` (the same arguments)."""
    return fold(game_events(*args, **kwargs))


def game_events(
    seats: int = 2,
    order: tuple[int, ...] | None = None,
    present: dict[int, int] | None = None,
    phase: Phase = Phase.PLACEMENT,
    round: int = 1,
    workers: int = 4,
    hidden_certificates: bool = False,
) -> list[Event]:
    """A match in ``phase`` of ``round``: empty districts, no goods, ``workers`` each, turn order 0, 1, ...
    and the named characters ``present`` ({character: Life in Florenza card}) in Florence (with
    ``CertificatesKeptHidden`` if ``hidden_certificates``)."""
    order = order or tuple(range(seats))
    works = tuple(WorkSpot(w.id, seat) for seat in range(seats) for w in C.district_works)
    works += tuple(WorkSpot(w.id) for w in C.public_works)
    present = (
        present if present is not None else {BOTTICELLI: 3, MICHELANGELO: 1, DONATELLO: 4, SAVONAROLA: 2}
    )
    events: list[Event] = [
        GameStarted(
            seats, order, B.supply, ALL_TILES, (), tuple(sorted(C.named_characters)), works,
            B.district_slots, B.workers_per_family, (),
        ),
        *[WorkersGained(seat, workers, Source.SETUP) for seat in range(seats) if workers],
        RoundStarted(round, order),
        PhaseChanged(phase, order[0] if phase is not Phase.DISTRICTS else NO_SEAT),
    ]  # fmt: skip
    if present:
        events.insert(1, CharactersArrived(tuple(Presence(x, card) for x, card in present.items())))
    if hidden_certificates:
        events.insert(1, CertificatesKeptHidden())
    return events


def with_player(state: State, seat: int, **fields: Any) -> State:
    """Set a player's fields directly; ``district`` takes ``{slot: (kind, built)}``."""
    p: PlayerState = state.players[seat]
    if isinstance(fields.get("district"), dict):
        slots = list(p.district)
        for slot, (kind, built) in fields["district"].items():
            slots[slot - 1] = DistrictSlot(kind, built)
        fields["district"] = tuple(slots)
    return replace_player(state, seat, **fields)


def with_goods(state: State, seat: int, **goods: int) -> State:
    """Give a seat goods, taking the cubes out of the bank's supply as a real gain would."""
    given = Goods(**goods)
    return fold([GoodsGained(seat, given, Source.SETUP)], state)


def with_spot(state: State, work: int, district: int = NO_SEAT, **fields: Any) -> State:
    works = tuple(
        replace(w, **fields) if w.work == work and w.district == district else w for w in state.works
    )
    return replace(state, works=works)


def net(events: list[Any], seat: int, source: Source | None = None) -> Goods:
    """Goods gained minus paid by ``seat`` in these events (optionally only one source)."""
    total = ZERO
    for e in events:
        if isinstance(e, GoodsGained | GoodsPaid) and e.seat == seat and source in (None, e.source):
            total = total + e.goods if isinstance(e, GoodsGained) else total - e.goods
        if isinstance(e, MarketTraded) and e.seat == seat and source in (None, Source.MARKET):
            total = total + e.got - e.paid
    return total


def prestige(events: list[Any], seat: int, source: Source | None = None) -> int:
    return sum(
        e.delta
        for e in events
        if isinstance(e, PrestigeChanged) and e.seat == seat and source in (None, e.source)
    )


def church(events: list[Any], seat: int, source: Source | None = None) -> int:
    return sum(
        e.delta
        for e in events
        if isinstance(e, ChurchInfluenceChanged) and e.seat == seat and source in (None, e.source)
    )


class Dice(Rng):
    """An ``Rng`` whose die rolls (``randint(1, 6)``) come from a list: the test names the faces."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, lo: int, hi: int) -> int:
        return self.faces.pop(0)
