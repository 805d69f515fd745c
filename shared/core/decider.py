"""The decider protocol that every game's pure rules implement (ARCHITECTURE, rule 2).

A game's ``rules`` package is pure: no I/O, no clock, no ``random``. It sees the world
only through the arguments below. Randomness comes in as an :class:`shared.core.rng.Rng`
derived from the match seed and the version being decided, and every outcome it
produces is written into an event, so a replay never draws a number.

Types a game defines (all frozen dataclasses, see ``shared.core.codec`` for what fields
may hold): ``Config``, ``State``, one dataclass per command and per event, ``View``. A game's rules
class derives from :class:`BaseRules`, which takes these types from its parameters and gives every
member a game may not need its default; the game's name and seat range are its manifest's.
"""

from __future__ import annotations

import abc
import enum
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Generic, Protocol, Self, TypeVar

from shared.core.records import record
from shared.core.rng import Rng


class ActorKind(enum.IntEnum):
    SEAT = 1
    SYSTEM = 2
    SPECTATOR = 3


@record
class Actor:
    """Who issues a command or looks at a view: a seat, the system, or a spectator."""

    kind: ActorKind
    seat: int = -1

    @staticmethod
    def of_seat(seat: int) -> Actor:
        return Actor(ActorKind.SEAT, seat)

    @property
    def is_seat(self) -> bool:
        return self.kind is ActorKind.SEAT

    @property
    def is_system(self) -> bool:
        return self.kind is ActorKind.SYSTEM

    def __str__(self) -> str:
        return f"seat:{self.seat}" if self.is_seat else self.kind.name.lower()


SYSTEM = Actor(ActorKind.SYSTEM)
SPECTATOR = Actor(ActorKind.SPECTATOR)


class VisibilityKind(enum.IntEnum):
    PUBLIC = 1
    SEAT = 2
    SERVER = 3


@dataclass(frozen=True, slots=True)
class Visibility:
    """Who may see an event: everyone, one seat, or only the server (ARCHITECTURE, rule 4)."""

    kind: VisibilityKind
    seat: int = -1

    @staticmethod
    def to_seat(seat: int) -> Visibility:
        return Visibility(VisibilityKind.SEAT, seat)

    def visible_to(self, viewer: Actor) -> bool:
        if viewer.is_system or self.kind is VisibilityKind.PUBLIC:
            return True
        return self.kind is VisibilityKind.SEAT and viewer.is_seat and viewer.seat == self.seat

    def encode(self) -> str:
        if self.kind is VisibilityKind.SEAT:
            return f"seat:{self.seat}"
        return self.kind.name.lower()

    @staticmethod
    def decode(text: str) -> Visibility:
        if text.startswith("seat:"):
            return Visibility.to_seat(int(text[5:]))
        return Visibility(VisibilityKind[text.upper()])


PUBLIC = Visibility(VisibilityKind.PUBLIC)
SERVER_ONLY = Visibility(VisibilityKind.SERVER)


class RuleViolation(Exception):
    """A command the rules reject. ``code`` is a stable, machine-readable reason; ``template`` the
    English message with ``{name}`` fields, ``values`` what fills them: ``message`` is the result.

    The template (not the message) keys the refusal's translations (``reason.<code>: <template>``,
    ``shared.core.reasons``), so a value goes in ``values``, never into the template itself:
    ``RuleViolation("bad_seats", "this game seats 2 to 4 players, not {seats}", seats=seats)``.
    """

    def __init__(self, code: str, template: str, **values: Any) -> None:
        self.code = code
        self.template = template
        self.values: dict[str, Any] = values
        self.message = template.format(**values) if values else template
        super().__init__(f"{code}: {self.message}")


@dataclass(frozen=True, slots=True)
class Outcome:
    """Final result: ``scores[seat]`` and ``placings[seat]`` (1 = winner, ties share)."""

    scores: tuple[int, ...]
    placings: tuple[int, ...]


ConfigT = TypeVar("ConfigT")
StateT = TypeVar("StateT")
CommandT = TypeVar("CommandT")
EventT = TypeVar("EventT")
ViewT = TypeVar("ViewT", covariant=True)


