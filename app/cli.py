"""The ``kingsheet`` command.

``kingsheet score FILE …`` prints the score report of RECORD.md: one file, the report;
several, one compact JSON line each; ``-`` reads standard input. Any invalid record exits 1
with ``PATH: field: message`` -- never a traceback, and the batch goes on; files over 16 MB
are refused before they are read (see app/files.py). ``kingsheet serve`` starts the web app.
"""
from __future__ import annotations

import argparse
import gc
import json
import sys
from typing import Any

from app import create_app
from app.files import FileProblem, read_limited
from app.rules import RecordError, score_record
from app.rules.limits import read_json


def _score_one(path: str) -> tuple[dict[str, Any] | None, str | None]:
    """(report, None) or (None, "PATH: message") -- whatever the file holds."""
    try:
        return score_record(read_json(read_limited(path))), None
    except FileProblem as e:
        return None, f"{path}: {e}"
    except RecordError as e:
        return None, f"{path}: {e}"
    except RecursionError:
        return None, f"{path}: record: nested too deeply"
    except MemoryError:
        return None, f"{path}: record: too large to score"
    except Exception as e:  # noqa: BLE001 - a batch goes on; the file is named, never a traceback
        return None, f"{path}: record: cannot be scored ({type(e).__name__}: {e})"


def score(paths: list[str]) -> int:
    if len(paths) == 1:
        report, error = _score_one(paths[0])
        if error is not None:
            print(error, file=sys.stderr)
            return 1
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return 0
    failed = False
    out = sys.stdout
    for path in paths:
        report, error = _score_one(path)
        if error is not None:
            failed = True
            out.write(json.dumps({"error": error}, ensure_ascii=False) + "\n")
        else:
            out.write(json.dumps(report, ensure_ascii=False, separators=(",", ":")) + "\n")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="kingsheet", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_score = sub.add_parser("score", help="print the score report of game records")
    p_score.add_argument("files", nargs="+", metavar="FILE", help="record files, - for stdin")
    p_serve = sub.add_parser("serve", help="start the web app (development server)")
    p_serve.add_argument("--host", default="127.0.0.1")
    p_serve.add_argument("--port", type=int, default=5000)
    args = parser.parse_args(argv)
    if args.command == "score":
        for stream in (sys.stdout, sys.stderr):   # a message never fails to print
            if hasattr(stream, "reconfigure"):
                stream.reconfigure(errors="backslashreplace")
        # A short-lived batch: the reports hold no reference cycles worth collecting, and
        # the cyclic collector would otherwise rescan every hand object many times over.
        gc.disable()
        return score(args.files)
    create_app().run(host=args.host, port=args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
