"""Who plays each seat of a match, as clients show it: from the match meta, without game code.

The lobby passes, with ``CreateMatch``, the player id (``players``), the display name (``names``)
and the bot level (``bots``) of every seat; the rule service keeps them in the match meta. Views,
replays, watched events (``tabula.common.v1.Seat``) and the lobby's own lists read them here, so
every client shows the same label for a seat. Matches created before names were passed show their
bots by level and their humans as ``seat N``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    player_id: str  # "" for a bot (or unknown)
    display_name: str  # "" for a bot (or unknown)
    bot_level: str  # "" for a human

    @property
    def label(self) -> str:
        """What to show: the name, else ``"greedy bot"``, else ``"seat 2"`` (the terminal client's words)."""
        if self.display_name:
            return self.display_name
        return f"{self.bot_level} bot" if self.bot_level else f"seat {self.seat}"


def seats_of(
    count: int, players: Sequence[str], names: Sequence[str], bots: Mapping[int, str]
) -> tuple[SeatInfo, ...]:
    """Every seat of a match of ``count`` seats (``shared.store.MatchMeta.seat_infos`` reads them
    from the match meta)."""

    def at(items: Sequence[str], seat: int) -> str:
        return str(items[seat]) if seat < len(items) and items[seat] else ""

    return tuple(
        SeatInfo(seat, at(players, seat), at(names, seat), bots.get(seat, "")) for seat in range(count)
    )


def seat_of_actor(actor: str) -> int | None:
    """The seat an event envelope's actor names (``seat:2``, ``bot:2:greedy``, ``timeout:2:greedy``);
    None for the system."""
    kind, _, rest = actor.partition(":")
    number = rest.partition(":")[0]
    return int(number) if kind != "system" and number.isdigit() else None
