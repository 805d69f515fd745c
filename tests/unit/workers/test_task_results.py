"""Celery stores no task results unless asked: nothing reads them, and they cost Redis memory."""

from __future__ import annotations

from celery import Celery

from services.workers.celery_app import configure
from services.workers.settings import WorkerSettings


def app_with(env: dict[str, str]) -> Celery:
    app = Celery("tabula-results-test")
    configure(app, WorkerSettings.from_env({"REDIS_URL": "redis://127.0.0.1:1/0", **env}))
    return app


def test_by_default_no_result_backend_is_configured_and_results_are_ignored() -> None:
    app = app_with({})
    assert app.conf.task_ignore_result is True
    assert app.conf.result_backend is None and not app.conf.task_track_started
    assert type(app.backend).__name__ == "DisabledBackend"


def test_results_can_be_turned_on_for_tests_that_watch_task_states() -> None:
    app = app_with({"TABULA_TASK_RESULTS": "1"})
    assert app.conf.task_ignore_result is False and app.conf.task_track_started
    assert app.conf.result_backend == "redis://127.0.0.1:1/0"
