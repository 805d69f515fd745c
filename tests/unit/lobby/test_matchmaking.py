"""Grouping waiting tickets by rating, with a window that widens as the oldest ticket waits."""

from __future__ import annotations

from typing import Any

from services.lobby.domain.matchmaking import Group, Policy, Ticket, form_groups
from services.lobby.domain.rooms import BotLevel

POLICY = Policy(base_window=3.0, widen_per_s=1.0, max_window=20.0)


def ticket(
    name: str, rating: float = 25.0, counts: tuple[int, ...] = (2,), at_ms: int = 0, **kw: Any
) -> Ticket:
    return Ticket(name, f"p-{name}", "race", rating, counts, at_ms, **kw)


def ids(groups: list[Group]) -> list[list[str]]:
    return [[t.ticket_id for t in g.tickets] for g in groups]


def test_close_ratings_are_grouped_at_once() -> None:
    assert ids(form_groups([ticket("a"), ticket("b", 27.0)], 0, POLICY)) == [["a", "b"]]


def test_far_ratings_wait_until_the_window_has_widened() -> None:
    tickets = [ticket("a", 25.0), ticket("b", 35.0, at_ms=1)]
    assert form_groups(tickets, 1_000, POLICY) == []
    assert ids(form_groups(tickets, 7_000, POLICY)) == [["a", "b"]]


def test_the_fullest_table_everyone_accepts_is_chosen() -> None:
    tickets = [ticket(n, counts=(2, 3, 4), at_ms=i) for i, n in enumerate("abc")]
    groups = form_groups(tickets, 0, POLICY)
    assert ids(groups) == [["a", "b", "c"]] and groups[0].seats == 3 and groups[0].bots == 0


def test_counts_must_agree() -> None:
    tickets = [ticket("a", counts=(4,)), ticket("b", counts=(2,), at_ms=1), ticket("c", counts=(2,), at_ms=2)]
    assert ids(form_groups(tickets, 0, POLICY)) == [["b", "c"]]


def test_nearest_ratings_are_preferred() -> None:
    tickets = [ticket("a", 25.0), ticket("far", 27.9, at_ms=1), ticket("near", 25.5, at_ms=2)]
    assert ids(form_groups(tickets, 0, POLICY)) == [["a", "near"]]


def test_different_match_settings_are_never_mixed() -> None:
    tickets = [ticket("a"), ticket("b", options=(("goal", "9"),)), ticket("c", turn_seconds=60)]
    assert form_groups(tickets, 0, POLICY) == []


def test_bots_fill_a_ticket_that_waited_long_enough() -> None:
    alone = ticket("a", counts=(3, 4), bot_fill_after_s=5, bot_level=BotLevel.MCTS)
    assert form_groups([alone], 4_000, POLICY) == []
    (group,) = form_groups([alone], 5_000, POLICY)
    assert (group.seats, group.bots, group.bot_level) == (3, 2, BotLevel.MCTS)


def test_no_ticket_is_in_two_groups() -> None:
    tickets = [ticket(f"t{i:02d}", 20 + i % 7, counts=(2, 3), at_ms=i) for i in range(40)]
    groups = form_groups(tickets, 60_000, POLICY)
    taken = [t for g in ids(groups) for t in g]
    assert len(taken) == len(set(taken)) and len(taken) >= 39
