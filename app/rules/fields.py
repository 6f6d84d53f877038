"""A field path as a value: ``hands[3].counts.hearts[2]`` read once, printed as it was read.

Every :class:`~app.rules.errors.RecordError` names the field it is about with such a path;
pages that place an error next to its input ask :meth:`FieldPath.parse` what the path says
(which hand, which key) instead of cutting the text apart themselves.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_PART = re.compile(r"\[(\d+)\]|\.?([^.\[\]]+)")

#: The keys under which a hand's entry lists its elements (``counts.hearts``).
ENTRY_KEYS = ("counts", "captures")


@dataclass(frozen=True, slots=True)
class FieldPath:
    """The parts of a field path: keys (str) and list indices (int), in order."""

    parts: tuple[str | int, ...] = ()

    @classmethod
    def parse(cls, text: str | None) -> FieldPath:
        """``"hands[3].counts.hearts"`` -> ``("hands", 3, "counts", "hearts")``."""
        parts: list[str | int] = []
        for m in _PART.finditer(text or ""):
            index, key = m.groups()
            parts.append(int(index) if index is not None else key)
        return cls(tuple(parts))

    def __str__(self) -> str:
        out = ""
        for part in self.parts:
            if isinstance(part, int):
                out += f"[{part}]"
            else:
                out += f".{part}" if out else part
        return out

    @property
    def hand(self) -> int | None:
        """The hand row (0-based) a ``hands[i]…`` path is about, else None."""
        if len(self.parts) >= 2 and self.parts[0] == "hands" and isinstance(self.parts[1], int):
            return self.parts[1]
        return None

    def within(self, index: int | None = None) -> FieldPath:
        """The path below hand ``index`` (``hands[i].`` taken off; the path itself when it is
        about no hand or, given ``index``, about another one)."""
        hand = self.hand
        if hand is None or (index is not None and hand != index):
            return self
        return FieldPath(self.parts[2:])

    @property
    def key(self) -> str | None:
        """The first key (``counts.hearts[2]`` -> ``counts``), or None."""
        return next((p for p in self.parts if isinstance(p, str)), None)

    @property
    def element(self) -> str | None:
        """The key an input stands for: under ``counts``/``captures``, the element named
        (``counts.hearts[2]`` -> ``hearts``, ``captures.cards[1]`` -> ``cards``); else the
        first key."""
        keys = [p for p in self.parts if isinstance(p, str)]
        if len(keys) >= 2 and keys[0] in ENTRY_KEYS:
            return keys[1]
        return keys[0] if keys else None

    def after(self, key: str) -> str | None:
        """The key following ``key`` (``ruling.points[2]``, after ``ruling`` -> ``points``)."""
        keys = [p for p in self.parts if isinstance(p, str)]
        if key in keys[:-1]:
            return keys[keys.index(key) + 1]
        return None


__all__ = ["ENTRY_KEYS", "FieldPath"]
