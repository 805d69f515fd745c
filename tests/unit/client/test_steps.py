"""The step builder and the refresh of a partial choice, on hand-made commands of a real game proto
(Lorenzo's generated messages; the builder itself only reads their descriptors)."""

from __future__ import annotations

from typing import Any

import pytest

from services.client.steps import KIND, Choice, Chooser, Steps, keep_legal, search
from services.games import load_game
from shared.core.describe import Describer, union_member

pb2 = load_game("lorenzo").modules.pb2


def place(member: int, space: int, servants: int = 0, cost: int = 0) -> Any:
    command = pb2.Command()
    command.place_family_member.member = member
    command.place_family_member.space = space
    command.place_family_member.servants = servants
    command.place_family_member.cost_option = cost
    return command


def discard(leader: int) -> Any:
    return pb2.Command(discard_leader=pb2.DiscardLeader(leader=leader))


def play(leader: int, copy_of: int | None = None) -> Any:
    command = pb2.Command(play_leader=pb2.PlayLeader(leader=leader))
    if copy_of is not None:
        command.play_leader.copy_of = copy_of
    return command


def privileges(*chosen: int) -> Any:
    return pb2.Command(choose_council_privileges=pb2.ChooseCouncilPrivileges(privileges=chosen))


def words_of(command: Any) -> str:
    return Describer(()).command(union_member(command))


def steps() -> Steps:
    return Steps(describe=words_of, describer=Describer(()))


BLACK, WHITE = pb2.MEMBER_BLACK, pb2.MEMBER_WHITE
COMMANDS = [
    place(BLACK, 1),
    place(BLACK, 21, servants=1),
    place(BLACK, 21, servants=2),
    place(WHITE, 5),
    place(WHITE, 5, cost=1),
    discard(3),
    discard(7),
    pb2.Command(end_turn=pb2.EndTurn()),
]


def labels(step: Any) -> list[str]:
    return [o.label for o in step.options]


def test_the_first_step_is_the_kind_of_command_with_how_many_ways() -> None:
    step = steps().next_step(COMMANDS)
    assert step is not None and step.title == "What do you do?"
    assert labels(step) == ["Place family member (5 ways)", "Discard leader (2 ways)", "End turn"]
    assert [o.choice for o in step.options] == [
        Choice(KIND, "place_family_member"),
        Choice(KIND, "discard_leader"),
        Choice(KIND, "end_turn"),
    ]


def test_then_the_first_field_that_differs_then_the_next() -> None:
    chooser = Chooser(steps(), COMMANDS, [])
    assert chooser.pick(0) is None
    member = chooser.step()
    assert member.title == "Place family member: member?"
    assert labels(member) == ["member black", "member white"]
    assert chooser.pick(0) is None  # black
    space = chooser.step()
    assert labels(space) == ["space 1", "space 21"]
    assert chooser.pick(1) is None  # space 21: the servants differ, the cost does not (never asked)
    servants = chooser.step()
    assert servants.title == "Place family member: servants?" and labels(servants) == [
        "servants 1",
        "servants 2",
    ]
    assert chooser.pick(1) == place(BLACK, 21, servants=2)


def test_a_field_all_remaining_commands_agree_on_is_skipped() -> None:
    chooser = Chooser(steps(), COMMANDS, [Choice(KIND, "place_family_member"), Choice("member", WHITE)])
    step = chooser.step()  # both white commands are on space 5: the cost alternative is asked at once
    assert step.title == "Place family member: cost option?" and labels(step) == [
        "cost option 0",
        "cost option 1",
    ]


def test_numbers_are_offered_in_order_and_absent_optionals_as_no() -> None:
    commands = [play(15, copy_of=9), play(15), play(15, copy_of=2)]
    step = steps().next_step(commands)
    assert step is not None and labels(step) == ["copy of 9", "no copy of", "copy of 2"]
    numbers = steps().next_step([place(BLACK, 21, servants=n) for n in (3, 1, 2)])
    assert numbers is not None and labels(numbers) == ["servants 1", "servants 2", "servants 3"]


def test_a_repeated_field_is_one_choice() -> None:
    commands = [privileges(1, 2), privileges(1, 3), privileges(2, 3)]
    step = steps().next_step(commands)
    assert step is not None and len(step.options) == 3
    assert labels(step)[0] == "wood and stone, servants"


def test_a_single_legal_command_is_still_asked() -> None:
    chooser = Chooser(steps(), [pb2.Command(end_turn=pb2.EndTurn())], [])
    step = chooser.step()
    assert step.title == "The only possible command:"
    assert labels(step) == ["End turn"] and chooser.pick(0) == pb2.Command(end_turn=pb2.EndTurn())


