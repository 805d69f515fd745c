"""Every type a registered game puts on the wire or in a snapshot is a ``@message`` with numbered fields.

The generated ``.proto`` already refuses a command, event or view type without ``pb(n)`` numbers
(``shared.core.codec``), but the state and the config never go into a ``.proto``: this test holds them to
the same convention (shared/core/wire.py), so every field of every command, event, view and state
dataclass, and of everything nested in them, has an explicit, stable number.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from services.games import game_names, load_rules
from shared.core.codec import fields_of
from shared.core.wire import message, pb, wire_of


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


@pytest.mark.parametrize("game", game_names())
def test_every_state_config_view_command_and_event_type_is_a_message(game: str) -> None:
    rules = load_rules(game)
    roots = [rules.state_type, rules.config_type, rules.view_type, *rules.command_types, *rules.event_types]
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
