#!/usr/bin/env bash
# Idempotent: installs Debian's Chromium for the browser tests (tests/e2e/test_browser*.py) only when
# /usr/bin/chromium is missing. Playwright drives this system browser; no browser is ever downloaded.
# Needs root (or sudo) and a reachable Debian mirror; when neither is there it says so and exits 0,
# and the browser tests then skip with that reason.
set -uo pipefail

if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO="sudo -n"
else
  echo "setup-browser: /usr/bin/chromium is missing and this user cannot apt-get install it" >&2
  exit 0
fi
echo "setup-browser: installing chromium (Debian package)" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q >/dev/null || true
if ! $SUDO apt-get install -y -q --no-install-recommends chromium >/dev/null; then
  echo "setup-browser: apt-get install chromium failed; browser tests will be skipped" >&2
fi
exit 0
