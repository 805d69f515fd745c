"""Password hashing: argon2id (argon2-cffi, RFC 9106's low-memory profile: 64 MiB, 3 passes).

Only the encoded hash (PHC string: algorithm, parameters, salt, hash) is stored; a password is never
logged, stored or returned. A check of an unknown email runs against a throwaway hash, so a wrong
address takes as long as a wrong password. At most :data:`AT_ONCE` hashes run at a time in a process
(each takes 64 MiB for a moment); more wait.
"""

from __future__ import annotations

import threading
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

AT_ONCE = 4
_hasher = PasswordHasher()  # argon2id with the library's defaults (RFC 9106, second recommendation)
_slots = threading.BoundedSemaphore(AT_ONCE)


def hash_password(password: str) -> str:
    with _slots:
        return _hasher.hash(password)


def check_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from (None: no account, "": an account
    without a password; checked anyway, against the throwaway hash, and never True)."""
    with _slots:
        try:
            return _hasher.verify(stored or _throwaway(), password) and bool(stored)
        except (VerificationError, InvalidHashError):
            return False


def needs_rehash(stored: str) -> bool:
    """A hash made with weaker parameters than today's: replaced at the next successful sign-in."""
    return _hasher.check_needs_rehash(stored)


@cache
def _throwaway() -> str:
    return _hasher.hash("not anybody's password")
