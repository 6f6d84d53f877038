"""Names in alphabetical order as people expect them (issue 14.7): "Óscar" between "Nuria"
and "Pablo", not after "Zoe" as a byte or ``lower()`` order puts it.

No ICU is needed: the key folds accents and case (Unicode NFKD without combining marks,
then ``casefold``), keeps Spanish "ñ" as its own letter after "n", and breaks ties by the
name itself, so the order is total and stable. Cyrillic folds the same way ("ё" sorts
with "е", as Russian dictionaries do); Turkish "ç", "ğ", "ö", "ş", "ü" sort with their
base letters (a documented approximation, docs/decisions.md).
"""
from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")

_AFTER_N = "n\U0010ffff"   # "ñ": after every "n…", before "o"


def name_key(name: str) -> tuple[str, str]:
    text = name.replace("ñ", "\x00").replace("Ñ", "\x00")
    folded = "".join(c for c in unicodedata.normalize("NFKD", text)
                     if not unicodedata.combining(c)).casefold()
    return folded.replace("\x00", _AFTER_N), name


def folded_name(name: str) -> str:
    """The first part of :func:`name_key`, stored with each player (``Player.folded_name``)
    so that SQL orders the roster as :func:`by_name` does (the folded name, then the name,
    both compared by code point) and finds a name by any part of it, whatever its accents
    or case ("oscar" finds "Óscar")."""
    return name_key(name)[0]


def by_name(items: Iterable[T], name: Callable[[T], str]) -> list[T]:
    """The items sorted by ``name_key`` of their name."""
    return sorted(items, key=lambda item: name_key(name(item)))
