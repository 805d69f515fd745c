"""A game's manifest: everything the platform knows about one game, in one value.

Each game package ``services/<game>/`` ends its ``manifest.py`` with ``MANIFEST = GameManifest(...)``
and the registry (``services/games.py``) lists it, one line per game, the way OpenSpiel modules
end with ``register_game``. The platform (``shared/``, lobby, workers, gateway, clients, CLI)
reaches a game only through its manifest: it never imports a game package nor names one.

Parts that pull in heavy code (content, bots, terminal presentation) are loaders, called on first
use (with no argument; the terminal presentation's with the locale of its words), so listing games
stays cheap.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from shared.core.decider import BaseRules
from shared.core.i18n import Catalog, Texts


class OptionType(enum.StrEnum):
    BOOL = "bool"
    INT = "int"
    CHOICE = "choice"


@dataclass(frozen=True, slots=True)
class GameOption:
    """One lobby option, sent to the rule service as a string (``"true"``, ``"3"``, ``"basic"``).

    The manifest describes the option for the lobby, the CLI and clients; the rules still check
    what they receive (``make_config``), so a hand-made request cannot get past them.
    """

    name: str
    type: OptionType
    default: str  # already canonical: what ``parse`` returns for it
    description: str
    choices: tuple[str, ...] = ()  # CHOICE only
    minimum: int | None = None  # INT only
    maximum: int | None = None
    label: str = ""  # a player's short name for it (English); empty: the name's (``hidden certificates``)

    def __post_init__(self) -> None:
        if not self.name.isidentifier() or self.name != self.name.lower():
            raise ValueError(f"option name {self.name!r}: lower-case letters, digits and '_' only")
        if self.type is OptionType.CHOICE and not self.choices:
            raise ValueError(f"option {self.name}: a choice needs its choices")
        if self.parse(self.default) != self.default:
            raise ValueError(f"option {self.name}: default {self.default!r} is not canonical")

    @property
    def shown(self) -> str:
        """The English a player reads for the option: its ``label``, else its name with ``_`` as spaces,
        first letter capitalised (``Hidden certificates``). Its name stays what requests send."""
        if self.label:
            return self.label
        words = self.name.replace("_", " ")
        return words[:1].upper() + words[1:]

    def parse(self, raw: str) -> str:
        """The canonical string for ``raw``, or ValueError naming the option."""
        text = raw.strip().lower() if self.type is not OptionType.CHOICE else raw.strip()
        if self.type is OptionType.BOOL:
            if text in ("true", "1", "yes", "on"):
                return "true"
            if text in ("false", "0", "no", "off"):
                return "false"
            raise ValueError(f"option {self.name}: expected true or false, got {raw!r}")
        if self.type is OptionType.INT:
            try:
                value = int(text)
            except ValueError:
                raise ValueError(f"option {self.name}: expected an integer, got {raw!r}") from None
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise ValueError(f"option {self.name}: {value} is outside {self.minimum}..{self.maximum}")
            return str(value)
        if text not in self.choices:
            raise ValueError(f"option {self.name}: expected one of {', '.join(self.choices)}, got {raw!r}")
        return text


# (rules, state, seat) -> how good ``state`` looks for ``seat``, on the victory-point scale.
Evaluate = Callable[[Any, Any, int], float]
# (rules, state, seats) -> every seat's value in one pass.
EvaluateAll = Callable[[Any, Any, int], tuple[float, ...]]
# (rules, state, seat, legal commands, coarse) -> a non-empty subset worth searching.
Prune = Callable[[Any, Any, int, Sequence[Any], bool], Sequence[Any]]
# (rules, state at the search's root, state) -> True where a search line ends and the evaluation
# values the state: what would follow is chance the evaluation already counts in expectation.
Horizon = Callable[[Any, Any, Any], bool]


@dataclass(frozen=True, slots=True)
class BotHooks:
    """What bots know of a game beyond its rules. Determinization is part of the rules protocol."""

    evaluate: Evaluate | None = None  # None: judged by the final outcome only
    evaluate_all: EvaluateAll | None = None
    prune: Prune | None = None
    horizon: Horizon | None = None  # ``mcts``: where a line ends, instead of the turn cycle
    common_dice: bool = False  # ``mcts``: the root's commands compared under the same dice
    random_ties: bool = False  # ``mcts``: equally ranked root commands drawn at random, as ``greedy`` does
    rollout_depth: int | None = None  # ``mcts``: plies a line may go unless the budget sets it (None: 12)


@dataclass(frozen=True, slots=True)
class BalanceHook:
    """What ``tabula balance`` counts in a game: which seat took which item (a card, a tile, an opening)
    in one game's log, to compare the takers' win rate with a seat's share."""

    families: tuple[str, ...]  # item families, in report order
    items: Callable[[Any], Mapping[str, Sequence[str]]]  # rules -> every item of every family
    # (rules, one game's log) -> (family, item, seat) for everything a seat took
    takers: Callable[[Any, Sequence[Any]], Iterable[tuple[str, str, int]]]
    doc: str  # the file the report is written into, between its markers


