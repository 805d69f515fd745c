"""The player's matches kept for rejoining: round trip, newest first, owner-only, a bounded list."""

from __future__ import annotations

import stat
from pathlib import Path

from services.client.saved import KEEP, SavedMatch, find, newest, save


def _match(n: int) -> SavedMatch:
    return SavedMatch(
        match_id=f"m{n}",
        game="lorenzo",
        room_id=f"r{n}",
        seat=n % 4,
        seat_token=f"seat-token-{n}",
        guest_token=f"guest-token-{n}",
        player_name="Ada",
        names=("Ada", "greedy bot"),
        started_at=float(n),
    )


def test_a_saved_match_is_found_again_with_every_field(tmp_path: Path) -> None:
    path = tmp_path / ".tabula" / "matches.json"
    save(path, _match(1))
    save(path, _match(2))
    assert find(path, "m1") == _match(1) and find(path, "m2") == _match(2)
    assert find(path, "m3") is None
    assert [m.match_id for m in newest(path)] == ["m2", "m1"]


def test_the_file_holds_tokens_so_only_its_owner_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "matches.json"
    save(path, _match(1))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_saving_a_match_again_replaces_it_and_the_list_is_bounded(tmp_path: Path) -> None:
    path = tmp_path / "matches.json"
    for n in range(KEEP + 5):
        save(path, _match(n))
    save(path, _match(10))
    kept = newest(path)
    assert len(kept) == KEEP and kept[0].match_id == "m10"
    assert [m.match_id for m in kept].count("m10") == 1 and find(path, "m0") is None


def test_a_missing_or_broken_file_is_an_empty_list(tmp_path: Path) -> None:
    assert newest(tmp_path / "none.json") == []
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert newest(broken) == [] and find(broken, "m1") is None
