"""The reason-code table (docs/reason-codes.md): fresh, complete, and enforced.

Every code a rules package raises is in it (collected from the source, so a new code makes the
committed page stale), a code that is not a literal is refused, every literal code the platform and
the lobby raise is declared with its meaning, and what the rules raise at run time is listed.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from services.cli.reasons import DOC, reasons_doc
from services.games import GAMES
from services.lobby.reasons import LOBBY
from shared.core.decider import SYSTEM, Actor, RuleViolation
from shared.core.manifest import GameManifest
from shared.core.reasons import (
    PLATFORM,
    ROOT,
    Reason,
    ReasonError,
    proto_comment,
    raised,
    render,
    rule_reason_texts,
    rule_reasons,
    undeclared,
)
from shared.core.rng import Rng
from tests.support.nim.manifest import MANIFEST as NIM
from tests.support.race.manifest import MANIFEST as RACE


def test_the_committed_page_is_what_the_code_says() -> None:
    assert (ROOT / DOC).read_text() == reasons_doc(), "stale: run `tabula reasons` and commit the page"


def rules_package(folder: Path, body: str) -> str:
    (folder / "rules").mkdir(exist_ok=True)
    (folder / "rules" / "moves.py").write_text(textwrap.dedent(body))
    return "rules"


def test_a_new_rule_code_is_collected_with_its_messages_and_changes_the_page(tmp_path: Path) -> None:
    source = rules_package(
        tmp_path,
        """
        def check(seat, turn):
            if seat != turn:
                raise RuleViolation("not_your_turn", f"seat {turn} plays now")
            raise shared.core.decider.RuleViolation(code="no_roll", message="roll first")
        """,
    )
    before = rule_reasons(source, root=tmp_path)
    assert [(r.code, r.messages, r.modules) for r in before] == [
        ("no_roll", ("roll first",), ("rules/moves.py",)),
        ("not_your_turn", ("seat {turn} plays now",), ("rules/moves.py",)),
    ]
    (tmp_path / "rules" / "more.py").write_text('raise RuleViolation("goal_reached", "the race is over")\n')
    after = rule_reasons(source, root=tmp_path)
    assert [r.code for r in after] == ["goal_reached", "no_roll", "not_your_turn"]
    assert render(PLATFORM, LOBBY, {"g": ("G", before)}) != render(PLATFORM, LOBBY, {"g": ("G", after)})
    assert "goal_reached" in "\n".join(proto_comment(after))


def test_a_rule_code_that_is_not_a_literal_is_refused_with_file_and_line(tmp_path: Path) -> None:
    source = rules_package(tmp_path, 'CODE = "x"\n\n\ndef fail():\n    raise RuleViolation(CODE, "no")\n')
    with pytest.raises(ReasonError, match=r"rules/moves.py:5: a reason code must be a string literal"):
        rule_reasons(source, root=tmp_path)


def test_every_literal_code_the_platform_and_the_lobby_raise_is_declared() -> None:
    calls = ("RuleViolation", "Mapped", "InvalidArgument", "Conflict")
    found = [r for folder in ("shared", "services/lobby") for r in raised(ROOT / folder, calls, strict=False)]
    assert {r.code for r in found} >= {"stale_version", "match_over", "malformed_request", "room_full"}
    assert undeclared(found, [*PLATFORM, *LOBBY]) == []
    codes = [r.code for r in (*PLATFORM, *LOBBY)]
    assert len(codes) == len(set(codes))


def test_an_undeclared_platform_code_is_reported(tmp_path: Path) -> None:
    (tmp_path / "errors.py").write_text('raise Conflict("brand_new", "something")\n')
    found = raised(tmp_path, ("Conflict",), strict=False, root=tmp_path)
    assert [r.code for r in undeclared(found, [Reason("busy", "FAILED_PRECONDITION", "")])] == ["brand_new"]


@pytest.mark.parametrize("game", [*GAMES, RACE, NIM], ids=lambda g: g.name)
def test_what_a_games_rules_raise_while_playing_is_in_the_table(game: GameManifest) -> None:
    """Seeded random play of every registered game (and the test games: a fixed seat count is a range
    of one); at sampled states every actor tries the commands other actors may send: whatever the
    rules refuse, the code is listed."""
    rules, listed = game.load_rules(), {r.code for r in rule_reasons(game.source)}
    codes: set[str] = set()
    state = rules.initial_state()
    seats = min(game.min_seats + 1, game.max_seats)  # within the game's own range
    for event in rules.setup(rules.make_config(seats, {}), Rng(7)):
        state = rules.evolve(state, event)
    actors = [SYSTEM, *(Actor.of_seat(s) for s in range(rules.seat_count(state)))]
    rng = Rng(11)
    for step in range(300):
        to_act = rules.to_act(state)
        if not to_act:
            break
        if step % 10 == 0:
            offered = [c for a in to_act for c in rules.legal_commands(state, a)[:10]]
            for actor in actors:
                for command in offered:
                    try:
                        rules.decide(state, actor, command, Rng(step))
                    except RuleViolation as err:
                        codes.add(err.code)
        actor = rng.choice(list(to_act))
        for event in rules.decide(state, actor, rng.choice(rules.legal_commands(state, actor)), rng):
            state = rules.evolve(state, event)
    assert codes, "the game refused nothing: the check saw no code"
    assert codes <= listed, sorted(codes - listed)


def test_a_template_with_values_is_read_as_written_and_keys_the_game_texts(tmp_path: Path) -> None:
    source = rules_package(
        tmp_path,
        """
        def check(seats, turn):
            raise RuleViolation("bad_seats", "this game seats 2 to 4 players, not {seats}", seats=seats)
            raise RuleViolation(code="not_your_turn", template="seat {turn} plays now", turn=turn)
            raise RuleViolation("not_your_turn", f"seat {turn + 1} plays now")
            raise RuleViolation("no_roll", "roll first")
        """,
    )
    assert [(r.code, r.messages) for r in rule_reasons(source, root=tmp_path)] == [
        ("bad_seats", ("this game seats 2 to 4 players, not {seats}",)),
        ("no_roll", ("roll first",)),
        ("not_your_turn", ("seat {turn + 1} plays now", "seat {turn} plays now")),
    ]
    # an f-string's message is known only at run time: it cannot key a translation
    assert rule_reason_texts(tmp_path / source) == {
        "reason.bad_seats: this game seats 2 to 4 players, not {seats}": (
            "this game seats 2 to 4 players, not {seats}"
        ),
        "reason.not_your_turn: seat {turn} plays now": "seat {turn} plays now",
        "reason.no_roll: roll first": "roll first",
    }


def test_a_rule_violation_formats_its_template_and_keeps_it() -> None:
    err = RuleViolation("bad_seats", "seats 2 to 4 players, not {seats}", seats=7)
    assert (err.code, err.message, err.template, err.values) == (
        "bad_seats",
        "seats 2 to 4 players, not 7",
        "seats 2 to 4 players, not {seats}",
        {"seats": 7},
    )
    assert str(err) == "bad_seats: seats 2 to 4 players, not 7"
    braces = RuleViolation("odd", "a literal {brace} with no values")
    assert braces.message == braces.template == "a literal {brace} with no values"
