"""A stored event whose meaning changed is upcast on read (ARCHITECTURE, rule 6).

A test-only game, "tally": its one event ``Scored`` gives points to a seat. In schema 1 the
seat was counted from 1; schema 2 counts seats from 0 (the rest of the platform's way). Old
bytes are written by the schema-1 rules through the runner into a store, then read by the
schema-2 rules, whose upcaster turns the old seat into the new one before the event is folded.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from shared.core.codec import CodecError, MessageCodec, Upcaster
from shared.core.decider import PUBLIC, Actor, Outcome, Visibility
from shared.core.protorender import render_proto
from shared.core.rng import Rng
from shared.core.wire import message, pb
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.serving.protogen import compile_protos
from shared.store import MemoryEventStore


def _scored_v1() -> type:
    @message(tag=1)
    class Scored:
        """A seat scored points (schema 1: seats counted from 1)."""

        seat: int = pb(1)
        points: int = pb(2)

    return Scored


def _scored_v2() -> type:
    @message(tag=1, schema=2)
    class Scored:
        """A seat scored points (schema 2: seats counted from 0)."""

        seat: int = pb(1)
        points: int = pb(2)

    return Scored


ScoredV1, ScoredV2 = _scored_v1(), _scored_v2()


def seat_from_zero(plain: dict[str, Any]) -> dict[str, Any]:
    """Scored, schema 1 -> 2: the seat was counted from 1."""
    return {**plain, "seat": plain["seat"] - 1}


UPCASTERS: Mapping[tuple[str, int], Upcaster] = {("Scored", 1): seat_from_zero}


@dataclasses.dataclass(frozen=True, slots=True)
class Tally:
    points: tuple[int, ...] = ()


class TallyRules:
    """Two seats; setup scores 5 for the second seat and 2 for the first; nothing else happens."""

    game = "tally"
    min_seats = max_seats = 2
    config_type = int
    state_type = view_type = Tally
    command_types: tuple[type, ...] = ()

    def __init__(self, scored: type, first_seat: int) -> None:
        self.event_types = (scored,)
        self.scored, self.first_seat = scored, first_seat

    def make_config(self, seats: int, options: Mapping[str, str]) -> int:
        return seats

    def initial_state(self) -> Tally:
        return Tally((0, 0))

    def setup(self, config: int, rng: Rng) -> Sequence[Any]:
        return [self.scored(self.first_seat + 1, 5), self.scored(self.first_seat, 2)]

    def evolve(self, state: Tally, event: Any) -> Tally:
        seat = event.seat - self.first_seat
        return Tally(tuple(p + event.points if i == seat else p for i, p in enumerate(state.points)))

    def decide(self, state: Tally, actor: Actor, command: Any, rng: Rng) -> Sequence[Any]:
        return []

    def legal_commands(self, state: Tally, actor: Actor) -> Sequence[Any]:
        return []

    def to_act(self, state: Tally) -> tuple[Actor, ...]:
        return ()

    def view(self, state: Tally, viewer: Actor) -> Tally:
        return state

    def visibility(self, event: Any) -> Visibility:
        return PUBLIC

    def outcome(self, state: Tally) -> Outcome | None:
        return None


def _pb2(tmp_path: Path, package: str, scored: type) -> ModuleType:
    """Generated code for one schema, in its own proto package (bytes do not carry package names)."""
    folder = tmp_path / package / "proto" / "tabula" / package / "v1"
    folder.mkdir(parents=True)
    (folder / "tally.proto").write_text(render_proto(f"tabula.{package}.v1", [], {"Event": [scored]}, "t"))
    compile_protos(tmp_path / package / "proto", tmp_path / package / "gen")
    return importlib.import_module(f"tabula.{package}.v1.tally_pb2")


@pytest.fixture(scope="module")
def codecs(tmp_path_factory: pytest.TempPathFactory) -> tuple[MessageCodec, MessageCodec]:
    root = tmp_path_factory.mktemp("upcast")
    old = MessageCodec(_pb2(root, "tallyold", ScoredV1), [ScoredV1])
    new = MessageCodec(_pb2(root, "tallynew", ScoredV2), [ScoredV2], UPCASTERS)
    return old, new


def test_events_stored_with_schema_1_are_upcast_when_read_by_schema_2_rules(
    codecs: tuple[MessageCodec, MessageCodec],
) -> None:
    old, new = codecs
    store = MemoryEventStore()
    wait(MatchRunner(TallyRules(ScoredV1, first_seat=1), old, store).create("m", 2, {}, seed=1))
    assert [e.schema_version for e in wait(store.read("m"))] == [1, 1]

    loaded = wait(MatchRunner(TallyRules(ScoredV2, first_seat=0), new, store).load("m"))

    assert loaded.state == Tally((2, 5))


def test_events_written_by_schema_2_rules_are_stored_as_schema_2_and_not_upcast(
    codecs: tuple[MessageCodec, MessageCodec],
) -> None:
    _, new = codecs
    store = MemoryEventStore()
    runner = MatchRunner(TallyRules(ScoredV2, first_seat=0), new, store)
    wait(runner.create("m", 2, {}, seed=1))
    assert [e.schema_version for e in wait(store.read("m"))] == [2, 2]
    assert wait(runner.load("m")).state == Tally((2, 5))


def test_an_old_schema_without_its_upcaster_or_a_newer_schema_is_refused(
    codecs: tuple[MessageCodec, MessageCodec],
) -> None:
    old, new = codecs
    _, payload = old.encode(ScoredV1(2, 5))
    assert new.decode("Scored", payload, 1) == ScoredV2(1, 5)
    bare = MessageCodec(importlib.import_module("tabula.tallynew.v1.tally_pb2"), [ScoredV2])
    with pytest.raises(CodecError, match="no upcaster from schema 1 to 2"):
        bare.decode("Scored", payload, 1)
    with pytest.raises(CodecError, match="stored with schema 3, newer"):
        new.decode("Scored", payload, 3)


def test_the_same_bytes_stored_with_another_schema_are_decoded_apart(
    codecs: tuple[MessageCodec, MessageCodec],
) -> None:
    """The decoded payloads a codec keeps are kept by schema too: the same bytes mean another event."""
    _, new = codecs
    _, payload = new.encode(ScoredV2(1, 5))
    assert new.decode("Scored", payload, 2) == ScoredV2(1, 5)
    assert new.decode("Scored", payload, 1) == ScoredV2(0, 5)  # upcast: seats counted from 1 then
    assert new.decode("Scored", payload) == ScoredV2(1, 5)  # None: the current schema
