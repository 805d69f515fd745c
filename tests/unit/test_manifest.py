"""Games as manifests: the registry, options, the test-game hook and the rules protocol check."""

from __future__ import annotations

import json
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest
from typer.testing import CliRunner

from bench.bots import bench_seats
from services import games
from services.cli import app
from services.workers.bots.base import sample_for_seat
from shared.core.decider import RuleViolation
from shared.core.manifest import GameOption, OptionType
from shared.core.rng import Rng
from shared.runtime.config import port_for
from tests.support.race.manifest import MANIFEST as RACE
from tests.support.race.manifest import race_rules
from tests.support.race.rules import RaceRules

EXTRA = "tests.support.race.manifest:MANIFEST"


class Forgetful(RaceRules):
    """Rules whose author forgot ``determinize``: the attribute is there but is not a method."""

    determinize = None  # type: ignore[assignment]


FORGETFUL = replace(RACE, name="forgetful", rules=Forgetful)
SEVEN_SEATS = replace(RACE, name="sevens", max_seats=7)  # the race's rules, seated 2 to 7 by this manifest


def _says_race() -> Any:
    """Rules not on ``BaseRules``: every member of the race's, its name and seats said by itself."""
    race = race_rules()
    return SimpleNamespace(**{name: getattr(race, name) for name in dir(race) if not name.startswith("_")})


SAYS_RACE = replace(SEVEN_SEATS, rules=_says_race)
THREE_FOR_BENCH = replace(RACE, name="bench3", bench_seats=3)


@pytest.fixture(autouse=True)
def fresh_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TABULA_EXTRA_GAMES", raising=False)
    monkeypatch.delenv("TABULA_LORENZO_PORT", raising=False)


def test_the_registry_lists_lorenzo_with_its_seats_port_and_options() -> None:
    assert games.game_names()[0] == games.default_game() == "lorenzo"
    game = games.manifest("lorenzo")
    assert (game.title, game.min_seats, game.max_seats, game.default_port) == (
        "Lorenzo il Magnifico",
        2,
        4,
        50061,
    )
    (advanced,) = game.options
    assert (advanced.name, advanced.type, advanced.default) == ("advanced", OptionType.BOOL, "true")
    assert "Leader" in advanced.description and "bonus tile" in advanced.description


def test_lorenzo_loads_through_its_manifest() -> None:
    rules = games.load_rules("lorenzo")
    assert rules.game == "lorenzo" and rules.make_config(2, {"advanced": "false"}).advanced is False
    assert games.content_counts("lorenzo")["development_cards"] == 96
    loaded = games.load_game("lorenzo")
    assert loaded.manifest is games.manifest("lorenzo") and loaded.modules.name == "Lorenzo"
    assert loaded.modules.pb2.__name__ == "tabula.lorenzo.v1.lorenzo_pb2"


def test_an_unknown_game_is_named_in_the_error() -> None:
    with pytest.raises(KeyError, match="unknown game 'chess'; known: lorenzo"):
        games.manifest("chess")


def test_parse_options_fills_defaults_and_normalises() -> None:
    game = games.manifest("lorenzo")
    assert game.parse_options({}) == {"advanced": "true"}
    assert game.parse_options({"advanced": " NO "}) == {"advanced": "false"}
    assert game.parse_options({"advanced": "1"}) == {"advanced": "true"}
    assert RACE.parse_options({"goal": "012"}) == {"goal": "12"}


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"advanced": "maybe"}, "option advanced: expected true or false, got 'maybe'"),
        ({"leaders": "true"}, "lorenzo: unknown option\\(s\\) leaders"),
    ],
)
def test_parse_options_rejects_naming_the_option(raw: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        games.manifest("lorenzo").parse_options(raw)


def test_int_and_choice_options_check_their_range_and_choices() -> None:
    size = GameOption("size", OptionType.CHOICE, "m", "board size", choices=("s", "m", "l"))
    goal = GameOption("goal", OptionType.INT, "20", "goal", minimum=1, maximum=50)
    assert size.parse("l") == "l" and goal.parse(" 50 ") == "50"
    with pytest.raises(ValueError, match="option size: expected one of s, m, l"):
        size.parse("xl")
    with pytest.raises(ValueError, match=r"option goal: 51 is outside 1\.\.50"):
        goal.parse("51")
    with pytest.raises(ValueError, match="option goal: expected an integer"):
        goal.parse("ten")


def test_an_options_label_is_declared_or_its_names_words() -> None:
    from shared.core.manifest import option_texts

    hidden = GameOption("hidden_cards", OptionType.BOOL, "true", "cards stay hidden")
    pace = GameOption("pace", OptionType.BOOL, "true", "a quick game", label="Quick game")
    assert (hidden.shown, pace.shown) == ("Hidden cards", "Quick game")
    assert option_texts([hidden, pace]) == {
        "game.option.hidden_cards": "cards stay hidden",
        "game.option_label.hidden_cards": "Hidden cards",
        "game.option.pace": "a quick game",
        "game.option_label.pace": "Quick game",
    }
    assert [o.shown for o in games.manifest("lorenzo").match_options] == ["Advanced rules", "Undo"]


def test_a_manifest_that_cannot_be_right_fails_where_it_is_written() -> None:
    with pytest.raises(ValueError, match="not canonical"):
        GameOption("advanced", OptionType.BOOL, "True", "x")
    with pytest.raises(ValueError, match=r"seats 3\.\.2"):
        replace(RACE, min_seats=3, max_seats=2)
    with pytest.raises(ValueError, match="lower-case"):
        replace(RACE, name="Race")
    with pytest.raises(ValueError, match="declared twice"):
        replace(RACE, options=(*RACE.options, *RACE.options))
    with pytest.raises(ValueError, match="bench_seats 5 is outside its seat range"):
        replace(RACE, bench_seats=5)


def test_the_benches_play_the_manifests_bench_seats_else_the_most_seats(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(
        "TABULA_EXTRA_GAMES", "tests.unit.test_manifest:THREE_FOR_BENCH,tests.support.race.manifest:MANIFEST"
    )
    assert bench_seats("race") == RACE.max_seats == 4
    assert bench_seats("bench3") == 3


def test_a_test_game_registered_through_the_environment_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "race" not in games.game_names()
    monkeypatch.setenv("TABULA_EXTRA_GAMES", EXTRA)
    registered = [m.name for m in games.GAMES]
    assert games.game_names() == [*registered, "race"] and games.manifest("race") is RACE
    assert isinstance(games.load_rules("race"), RaceRules)
    assert games.game_port("race") == 50090


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        ("tests.support.race.manifest", ValueError, "is not module:ATTR"),
        ("tests.support.race.rules:RaceRules", TypeError, "not a GameManifest"),
        (f"{EXTRA},{EXTRA}", ValueError, "registered twice"),
    ],
)
def test_a_bad_extra_game_is_refused(
    monkeypatch: pytest.MonkeyPatch, value: str, error: type[Exception], message: str
) -> None:
    monkeypatch.setenv("TABULA_EXTRA_GAMES", value)
    with pytest.raises(error, match=message):
        games.game_names()


