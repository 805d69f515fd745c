"""Seasons: the stretches of time the lobby keeps a separate rating and leaderboard for.

The schedule is configuration (``TABULA_SEASONS``, docs/operations.md), in UTC:

* ``quarterly`` (the default), ``monthly`` or ``yearly``: calendar periods, named ``YYYY-q1``,
  ``YYYY-MM`` and ``YYYY``; every moment falls in one.
* a comma-separated list of start moments, ascending, each ``YYYY-MM-DD`` (a date is its
  midnight) or ``YYYY-MM-DDTHH:MM:SSZ``. Each season is named by its start as written and runs to
  the next start; the last runs on until a later start is added. A moment before the first start
  falls in no season (it counts for the all-time rating only).

A season's id never changes once it has begun: adding a later start to a list, or the calendar
moving on, starts a new season and leaves the older ones as they were. A season that has not
begun yet is not offered (``get`` answers None).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

ALL_TIME = "all"  # the id that names the all-time rating and leaderboard
DEFAULT = "quarterly"
PERIODS = ("quarterly", "monthly", "yearly")
_ID = re.compile(r"^[0-9A-Za-z:-]{1,32}$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_MOMENT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")
_PERIODIC_ID = {
    "quarterly": re.compile(r"^(\d{4})-q([1-4])$"),
    "monthly": re.compile(r"^(\d{4})-(\d{2})$"),
    "yearly": re.compile(r"^(\d{4})()$"),
}


@dataclass(frozen=True, slots=True)
class Season:
    id: str
    starts_ms: int
    ends_ms: int  # exclusive; 0: no end is scheduled yet (the last of a list)

    def holds(self, at_ms: int) -> bool:
        return self.starts_ms <= at_ms and (not self.ends_ms or at_ms < self.ends_ms)


def well_formed(season_id: str) -> bool:
    """Whether a season id could be one (letters, digits, ':' and '-', 32 at most)."""
    return bool(_ID.match(season_id))


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def _utc(at_ms: int) -> datetime:
    return datetime.fromtimestamp(at_ms / 1000, UTC)


@dataclass(frozen=True, slots=True)
class Schedule:
    """``period`` one of PERIODS, or "" for a list of ``starts`` (id, start ms), ascending."""

    period: str
    starts: tuple[tuple[str, int], ...] = ()

    def at(self, at_ms: int) -> Season | None:
        """The season a moment falls in (None: before a list's first start)."""
        if self.period:
            moment = _utc(at_ms)
            month = {"quarterly": (moment.month - 1) // 3 * 3 + 1, "monthly": moment.month}.get(
                self.period, 1
            )
            return self._periodic(moment.year, month)
        found = None
        for k, (season_id, start) in enumerate(self.starts):
            if start > at_ms:
                break
            end = self.starts[k + 1][1] if k + 1 < len(self.starts) else 0
            found = Season(season_id, start, end)
        return found

    def get(self, season_id: str, now_ms: int) -> Season | None:
        """The season of this id if it has begun by ``now_ms`` (None: unknown, or not begun)."""
        season = self._named(season_id)
        return season if season is not None and season.starts_ms <= now_ms else None

    def _named(self, season_id: str) -> Season | None:
        if not self.period:
            return next((self.at(start) for sid, start in self.starts if sid == season_id), None)
        found = _PERIODIC_ID[self.period].match(season_id)
        if not found:
            return None
        year, part = int(found[1]), found[2]
        month = {"quarterly": (int(part or 1) - 1) * 3 + 1, "monthly": int(part or 1)}.get(self.period, 1)
        if not 1 <= month <= 12 or year < 1970:
            return None
        return self._periodic(year, month)

    def _periodic(self, year: int, month: int) -> Season:
        step = {"quarterly": 3, "monthly": 1, "yearly": 12}[self.period]
        start = datetime(year, month, 1, tzinfo=UTC)
        end_year, end_month = (year + 1, 1) if month + step > 12 else (year, month + step)
        end = datetime(end_year, end_month, 1, tzinfo=UTC)
        season_id = {
            "quarterly": f"{year:04d}-q{(month - 1) // 3 + 1}",
            "monthly": f"{year:04d}-{month:02d}",
            "yearly": f"{year:04d}",
        }[self.period]
        return Season(season_id, _ms(start), _ms(end))


def parse(text: str) -> Schedule:
    """The schedule a ``TABULA_SEASONS`` value names; ValueError saying what is wrong."""
    value = text.strip() or DEFAULT
    if value in PERIODS:
        return Schedule(value)
    starts: list[tuple[str, int]] = []
    for part in (p.strip() for p in value.split(",")):
        if _DATE.match(part):
            moment = f"{part}T00:00:00+00:00"
        elif _MOMENT.match(part):
            moment = part.removesuffix("Z") + "+00:00"
        else:
            raise ValueError(
                f"TABULA_SEASONS: {part!r} is neither a period ({', '.join(PERIODS)}) nor a UTC start "
                "(YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)"
            )
        try:
            start = _ms(datetime.fromisoformat(moment))
        except ValueError:
            raise ValueError(f"TABULA_SEASONS: {part!r} is not a date") from None
        if starts and start <= starts[-1][1]:
            raise ValueError(f"TABULA_SEASONS: {part!r} is not after {starts[-1][0]!r} (starts ascend)")
        starts.append((part, start))
    return Schedule("", tuple(starts))
