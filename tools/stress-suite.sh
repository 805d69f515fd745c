#!/usr/bin/env bash
# The whole suite N times in a row (default 5) while one busy loop per core keeps the machine loaded:
# the proof that `make test` does not flake under CPU pressure. Stops at the first failing run.
# Bounded: each run gets TIMEOUT (default 45m); the load stops with the script.
# LOOPS sets the number of busy loops (default: one per core; 0 when another CPU load, e.g. a bot
# bench, already keeps the machine busy). Each run's line records the 1-minute load average at its end.
# Usage: tools/stress-suite.sh [N] [LOG]; prints one line per run and appends them to LOG.
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
log=${2:-stress-suite.log}
timeout_s=${TIMEOUT:-45m}
load=()
cleanup() { for pid in "${load[@]}"; do kill "$pid" 2>/dev/null; done; }
trap cleanup EXIT
trap 'exit 143' INT TERM
loops=${LOOPS:-$(nproc)}
for _ in $(seq "$loops"); do
  yes >/dev/null &
  load+=($!)
done
echo "$(date -u +%FT%TZ) commit $(git rev-parse --short HEAD), $loops busy loops, $runs runs" | tee -a "$log"
for i in $(seq "$runs"); do
  start=$(date +%s)
  out=$(timeout "$timeout_s" make test 2>&1)
  rc=$?
  summary=$(printf '%s\n' "$out" | grep -E '^[0-9]+ (passed|failed)|^=+ .*(passed|failed)' | tail -1)
  echo "run $i: exit $rc in $(( $(date +%s) - start )) s, load $(cut -d' ' -f1 /proc/loadavg): ${summary}" | tee -a "$log"
  if [ "$rc" -ne 0 ]; then
    printf '%s\n' "$out" | grep -E '^(FAILED|ERROR) ' | tee -a "$log"
    exit "$rc"
  fi
done
echo "all $runs runs passed" | tee -a "$log"
