"""Matchmaking: group waiting tickets by rating, with a window that widens as they wait.

The oldest waiting ticket anchors a group: others join it when their rating is within the
anchor's window (which grows with the anchor's wait) and they accept the group size and the
same match settings. An anchor that waited past its bot-fill time gets bots for the empty
seats. Pure: the matcher passes ``now_ms`` in and claims each group atomically afterwards.

The rating a ticket is matched by is the player's in the current season (:func:`queue_rating`):
the skill shown on the leaderboard players see. A player who has not played in this season yet
(every player, the day a season begins) is matched by their all-time rating instead, so a new
season does not pair a strong player with newcomers while everyone is at the starting rating.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from services.lobby.domain.ratings import SkillRating
from services.lobby.domain.rooms import BotLevel


def queue_rating(season: SkillRating | None, all_time: SkillRating) -> float:
    """The mu a ticket is matched by: the current season's once the player was rated in it (None:
    no season now), else the all-time one."""
    return season.mu if season is not None and season.matches > 0 else all_time.mu


class TicketStatus(enum.StrEnum):
    WAITING = "waiting"
    CLAIMED = "claimed"  # grouped; the match is being created
    MATCHED = "matched"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class Ticket:
    ticket_id: str
    player_id: str
    game: str
    rating: float
    counts: tuple[int, ...]  # acceptable player counts, ascending
    enqueued_ms: int
    bot_fill_after_s: int = 0  # 0: never fill with bots
    bot_level: BotLevel = BotLevel.GREEDY
    options: tuple[tuple[str, str], ...] = ()
    turn_seconds: int = 0
    status: TicketStatus = TicketStatus.WAITING
    match_id: str = ""
    seat: int = -1

    @property
    def settings(self) -> tuple[str, tuple[tuple[str, str], ...], int]:
        """Tickets are grouped only with tickets that want the same match."""
        return self.game, self.options, self.turn_seconds

    def waited_s(self, now_ms: int) -> float:
        return max(0, now_ms - self.enqueued_ms) / 1000

    def wants_bots(self, now_ms: int) -> bool:
        return self.bot_fill_after_s > 0 and self.waited_s(now_ms) >= self.bot_fill_after_s


@dataclass(frozen=True, slots=True)
class Policy:
    base_window: float = 3.0  # rating points (openskill mu) accepted at once
    widen_per_s: float = 0.5  # more per second waited
    max_window: float = 50.0

    def window(self, ticket: Ticket, now_ms: int) -> float:
        return min(self.max_window, self.base_window + self.widen_per_s * ticket.waited_s(now_ms))


@dataclass(frozen=True, slots=True)
class Group:
    tickets: tuple[Ticket, ...]  # seat order: tickets first, then bots
    seats: int
    bot_level: BotLevel

    @property
    def bots(self) -> int:
        return self.seats - len(self.tickets)


def form_groups(tickets: Sequence[Ticket], now_ms: int, policy: Policy) -> list[Group]:
    """Disjoint groups, oldest anchors first. Tickets left out keep waiting."""
    waiting = sorted(tickets, key=lambda t: (t.enqueued_ms, t.ticket_id))
    taken: set[str] = set()
    groups = []
    for anchor in waiting:
        if anchor.ticket_id in taken:
            continue
        free = [t for t in waiting if t.ticket_id not in taken and t.ticket_id != anchor.ticket_id]
        group = _group_for(anchor, free, now_ms, policy)
        if group is not None:
            groups.append(group)
            taken.update(t.ticket_id for t in group.tickets)
    return groups


def _group_for(anchor: Ticket, free: Sequence[Ticket], now_ms: int, policy: Policy) -> Group | None:
    window = policy.window(anchor, now_ms)
    near = sorted(
        (t for t in free if t.settings == anchor.settings and abs(t.rating - anchor.rating) <= window),
        key=lambda t: (abs(t.rating - anchor.rating), t.enqueued_ms, t.ticket_id),
    )
    for size in reversed(anchor.counts):  # the fullest table everyone accepts
        mates = [t for t in near if size in t.counts][: size - 1]
        if len(mates) == size - 1:
            return Group((anchor, *mates), size, anchor.bot_level)
    if anchor.wants_bots(now_ms):
        size = anchor.counts[0]
        mates = [t for t in near if size in t.counts][: size - 1]
        return Group((anchor, *mates), size, anchor.bot_level)
    return None
