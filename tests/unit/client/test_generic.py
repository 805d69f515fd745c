"""The generic presentation: any game's view, commands and events from the proto descriptors alone.

Two games that bring no presentation: a sample game written here (nested, repeated and optional
messages, enums, a seat field) and the race test game (``tests/support/race/``) through the
real pipeline: its rules' view, the codec and its generated proto.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from services.client.generic import GenericPresentation
from services.client.presentation import presentation_for
from services.client.render import command_text, event_line, outcome_table, render_view, step_table
from services.client.steps import Chooser, Steps
from services.games import load_game, manifests
from shared.core.decider import SPECTATOR, Actor
from shared.core.describe import Describer, enum_label, words
from shared.core.rng import Rng
from shared.serving.protogen import compile_protos
from tests.support.race.protos import race_game_modules
from tests.unit.client.helpers import text_of

SAMPLE = """
syntax = "proto3";
package tabula.sample.v1;

enum Colour {
  COLOUR_UNSPECIFIED = 0;
  COLOUR_DEEP_RED = 1;
  COLOUR_BLUE = 2;
}
message Score { int32 seat = 1; int32 points = 2; bool winner = 3; }
message Piece { Colour colour = 1; int32 square = 2; repeated int32 path = 3; Score score = 4; }
message Bank { int32 gold = 1; int32 silver = 2; }
message SampleView {
  int32 viewer_seat = 1;
  int32 round = 2;
  Colour leading = 3;
  repeated int32 dice = 4;
  optional int32 bonus = 5;
  bool finished = 6;
  Bank bank = 7;
  repeated Piece pieces = 8;
  repeated Score scores = 9;
}
message MovePiece {
  int32 seat = 1; int32 from_square = 2; int32 to_square = 3; Colour colour = 4; Bank paid = 5;
}
message Concede { bool gracefully = 1; }
message Command { oneof member { MovePiece move_piece = 1; Concede concede = 2; } }
"""
NAMES = ("Ada", "Bob")


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("sample")
    proto = root / "proto" / "tabula" / "sample" / "v1" / "sample.proto"
    proto.parent.mkdir(parents=True)
    proto.write_text(SAMPLE)
    compile_protos(root / "proto", root / "gen")
    return importlib.import_module("tabula.sample.v1.sample_pb2")


@pytest.fixture(scope="module")
def race(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return race_game_modules(tmp_path_factory.mktemp("race-client")).pb2


@pytest.fixture
def race_registered(monkeypatch: pytest.MonkeyPatch, race: Any) -> Iterator[None]:
    monkeypatch.setenv("TABULA_EXTRA_GAMES", "tests.support.race.manifest:MANIFEST")
    load_game.cache_clear()
    yield
    load_game.cache_clear()


def _view(pb2: Any) -> Any:
    view = pb2.SampleView(viewer_seat=1, round=3, leading=pb2.COLOUR_DEEP_RED, dice=[4, 6], finished=True)
    view.bank.gold = 7
    view.pieces.add(colour=pb2.COLOUR_BLUE, square=12, path=[3, 7, 12]).score.points = 9
    view.pieces.add(colour=pb2.COLOUR_DEEP_RED, square=2)
    view.scores.add(seat=0, points=15, winner=True)
    view.scores.add(seat=1, points=11)
    return view


def test_scalars_read_field_by_field_with_enums_by_value_name(sample: Any) -> None:
    text = text_of(GenericPresentation().board(_view(sample), 12, NAMES, "m1"))
    lines = [" ".join(line.strip("│ ").split()) for line in text.splitlines()]
    assert "SampleView match m1 v12" in lines[0], text
    for expected in ("viewer seat 1", "round 3", "leading deep red", "dice 4, 6", "bonus -", "finished yes"):
        assert expected in lines, (expected, text)


def test_a_nested_message_is_a_panel_and_repeated_messages_are_tables(sample: Any) -> None:
    text = text_of(GenericPresentation().board(_view(sample), 12, NAMES, "m1"))
    lines = [" ".join(line.strip("│ ").split()) for line in text.splitlines()]
    assert any(line.startswith("╭─ bank") for line in lines) and "gold 7" in lines and "silver 0" in lines
    assert "colour square path score" in lines  # one column per field of Piece
    assert "blue 12 3, 7, 12 (Ada (seat 0); points 9)" in lines  # a message in a cell, enums by name
    assert "deep red 2 - -" in lines  # an empty repeated field and an unset message
    assert "seat points winner" in lines
    assert "Ada (seat 0) 15 yes" in lines and "Bob (seat 1) 11 no" in lines  # seats by name


def test_an_absent_optional_field_and_a_present_one(sample: Any) -> None:
    view = _view(sample)
    view.bonus = 0  # present, even at zero
    text = text_of(GenericPresentation().board(view, 1, (), ""))
    assert "bonus 0" in [" ".join(line.strip("│ ").split()) for line in text.splitlines()]


def test_commands_are_described_from_their_descriptors(sample: Any) -> None:
    move = sample.Command()
    move.move_piece.seat = 1
    move.move_piece.from_square = 3
    move.move_piece.to_square = 5
    move.move_piece.colour = sample.COLOUR_DEEP_RED
    move.move_piece.paid.gold = 2
    generic = GenericPresentation()
    text = command_text(move, generic, None, NAMES)
    assert text == "Move piece: Bob (seat 1); from square 3; to square 5; colour deep red; paid (gold 2)"
    concede = sample.Command(concede=sample.Concede())
    assert command_text(concede, generic, None, NAMES) == "Concede: gracefully no"
    steps = Steps(lambda c: command_text(c, generic, None, NAMES), Describer(NAMES), None, None, NAMES)
    table = text_of(step_table(Chooser(steps, [move, concede], []).step()))
    assert "What do you do?" in table
    assert "1   Move piece: Bob (seat 1)" in table and "2   Concede: gracefully no" in table


def test_a_game_without_presentation_gets_the_generic_one(race_registered: None) -> None:
    assert isinstance(presentation_for("race"), GenericPresentation)
    assert isinstance(presentation_for("not-a-game"), GenericPresentation)


def test_the_race_games_view_commands_and_events_through_the_real_pipeline(race_registered: None) -> None:
    game = load_game("race")
    rules, codec, pb2 = game.rules, game.codec, game.modules.pb2
    state = rules.initial_state()
    for event in rules.setup(rules.make_config(2, {}), Rng(3)):
        state = rules.evolve(state, event)
    presentation = presentation_for("race")
    seat_view = codec.to_message(rules.view(state, Actor.of_seat(0)))
    text = text_of(render_view(seat_view, presentation, NAMES, 3, "r1"))
    lines = [" ".join(line.strip("│ ").split()) for line in text.splitlines()]
    assert "RaceView match r1 v3" in lines[0]
    assert "positions 0, 0" in lines and f"my secret {state.secrets[0]}" in lines and "round 1" in lines
    spectator = text_of(render_view(codec.to_message(rules.view(state, SPECTATOR)), presentation, NAMES, 3))
    assert "my secret -" in [" ".join(line.strip("│ ").split()) for line in spectator.splitlines()]

    (roll,) = rules.legal_commands(state, Actor.of_seat(0))
    wrapped = pb2.Command()
    wrapped.roll.SetInParent()
    assert type(roll).__name__ == "Roll" and command_text(wrapped, presentation, seat_view, NAMES) == "Roll"

    event = pb2.MatchEvent()
    event.envelope.version = 4
    event.envelope.actor = "seat:1"
    event.event.die_rolled.seat = 1
    event.event.die_rolled.value = 5
    assert (
        text_of(event_line(event, presentation, NAMES)).strip()
        == "[Bob] v4 Die rolled: Bob (seat 1); value 5"
    )
    event.envelope.actor = "system"
    event.event.round_ended.round = 1
    assert text_of(event_line(event, presentation, NAMES)).strip() == "[system] v4 Round ended: round 1"


def test_names_read_as_words_and_enum_values_lose_their_prefix(sample: Any) -> None:
    assert words("PlaceFamilyMember") == "Place family member"
    assert words("copy_of") == "Copy of"
    assert enum_label(sample.Colour.DESCRIPTOR, sample.COLOUR_DEEP_RED) == "deep red"
    assert enum_label(sample.Colour.DESCRIPTOR, 9) == "9"  # a value this client does not know yet


def test_the_outcome_lists_seats_best_first() -> None:
    text = text_of(outcome_table([10, 30, 20], [3, 1, 2], ("Ada", "Bob", "Cy")))
    cells = [[c for c in line.split() if c not in "║│"] for line in text.splitlines()]
    rows = [row for row in cells if row[1:2] in (["Ada"], ["Bob"], ["Cy"])]
    assert [row[1] for row in rows] == ["Bob", "Cy", "Ada"] and [row[2] for row in rows] == ["30", "20", "10"]


def test_the_client_and_the_gateway_name_no_game() -> None:
    """The platform reaches games through the registry only: no game's name or title in their files."""
    root = Path(__file__).resolve().parents[3] / "services"
    files = [p for folder in ("client", "gateway") for p in (root / folder).rglob("*") if p.is_file()]
    files = [p for p in files if "__pycache__" not in p.parts]
    assert any(p.suffix == ".js" for p in files) and any(p.suffix == ".py" for p in files)
    for game in manifests():
        for needle in {game.name, game.title, game.name.capitalize()}:
            found = [p.name for p in files if needle.lower() in p.read_text(encoding="utf-8").lower()]
            assert not found, f"{needle!r} named in {found}"
