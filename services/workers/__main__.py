"""``python -m services.workers worker|reactor``: the same entry points as ``tabula serve worker|reactor``;
``ping [seconds]``: the worker's liveness probe (``celery_app.ping``)."""

from __future__ import annotations

import sys


def main(argv: list[str]) -> None:
    if argv[1:] == ["worker"]:
        from services.workers.celery_app import main as worker

        worker()
    elif argv[1:] == ["reactor"]:
        from services.workers.reactor import main as reactor

        reactor()
    elif argv[1:2] == ["ping"] and len(argv) <= 3:
        from services.workers.celery_app import ping

        raise SystemExit(ping(float(argv[2]) if len(argv) == 3 else 30.0))
    else:
        raise SystemExit("usage: python -m services.workers worker|reactor|ping [seconds]")


main(sys.argv)
