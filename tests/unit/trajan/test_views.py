"""Hidden information: views per viewer, event visibility, determinization; the wire format."""

from __future__ import annotations

import dataclasses
import enum
import importlib
from dataclasses import replace
from pathlib import Path

from services.trajan.rules.commands import COMMAND_TYPES
from services.trajan.rules.events import EVENT_TYPES, CommoditiesDrawn, Event
from services.trajan.rules.model import State
from services.trajan.rules.view import TrajanView
from shared.core.codec import MessageCodec, fields_of
from shared.core.decider import SPECTATOR, SYSTEM, Actor, VisibilityKind
from shared.core.rng import Rng
from shared.core.wire import comments_of, wire_of
from shared.serving.protogen import compile_protos, render_game_proto
from tests.support.playout import random_playout

from .helpers import RULES, fold


def _midgame(seats: int, seed: int, fraction: float = 0.5) -> tuple[list[Event], State]:
    events, _ = random_playout(RULES, RULES.make_config(seats, {}), seed)
    return events, fold(events[: int(len(events) * fraction)])


def test_a_seat_sees_its_own_hand_only_and_nobody_sees_the_draw_pile() -> None:
    _, s = _midgame(3, 11)
    mine = RULES.view(s, Actor.of_seat(0))
    assert mine.players[0].hand == s.players[0].hand
    assert all(
        p.hand == () and p.hand_size == len(q.hand)
        for p, q in zip(mine.players[1:], s.players[1:], strict=True)
    )
    assert mine.deck == () and mine.deck_size == len(s.deck)
    assert all(p.hand == () for p in RULES.view(s, SPECTATOR).players)
    everything = RULES.view(s, SYSTEM)
    assert everything.deck == s.deck and everything.players[2].hand == s.players[2].hand


def test_only_card_draws_are_secret_and_only_to_the_drawing_seat() -> None:
    events, _ = _midgame(4, 3)
    secret = [e for e in events if RULES.visibility(e).kind is not VisibilityKind.PUBLIC]
    drawn = [e for e in secret if isinstance(e, CommoditiesDrawn)]
    assert secret and drawn == secret
    assert all(RULES.visibility(e).seat == e.seat for e in drawn)


def test_determinize_keeps_what_the_seat_sees_and_deals_the_unseen_cards_again() -> None:
    _, s = _midgame(4, 12, 0.4)
    changed = False
    for salt in range(5):
        d = RULES.determinize(s, 1, Rng(salt))
        assert RULES.view(d, Actor.of_seat(1)) == RULES.view(s, Actor.of_seat(1))
        unseen = sorted([*s.deck, *(c for p in s.players if p.seat != 1 for c in p.hand)])
        assert sorted([*d.deck, *(c for p in d.players if p.seat != 1 for c in p.hand)]) == unseen
        changed |= d != s
        assert RULES.legal_commands(d, RULES.to_act(d)[0]) is not None
    assert changed


def test_determinize_depends_on_nothing_the_seat_cannot_see() -> None:
    """Two states that differ only in where the unseen cards are (other hands, draw pile) determinize
    to the same state for the seat: what it samples cannot carry the truth."""
    _, s = _midgame(4, 12, 0.4)
    unseen = sorted([*s.deck, *(c for p in s.players if p.seat != 1 for c in p.hand)])
    moved = list(reversed(unseen))
    players = list(s.players)
    for p in s.players:
        if p.seat != 1:
            players[p.seat] = replace(p, hand=tuple(sorted(moved[: len(p.hand)])))
            moved = moved[len(p.hand) :]
    other = replace(s, players=tuple(players), deck=tuple(sorted(moved)))
    assert other != s and RULES.view(other, Actor.of_seat(1)) == RULES.view(s, Actor.of_seat(1))
    for salt in range(3):
        assert RULES.determinize(other, 1, Rng(salt)) == RULES.determinize(s, 1, Rng(salt))


def test_every_command_and_event_has_a_stable_tag_a_docstring_and_numbered_fields() -> None:
    for types in (COMMAND_TYPES, EVENT_TYPES):
        tags = [w.tag for w in map(wire_of, types) if w is not None]
        assert len(set(tags)) == len(tags) == len(types) and None not in tags
        for t in types:
            assert comments_of(t).doc, t.__name__
            assert all(f.number is not None for f in fields_of(t))


def test_enums_start_at_one_and_the_game_renders_to_a_proto() -> None:
    seen: set[type] = set()

    def visit(cls: type) -> None:
        for spec in fields_of(cls):
            target = spec.target
            if target is None or target in seen:
                continue
            seen.add(target)
            if isinstance(target, type) and issubclass(target, enum.IntEnum):
                assert min(m.value for m in target) == 1, target
            elif dataclasses.is_dataclass(target):
                visit(target)

    for cls in (*COMMAND_TYPES, *EVENT_TYPES, TrajanView):
        visit(cls)
    text = render_game_proto(RULES, "services/trajan/rules")
    assert "package tabula.trajan.v1;" in text and "service TrajanService" in text
    assert "message TrajanView" in text and "oneof kind" in text


def test_every_event_of_a_game_and_the_views_survive_the_protobuf_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "proto" / "tabula" / "trajan" / "v1" / "trajan.proto"
    path.parent.mkdir(parents=True)
    path.write_text(render_game_proto(RULES, "services/trajan/rules"), encoding="utf-8")
    compile_protos(tmp_path / "proto", tmp_path / "gen", includes=(Path("proto"),))
    pb2 = importlib.import_module("tabula.trajan.v1.trajan_pb2")
    codec = MessageCodec(pb2, [*COMMAND_TYPES, *EVENT_TYPES, TrajanView])
    events, final = random_playout(RULES, RULES.make_config(3, {}), 21)
    for e in events:
        assert codec.decode(*codec.encode(e)) == e
    for viewer in (Actor.of_seat(1), SPECTATOR, SYSTEM):
        v = RULES.view(final, viewer)
        assert codec.decode(*codec.encode(v)) == v
