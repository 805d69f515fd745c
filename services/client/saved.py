"""The player's own matches on this machine, so ``tabula play --match ID`` can rejoin one.

The lobby gives a seat token when a match starts (``StartRoom``) and again, to the same guest,
from ``GetRoom`` once the room has started; it has no call that lists a player's matches. So
when ``tabula play`` starts a match it keeps, in ``matches.json`` of the state folder (``.tabula/``
beside the running stack's ``stack.json``, or ``$TABULA_STATE_DIR``), what rejoining needs: the
guest token, the room and match ids, the game, the seat, its token and the players'
names. The file holds tokens, so only its owner may read it (mode 0600); it keeps the newest
:data:`KEEP` matches.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

MATCHES_FILE = "matches.json"
KEEP = 50


@dataclass(frozen=True)
class SavedMatch:
    match_id: str
    game: str
    room_id: str
    seat: int
    seat_token: str
    guest_token: str
    player_name: str
    names: tuple[str, ...]
    started_at: float = 0.0

    @staticmethod
    def from_plain(data: dict[str, Any]) -> SavedMatch:
        return SavedMatch(
            match_id=str(data["match_id"]),
            game=str(data["game"]),
            room_id=str(data["room_id"]),
            seat=int(data["seat"]),
            seat_token=str(data["seat_token"]),
            guest_token=str(data["guest_token"]),
            player_name=str(data.get("player_name", "")),
            names=tuple(str(n) for n in data.get("names", ())),
            started_at=float(data.get("started_at", 0.0)),
        )


def _read(path: Path) -> list[SavedMatch]:
    try:
        data = json.loads(path.read_text())
        return [SavedMatch.from_plain(item) for item in data.get("matches", [])]
    except (OSError, ValueError, TypeError, KeyError):
        return []


def save(path: Path, match: SavedMatch) -> None:
    """Add (or replace) ``match``, newest first; written atomically, readable by its owner only."""
    kept = [match, *(m for m in _read(path) if m.match_id != match.match_id)][:KEEP]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"matches": [asdict(m) for m in kept]}, indent=2) + "\n")
    tmp.chmod(0o600)
    tmp.replace(path)


def find(path: Path, match_id: str) -> SavedMatch | None:
    return next((m for m in _read(path) if m.match_id == match_id), None)


def newest(path: Path) -> list[SavedMatch]:
    return _read(path)