class Presentation(Protocol):
    """How the terminal client shows a game. Views, commands and events arrive as protobuf messages;
    ``names`` are the seats' display names (``seat N`` where a name is missing)."""

    def board(self, view: Any, version: int, names: Sequence[str], match_id: str) -> Any:
        """A rich renderable of the whole board as ``view``'s viewer sees it."""
        ...

    def describe_command(self, command: Any, view: Any | None, names: Sequence[str]) -> str:
        """One line for a legal command (a member message of the game's ``Command`` oneof)."""
        ...

    def describe_event(self, event: Any, names: Sequence[str]) -> str:
        """One line for an event (a member message of the game's ``Event`` oneof)."""
        ...

    def final(self, view: Any, names: Sequence[str]) -> Any:
        """A rich renderable of the final scores, or None to show the outcome only."""
        ...


@dataclass(frozen=True, slots=True)
class ContentHook:
    """A game's components for front-ends, typed: what the ``GetContent`` RPC answers.

    ``message`` returns the root ``@message`` class (rendered into the game's ``.proto`` as
    ``GetContentResponse.content``, with everything it holds); ``build`` returns its one instance,
    made from the validated content, with every card, tile or space's costs, effects and a
    text generated in the game package, in the locale it is given (``build(locale)``, one of
    ``shared.core.i18n.LOCALES``; English when called without one). Both are loaders, called on
    first use.
    """

    message: Callable[[], type]
    build: Callable[..., Any]


@dataclass(frozen=True, slots=True)
class GameManifest:
    """The one description of a game that the registry lists.

    Checked when it is built (a name that can be a proto package and a service name, a seat
    range, distinct options); the rules it loads are given its name and seat range (:meth:`load_rules`)
    and checked against the ``Rules`` protocol by the registry (``services.games.load_rules``).
    """

    name: str  # lower case, also the proto package ``tabula.<name>.v1`` and the service name
    title: str
    min_seats: int
    max_seats: int
    default_port: int
    rules: Callable[[], Any]  # the game's Rules, content loaded and validated
    source: str  # where the rules live (named in the generated .proto header)
    options: tuple[GameOption, ...] = ()
    pb2: str = ""  # generated module, e.g. "tabula.<name>.v1.<name>_pb2" (default from name)
    bots: Callable[[], BotHooks] = BotHooks
    # called with the locale (shared/core/i18n.py LOCALES) its words are in; None: the generic rendering
    presentation: Callable[[str], Presentation] | None = None
    web: Path | None = None  # folder with ``<name>.js`` (and ``<name>.css``) for the spectator page
    content_counts: Callable[[], Mapping[str, int]] | None = None
    content_tables: Callable[[], Mapping[str, Any]] | None = None  # public labels for front-ends
    content: ContentHook | None = None  # typed components with texts (GetContent); None: an empty answer
    description: str = ""
    bench_seats: int | None = None  # seats the benches play (None: max_seats), within the seat range
    balance: Callable[[], BalanceHook] | None = None  # what ``tabula balance`` counts; None: nothing
    texts: Callable[[], Texts] | None = None  # what a player reads, in every language (shared/core/i18n.py)

    def __post_init__(self) -> None:
        if not self.name.isidentifier() or self.name != self.name.lower():
            raise ValueError(f"game name {self.name!r}: lower-case letters, digits and '_' only")
        if not 1 <= self.min_seats <= self.max_seats:
            raise ValueError(f"{self.name}: seats {self.min_seats}..{self.max_seats} is not a range")
        if not 0 < self.default_port < 65536:
            raise ValueError(f"{self.name}: default_port {self.default_port} is not a port")
        names = [o.name for o in self.options]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.name}: an option is declared twice in {names}")
        if self.bench_seats is not None and not self.min_seats <= self.bench_seats <= self.max_seats:
            raise ValueError(f"{self.name}: bench_seats {self.bench_seats} is outside its seat range")

    @property
    def pb2_module(self) -> str:
        return self.pb2 or f"tabula.{self.name}.v1.{self.name}_pb2"

    @property
    def pb2_grpc_module(self) -> str:
        return f"{self.pb2_module}_grpc"

    @property
    def service_name(self) -> str:
        """``ChessService`` for ``chess``: the gRPC service in the game's proto."""
        return f"{self.name.capitalize()}Service"

    def load_rules(self) -> Any:
        """The game's rules (``rules()``), named and seated by this manifest when they are ``BaseRules``
        (which never say either themselves)."""
        rules = self.rules()
        if isinstance(rules, BaseRules):
            rules.bind(self.name, self.min_seats, self.max_seats)
        return rules

    @property
    def match_options(self) -> tuple[GameOption, ...]:
        """The options a match of this game takes: the game's, then the platform's (every game's:
        ``shared.core.undo.PLATFORM_OPTIONS``), as the lobby lists them."""
        from shared.core.undo import PLATFORM_OPTIONS  # it builds its option with this module

        return (*self.options, *PLATFORM_OPTIONS)

    def parse_options(self, raw: Mapping[str, str]) -> dict[str, str]:
        """The game's options with their defaults filled in, and the platform's given ones; every value
        checked; ValueError for unknown or bad options."""
        known = {o.name: o for o in self.match_options}
        unknown = sorted(set(raw) - set(known))
        if unknown:
            raise ValueError(f"{self.name}: unknown option(s) {', '.join(unknown)}")
        out = {o.name: (o.parse(raw[o.name]) if o.name in raw else o.default) for o in self.options}
        return out | {name: known[name].parse(raw[name]) for name in raw if name not in out}


