"""Issue 8, item 11: ``kingsheet score`` on hostile files -- always ``PATH: message`` and
exit 1, the batch goes on, no file is read whole past 16 MB, nothing hangs, and the CLI
accepts what the web import accepts (a UTF-8 byte order mark)."""
from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from .helpers import RECORDS, run_cli, write_json

GOOD = json.loads((RECORDS / "ru32_complete.json").read_text())


def _surrogate_name(tmp_path: Path) -> Path:
    record = dict(GOOD, players=["Ana\ud800", "Beto", "Carla", "Dani"])
    path = tmp_path / "surrogate.json"
    path.write_text(json.dumps(record))   # "\ud800" escaped: valid JSON, invalid text
    return path


def _deep(tmp_path: Path) -> Path:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    return path


def _huge_int(tmp_path: Path) -> Path:
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(GOOD).replace('"first_dealer": 0', '"first_dealer": ' + "7" * 5000))
    assert "7" * 5000 in path.read_text()
    return path


def _big_points(tmp_path: Path) -> Path:
    record = json.loads(json.dumps(GOOD))
    record["hands"][0]["ruling"] = {"kind": "adjusted", "reason": "x",
                                    "points": [10**400, -(10**400), 0, -80]}
    return write_json(tmp_path / "points.json", record)


@pytest.mark.parametrize(("make", "words"), [
    (_surrogate_name, "players[0]: is not valid Unicode text"),
    (_deep, "record: is nested too deeply"),
    (_huge_int, "record: is too large"),
    (_big_points, "hands[0].ruling.points[0]: is too large"),
])
def test_hostile_file_is_one_line_naming_it(tmp_path, make, words):
    path = make(tmp_path)
    proc = run_cli(str(path))
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip() == proc.stderr.strip().splitlines()[0]
    assert proc.stderr.startswith(f"{path}: {words}"), proc.stderr


def test_a_bad_file_never_stops_the_batch(tmp_path):
    good = write_json(tmp_path / "good.json", GOOD)
    files = [good, _deep(tmp_path), _surrogate_name(tmp_path), _huge_int(tmp_path), good]
    proc = run_cli(*map(str, files))
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    lines = [json.loads(x) for x in proc.stdout.strip().split("\n")]
    assert len(lines) == 5
    assert lines[0] == lines[4] and lines[0]["profile"] == "ru32"
    for path, line in zip(files[1:4], lines[1:4], strict=True):
        assert line["error"].startswith(f"{path}: ")


def test_dev_zero_is_refused_at_the_size_limit():
    proc = run_cli("/dev/zero")
    assert proc.returncode == 1
    assert proc.stderr.startswith("/dev/zero: larger than 16 MB")


def test_a_large_file_is_refused_from_its_size(tmp_path):
    path = tmp_path / "sparse.json"
    with open(path, "wb") as fh:        # 17 MB, sparse: nothing is written or read
        fh.truncate(17 * 1024 * 1024)
    proc = run_cli(str(path))
    assert proc.returncode == 1
    assert proc.stderr.strip() == f"{path}: larger than 16 MB; a record file is far smaller"


def test_a_fifo_without_writer_does_not_hang(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    good = write_json(tmp_path / "good.json", GOOD)
    proc = run_cli(str(fifo), str(good))     # run_cli's timeout turns a hang into a failure
    assert proc.returncode == 1
    lines = [json.loads(x) for x in proc.stdout.strip().split("\n")]
    assert lines[0]["error"].startswith(f"{fifo}: record: not valid JSON")
    assert lines[1]["profile"] == "ru32"


def test_a_fifo_with_a_writer_is_read(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    data = json.dumps(GOOD).encode()

    def write() -> None:
        with open(fifo, "wb") as fh:
            fh.write(data)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        # the writer blocks in open() until the CLI opens the FIFO; the CLI may open it
        # first (then it sees no writer yet), so accept either, but never a hang
        proc = run_cli(str(fifo))
    finally:
        if writer.is_alive():
            with open(fifo, "rb") as fh:
                fh.read()
        writer.join()
    assert proc.returncode in (0, 1)
    assert "Traceback" not in proc.stderr


def test_a_directory_is_named(tmp_path):
    proc = run_cli(str(tmp_path))
    assert proc.returncode == 1 and proc.stderr.strip() == f"{tmp_path}: is a directory"


def test_byte_order_mark_is_accepted_like_the_web_import(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(GOOD).encode())
    proc = run_cli(str(path))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["profile"] == "ru32"
    proc = run_cli("-", stdin="\ufeff" + json.dumps(GOOD))
    assert proc.returncode == 0, proc.stderr
