"""The suite's own scheduling (tests/conftest.py): under ``--dist loadgroup`` the tests of a
file sharing a module-scoped fixture run on one worker, so the fixture is built once and
never by two processes at once (xdist 3.8 wrote the group into a node id that pytest 9.2 no
longer reads: the typeset tests' PDFs were built on both workers and a picture read while
the other rewrote it)."""
from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.conftest import REPO


def test_a_file_sharing_a_module_fixture_runs_on_one_worker():
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-v", "-p", "no:cacheprovider",
         "tests/printing/test_join.py", "-k", "not does_not_grow"],
        cwd=REPO, capture_output=True, text=True, timeout=300,
        env={k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")})
    assert run.returncode == 0, run.stdout[-3000:]
    passed = r"\[(gw\d+)\][^\n]*PASSED[^\n]*test_join\.py::\w+@tests/printing/test_join\.py"
    workers = re.findall(passed, run.stdout)
    assert len(workers) == 4, run.stdout[-3000:]
    assert len(set(workers)) == 1, workers