# What a player reads of a manifest, under stable keys of the game's texts (docs/languages.md): the
# manifest keeps the English, declared once; its translations are the game's ``locales/``.
TITLE_KEY = "game.title"
DESCRIPTION_KEY = "game.description"


def option_key(name: str) -> str:
    """The key of an option's description: ``game.option.<name>`` (beside the title's, apart from
    the keys a game's own words use)."""
    return f"game.option.{name}"


def option_label_key(name: str) -> str:
    """The key of an option's label, the short name a player reads: ``game.option_label.<name>``."""
    return f"game.option_label.{name}"


def option_texts(options: Iterable[GameOption]) -> dict[str, str]:
    """The English of the options' descriptions and labels, by key (``game.option.<name>``,
    ``game.option_label.<name>``). A choice's value is shown as it is sent (``basic``), so it has no
    text of its own."""
    out: dict[str, str] = {}
    for o in options:
        out[option_key(o.name)] = o.description
        out[option_label_key(o.name)] = o.shown
    return out


def manifest_texts(m: GameManifest) -> dict[str, str]:
    """The English of ``m`` that players read (its title, description and own options' descriptions
    and labels) under their keys, for the game's ``TEXTS`` to include; the platform's options are the
    platform's texts."""
    texts = {TITLE_KEY: m.title, **option_texts(m.options)}
    if m.description:
        texts[DESCRIPTION_KEY] = m.description
    return texts


@dataclass(frozen=True, slots=True)
class ManifestWords:
    """A game's title, description, match options' descriptions and labels (both by option name) in one
    locale."""

    title: str
    description: str
    options: Mapping[str, str]
    labels: Mapping[str, str] = field(default_factory=dict)


def manifest_words(m: GameManifest, catalogs: Sequence[Catalog] = ()) -> ManifestWords:
    """``m``'s words from the first of ``catalogs`` that translates each (the game's texts, then the
    platform's), the manifest's English otherwise; no catalogs: the English as declared."""

    def word(key: str, english: str) -> str:
        for catalog in catalogs:
            found = catalog.translated.get(key)
            if found is not None and key in catalog.english:
                return found
        return english

    return ManifestWords(
        title=word(TITLE_KEY, m.title),
        description=word(DESCRIPTION_KEY, m.description) if m.description else "",
        options={o.name: word(option_key(o.name), o.description) for o in m.match_options},
        labels={o.name: word(option_label_key(o.name), o.shown) for o in m.match_options},
    )
