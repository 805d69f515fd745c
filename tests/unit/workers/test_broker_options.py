"""kombu's ack emulation is off unless asked for: the sweeper, not the broker, recovers a lost task."""

from __future__ import annotations

import pytest
from celery import Celery

from services.workers.celery_app import configure
from services.workers.settings import WorkerSettings


@pytest.mark.parametrize(("env", "expected"), [({}, False), ({"TABULA_BROKER_ACK_EMULATION": "1"}, True)])
def test_ack_emulation_follows_its_setting(env: dict[str, str], expected: bool) -> None:
    app = Celery("options-test")
    configure(app, WorkerSettings.from_env({"REDIS_URL": "redis://127.0.0.1:1/0", **env}))
    assert app.conf.broker_transport_options["ack_emulation"] is expected