class Rules(Protocol[ConfigT, StateT, CommandT, EventT, ViewT]):
    """The pure rules of one game. Implementations hold their content, nothing else.

    Commands and events are ``@message(tag=N)`` classes (``shared.core.wire``): N is the member's
    stable number in the game's ``Command`` / ``Event`` oneof. Every member below is required
    (checked when the registry loads a game, :func:`missing_members`); nothing is optional and
    looked up by name. A game writes only what it has: :class:`BaseRules` has the rest.
    """

    # The game's manifest's, given to the rules it loads (BaseRules.bind): said once, there.
    game: str
    min_seats: int
    max_seats: int
    config_type: type
    state_type: type
    view_type: type
    command_types: tuple[type, ...]
    event_types: tuple[type, ...]
    # Tags and oneof field names (``dice_rolled``) of removed commands / events: rendered
    # ``reserved`` in the .proto and never given to a new member. Empty for a new game.
    reserved_command_tags: tuple[int | str, ...]
    reserved_event_tags: tuple[int | str, ...]
    # (event type name, stored schema version) -> the step lifting that payload to the next
    # ``@message(schema=N)`` (``shared.core.codec.Upcaster``; docs/platform.md). Empty for a new game.
    upcasters: Mapping[tuple[str, int], Any]
    # The event types whose events reveal hidden information or randomness (a draw, a deal, a die
    # roll, a reshuffle): a command that emitted one cannot be undone (shared.core.undo). Events not
    # public reveal to their seat without being named here.
    revealing: frozenset[type]

    def make_config(self, seats: int, options: Mapping[str, str]) -> ConfigT:
        """Validate the lobby's options; raise RuleViolation for bad ones."""
        ...

    def initial_state(self) -> StateT: ...

    def setup(self, config: ConfigT, rng: Rng) -> Sequence[EventT]:
        """The events that start a match (shuffles and deals recorded as events)."""
        ...

    def decide(self, state: StateT, actor: Actor, command: CommandT, rng: Rng) -> Sequence[EventT]:
        """Events the command produces, or raise RuleViolation. Never mutates state."""
        ...

    def evolve(self, state: StateT, event: EventT) -> StateT:
        """Apply one event. No conditions: every check lives in decide."""
        ...

    def legal_commands(self, state: StateT, actor: Actor) -> Sequence[CommandT]:
        """Exactly the commands decide accepts from actor now (SYSTEM: pending system steps)."""
        ...

    def to_act(self, state: StateT) -> tuple[Actor, ...]:
        """Actors who may act now; SYSTEM when a round, period or game end is pending."""
        ...

    def view(self, state: StateT, viewer: Actor) -> ViewT:
        """What viewer may see. SYSTEM sees everything; a seat only its own secrets."""
        ...

    def visibility(self, event: EventT) -> Visibility: ...

    def outcome(self, state: StateT) -> Outcome | None:
        """None while the match runs."""
        ...

    def determinize(self, state: StateT, seat: int, rng: Rng) -> StateT:
        """The state as ``seat`` may know it: everything it cannot see resampled from ``rng``.

        Bots only ever look at this (ARCHITECTURE, "Bots only see what their seat may see"),
        so it is required: a game that forgot it would hand bots the other hands and the deck order.
        A game without hidden information returns ``state`` unchanged (``BaseRules``' default, which a
        game whose events are not all public must override).
        """
        ...

    def seat_count(self, state: StateT) -> int:
        """How many seats the match has (0 before setup); bots value every seat."""
        ...

    def invariant_violations(self, state: StateT) -> Sequence[str]:
        """What is wrong with ``state`` (empty when sound): the game's own invariants, checked
        after every step of seeded playouts and simulations (no negative counts, pieces
        conserved, ...). Pure and cheap enough to run after every event."""
        ...