def test_rules_without_determinize_are_refused_when_the_registry_loads_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TABULA_EXTRA_GAMES", "tests.unit.test_manifest:FORGETFUL")
    with pytest.raises(
        TypeError, match=r"forgetful: Forgetful lacks determinize of shared\.core\.decider\.Rules"
    ):
        games.load_rules("forgetful")


def test_the_manifest_names_and_seats_the_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """The race's rules say neither name nor seats: loaded for another manifest, they are its game."""
    monkeypatch.setenv("TABULA_EXTRA_GAMES", "tests.unit.test_manifest:SEVEN_SEATS")
    rules = games.load_rules("sevens")
    assert (rules.game, rules.min_seats, rules.max_seats) == ("sevens", 2, 7)
    assert rules.make_config(7, {}).seats == 7
    with pytest.raises(RuleViolation, match="sevens takes 2 to 7 seats, not 8"):
        rules.make_config(8, {})


def test_rules_that_say_their_name_and_seats_and_disagree_with_their_manifest_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TABULA_EXTRA_GAMES", "tests.unit.test_manifest:SAYS_RACE")
    with pytest.raises(ValueError, match="sevens: the rules say"):
        games.load_rules("sevens")


def test_bots_call_determinize_with_no_fallback() -> None:
    """No ``getattr(rules, "determinize", None)``: rules without it fail instead of leaking secrets."""
    rules = race_rules()
    state = rules.initial_state()
    for event in rules.setup(rules.make_config(3, {}), Rng(1)):
        state = rules.evolve(state, event)
    seen = sample_for_seat(rules, state, 0, Rng(5))
    assert seen == rules.determinize(state, 0, Rng(5)) and seen.secrets[0] == state.secrets[0]
    with pytest.raises(TypeError):
        sample_for_seat(Forgetful(), state, 0, Rng(5))


def test_a_game_port_comes_from_its_manifest_or_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert games.game_port("lorenzo") == 50061
    assert games.game_port("lorenzo", {"TABULA_LORENZO_PORT": "6000"}) == 6000
    monkeypatch.setenv("TABULA_LORENZO_PORT", "6001")
    assert games.game_port("lorenzo") == 6001
    ports = games.service_ports()
    assert {k: ports[k] for k in ("lobby", "gateway", "lorenzo")} == {
        "lobby": 50051,
        "gateway": 8080,
        "lorenzo": 50061,
    }
    assert ports == {"lobby": 50051, "gateway": 8080, **{m.name: m.default_port for m in games.GAMES}}
    assert port_for("anything", {}, default=7) == 7
    with pytest.raises(KeyError):
        port_for("lorenzo", {})  # shared knows only the platform's own ports


def _cli(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(app, list(args), env=env)


def test_tabula_games_lists_the_manifests() -> None:
    result = _cli("games", "--json", env={"TABULA_EXTRA_GAMES": EXTRA})
    assert result.exit_code == 0, result.output
    listed = {g["name"]: g for g in json.loads(result.output)}
    assert listed["lorenzo"]["seats"] == [2, 4] and listed["lorenzo"]["port"] == 50061
    assert listed["lorenzo"]["options"][0]["name"] == "advanced"
    assert listed["race"]["options"][0] == {
        "name": "goal",
        "label": "Goal",
        "type": "int",
        "default": "20",
        "description": "position that ends the race",
        "choices": [],
        "minimum": 1,
        "maximum": 100,
    }
    text = _cli("games").output
    assert "Lorenzo il Magnifico, 2-4 seats, port 50061" in text
    assert "--option advanced=true|false (default true)  Advanced rules" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--option", "advanced=perhaps"), "option advanced: expected true or false"),
        (("--option", "leaders=true"), "unknown option(s) leaders"),
        (("--option", "advanced"), "'advanced' is not name=value"),
        (("--game", "chess"), "unknown game 'chess'"),
    ],
)
def test_tabula_play_refuses_bad_options_before_connecting(args: tuple[str, ...], message: str) -> None:
    result = _cli("play", "--lobby", "127.0.0.1:1", *args)
    assert result.exit_code == 2 and message in " ".join(result.output.split()), result.output


def test_tabula_play_options_are_parsed_by_the_manifest() -> None:
    from services.cli.play import parse_options

    assert parse_options("lorenzo", ["advanced=off"]) == {"advanced": "false"}
    assert parse_options("lorenzo", []) == {"advanced": "true"}
