"""``BaseRules``: a game's types come from its parameters, its name and seats from its manifest, and
every member a game may not need has its default (shared/core/decider.py)."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Mapping, Sequence
from dataclasses import replace

import pytest

from services.games import GAMES, load_rules
from shared.core.decider import PUBLIC, Actor, BaseRules, Outcome, Visibility, missing_members, union_members
from shared.core.manifest import GameManifest
from shared.core.rng import Rng
from shared.core.wire import message, pb
from tests.support.race.manifest import MANIFEST as RACE


@message
class Count:
    total: int = pb(1, default=0)


@message(tag=1)
class Add:
    amount: int = pb(1)


@message(tag=1)
class Added:
    amount: int = pb(1)


class Adding(BaseRules[int, Count, Add, Added, Count]):
    """Only what the game has: one command, one event, no options, no secrets."""

    def make_config(self, seats: int, options: Mapping[str, str]) -> int:
        return seats

    def setup(self, config: int, rng: Rng) -> Sequence[Added]:
        return []

    def decide(self, state: Count, actor: Actor, command: Add, rng: Rng) -> Sequence[Added]:
        return [Added(command.amount)]

    def evolve(self, state: Count, event: Added) -> Count:
        return Count(state.total + event.amount)

    def legal_commands(self, state: Count, actor: Actor) -> Sequence[Add]:
        return [Add(1)]

    def to_act(self, state: Count) -> tuple[Actor, ...]:
        return (Actor.of_seat(0),)

    def view(self, state: Count, viewer: Actor) -> Count:
        return state

    def outcome(self, state: Count) -> Outcome | None:
        return None

    def seat_count(self, state: Count) -> int:
        return 1


def test_the_types_come_from_the_parameters_and_the_unions() -> None:
    rules = Adding()
    assert (rules.config_type, rules.state_type, rules.view_type) == (int, Count, Count)
    assert rules.command_types == (Add,) and rules.event_types == (Added,)
    assert union_members(Add | Added) == (Add, Added)
    with pytest.raises(TypeError, match="not a class or a union of classes"):
        union_members("Add")


ADDING = replace(RACE, name="adding", max_seats=2, rules=Adding)


def test_name_and_seats_are_the_manifests_and_the_defaults_are_there() -> None:
    rules, rng = ADDING.load_rules(), Rng(1)
    assert isinstance(rules, Adding) and (rules.game, rules.min_seats, rules.max_seats) == ("adding", 2, 2)
    assert not hasattr(Adding(), "game"), "rules built by hand are not named: only a manifest names them"
    state = rules.initial_state()
    assert state == Count(0) and rules.determinize(state, 0, rng) is state
    assert rules.visibility(Added(1)) == PUBLIC and rules.invariant_violations(state) == ()
    assert rules.reserved_command_tags == () == rules.reserved_event_tags and dict(rules.upcasters) == {}
    assert missing_members(rules) == []


def test_a_rules_class_missing_a_method_cannot_be_built_and_one_hiding_events_must_determinize() -> None:
    class Unfinished(BaseRules[int, Count, Add, Added, Count]):
        pass

    with pytest.raises(TypeError, match="abstract"):
        Unfinished()  # type: ignore[abstract]
    with pytest.raises(TypeError, match="Hiding hides events"):

        class Hiding(Adding):
            def visibility(self, event: Added) -> Visibility:
                return Visibility.to_seat(0)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_a_registered_games_rules_say_neither_name_nor_seats(game: GameManifest) -> None:
    """Said once, in the manifest: the rules class assigns none of them, and has them all the same."""
    rules = load_rules(game.name)
    body = ast.parse(inspect.getsource(type(rules))).body[0]
    assert isinstance(body, ast.ClassDef)
    assigned = {
        t.id
        for node in body.body
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(t, ast.Name)
    }
    assert not assigned & {"game", "min_seats", "max_seats", "command_types", "event_types"}, assigned
    assert (rules.game, rules.min_seats, rules.max_seats) == (game.name, game.min_seats, game.max_seats)
