"""Friends: the limits, the outcomes of a friends operation, and presence as a friend may see it.

Guests and accounts alike have friends, by player id (docs/accounts.md, "Friends"). The checks of an
operation run in one Redis script (``adapters/friends_repo.py``) so two racing calls cannot pass
them together; each refusal is one of :data:`REFUSALS`, and a refused operation writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_FRIENDS = 200  # friends per player
MAX_OUTGOING = 50  # requests a player has sent that wait for an answer
MAX_INCOMING = 100  # requests waiting for a player's answer
MAX_BLOCKED = 500  # players a player has blocked

# Online: the player holds a WatchMyNotices stream or made a lobby call within ONLINE_TTL_S. Each lobby
# process renews a player at most every ONLINE_TTL_S / 3 seconds (one small script), and a sweeper
# finds those whose time ran out (they went offline) every ONLINE_TTL_S / 4 seconds.
ONLINE_TTL_S = 60
LAST_SEEN_KEPT_S = 30 * 24 * 3600  # a player's last seen and current match, after their last renewal

# What the friends script answers for a refusal: (reason code, English template, its values); the
# lobby's texts key their translations on the code and the template.
REFUSALS: dict[str, tuple[str, str, dict[str, int]]] = {
    "you_blocked": ("you_blocked", "you blocked this player: unblock them first", {}),
    "blocked": ("blocked", "this player does not take requests or invitations from you", {}),
    "already_friends": ("already_friends", "you are friends already", {}),
    "already_requested": ("already_requested", "you asked this player already: wait for their answer", {}),
    "friends_full": (
        "friends_full",
        "you have {most} friends, the most: remove one first",
        {"most": MAX_FRIENDS},
    ),
    "their_friends_full": ("friends_full", "this player has {most} friends, the most", {"most": MAX_FRIENDS}),
    "outgoing_full": (
        "requests_full",
        "{most} of your requests wait for an answer, the most: cancel one first",
        {"most": MAX_OUTGOING},
    ),
    "incoming_full": (
        "requests_full",
        "{most} requests wait for this player's answer, the most",
        {"most": MAX_INCOMING},
    ),
    "no_request": ("no_request", "there is no such request", {}),
    "not_friends": ("not_friends", "you are not friends", {}),
    "already_blocked": ("already_blocked", "you blocked this player already", {}),
    "not_blocked": ("not_blocked", "you have not blocked this player", {}),
    "blocked_full": (
        "blocked_full",
        "you blocked {most} players, the most: unblock one first",
        {"most": MAX_BLOCKED},
    ),
}


@dataclass(frozen=True, slots=True)
class Presence:
    """A friend's presence as one viewer sees it: the match only when the viewer may watch it."""

    online: bool
    playing_game: str = ""
    playing_match: str = ""
    last_seen_ms: int = 0


@dataclass(frozen=True, slots=True)
class Seen:
    """What is stored of a player's presence: last renewal (ms, 0: none kept), and the match they
    started last while it goes on ("" for none)."""

    last_ms: int
    game: str = ""
    match_id: str = ""

    def online(self, now_ms: int, ttl_s: int = ONLINE_TTL_S) -> bool:
        return self.last_ms > now_ms - ttl_s * 1000

    def shown(self, now_ms: int, may_watch: bool, ttl_s: int = ONLINE_TTL_S) -> Presence:
        """As a friend sees it: the game only while online, its match only if the friend may watch it."""
        if not self.online(now_ms, ttl_s):
            return Presence(False, last_seen_ms=self.last_ms)
        match = self.match_id if may_watch else ""
        return Presence(True, self.game, match, self.last_ms)