class BaseRules(abc.ABC, Generic[ConfigT, StateT, CommandT, EventT, ViewT]):
    """A game's rules with every member of :class:`Rules` a game may not need already there::

        class ChessRules(BaseRules[Config, State, Command, Event, ChessView]):
            def make_config(self, seats, options): ...

    The parameters are the game's types: ``config_type``, ``state_type`` and ``view_type`` are taken
    from them, ``command_types`` and ``event_types`` from the ``Command`` and ``Event`` unions (in
    their order; one class alone is a union of one). ``game``, ``min_seats`` and ``max_seats`` are said
    once, in the game's manifest, which gives them to the rules it loads (``GameManifest.load_rules``
    calls :meth:`bind`; rules built by hand have none of them until bound).

    The defaults: nothing reserved, no upcasters, no revealing events, ``initial_state`` is
    ``state_type()``, every event public, ``determinize`` returns the state unchanged (no hidden
    information: a game that overrides ``visibility`` must override it too), no invariants. A game
    overrides what it has and writes the abstract methods.
    """

    game: str
    min_seats: int
    max_seats: int
    config_type: type
    state_type: type
    view_type: type
    command_types: tuple[type, ...]
    event_types: tuple[type, ...]
    reserved_command_tags: tuple[int | str, ...] = ()
    reserved_event_tags: tuple[int | str, ...] = ()
    upcasters: Mapping[tuple[str, int], Any] = MappingProxyType({})
    revealing: frozenset[type] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in cls.__dict__.get("__orig_bases__", ()):
            args = typing.get_args(base)
            if typing.get_origin(base) is BaseRules and not any(isinstance(a, TypeVar) for a in args):
                config, state, command, event, view = args
                cls.config_type, cls.state_type, cls.view_type = config, state, view
                cls.command_types, cls.event_types = union_members(command), union_members(event)
        if cls.visibility is not BaseRules.visibility and cls.determinize is BaseRules.determinize:
            raise TypeError(f"{cls.__name__} hides events (visibility) but does not determinize")

    def bind(self, game: str, min_seats: int, max_seats: int) -> Self:
        """These rules as their manifest names and seats them (``GameManifest.load_rules``)."""
        self.game, self.min_seats, self.max_seats = game, min_seats, max_seats
        return self

    @abc.abstractmethod
    def make_config(self, seats: int, options: Mapping[str, str]) -> ConfigT: ...

    def initial_state(self) -> StateT:
        state: StateT = self.state_type()
        return state

    @abc.abstractmethod
    def setup(self, config: ConfigT, rng: Rng) -> Sequence[EventT]: ...

    @abc.abstractmethod
    def decide(self, state: StateT, actor: Actor, command: CommandT, rng: Rng) -> Sequence[EventT]: ...

    @abc.abstractmethod
    def evolve(self, state: StateT, event: EventT) -> StateT: ...

    @abc.abstractmethod
    def legal_commands(self, state: StateT, actor: Actor) -> Sequence[CommandT]: ...

    @abc.abstractmethod
    def to_act(self, state: StateT) -> tuple[Actor, ...]: ...

    @abc.abstractmethod
    def view(self, state: StateT, viewer: Actor) -> ViewT: ...

    def visibility(self, event: EventT) -> Visibility:
        return PUBLIC

    @abc.abstractmethod
    def outcome(self, state: StateT) -> Outcome | None: ...

    def determinize(self, state: StateT, seat: int, rng: Rng) -> StateT:
        return state

    @abc.abstractmethod
    def seat_count(self, state: StateT) -> int: ...

    def invariant_violations(self, state: StateT) -> Sequence[str]:
        return ()


def union_members(union: object) -> tuple[type, ...]:
    """The classes of a ``A | B | C`` union, in order; a class alone is its only member."""
    members = typing.get_args(union) or (union,)
    if not all(isinstance(m, type) for m in members):
        raise TypeError(f"{union!r} is not a class or a union of classes")
    return typing.cast(tuple[type, ...], members)


def missing_members(rules: object) -> list[str]:
    """The members of :class:`Rules` that ``rules`` lacks (methods must be callable)."""
    methods = [name for name, value in vars(Rules).items() if callable(value) and not name.startswith("_")]
    attributes = [name for name in Rules.__annotations__ if name not in methods]
    missing = [name for name in attributes if not hasattr(rules, name)]
    return missing + [name for name in methods if not callable(getattr(rules, name, None))]
