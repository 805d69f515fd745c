"""Multiplayer skill ratings (openskill, Plackett-Luce) and what a finished match means for them.

Only human seats are rated, against each other, by their placings (ties share a placing);
a match with fewer than two humans is recorded in history but changes no rating.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class SkillRating:
    mu: float = _MODEL.mu
    sigma: float = _MODEL.sigma
    matches: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative estimate shown on leaderboards: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class Placed:
    """One human seat of a finished match."""

    player_id: str
    seat: int
    placing: int


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    match_id: str
    game: str
    placings: tuple[int, ...]  # per seat
    players: tuple[str, ...]  # per seat, "" for bots

    @property
    def humans(self) -> list[Placed]:
        return [
            Placed(p, seat, self.placings[seat])
            for seat, p in enumerate(self.players)
            if p and seat < len(self.placings)
        ]

    @property
    def is_rated(self) -> bool:
        return len({h.player_id for h in self.humans}) >= 2


def rate(before: Sequence[SkillRating], placings: Sequence[int]) -> list[SkillRating]:
    """New ratings for players in the given order (placing 1 = first, ties share)."""
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = _MODEL.rate(teams, ranks=[float(p) for p in placings])
    return [
        SkillRating(team[0].mu, team[0].sigma, r.matches + 1) for team, r in zip(after, before, strict=True)
    ]
