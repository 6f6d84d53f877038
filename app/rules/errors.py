"""The engine's one exception family.

Every error carries a stable ``code``, a ``message`` in words a player understands and
the ``field`` path it is about (``hands[3].counts.hearts``). Three kinds, as python-chess
separates its move errors:

* :class:`InputError` -- cannot read this (type, key, card text, a card played twice);
* :class:`RuleError` -- not allowed now (a call out of turn, a rifki limit, a wrong leader);
* :class:`SumError` -- does not add up (counts, captures, ruling points).

All of them are :class:`RecordError`, which is what callers catch.

Messages are translatable: each error keeps its English ``template`` with named
placeholders (``"%(element)s add up to %(total)s"``) and the ``params`` that fill it, and
``message == template % params``. Build one with :meth:`RecordError.of`; its template must
be a string literal, so the web's catalog can be checked against the source. A param that is
a word rather than a value (an element, a contract, a type, a phrase) is a :class:`Term`:
it prints as English and carries a ``kind`` and an ``id`` the web translates.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from app.rules.fields import FieldPath

_E = TypeVar("_E", bound="RecordError")


class Term(str):
    """A word in a message: prints as its English ``text``; ``kind``/``id`` name it.

    Kinds: ``element`` (tricks, hearts, ... RULES.md §0), ``contract`` (a contract id),
    ``type`` (what a JSON value is: null, text, a number ...), ``what`` (what a value must
    be: a list of four counts ...).
    """

    kind: str
    id: str

    def __new__(cls, text: str, kind: str, id: str | None = None) -> Term:
        term = super().__new__(cls, text)
        term.kind = kind
        term.id = text if id is None else id
        return term

    def __reduce__(self) -> tuple[object, ...]:
        return (Term, (str(self), self.kind, self.id))


class RecordError(Exception):
    """A record (or an entry) the engine refuses. ``str(e) == "field: message"``."""

    kind = "record"

    def __init__(self, field: str, message: str, code: str = "invalid",
                 template: str | None = None,
                 params: Mapping[str, object] | None = None) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message
        self.code = code
        #: the English message with named placeholders (a catalog msgid)
        self.template = message.replace("%", "%%") if template is None else template
        #: what fills the placeholders (a word is a :class:`Term`)
        self.params: dict[str, object] = dict(params) if params else {}

    @classmethod
    def of(cls: type[_E], field: str, code: str, template: str, /, **params: object) -> _E:
        """The error at ``field`` whose message is ``template % params`` (a literal template)."""
        return cls(field, template % params, code, template, params)

    @property
    def path(self) -> FieldPath:
        """The field as a value (which hand, which key): :class:`app.rules.fields.FieldPath`."""
        return FieldPath.parse(self.field)

    def moved(self, field: str) -> RecordError:
        """The same error (kind, code, template, params) about another field."""
        return type(self)(field, self.message, self.code, self.template, self.params)

    def at(self, prefix: str) -> RecordError:
        """The same error with its field placed under ``prefix`` (``hands[2]`` + ``.x``)."""
        field = (f"{prefix}.{self.field}" if self.field and not self.field.startswith("[")
                 else prefix + self.field)
        return self.moved(field)


class InputError(RecordError):
    kind = "input"


class RuleError(RecordError):
    kind = "rule"


class SumError(RecordError):
    kind = "sum"


def element(e: str) -> Term:
    """A scoring element (``hearts``, ``last_two`` ...) as a word of a message."""
    return Term(e, "element")


def contract_term(cid: str, name_en: str) -> Term:
    """A contract as a word of a message: its English name, translated by id."""
    return Term(name_en, "contract", cid)
