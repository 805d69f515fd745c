"""Real worker and reactor processes with the production defaults for results and upkeep: a bot
match finishes, no task result is written, the outbox ends empty and the match ends up archived."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from shared.matches.archive import LocalArchive, archived_lines
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.store.redis_store import RedisEventStore
from tests.integration.workers.conftest import Processes, create_match, wait_for
from tests.support.timing import scaled

pytestmark = pytest.mark.timeout(int(scaled(120)))


def test_a_bot_match_leaves_no_results_no_notices_and_no_keys_behind(
    procs: Processes, race_runner: MatchRunner[Any], store: RedisEventStore, tmp_path: Path
) -> None:
    create_match(race_runner, "tidy", 3, {0: "random", 1: "greedy", 2: "random"}, goal=12)
    procs.start("worker", TABULA_TASK_RESULTS="0")
    upkeep = {
        "TABULA_OUTBOX_GROUPS": "reactor",
        "TABULA_OUTBOX_TRIM_INTERVAL": "0.2",
        "TABULA_ARCHIVE_DIR": str(tmp_path),
        "TABULA_ARCHIVE_AFTER": "0",
        "TABULA_ARCHIVE_INTERVAL": "0.2",
    }
    procs.start("reactor", **upkeep)
    wait_for(lambda: archived_lines(LocalArchive(tmp_path), "tidy") is not None, 60, "the match archived")
    # the archiver stores the file, reads it back, and only then deletes the match from Redis
    wait_for(lambda: wait(store.get_meta("tidy")) == {}, 30, "the archived match deleted from Redis")
    assert wait(store.read("tidy")) == []
    outboxes = [store.outbox_key(shard) for shard in range(store.shards)]
    wait_for(lambda: sum(store.client.xlen(key) for key in outboxes) == 0, 30, "the outbox trimmed")
    assert list(store.client.scan_iter(match="celery-task-meta-*")) == []
