"""A notice names the seats that could act before its append: turns are decided against them."""

from __future__ import annotations

from services.lobby.domain.notices import Acting, Append, NoticeKind, match_notices


def _append(to_act: tuple[int, ...], was: tuple[int, ...] | None, version: int = 9) -> Append:
    return Append("race", "m1", ["p0", "p1"], version, version, to_act, False, (), was)


def test_a_turn_come_back_after_quiet_appends_is_announced() -> None:
    """The lobby last saw seat 0 to act; quiet appends (seat 1 watched its turn) came between, so
    seat 0's turn now is a new one: the notice's ``was`` says so."""
    seen = Acting(5, (0,))
    told = match_notices(_append((0,), was=(1,)), seen)
    assert told is not None and [(p, n.kind, n.seat) for p, n in told] == [("p0", NoticeKind.YOUR_TURN, 0)]


def test_a_turn_going_on_is_not_announced_again_and_old_notices_fall_back_on_what_was_seen() -> None:
    assert match_notices(_append((0,), was=(0,)), Acting(5, (1,))) == []
    assert match_notices(_append((0,), was=None), Acting(5, (0,))) == []  # a notice written before ``was``
    told = match_notices(_append((0,), was=None), Acting(5, (1,)))
    assert told is not None and [n.kind for _, n in told] == [NoticeKind.YOUR_TURN]
