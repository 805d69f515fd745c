#!/usr/bin/env bash
# `make lint`'s proto step: buf lint on proto/, then buf breaking against the protos of the
# previous commit, so a commit that renumbers, retypes or drops a field or a oneof tag fails
# (stored events are forever: ARCHITECTURE, rule 6). proto/buf.yaml holds the rules.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUF=tools/buf/node_modules/.bin/buf
if [ ! -x "$BUF" ]; then
  echo "buf is not installed: run 'make buf' (npm ci in tools/buf)" >&2
  exit 1
fi
"$BUF" lint proto
echo "buf lint: ok"
if ! git rev-parse -q --verify 'HEAD~1^{commit}' >/dev/null; then
  echo "buf breaking: skipped, there is no previous commit to compare with (first commit or shallow clone)"
  exit 0
fi
if ! git cat-file -e 'HEAD~1:proto' 2>/dev/null; then
  echo "buf breaking: skipped, the previous commit has no proto/ folder"
  exit 0
fi
# A previous commit without proto/buf.yaml is read with buf's defaults (module root = proto/).
"$BUF" breaking proto --against '.git#ref=HEAD~1,subdir=proto'
echo "buf breaking (proto/ against HEAD~1): ok"
# Before a commit (proto/ differs from HEAD), also against HEAD: a field that the last commit added
# and the working tree drops would pass the check against HEAD~1, which never had it.
if ! git diff --quiet HEAD -- proto; then
  "$BUF" breaking proto --against '.git#ref=HEAD,subdir=proto'
  echo "buf breaking (proto/ against HEAD, uncommitted changes): ok"
fi
