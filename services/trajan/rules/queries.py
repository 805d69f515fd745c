"""Read-only questions about a state that several rule modules ask."""

from __future__ import annotations

from collections import Counter

from services.trajan.rules.content_types import Action, Commodity, Content, ForumKind, ForumTile
from services.trajan.rules.model import Pile, PlayerState, State


def seat_order(s: State) -> tuple[int, ...]:
    """Every seat clockwise from the start player (seat numbers run clockwise)."""
    n = s.seats
    return tuple((s.start_seat + i) % n for i in range(n))


def next_seat(s: State, seat: int) -> int:
    return (seat + 1) % s.seats


def pile(s: State, which: Pile) -> tuple[Commodity, ...]:
    return s.left_pile if which is Pile.LEFT else s.right_pile


def drawable(s: State) -> int:
    """Cards a draw can still reach: the draw pile, then the discard piles below their top cards."""
    return len(s.deck) + max(0, len(s.left_pile) - 1) + max(0, len(s.right_pile) - 1)


def bowl_action(c: Content, bowl: int) -> Action:
    return c.board.bowls[bowl - 1]


def completes(c: Content, p: PlayerState, slot: int) -> bool:
    """The Trajan tile beside bowl ``slot`` shows two colours the bowl now holds (seed (p6))."""
    tile = p.slots[slot - 1]
    if not tile:
        return False
    need = Counter(c.trajan_tile[tile].colours)
    have = Counter(p.bowls[slot - 1].markers)
    return all(have[colour] >= n for colour, n in need.items())


def extra_tiles_for(c: Content, p: PlayerState, action: Action) -> tuple[ForumTile, ...]:
    """The tiles on the mat that give one more ``action``: its extra action tile and the wild one."""
    wanted = (c.extra_tile_of[action], ForumTile.WILD_EXTRA_ACTION)
    return tuple(t for t in wanted if t in p.forum_tiles)


def senate_votes(c: Content, p: PlayerState) -> int:
    """The senate space's value plus the senate tiles on the mat (seed (p9-10) 平衡元老院势力)."""
    tiles = sum(c.forum_tile[t].votes for t in p.forum_tiles if c.forum_tile[t].kind is ForumKind.SENATE)
    return c.board.senate_track[p.senate] + tiles
