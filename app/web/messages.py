"""Engine messages in the page's language.

Every engine error keeps its English ``template`` (a msgid of the catalog) and the
``params`` that fill it; the page shows ``gettext(template) % params``. A param that is a
word (an :class:`app.rules.Term`: an element, a contract, what a value is or must be) is
translated here by its kind and id. No message is matched on its wording; an error the
catalog does not know is shown as the engine wrote it, always under the field it names.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import Flask
from flask_babel import get_translations, gettext, pgettext
from flask_babel import lazy_gettext as _l

from app.errors import Text
from app.rules import RecordError, Term
from app.rules.game.record import TYPE_NAMES, WHAT
from app.rules.profiles import ELEMENTS
from app.web.forms import COUNT_LABELS
from app.web.words import CONTRACTS, call_text, contract_name, current_lang, signed

FIELD_LABELS = {
    **COUNT_LABELS, "kh": _l("King of hearts"), "last_two": _l("Last two tricks"),
    "cards": _l("Cards taken"), "contract": _l("Contract"), "trump": _l("Trump"),
    "leader": _l("Leader"), "auction": _l("Auction"), "ruling": _l("Ruling"),
}

#: The words a message may hold, by Term kind: their ids. Each is translated through the
#: catalog as ``msgctxt`` = kind, ``msgid`` = id (``pgettext``), so every language has them
#: in its .po file; English keeps the Term's own text.
TERM_IDS: dict[str, tuple[str, ...]] = {
    "element": ELEMENTS,
    "type": (*TYPE_NAMES, "other"),
    "what": tuple(WHAT),
}

#: Engine templates that hold a count: (the singular msgid, the count's param). The
#: template itself is the plural msgid, so ``ngettext`` picks the form the count needs.
PLURALS: dict[str, tuple[str, str]] = {
    "koz has been played %(n)s times already": ("koz has been played %(n)s time already", "n"),
    "seat %(seat)s (%(name)s) has already chosen koz %(n)s times (3+2)":
        ("seat %(seat)s (%(name)s) has already chosen koz %(n)s time (3+2)", "n"),
    "%(contract)s has been played %(n)s times already":
        ("%(contract)s has been played %(n)s time already", "n"),
    "seat %(seat)s (%(name)s) has already chosen %(n)s penalties (3+2)":
        ("seat %(seat)s (%(name)s) has already chosen %(n)s penalty (3+2)", "n"),
    "seat %(seat)s (%(name)s) took at least %(cards)s scoring cards in %(tricks)s tricks "
    "(4 cards a trick)":
        ("seat %(seat)s (%(name)s) took at least %(cards)s scoring cards in %(tricks)s trick "
         "(4 cards a trick)", "tricks"),
    "seat %(seat)s (%(name)s) took %(last)s of the last two tricks but %(tricks)s tricks in all":
        ("seat %(seat)s (%(name)s) took %(last)s of the last two tricks but %(tricks)s trick "
         "in all", "tricks"),
    "seat %(seat)s (%(name)s) was dealt %(n)s cards, not %(got)s":
        ("seat %(seat)s (%(name)s) was dealt %(n)s card, not %(got)s", "n"),
    "%(n)s tricks entered; the hand is not over until trick %(last)s":
        ("%(n)s trick entered; the hand is not over until trick %(last)s", "n"),
    "%(n)s tricks entered; the hand is not over until trick %(last)s or the last scoring card":
        ("%(n)s trick entered; the hand is not over until trick %(last)s or the last scoring "
         "card", "n"),
}



#: Params that are seats: these names always, and a code's own where its value is a seat
#: (a refused leader names the seat it refused as ``value``).
SEAT_PARAMS = ("seat", "seat2")
SEAT_PARAMS_BY_CODE = {"leader": ("value",)}


def translate_word(term: Term, lang: str) -> str:
    """A word param in ``lang``: contracts by their names, the rest from the tables above."""
    if term.kind == "contract":
        return contract_name(term.id) if term.id in CONTRACTS else str(term)
    if lang == "en" or term.id not in TERM_IDS.get(term.kind, ()):
        return str(term)
    text = str(pgettext(term.kind, term.id))
    return str(term) if text == term.id else text


def translate_error(e: RecordError, players: Sequence[str] | None = None,
                    owner: int | None = None) -> str:
    """The error's message in the page's language: its template through the catalog. Given
    the players (and the fiesta's owner), an auction call is quoted in words with its
    player's name ("Dani: +2"), not as the record writes it ("3:+2")."""
    params = _shown_params(e, players, owner)
    template = _template(e, params)
    try:
        text = template % params
    except (KeyError, ValueError, TypeError):   # a broken translation: say it in English
        return e.message
    if template.startswith("%(") and text:      # "%(element)s suman ...": "Las bazas suman"
        text = text[0].upper() + text[1:]
    return text


def _shown_params(e: RecordError, players: Sequence[str] | None, owner: int | None
                  ) -> dict[str, Any]:
    """The error's params as the page shows them: words in its language, numbers with the
    minus sign, an auction call in words (given the players), seats numbered 1-4."""
    lang = current_lang()
    params = {k: translate_word(v, lang) if isinstance(v, Term) else v
              for k, v in with_minus_signs(e.params).items()}
    if players is not None and isinstance(params.get("call"), str):
        params["call"] = call_text(str(params["call"]), players, owner)
    # The record numbers seats 0-3; the pages (table drawing, sheets) number them 1-4.
    for key in SEAT_PARAMS + SEAT_PARAMS_BY_CODE.get(e.code, ()):
        seat = params.get(key)
        if type(seat) is int:
            params[key] = seat + 1
    return params


def _template(e: RecordError, params: Mapping[str, Any]) -> str:
    """The error's template from the catalog: the plural form for the count where the
    template has one, unformatted (formatted with the params by the caller)."""
    plural = PLURALS.get(e.template)
    count = params.get(plural[1]) if plural else None
    if plural and type(count) is int:
        return str(get_translations().ngettext(plural[0], e.template, count))
    return str(gettext(e.template))


def with_minus_signs(params: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` with each negative whole number written with the minus sign (U+2212, as
    every page writes points: :func:`app.web.words.signed`), never a hyphen ("-16")."""
    return {k: signed(v) if type(v) is int and v < 0 else v for k, v in params.items()}


def problem_text(e: Exception | Text) -> str:
    """A refusal in the page's language: an engine error through the catalog (a service's
    refusal that stands for one, ``BadInput.cause``, too), else what the service said."""
    engine = e if isinstance(e, RecordError) else getattr(e, "cause", None)
    if isinstance(engine, RecordError):
        return translate_error(engine)
    return service_text(e)


def init_messages(app: Flask) -> None:
    """Templates write an engine error as ``error_text(e)`` (:func:`translate_error`): a
    page or PDF never prints its English message."""
    app.jinja_env.globals.update(error_text=translate_error)


def field_label(key: str) -> str:
    return str(FIELD_LABELS.get(key, key))


def service_text(e: Exception | Text) -> str:
    """What a service said (a :class:`~app.errors.Text`, or an error carrying one
    as ``text``) in the page's language; as the service wrote it when the catalog breaks it."""
    text = e if isinstance(e, Text) else getattr(e, "text", None)
    if not isinstance(text, Text):
        return str(e)
    template = str(gettext(text.template))
    try:
        return template % with_minus_signs(text.params) if text.params else template
    except (KeyError, ValueError, TypeError):
        return str(text)
