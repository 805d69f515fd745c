"""Sends analysis jobs to the workers' ``analysis`` queue (``shared.matches.analysis``): a Celery
producer of its own, by task name, so the lobby imports nothing of the workers."""

from __future__ import annotations

from typing import Any

from shared.matches.analysis import QUEUE, TASK


class AnalysisJobs:
    def __init__(self, broker_url: str) -> None:
        from celery import Celery

        self.app: Any = Celery("tabula-lobby", broker=broker_url, set_as_current=False)
        self.app.conf.update(task_serializer="json", broker_connection_retry_on_startup=True)

    def send(self, match_id: str, game: str, seat: int) -> None:
        self.app.send_task(TASK, args=[match_id, game, seat], queue=QUEUE)

    def close(self) -> None:
        self.app.close()
