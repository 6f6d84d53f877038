#!/usr/bin/env bash
# Runs the whole suite; pytest's exit code 5 (no tests collected) counts as a failure.
set -u
BIN=${1:-.venv/bin}
"$BIN/python" -m pytest "${@:2}"
rc=$?
if [ "$rc" = 5 ]; then
  echo "pytest collected no tests: failing" >&2
  exit 1
fi
exit "$rc"
