"""Requests of the wrong shape: the first problem webargs (marshmallow) names, with its field's
path, said in the request's language."""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask_babel import gettext as _


def first_message(messages: Any, path: str = "") -> tuple[str | None, str]:
    """(path, message) of the first problem in webargs' nested messages."""
    if isinstance(messages, dict):
        for key, value in messages.items():
            if key in ("json", "query", "headers"):
                return first_message(value, path)
            return first_message(value, _sub_path(path, key))
    if isinstance(messages, list) and messages:
        return (path or None), shape_words(str(messages[0]))
    return (path or None), _("The request has the wrong shape.")


#: marshmallow's own messages (English), said in the request's language, their numbers and
#: choices read from them.
_SHAPE_RULES: tuple[tuple[re.Pattern[str], Callable[..., str]], ...] = (
    (re.compile(r"Not a valid (integer|number)\.$"), lambda: _("Not a whole number.")),
    (re.compile(r"Not a valid (string|boolean|list|mapping type|date|datetime)\.$|Invalid input type\.$"),
     lambda: _("Not the right kind of value.")),
    (re.compile(r"Missing data for required field\.$"), lambda: _("Missing: this field is required.")),
    (re.compile(r"Unknown field\.$"), lambda: _("Unknown field.")),
    (re.compile(r"Field may not be null\.$"), lambda: _("May not be empty (null).")),
    (re.compile(r"Must be one of: (?P<values>.*)\.$"),
     lambda values: _("Must be one of: %(values)s.", values=values)),
    (re.compile(r"String does not match expected pattern\.$"), lambda: _("Not in the expected form.")),
    (re.compile(r"Length must be between (?P<lo>\d+) and (?P<hi>\d+)\.$"),
     lambda lo, hi: _("Length must be from %(lo)s to %(hi)s.", lo=lo, hi=hi)),
    (re.compile(r"Longer than maximum length (?P<hi>\d+)\.$"), lambda hi: _("At most %(hi)s long.", hi=hi)),
    (re.compile(r"Shorter than minimum length (?P<lo>\d+)\.$"), lambda lo: _("At least %(lo)s long.", lo=lo)),
    (re.compile(r"Length must be (?P<n>\d+)\.$"), lambda n: _("Length must be %(n)s.", n=n)),
    (re.compile(r"Must be greater than or equal to (?P<lo>\S+) and less than or equal to (?P<hi>\S+)\.$"),
     lambda lo, hi: _("Must be from %(lo)s to %(hi)s.", lo=lo, hi=hi)),
    (re.compile(r"Must be greater than or equal to (?P<lo>\S+)\.$"),
     lambda lo: _("Must be at least %(lo)s.", lo=lo)),
    (re.compile(r"Must be less than or equal to (?P<hi>\S+)\.$"),
     lambda hi: _("Must be at most %(hi)s.", hi=hi)),
)


def shape_words(message: str) -> str:
    """One of marshmallow's messages in the request's language (as it is when unknown)."""
    for pattern, words in _SHAPE_RULES:
        found = pattern.match(message)
        if found:
            return str(words(**found.groupdict()))
    return message


def _sub_path(path: str, key: Any) -> str:
    """The path of ``key`` below ``path``: ``path.key``, ``path[key]`` for an index, the key
    alone at the top."""
    if not path:
        return str(key)
    return f"{path}[{key}]" if str(key).isdigit() else f"{path}.{key}"
