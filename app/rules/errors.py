"""The engine's one exception family.

Every error carries a stable ``code``, a ``message`` in words a player understands and
the ``field`` path it is about (``hands[3].counts.hearts``). Three kinds, as python-chess
separates its move errors:

* :class:`InputError` -- cannot read this (type, key, card text, a card played twice);
* :class:`RuleError` -- not allowed now (a call out of turn, a rifki limit, a wrong leader);
* :class:`SumError` -- does not add up (counts, captures, ruling points).

All of them are :class:`RecordError`, which is what callers catch.
"""
from __future__ import annotations


class RecordError(Exception):
    """A record (or an entry) the engine refuses. ``str(e) == "field: message"``."""

    kind = "record"

    def __init__(self, field: str, message: str, code: str = "invalid") -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message
        self.code = code

    def at(self, prefix: str) -> "RecordError":
        """The same error with its field placed under ``prefix`` (``hands[2]`` + ``.x``)."""
        field = f"{prefix}.{self.field}" if self.field and not self.field.startswith("[") else prefix + self.field
        return type(self)(field, self.message, self.code)


class InputError(RecordError):
    kind = "input"


class RuleError(RecordError):
    kind = "rule"


class SumError(RecordError):
    kind = "sum"
