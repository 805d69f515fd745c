"""Every type a game puts on the wire or in a snapshot is a ``@message`` with numbered fields.

The generated ``.proto`` already refuses a command, event or view type without ``pb(n)`` numbers
(``shared.core.codec``), but the state never goes into a ``.proto``, only into snapshots: this test holds
it to the same convention (shared/core/wire.py), so every field of every command, event, view and state
dataclass, and of everything nested in them, has an explicit, stable number. The config is what
``make_config`` hands to ``setup`` and is never stored (the match keeps its options), so it may be a
plain dataclass, as the registry accepts it.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from services.games import GAMES, load_game
from shared.core.codec import fields_of, from_proto, to_proto
from shared.core.manifest import GameManifest
from shared.core.wire import message, pb, wire_of
from tests.support.nim.manifest import MANIFEST as NIM
from tests.support.race.manifest import MANIFEST as RACE


def plain_types(roots: list[type]) -> list[str]:
    """Names of the types reachable from ``roots`` (through message fields) that are not ``@message``."""
    seen: set[type] = set()
    todo, plain = list(roots), []
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.add(cls)
        if wire_of(cls) is None:
            plain.append(cls.__qualname__)
        todo += [spec.target for spec in fields_of(cls) if spec.kind == "message" and spec.target is not None]
    return sorted(plain)


@pytest.mark.parametrize("game", [*GAMES, RACE, NIM], ids=lambda g: g.name)
def test_every_state_view_command_and_event_type_is_a_message(game: GameManifest) -> None:
    rules = game.load_rules()
    roots = [rules.state_type, rules.view_type, *rules.command_types, *rules.event_types]
    assert plain_types(roots) == []


@dataclass(frozen=True, slots=True)
class Plain:
    value: int = 0


@message
class Holder:
    inner: Plain = pb(1)
    items: tuple[Plain, ...] = pb(2, default=())


def test_the_walk_finds_a_plain_dataclass_nested_in_a_message() -> None:
    assert plain_types([Holder]) == ["Plain"]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_every_games_content_survives_the_wire(game: GameManifest) -> None:
    """What GetContent answers: the typed components, to protobuf and back the same."""
    assert game.content is not None
    kind, content = game.content.message(), game.content.build()
    pb2 = load_game(game.name).modules.pb2
    wire = getattr(pb2, kind.__name__)
    message = to_proto(content, wire())
    assert from_proto(kind, wire.FromString(message.SerializeToString())) == content
    assert pb2.GetContentResponse(content=message).content == message  # the RPC's answer holds it
