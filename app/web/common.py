"""What every view needs and no view owns: the page's language, a game or 404, a safe
redirect target, the rows a long table shows, and a game's version check. Views import
these from here, never from one another (tests/test_architecture.py)."""
from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from flask import abort, g, jsonify, request

from app.db import get_session
from app.games import queries
from app.security import id_arg
from app.web import versions
from app.web.messages import service_text
from app.web.words import current_lang, iso_utc

T = TypeVar("T")

#: The page's language, for every view (app.web.words.current_lang).
lang = current_lang

#: Rows of a long table a page shows unless asked for all (``?all=1``).
SHOWN = 50


def found_or_404(value: T | None) -> T:
    """``value``, or a 404 page when it was not found (a game, a season, a link, a user)."""
    if value is None:
        abort(404)
    return value


def load_game_or_404(game_id: int) -> Any:
    return found_or_404(queries.get_game(get_session(), game_id))


def new_hand_row(game: Any) -> tuple[int, bool]:
    """(hand row index, taken) of a new hand's entry. The address names the row the entry is
    for (``row``): when another phone recorded that row meanwhile, the entry stays on it
    (``taken``: saving offers to replace theirs), never carried to the next hand or added
    twice."""
    row = request.args.get("row", type=id_arg)
    if row is not None and 1 <= row <= len(game.hands):
        return row - 1, True
    return len(game.hands), False


def stored_row_or_404(game: Any, row: int) -> int:
    """The index of stored hand row ``row`` (1-based), or 404."""
    if not 1 <= row <= len(game.hands):
        abort(404)
    return row - 1


def safe_next(target: str | None, default: str = "/") -> str:
    """Only local paths: never redirect to another site."""
    if not target:
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return default
    return target


def shown(rows: list[Any]) -> list[Any]:
    return rows if request.args.get("all") == "1" else rows[:SHOWN]


def remember_table_stamp(game_id: int, confirmations: int) -> None:
    """The confirmations of a game as its page read them (``table_stamp`` then reads none)."""
    g.setdefault("table_stamps", {})[game_id] = confirmations


def known_table_stamp(game_id: int) -> int | None:
    found: dict[int, int] = g.get("table_stamps", {})
    return found.get(game_id)


def stamp_body(found: Any) -> dict[str, Any]:
    """What a version check answers when the phone's version is not the game's (also
    written by app/games/sheet/fast_poll.py, before Flask)."""
    return {"version": found.version, "updated_at": iso_utc(found.updated_at) or None,
            "table": found.confirmations}


def stamp_response(game_id: int) -> Any:
    """The version check of a game (also behind its share link)."""
    # read with the login already (app.accounts.auth.poll_guard), else now
    found = g.pop("live_stamp") if "live_stamp" in g else queries.game_stamp(get_session(), game_id)
    if found is None:
        abort(404)
    return versions.answer(versions.game_tag(found.version, found.confirmations),
                           lambda: jsonify(stamp_body(found)))


# --- CSV downloads ------------------------------------------------------------------------

#: What makes a spreadsheet read a cell as a formula (OWASP's "CSV injection" list).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


#: The same, as a set of first characters (each start above is one character).
FORMULA_FIRST = frozenset(FORMULA_START)


def csv_row(row: list[Any]) -> list[Any]:
    """A row whose text cells a spreadsheet shows as text: one starting like a formula gets
    a leading apostrophe (numbers are left alone). A row at a time: a player's CSV has
    thousands of rows, and a function call per cell was a third of its time."""
    return [("'" + v) if isinstance(v, str) and v[:1] in FORMULA_FIRST else v for v in row]


class SafeCsvWriter:
    """csv.writer whose text cells never start a formula."""

    def __init__(self, out: io.StringIO) -> None:
        self._writer = csv.writer(out)

    def writerow(self, row: list[Any]) -> None:
        self._writer.writerow(csv_row(row))

    def writerows(self, rows: Iterable[list[Any]]) -> None:
        self._writer.writerows(map(csv_row, rows))


def refused_for_lock(form: Any, e: Any, errors: dict[str, list[str]]) -> None:
    """A save refused because the sheet is locked: the message goes next to the reason field
    (a director's correction needs one) or, for anyone else, at the top of the form; the
    values typed stay in the form (issue 27.3)."""
    message = service_text(e)
    field = getattr(form, "correction", None)
    if field is not None:
        field.errors = [*(field.errors or []), message]
    errors.setdefault("__all__" if field is None else "correction", []).append(message)
