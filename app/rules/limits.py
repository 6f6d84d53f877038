"""What any input may hold: the one place for text and size limits at the record boundary.

Every record -- imported, posted to the API, scored by the CLI, built from a form -- is
walked once by :func:`check_value` before the engine reads it: no nesting deeper than a
record needs, no integer larger than any score, no text that is not valid Unicode, holds a
control character or is longer than the longest field a form accepts. The engine then
applies the field's own limit (:data:`NAME_MAX`, :data:`REASON_MAX`) and stores names and
reasons in Unicode normal form C (:func:`clean_text`), so that "José" typed on two phones
is one player. Names (players, users, seasons, a ruling's "by") hold no invisible or
text-direction character (:func:`check_name`), and a reason has visible text
(:func:`has_visible_text`): the one rule for both, used at every door. Everything here is
pure Python (the engine's layer).
"""
from __future__ import annotations

import json
import math
import unicodedata
from typing import Any

from app.rules.errors import InputError

#: A player's name, a scorer's name, a ruling's "by" (the forms' limits).
NAME_MAX = 60
#: A ruling's reason (the ruling form's limit).
REASON_MAX = 300
#: Any other text in a record (a card, a call, a contract id ...): far more than any needs.
TEXT_MAX = 600
#: Containers inside containers: a record needs 6 (record > hands > hand > captures >
#: cards > one seat's list); anything much deeper is junk.
DEPTH_MAX = 12
#: The largest magnitude of any number in a record (scores are in the hundreds).
INT_MAX = 10**9
#: The largest magnitude of one seat's adjusted points a ruling form accepts (a hand's
#: points are in the hundreds; the engine checks that they add up).
POINTS_MAX = 100_000
#: Replay rulings of one hand (RULES.md §3 sets no limit; a table re-deals a few times at
#: most, and every replay is a row of the sheet).
REPLAY_MAX = 3
#: Files and request bodies holding one record (the web's MAX_CONTENT_LENGTH is smaller).
FILE_MAX = 16 * 1024 * 1024


def check_text(text: str, fld: str, limit: int = TEXT_MAX) -> None:
    """InputError naming ``fld`` unless ``text`` is valid Unicode without control characters
    and at most ``limit`` characters long."""
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise InputError.of(fld, "unicode", "is not valid Unicode text (a lone surrogate)") \
                from None
        printable = not any(unicodedata.category(ch) == "Cc" for ch in text)
    else:
        printable = text.isprintable()
    if not printable:
        raise InputError.of(fld, "control-character", "contains a control character")
    if len(text) > limit:
        raise InputError.of(fld, "too-long", "is too long: at most %(limit)s characters, not %(n)s",
                            limit=limit, n=len(text))


#: The bidi controls (embeddings, overrides, isolates, marks): all of category Cf, named
#: here so the rule reads as it is meant.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")
#: Categories a name never holds: controls, format characters (zero-width spaces and
#: joiners, the soft hyphen, the byte order mark, the bidi controls) and the line and
#: paragraph separators.
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
#: Letters that show as nothing (Hangul fillers, the blank Braille pattern).
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def is_invisible(ch: str) -> bool:
    """A character that shows nothing or turns the text around: no name may hold it."""
    return (ch in BIDI_CONTROLS or ch in BLANK_LETTERS
            or unicodedata.category(ch) in INVISIBLE_CATEGORIES)


def invisible_character(text: str) -> str | None:
    """The first invisible or text-direction character of ``text`` as ``U+XXXX`` (None: none)."""
    if text.isascii():
        return None if text.isprintable() else next(f"U+{ord(c):04X}" for c in text
                                                     if not c.isprintable())
    return next((f"U+{ord(c):04X}" for c in text if is_invisible(c)), None)


def has_visible_text(text: str) -> bool:
    """True when ``text`` shows something: a character that is not a space, a control, a
    format character or a blank letter (a lone zero-width space is no reason)."""
    return any(not (ch.isspace() or is_invisible(ch) or unicodedata.category(ch).startswith("Z"))
               for ch in text)


def check_name(text: str, fld: str, limit: int = NAME_MAX) -> str:
    """A name (of a player, a user, a season, a ruling's "by"): :func:`clean_text`, then
    InputError naming ``fld`` for an invisible or text-direction character."""
    text = clean_text(text, fld, limit)
    found = invisible_character(text)
    if found is not None:
        raise InputError.of(fld, "invisible-character",
                            "contains an invisible or text-direction character (%(char)s)",
                            char=found)
    return text


def clean_text(text: str, fld: str, limit: int = TEXT_MAX) -> str:
    """``text`` checked (see :func:`check_text`) and in Unicode normal form C."""
    if not text.isascii():
        check_text(text, fld, 10 * limit)
        text = unicodedata.normalize("NFC", text)
    check_text(text, fld, limit)
    return text


def _child(fld: str, key: object) -> str:
    if isinstance(key, int):
        return f"{fld}[{key}]"
    return f"{fld}.{key}" if fld else str(key)


