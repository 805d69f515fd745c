"""Notices: what a player is told about their matches and rooms, decided from plain facts.

A match's notices come from the progress the runner records with every append (docs/platform.md):
its first append (the setup) starts the match, a seat that may act now and could not before has
its turn, and a finished match has ended. Each player is told only about their own seats; bots
are told nothing. Turns are decided against the seats that could act before the append, which its
notice names (``was``: an append no follower acts on writes no notice, so the last notice seen may
be older), or for a notice that does not, against what was last seen of the match (:class:`Acting`);
so a turn is announced once however many appends it lasts. An append older than the last one seen
brings nothing (a turn already over when its notice is handled is not announced).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass


class NoticeKind(enum.StrEnum):
    YOUR_TURN = "your_turn"
    MATCH_STARTED = "match_started"
    MATCH_ENDED = "match_ended"
    INVITED = "invited"
    FRIEND_REQUEST = "friend_request"
    FRIEND_ACCEPTED = "friend_accepted"
    FRIEND_PRESENCE = "friend_presence"
    FRIENDS_CHANGED = "friends_changed"
    TOURNAMENT_ROUND_STARTED = "tournament_round_started"
    TOURNAMENT_ENDED = "tournament_ended"


MATCH_KINDS = frozenset({NoticeKind.YOUR_TURN, NoticeKind.MATCH_STARTED, NoticeKind.MATCH_ENDED})


@dataclass(frozen=True, slots=True)
class Notice:
    kind: NoticeKind
    game: str = ""
    match_id: str = ""
    seat: int = -1  # the player's seat in the match
    version: int = 0  # the match version the notice is about
    placing: int = 0  # MATCH_ENDED: 1 = first
    room_id: str = ""  # INVITED
    invite_code: str = ""  # INVITED to a private room
    from_player_id: str = ""  # INVITED and the friends' notices: who
    from_name: str = ""
    online: int = 0  # FRIEND_PRESENCE: 1 online, 0 offline
    playing_game: str = ""  # FRIEND_PRESENCE: the game of the friend's match now
    playing_match: str = ""  # FRIEND_PRESENCE: that match, if the notice's player may watch it
    last_seen_ms: int = 0  # FRIEND_PRESENCE
    tournament_id: str = ""  # TOURNAMENT_ROUND_STARTED, TOURNAMENT_ENDED

    def fields(self) -> dict[str, str]:
        """As stored in the player's notice stream (every value a string)."""
        return {key: str(value) for key, value in asdict(self).items()}

    @staticmethod
    def parse(fields: Mapping[str, str]) -> Notice:
        def number(key: str, default: int) -> int:
            raw = fields.get(key, "")
            return int(raw) if raw.lstrip("-").isdigit() else default

        return Notice(
            NoticeKind(fields["kind"]),
            fields.get("game", ""),
            fields.get("match_id", ""),
            number("seat", -1),
            number("version", 0),
            number("placing", 0),
            fields.get("room_id", ""),
            fields.get("invite_code", ""),
            fields.get("from_player_id", ""),
            fields.get("from_name", ""),
            number("online", 0),
            fields.get("playing_game", ""),
            fields.get("playing_match", ""),
            number("last_seen_ms", 0),
            fields.get("tournament_id", ""),
        )

    @property
    def is_about_a_match(self) -> bool:
        return self.kind in MATCH_KINDS


@dataclass(frozen=True, slots=True)
class Acting:
    """A match as the notices last saw it: its version and the seats that could act then."""

    version: int
    seats: tuple[int, ...]

    def encode(self) -> str:
        return f"{self.version}:{','.join(map(str, self.seats))}"

    @staticmethod
    def decode(raw: str) -> Acting | None:
        version, colon, seats = raw.partition(":")
        if not colon or not version.isdigit():
            return None
        return Acting(int(version), tuple(int(s) for s in seats.split(",") if s.isdigit()))


@dataclass(frozen=True, slots=True)
class Append:
    """One append of a match, as its outbox notice and meta tell it."""

    game: str
    match_id: str
    players: Sequence[str]  # player id per seat, "" for a bot
    first_version: int
    last_version: int
    to_act: tuple[int, ...]
    finished: bool
    placings: tuple[int, ...]  # per seat once finished
    was: tuple[int, ...] | None = None  # the seats that could act before it (None: not known)


def match_notices(append: Append, before: Acting | None) -> list[tuple[str, Notice]] | None:
    """(player id, notice) pairs this append brings; None when an equal or newer append was seen."""
    if before is not None and append.last_version <= before.version:
        return None
    humans = [(seat, player) for seat, player in enumerate(append.players) if player]
    out: list[tuple[str, Notice]] = []

    def tell(kind: NoticeKind, seat: int, player: str, placing: int = 0) -> None:
        notice = Notice(kind, append.game, append.match_id, seat, append.last_version, placing)
        out.append((player, notice))

    if append.first_version == 1:
        for seat, player in humans:
            tell(NoticeKind.MATCH_STARTED, seat, player)
    if append.was is not None:
        waiting = set(append.was)
    else:
        waiting = set(before.seats) if before is not None else set()
    for seat, player in humans:
        if seat in append.to_act and seat not in waiting:
            tell(NoticeKind.YOUR_TURN, seat, player)
    if append.finished:
        for seat, player in humans:
            placing = append.placings[seat] if seat < len(append.placings) else 0
            tell(NoticeKind.MATCH_ENDED, seat, player, placing)
    return out
