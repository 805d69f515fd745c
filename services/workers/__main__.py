"""``python -m services.workers worker|reactor``: the same entry points as ``tabula serve worker|reactor``."""

from __future__ import annotations

import sys


def main(argv: list[str]) -> None:
    if argv[1:] == ["worker"]:
        from services.workers.celery_app import main as worker

        worker()
    elif argv[1:] == ["reactor"]:
        from services.workers.reactor import main as reactor

        reactor()
    else:
        raise SystemExit("usage: python -m services.workers worker|reactor")


main(sys.argv)
