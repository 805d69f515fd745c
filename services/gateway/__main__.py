"""``python -m services.gateway health HOST:PORT``: exit 0 when the gateway's /healthz answers 200.

The container health check of the gateway (it speaks HTTP, so ``tabula health`` cannot ask it).
"""

from __future__ import annotations

import sys
import urllib.request


def check(address: str, timeout_s: float = 3.0) -> bool:
    try:
        with urllib.request.urlopen(f"http://{address}/healthz", timeout=timeout_s) as reply:
            return int(reply.status) == 200
    except OSError:
        return False


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] != "health":
        print("usage: python -m services.gateway health HOST:PORT", file=sys.stderr)
        return 2
    healthy = check(argv[1])
    print(f"{argv[1]}: {'SERVING' if healthy else 'NOT_SERVING'}")
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
