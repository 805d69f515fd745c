"""shared.core.lru.keep: the newest entry goes last and the oldest beyond the bound are forgotten."""

from __future__ import annotations

from collections import OrderedDict

from shared.core.lru import keep


def test_keep_forgets_the_least_recently_kept_first() -> None:
    cache: OrderedDict[str, int] = OrderedDict()
    for key, value in (("a", 1), ("b", 2), ("c", 3)):
        keep(cache, key, value, 3)
    keep(cache, "a", 10, 3)  # kept again: now the newest
    keep(cache, "d", 4, 3)  # one too many: "b" is the oldest
    assert list(cache.items()) == [("c", 3), ("a", 10), ("d", 4)]
