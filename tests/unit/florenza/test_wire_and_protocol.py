"""Wire format and the decider protocol: ``@message`` types with docstrings, enums from 1, a .proto."""

from __future__ import annotations

import enum

import pytest

from services.florenza.rules import COMMAND_TYPES, EVENT_TYPES, FlorenzaView, State
from services.florenza.rules.model import Config
from shared.core.codec import fields_of, from_plain, to_plain
from shared.core.decider import SPECTATOR, Actor, RuleViolation, missing_members
from shared.core.rng import Rng
from shared.core.wire import wire_of
from shared.serving.protogen import render_game_proto
from tests.support.playout import random_playout

from .helpers import RULES, fold


def _reachable(roots: list[type]) -> tuple[set[type], set[type]]:
    messages: set[type] = set()
    enums: set[type] = set()
    todo = list(roots)
    while todo:
        cls = todo.pop()
        if cls in messages:
            continue
        messages.add(cls)
        for spec in fields_of(cls):
            if spec.kind == "message" and spec.target is not None:
                todo.append(spec.target)
            if spec.kind == "enum" and spec.target is not None:
                enums.add(spec.target)
    return messages, enums


def test_the_rules_implement_the_decider_protocol() -> None:
    assert missing_members(RULES) == []
    assert (RULES.game, RULES.min_seats, RULES.max_seats) == ("florenza", 2, 5)
    assert RULES.config_type is Config and RULES.state_type is State and RULES.view_type is FlorenzaView


def test_commands_and_events_have_distinct_tags_and_docstrings() -> None:
    for types in (COMMAND_TYPES, EVENT_TYPES):
        tags = [wire_of(t).tag for t in types]  # type: ignore[union-attr]
        assert tags == list(range(1, len(types) + 1))  # each union lists its members in tag order
        assert all(t.__doc__ and t.__doc__.strip() for t in types)


def test_every_type_on_the_wire_is_a_message_and_every_enum_starts_at_one() -> None:
    messages, enums = _reachable([*COMMAND_TYPES, *EVENT_TYPES, FlorenzaView])
    assert State in messages
    assert all(wire_of(m) is not None for m in messages)
    for e in enums:
        assert issubclass(e, enum.IntEnum) and min(e) == 1


def test_the_types_render_to_a_proto() -> None:
    text = render_game_proto(RULES, "services/florenza/rules")
    assert "package tabula.florenza.v1;" in text
    assert "service FlorenzaService" in text
    assert "message HireArtist" in text and "message GameScored" in text
    assert "oneof kind" in text


def test_a_whole_game_state_survives_the_json_codec() -> None:
    events, final = random_playout(RULES, RULES.make_config(3, {}), 11)
    assert (events, final) == random_playout(RULES, RULES.make_config(3, {}), 11)  # the seed decides all
    assert from_plain(State, to_plain(final)) == final
    assert fold([from_plain(type(e), to_plain(e)) for e in events]) == final
    view = RULES.view(final, SPECTATOR)
    assert from_plain(FlorenzaView, to_plain(view)) == view


@pytest.mark.parametrize("seats", [1, 6])
def test_two_to_five_seats(seats: int) -> None:
    with pytest.raises(RuleViolation, match="bad_seats"):
        RULES.make_config(seats, {})


def test_florenzas_one_option_hides_certificates_by_default() -> None:
    assert RULES.make_config(5, {}) == Config(5, hidden_certificates=True)
    assert RULES.make_config(5, {"hidden_certificates": " False"}) == Config(5, hidden_certificates=False)
    for bad in ({"advanced": "true"}, {"hidden_certificates": "maybe"}):
        with pytest.raises(RuleViolation, match="bad_option"):
            RULES.make_config(3, bad)


def test_the_same_seed_gives_the_same_setup() -> None:
    config = RULES.make_config(4, {})
    assert list(RULES.setup(config, Rng(9))) == list(RULES.setup(config, Rng(9)))
    assert RULES.to_act(fold(list(RULES.setup(config, Rng(9)))))[0] != Actor.of_seat(-1)
