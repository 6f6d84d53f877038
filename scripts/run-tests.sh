#!/usr/bin/env bash
# Runs the whole suite: the linter (ruff, [tool.ruff] in pyproject.toml) and the type checker
# (mypy --strict over app/, [tool.mypy]) first, then pytest with the given arguments, on one
# worker process per core (pytest-xdist; tests/conftest.py keeps a file sharing a
# module-scoped fixture on one worker and hands out the long tests first). `-n 0` among the
# arguments runs serially.
# pytest's exit code 5 (no tests collected) counts as a failure.
set -u
BIN=${1:-.venv/bin}
cd "$(dirname "$0")/.." || exit 1
"$BIN/ruff" check app tests bench || { echo "ruff found problems: failing" >&2; exit 1; }
"$BIN/mypy" || { echo "mypy --strict found problems in app/: failing" >&2; exit 1; }
"$BIN/python" -m pytest -n auto --dist loadgroup "${@:2}"
rc=$?
if [ "$rc" = 5 ]; then
  echo "pytest collected no tests: failing" >&2
  exit 1
fi
exit "$rc"
