"""Names that look alike: the confusable skeleton of Unicode Technical Standard #39.

``skeleton("Аna") == skeleton("Ana")`` although the first starts with a Cyrillic А: two
names with one skeleton look the same to a reader. The skeleton is NFD, then each
character replaced by its prototype from Unicode's confusables data
(``confusables.tsv`` beside this file, Unicode 13.0), then NFD again (UTS #39 §4).

Why not a library: the PyPI packages that hold this data do not compute the skeleton --
``confusable-homoglyphs`` answers whether one character is confusable with another
script's, ``confusables`` compares two strings or lists their ASCII look-alikes (lower-
cased, every combination) -- so neither lets a roster be grouped by skeleton. The
algorithm is a few lines; the data is Unicode's own file, kept here. Pure Python.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import cache, lru_cache
from pathlib import Path

DATA = Path(__file__).with_name("confusables.tsv")


@cache
def prototypes() -> dict[str, str]:
    """Each confusable character -> its prototype (one or more characters)."""
    table: dict[str, str] = {}
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        source, target = line.split("\t")
        table[chr(int(source, 16))] = "".join(chr(int(cp, 16)) for cp in target.split())
    return table


@lru_cache(maxsize=65536)
def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text``: equal skeletons, confusable texts."""
    table = prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def look_alikes(name: str, others: Iterable[str]) -> list[str]:
    """The names of ``others`` that look like ``name`` without being it."""
    own = skeleton(name)
    return [other for other in others if other != name and skeleton(other) == own]