def test_back_undoes_the_last_choice() -> None:
    chooser = Chooser(steps(), COMMANDS, [])
    assert not chooser.back()
    chooser.pick(0)
    chooser.pick(0)
    assert chooser.path() == "Place family member > member black"
    assert chooser.back() and chooser.path() == "Place family member"
    assert chooser.back() and chooser.path() == "" and chooser.step().title == "What do you do?"


def test_typed_words_filter_the_commands() -> None:
    assert search(COMMANDS, "discard", words_of) == [discard(3), discard(7)]
    assert search(COMMANDS, "SPACE 21 servants 2", words_of) == [place(BLACK, 21, servants=2)]
    chooser = Chooser(steps(), COMMANDS, [])
    assert chooser.search("space 21 servants 2") == (1, place(BLACK, 21, servants=2))
    assert chooser.search("discard") == (2, None)
    assert chooser.step().title == "Commands matching 'discard'" and len(chooser.step().options) == 2
    assert chooser.back() and chooser.step().title == "What do you do?"
    assert chooser.search("nothing like this") == (0, None)


# ------------------------------------------------------------------ the match moved: refresh
def test_a_partial_choice_still_legal_is_kept() -> None:
    choices = [Choice(KIND, "place_family_member"), Choice("member", BLACK)]
    moved = [place(BLACK, 1), place(BLACK, 9), discard(3)]  # others took space 21; black can still go
    assert keep_legal(moved, choices) == choices
    chooser = Chooser(steps(), COMMANDS, list(choices))
    assert chooser.update(moved, steps())
    assert chooser.path() == "Place family member > member black" and labels(chooser.step()) == [
        "space 1",
        "space 9",
    ]


def test_what_is_no_longer_legal_is_dropped_from_the_end() -> None:
    choices = [Choice(KIND, "place_family_member"), Choice("member", BLACK), Choice("space", 21)]
    moved = [place(BLACK, 1), place(WHITE, 5), discard(3)]
    assert keep_legal(moved, choices) == choices[:2]
    assert keep_legal([discard(3)], choices) == []
    chooser = Chooser(steps(), COMMANDS, list(choices))
    assert not chooser.update([discard(3), discard(7)], steps())
    assert chooser.choices == [] and chooser.step().title == "Discard leader: leader?"


def test_a_filter_keeps_its_commands_that_are_still_legal() -> None:
    chooser = Chooser(steps(), COMMANDS, [])
    chooser.search("discard")
    chooser.update([discard(7), place(BLACK, 1)], steps())
    assert labels(chooser.step()) == ["Discard leader: leader 7"]
    chooser.update([place(BLACK, 1)], steps())
    assert chooser.found is None


@pytest.mark.parametrize("index", [0, 1, 2])
def test_every_path_ends_at_exactly_the_command_it_describes(index: int) -> None:
    """Walk every option of every step: each leaf is a distinct legal command, and all are reached."""
    reached = []

    def walk(chooser_choices: list[Choice]) -> None:
        chooser = Chooser(steps(), COMMANDS, list(chooser_choices))
        for i in range(len(chooser.step().options)):
            probe = Chooser(steps(), COMMANDS, list(chooser_choices))
            chosen = probe.pick(i)
            if chosen is not None:
                reached.append(chosen)
            else:
                walk(probe.choices)

    walk([])
    assert len(reached) == len(COMMANDS) and all(c in reached for c in COMMANDS)
    assert reached[index] in COMMANDS


class TwoPlans:
    """A game's planner: two discards in either order, as one choice."""

    def plans(self, view: Any, commands: Any, names: Any) -> Any:
        if not all(c.WhichOneof("kind") == "discard_leader" for c in commands):
            return None
        return "In which order?", [
            ("3 then 7", [discard(3), discard(7)]),
            ("7 then 3", [discard(7), discard(3)]),
        ]


def test_a_plan_is_one_option_that_sends_its_commands_in_order() -> None:
    chooser = Chooser(
        Steps(describe=words_of, describer=Describer(()), planner=TwoPlans()), [discard(3), discard(7)], []
    )
    step = chooser.step()
    assert step.title == "In which order?" and [o.label for o in step.options] == ["3 then 7", "7 then 3"]
    assert chooser.pick(1) == discard(7) and chooser.then == (discard(3),)
    plain = Chooser(Steps(describe=words_of, describer=Describer(()), planner=TwoPlans()), COMMANDS, [])
    assert plain.step().title == "What do you do?"  # not every command starts a plan: steps as usual


class SameWords:
    """A game's wording that names two leaders alike (two copies of one card)."""

    def step_title(self, command: str, field: str, member: Any = None, view: Any = None) -> None:
        return None

    def option_text(self, member: Any, field: str, view: Any, names: Any) -> str:
        return "the same words"


def test_options_worded_alike_are_offered_once() -> None:
    steps = Steps(describe=words_of, describer=Describer(()), wording=SameWords())
    assert [o.label for o in Chooser(steps, [discard(3), discard(7)], []).step().options] == [
        "the same words"
    ]
