"""Deterministic, portable random numbers for pure rules (SplitMix64).

Rules never import ``random``: the runner hands them an ``Rng`` derived from the match
seed and the version being decided, so the same command at the same version draws the
same numbers on every machine and Python version. Outcomes still go into events;
replays never draw.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


class Rng:
    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    @staticmethod
    def derive(match_seed: int, version: int, salt: str = "") -> Rng:
        """The generator for deciding the command appended after ``version``."""
        digest = hashlib.sha256(f"{match_seed}:{version}:{salt}".encode()).digest()
        return Rng(int.from_bytes(digest[:8], "big"))

    def next_u64(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def randint(self, lo: int, hi: int) -> int:
        """Uniform integer in [lo, hi], both ends included (a die is randint(1, 6))."""
        return lo + self.below(hi - lo + 1)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> tuple[T, ...]:
        """A new tuple in random order (Fisher-Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out)

    def fork(self, salt: str) -> Rng:
        """An independent stream, e.g. one per bot or per simulated playout."""
        return Rng.derive(self.next_u64(), 0, salt)