# The walk every record takes, a level of nesting at a time: two calls per level, none per
# container or value, for speed.
def _plainly_fine(data: object) -> bool:
    """True when the JSON value holds nothing :func:`check_value` refuses, found without
    building a field path per value (the walk every record takes); False when something may
    be wrong or unusual (then the careful walk names it)."""
    if type(data) is not dict and type(data) is not list:
        return False
    level: list[Any] | None = [data]
    depth = 1
    while level:
        if depth > DEPTH_MAX:
            return False
        values = _values_of(level)
        if values is None:
            return False
        level = _plain_level(values)
        depth += 1
    return level is not None


def _values_of(level: list[Any]) -> list[Any] | None:
    """The values of each container of a level (a dict's, a list itself); None when some
    dict has a key that is not plainly fine."""
    values = []
    for container in level:
        if type(container) is dict:
            if not _plain_keys(container):
                return None
            container = container.values()
        values.append(container)
    return values


_CONTAINERS = (dict, list)
_PLAIN_ATOMS = (bool, type(None))


def _plain_level(values: list[Any]) -> list[Any] | None:
    """The containers one level down; None when some text, number or atom among the
    ``values`` (of the containers of a level) is not plainly fine."""
    below: list[Any] = []
    push = below.append
    for items in values:
        for item in items:
            kind = type(item)
            if kind is str:
                fine = (len(item) <= TEXT_MAX and item.isascii() and item.isprintable()
                        or _plain_text(item))
            elif kind is int:
                fine = -INT_MAX <= item <= INT_MAX
            elif kind in _CONTAINERS:
                push(item)
                continue
            else:                   # null and booleans; anything else is looked at closely
                fine = kind in _PLAIN_ATOMS
            if not fine:
                return None
    return below


def _plain_keys(value: dict[Any, Any]) -> bool:
    return all(type(key) is str and len(key) <= TEXT_MAX and key.isascii() and key.isprintable()
               for key in value)


def _plain_text(text: str) -> bool:
    try:
        check_text(text, "")
    except InputError:
        return False
    return True


def check_value(data: object, fld: str = "") -> None:
    """The whole JSON value walked once (no recursion): InputError at the first container
    nested too deeply, number too large or text that no field may hold."""
    if _plainly_fine(data):
        return
    stack: list[tuple[object, str, int]] = [(data, fld, 1)]
    while stack:
        value, where, depth = stack.pop()
        if not isinstance(value, (dict, list)):
            _check_scalar(value, where)
            continue
        if depth > DEPTH_MAX:
            raise InputError.of(where or "record", "too-deep",
                                "is nested too deeply (at most %(limit)s levels)",
                                limit=DEPTH_MAX)
        stack.extend(reversed(_children(value, where, depth)))


def _children(value: dict[Any, Any] | list[Any], where: str, depth: int
              ) -> list[tuple[object, str, int]]:
    """The values in a container with their fields (a key no field may hold refused)."""
    items: Any = value.items() if isinstance(value, dict) else enumerate(value)
    children = []
    for key, item in items:
        if isinstance(key, str) and not (key.isascii() and key.isprintable()
                                         and len(key) <= TEXT_MAX):
            check_text(key, _child(where, "?"))
        children.append((item, _child(where, key), depth + 1))
    return children


def _check_scalar(value: object, where: str) -> None:
    if isinstance(value, str):
        if len(value) > TEXT_MAX or not (value.isascii() and value.isprintable()):
            check_text(value, where or "record")
    elif isinstance(value, (int, float)) and not isinstance(value, bool) and _too_large(value):
        raise InputError.of(where or "record", "too-large",
                            "is too large: numbers go up to %(limit)s", limit=INT_MAX)


def _too_large(value: int | float) -> bool:
    if isinstance(value, int):
        return not -INT_MAX <= value <= INT_MAX
    return not math.isfinite(value) or abs(value) > INT_MAX


class _Constant(ValueError):
    """NaN or Infinity in the JSON text (not JSON, though Python reads it)."""


def _refuse_constant(name: str) -> Any:
    raise _Constant(name)


def read_json(raw: bytes) -> Any:
    """The JSON value of a record file or request body: UTF-8 (a byte order mark is
    accepted), strict JSON; InputError at ``record`` otherwise (never RecursionError or
    ValueError). The value still has to pass :func:`check_value`."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError.of("record", "encoding", "not UTF-8 text") from None
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as e:
        raise InputError.of("record", "json", "not valid JSON (%(msg)s at line %(line)s column "
                            "%(column)s)", msg=e.msg, line=e.lineno, column=e.colno) from None
    except RecursionError:
        raise InputError.of("record", "too-deep", "is nested too deeply (at most %(limit)s levels)",
                            limit=DEPTH_MAX) from None
    except _Constant as e:
        raise InputError.of("record", "json", "not valid JSON (%(msg)s at line %(line)s column "
                            "%(column)s)", msg=f"{e} is not a number in JSON", line=1,
                            column=text.find(str(e)) + 1) from None
    except ValueError:  # an integer of more digits than Python converts
        raise InputError.of("record", "too-large", "is too large: numbers go up to %(limit)s",
                            limit=INT_MAX) from None
