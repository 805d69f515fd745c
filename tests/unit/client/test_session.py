"""The play and watch loops against an in-process rule service (tests/unit/client/fakes.py): choices
in steps, back, filters, look-ups, refreshes while the player chooses, stale picks sent again or
explained, and the resumable watch stream.

The session follows the match in a thread and reads input in another, as it does in a terminal;
a script answers its questions (a callable answer runs when the question is asked, so it can make
a bot act or wait for the screen first).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Any

import pytest
from rich.console import Console

from services.client.presentation import presentation_for
from services.client.rpc import GameClient
from services.client.session import Player, Spectator
from shared.core.decider import SPECTATOR, RuleViolation
from shared.runtime.edge import wait
from shared.store import VersionConflict
from tests.support.timing import wait_until
from tests.unit.client.fakes import FakeLorenzoStub, new_match

pytestmark = pytest.mark.timeout(120)

Answer = str | Callable[[], str | None] | None


def _client(stub: FakeLorenzoStub) -> GameClient:
    return GameClient(stub, stub.pb2, stub.match_id, "token", deadline_s=5, sleep=lambda _: None)


def _console() -> Console:
    return Console(width=200, record=True, no_color=True, file=io.StringIO())


def screen(player: Player) -> str:
    return player.console.export_text(clear=False)


class Script:
    """Answers in order, then ``then`` for every further question (None: end of input)."""

    def __init__(self, *answers: Answer, then: Answer = None) -> None:
        self.answers = list(answers)
        self.then = then
        self.asked = 0

    def __call__(self) -> str | None:
        self.asked += 1
        answer = self.answers.pop(0) if self.answers else self.then
        return answer() if callable(answer) else answer


def _player(stub: FakeLorenzoStub, script: Script, live: bool = False) -> Player:
    return Player(
        client=_client(stub),
        presentation=presentation_for("lorenzo"),
        console=_console(),
        names=("Ada", "random bot"),
        read_line=script,
        live=live,
    )


def _ranges(player: Player) -> list[int]:
    return [int(re.search(r"\[1-(\d+)", p).group(1)) for p in player.prompts]  # type: ignore[union-attr]


def is_draft(stub: FakeLorenzoStub) -> bool:
    return bool(stub.state().phase.name == "DRAFT_LEADERS")


class Asked:
    """In live mode the session reads lines all the time; a live script waits for a new question."""

    def __init__(self) -> None:
        self.player: Player | None = None
        self.answered = 0

    def wait(self) -> None:
        wait_until(
            lambda: self.player is not None and len(self.player.prompts) > self.answered,
            20,
            "a new prompt",
            0.01,
        )
        assert self.player is not None
        self.answered = len(self.player.prompts)


# ------------------------------------------------------------------ whole matches
def test_a_whole_match_answering_1_to_every_step_ends_with_scores_and_placings() -> None:
    stub = new_match(seats=2, seed=3)
    most: list[int] = []
    player: Player

    def one() -> str:
        most.append(len(player.response.legal_commands))
        return "1"

    player = _player(stub, Script(then=one))
    outcome = player.play()
    assert outcome is not None and len(outcome.scores) == 2
    text = screen(player)
    assert "Towers" in text and "Your leaders in hand" in text and "What do you do?" in text
    assert "Final scores" in text and "Final scoring" in text
    assert "[random bot]" in text or "[system]" in text  # others' events were shown as they came
    assert len(stub.submitted) > 10 and len(player.prompts) > len(stub.submitted)  # several steps each
    assert max(most) > 40 and max(_ranges(player)) <= 30  # many legal commands, never a long list


def test_a_first_turn_is_asked_in_steps_kind_member_space() -> None:
    stub = new_match(seats=2, seed=3, advanced=False)
    player = _player(stub, Script("1", then="q"))
    assert player.play() is None
    text = screen(player)
    member = text.index("Which family member?")
    assert re.search(r"\w+ member( \(die \d\))? > Where do you place it\?", text[member:]), text
    assert not stub.submitted  # a step is not a move


def test_back_undoes_the_last_choice_and_says_when_there_is_none() -> None:
    stub = new_match(seats=2, seed=3, advanced=False)
    player = _player(stub, Script("b", "1", "b", then="q"))
    assert player.play() is None
    text = screen(player)
    assert "Nothing to go back to: this is the first step." in text
    titles = re.findall(r"(What do you do\?|Which family member\?|Where do you place it\?)", text)
    assert titles[-1] == titles[0]  # back where it started
    assert "b back" in player.prompts[2] and "b back" not in player.prompts[0] + player.prompts[1]
    assert not stub.submitted


def test_words_filter_the_legal_commands() -> None:
    stub = new_match(seats=2, seed=3, advanced=False)
    player = _player(stub, Script("council palace", "1", then="q"))
    player.play()
    assert "Commands matching 'council palace'" in screen(player)
    assert stub.submitted and stub.submitted[0].space == 21  # the council palace


def test_help_states_every_input_range_and_question_mark_explains_components() -> None:
    stub = new_match(seats=2, seed=3, advanced=False)
    looked_up = ("leader 3", "tile 2", "excommunication 5", "card 12")
    player = _player(stub, Script("?", "? abbess", *(f"? {q}" for q in looked_up), "? zzz", "0", then="q"))
    player.play()
    text = screen(player)
    count = _ranges(player)[0]
    assert f"1-{count}     choose that option" in text and "? NAME" in text and "q         leave" in text
    assert "Abbess: character card, period 1. Cost: 3 coins. When taken: gain 1 faith" in text
    # Leaders, tiles, excommunications and cards by kind and id (none of these is on this board).
    labels = player.presentation.labels  # type: ignore[attr-defined]
    expected = [labels.leader_text(3), labels.bonus_tile_text(2), labels.card_text(12)]
    expected.append(labels.excommunication(5))
    assert all(part in text for part in expected), text
    assert "to play it you must own" in expected[0] and "each harvest action gives you" in expected[1]
    assert "Nothing named 'zzz' here." in text
    assert f"Please choose a number from 1 to {count}." in text


def test_quitting_says_how_to_rejoin() -> None:
    stub = new_match(seats=2, seed=3)
    player = _player(stub, Script(then="q"))
    assert player.play() is None
    assert "Rejoin it with: tabula play --match m1" in screen(player)


# ------------------------------------------------------------------ the match moves while choosing
def test_the_board_and_the_choice_refresh_when_a_bot_moves_while_the_player_chooses() -> None:
    stub = new_match(seats=2, seed=3)
    stub.hold = lambda state: state.phase.name == "DRAFT_LEADERS"  # the bot drafts when told
    asked = Asked()
    shown: list[int] = []

    def draft() -> str | None:
        if shown:
            return "q"
        asked.wait()
        if not is_draft(stub):
            return "1"  # the personal bonus tile
        assert asked.player is not None
        shown.append(len(asked.player.prompts))
        stub.act_now()  # the bot keeps its leader while we read our hand
        asked.wait()  # the question again, on a new board
        return "1"

    player = asked.player = _player(stub, Script(then=draft), live=True)
    player.play()
    text = screen(player)
    assert re.search(r"The match moved on while you were choosing \(v\d+ -> v\d+\); your options are", text)
    assert player.prompts[shown[0] - 1] == player.prompts[shown[0]]  # the same question offered again
    assert text.count("Which leader do you keep?") >= 2
    assert "Not played" not in text and "Refused" not in text and "sending again" not in text
    assert [type(c).__name__ for c in stub.submitted].count("DraftLeader") == 1  # accepted first time


def test_a_stale_pick_that_is_still_legal_is_sent_again() -> None:
    stub = new_match(seats=2, seed=3)
    stub.hold = lambda state: state.phase.name == "DRAFT_LEADERS"
    asked = Asked()
    picked: list[bool] = []

    def draft() -> str | None:
        if picked:
            return "q"
        asked.wait()
        if not is_draft(stub):
            return "1"
        stub.others_step_before_submit = 1  # the bot drafts just before our pick arrives
        picked.append(True)
        return "1"

    player = asked.player = _player(stub, Script(then=draft), live=True)
    player.play()
    text = screen(player)
    assert "still possible: sending again" in text and "Not played" not in text
    drafts = [c for c in stub.submitted if type(c).__name__ == "DraftLeader"]
    assert len(drafts) == 2 and drafts[0] == drafts[1]  # refused as stale once, then applied
    assert drafts[0].leader in stub.state().players[0].hand  # kept


def test_a_stale_pick_no_longer_legal_is_explained_and_stays_on_screen() -> None:
    stub = new_match(seats=2, seed=3, advanced=False)
    asked = Asked()

    def answer() -> str | None:
        assert asked.player is not None
        if asked.player.notices:  # explained; now wait for a redraw under a new board
            wait_until(lambda: screen(asked.player).count("Not played") >= 2, 20, "the second refusal", 0.01)  # type: ignore[arg-type]
            return "q"
        asked.wait()
        stub.before_submit = stub.play_for_viewer  # a turn clock plays our seat before we do
        return "1"

    player = asked.player = _player(stub, Script(then=answer), live=True)
    player.play()
    text = screen(player)
    assert "Not played: Place family member" in text and "no longer possible" in text
    assert "Not played" in text[text.rindex("Towers") :]  # still under the latest board


def test_rule_violation_shows_the_reason_and_asks_again() -> None:
    stub = new_match(seats=2, seed=3)
    stub.fail_next_submit.append(RuleViolation("not_your_turn", "wait for your turn"))
    player = _player(stub, Script("abc_no_such_words", "1", "1", "1", then="q"))
    player.play()
    text = screen(player)
    assert "Refused: not_your_turn - wait for your turn" in text
    assert "No legal command matches 'abc_no_such_words'." in text


def test_the_real_version_conflict_from_others_acting_first() -> None:
    stub = new_match(seats=2, seed=3)
    stub.fail_next_submit.append(VersionConflict("m1", 1, 2))
    player = _player(stub, Script(then="1"))
    player.play()  # finishes; the conflict was refreshed and the same command sent again
    assert player.finished() and "still possible: sending again" in screen(player)


# ------------------------------------------------------------------ watching
def test_the_watch_stream_resumes_from_the_last_version_after_an_error() -> None:
    stub = new_match(seats=2, seed=3)
    stub.break_stream_after = 5
    client = _client(stub)
    versions = []
    for item in client.follow(1):
        if item.event is None:
            break  # a keepalive: nothing more until seat 0 acts
        versions.append(item.version)
    assert len(versions) > 5
    assert versions == sorted(set(versions)) and versions[0] == 1  # no repeat after the reconnect
    assert client.reconnects == 1
    assert [c for c in stub.calls if c.startswith("WatchMatch")][1] == f"WatchMatch:{versions[4] + 1}"
    head = wait(stub.runner.store.version("m1"))
    visible = [
        e.version for e in wait(stub.runner.store.read("m1", 1)) if e.visibility in ("public", "seat:0")
    ]
    assert versions == [v for v in visible if v <= head]  # and no gap


def test_stop_following_ends_the_stream() -> None:
    stub = new_match(seats=2, seed=3)
    client = _client(stub)
    seen: list[Any] = []
    for item in client.follow(1):
        seen.append(item)
        if len(seen) == 3:
            client.stop_following()
    assert len(seen) == 3


def test_spectator_follows_until_a_version_with_the_players_names_from_the_view() -> None:
    stub = new_match(seats=2, seed=3, viewer=SPECTATOR)
    stub.labels = ("Ada", "random bot")
    spectator = Spectator(
        client=_client(stub), presentation=presentation_for("lorenzo"), console=_console(), until_version=40
    )
    assert spectator.watch() is None
    assert spectator.version >= 40
    text = spectator.console.export_text()
    assert "Towers" in text and "(you)" not in text and "v9 " in text, text
    assert "[Ada]" in text or "[random bot]" in text  # players by name
    assert not re.search(r"(?<!\()seat [01]", text)  # never a bare seat number ("Ada (seat 0)" is fine)


@pytest.mark.parametrize("version", [0, 5])
def test_replay_view(version: int) -> None:
    stub = new_match(seats=2, seed=3)
    reply = _client(stub).replay(version)
    assert reply.version == version


def test_live_mode_redraws_the_table_with_recent_events() -> None:
    stub = new_match(seats=2, seed=3)
    player = _player(stub, Script(*["1"] * 12, then="q"), live=True)
    assert player.play() is None
    text = screen(player)
    assert "recent events" in text and text.count("Towers") > 3


# ------------------------------------------------------------------ the recent events keep up with the board
def _record_draws(viewer: Player | Spectator) -> list[tuple[int, list[int]]]:
    """Every live redraw: the version the board shows and the versions of the recent events under it."""
    draws: list[tuple[int, list[int]]] = []
    show = viewer.show

    def recording(force: bool = False) -> None:
        show(force)
        shown = [re.match(r"(?:\[[^\]]*\])? *v(\d+) ", line.plain) for line in viewer.recent]
        draws.append((viewer.version, [int(m.group(1)) for m in shown if m is not None]))

    viewer.show = recording  # type: ignore[method-assign]
    return draws


def _visible(stub: FakeLorenzoStub) -> list[int]:
    from shared.core.decider import Visibility

    events = wait(stub.runner.store.read(stub.match_id, 1))
    return [e.version for e in events if Visibility.decode(e.visibility).visible_to(stub.viewer)]


def _assert_box_keeps_up(draws: list[tuple[int, list[int]]], visible: list[int], keep: int) -> None:
    start = draws[0][0]  # the events before the first board are not shown
    assert len(draws) > 3
    for version, shown in draws[1:]:
        expected = [v for v in visible if start < v <= version][-keep:]
        assert shown == expected, f"board at v{version}, events up to {shown[-1:]}"


def test_the_recent_events_reach_the_version_the_board_shows_own_moves_and_bots_alike() -> None:
    stub = new_match(seats=2, seed=3)
    player = _player(stub, Script(*["1"] * 12, then="q"), live=True)
    player.catch_up_s = 10.0  # a loaded machine must not make the stream look silent
    draws = _record_draws(player)
    player.play()
    assert any(stub.submitted)
    _assert_box_keeps_up(draws, _visible(stub), player.recent.maxlen or 0)


def test_a_spectator_sees_the_events_up_to_the_version_its_board_shows() -> None:
    stub = new_match(seats=2, seed=3, viewer=SPECTATOR)
    spectator = Spectator(
        client=_client(stub),
        presentation=presentation_for("lorenzo"),
        console=_console(),
        live=True,
        until_version=60,
    )
    draws = _record_draws(spectator)
    spectator.watch()
    _assert_box_keeps_up(draws, _visible(stub), spectator.recent.maxlen or 0)


def _trajan_player(answers: int) -> tuple[FakeLorenzoStub, Player]:
    """Ada plays seat 0 of a two-seat Trajan match, answering 1 ``answers`` times, then leaves."""
    from services.games import load_game
    from shared.core.decider import Actor
    from shared.matches.runner import MatchRunner
    from shared.store import MemoryEventStore

    game = load_game("trajan")
    runner: MatchRunner[Any] = MatchRunner(game.rules, game.codec, MemoryEventStore())
    wait(runner.create("m1", 2, {}, 3, {}))
    stub = FakeLorenzoStub(game, runner, "m1", Actor.of_seat(0))
    player = Player(
        client=_client(stub),
        presentation=presentation_for("trajan"),
        console=_console(),
        names=("Ada", "random bot"),
        read_line=Script(*["1"] * answers, then="q"),
    )
    player.catch_up_s = 10.0  # a loaded machine must not make the stream look silent
    player.play()
    return stub, player


def test_what_the_rules_do_after_a_players_command_is_not_credited_to_that_player() -> None:
    """Trajan's setup ends with Ada's last markers: the events that follow (a bonus tile drawn by
    the bot ...) are indented under her move, never marked "[Ada]". Answers to spare: one typed for
    a question the board redrew meanwhile is not used."""
    _, player = _trajan_player(30)
    lines = screen(player).splitlines()
    assert not [line for line in lines if re.match(r"\[Ada\] v\d+ random bot", line)]
    assert [line for line in lines if re.match(r" {6}v\d+ random bot", line)]  # under "[Ada] "


def test_one_answer_to_a_plan_sends_its_commands_one_after_the_other() -> None:
    """Trajan's sowing is one question of order; the one answer sends the rules' own SowMarker
    commands, each against the version the one before made."""
    stub, player = _trajan_player(60)
    text = screen(player)
    asked = [m.end() for m in re.finditer(r"In which order do you sow your markers", text)]
    assert asked, "no sowing of two colours in 60 answers"
    answered = [text[at:].split("Your choice", 2)[1] for at in asked]  # what each one answer did
    sows = [len(re.findall(r"^> Sow an? [\w ]+ marker into bowl", after, re.M)) for after in answered]
    assert max(sows) >= 2, sows  # (the last question may have been left with q)
    kinds = [type(c).__name__ for c in stub.submitted]
    assert "SowMarker,SowMarker" in ",".join(kinds)
    assert "Not played" not in text and "Refused" not in text
