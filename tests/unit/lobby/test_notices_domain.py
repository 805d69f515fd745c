"""The notice rules, given what was seen of a match and one append: who is told what."""

from __future__ import annotations

from services.lobby.domain.notices import Acting, Append, Notice, NoticeKind, match_notices

PLAYERS = ("ada", "", "bob")  # seat 1 is a bot


def append(first: int, last: int, to_act: tuple[int, ...], finished: bool = False) -> Append:
    return Append("race", "m1", PLAYERS, first, last, to_act, finished, (2, 3, 1) if finished else ())


def told(notices: list[tuple[str, Notice]] | None) -> list[tuple[str, str, int]]:
    assert notices is not None
    return [(player, n.kind.value, n.seat) for player, n in notices]


def test_the_setup_starts_the_match_for_every_human_and_gives_the_first_turn() -> None:
    assert told(match_notices(append(1, 4, (0,)), None)) == [
        ("ada", "match_started", 0),
        ("bob", "match_started", 2),
        ("ada", "your_turn", 0),
    ]


def test_a_turn_that_lasts_several_appends_is_announced_once() -> None:
    assert told(match_notices(append(5, 5, (2,)), Acting(4, (1,)))) == [("bob", "your_turn", 2)]
    assert told(match_notices(append(6, 6, (2,)), Acting(5, (2,)))) == []


def test_a_bots_turn_and_the_systems_are_nobodys_notice() -> None:
    assert told(match_notices(append(5, 5, (1,)), Acting(4, (0,)))) == []
    assert told(match_notices(append(6, 6, ()), Acting(5, (1,)))) == []


def test_seats_acting_together_are_each_told_once() -> None:
    assert told(match_notices(append(5, 5, (0, 2)), Acting(4, ()))) == [
        ("ada", "your_turn", 0),
        ("bob", "your_turn", 2),
    ]
    assert told(match_notices(append(6, 6, (2,)), Acting(5, (0, 2)))) == []


def test_an_append_no_newer_than_the_last_seen_tells_nothing() -> None:
    assert match_notices(append(5, 5, (0,)), Acting(5, ())) is None
    assert match_notices(append(3, 3, (0,)), Acting(5, ())) is None


def test_a_finished_match_gives_each_human_their_placing() -> None:
    ended = match_notices(append(9, 10, (), finished=True), Acting(8, (0,)))
    assert ended is not None
    assert [(p, n.kind, n.placing, n.version) for p, n in ended] == [
        ("ada", NoticeKind.MATCH_ENDED, 2, 10),
        ("bob", NoticeKind.MATCH_ENDED, 1, 10),
    ]


def test_notices_and_acting_survive_their_stored_form() -> None:
    notice = Notice(NoticeKind.INVITED, "race", room_id="r1", invite_code="AB23", from_player_id="p")
    assert Notice.parse(notice.fields()) == notice
    assert Notice.parse(Notice(NoticeKind.YOUR_TURN, "race", "m1", 2, 7).fields()).seat == 2
    assert Acting.decode(Acting(12, (0, 3)).encode()) == Acting(12, (0, 3))
    assert Acting.decode("12:") == Acting(12, ()) and Acting.decode("junk") is None
