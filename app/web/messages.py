"""Engine messages in the page's language.

The engine speaks English with a stable `code`; the commonest messages a scorer meets are
given here in Spanish (matched on their wording, numbers and names kept). Anything not
listed is shown as the engine wrote it, always under the field it names.
"""
from __future__ import annotations

import re

from flask_babel import get_locale
from flask_babel import lazy_gettext as _l

from app.rules import RecordError

FIELD_LABELS = {
    "tricks": _l("Tricks"), "hearts": _l("Hearts"), "kings": _l("Kings"), "queens": _l("Queens"),
    "jacks": _l("Jacks"), "kh": _l("King of hearts"), "last_two": _l("Last two tricks"),
    "cards": _l("Cards taken"), "contract": _l("Contract"), "trump": _l("Trump"),
    "leader": _l("Leader"), "auction": _l("Auction"), "ruling": _l("Ruling"),
}

ELEMENT_ES = {"tricks": "las bazas", "hearts": "los corazones", "kings": "los reyes",
              "queens": "las damas", "jacks": "las jotas", "kh": "el rey de corazones",
              "last_two": "las dos últimas"}

_SPANISH: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^(\w+) add up to (-?\d+); a (\d+)-card hand has (\d+)$"),
     "{e0} suman {1}; una mano de {2} cartas tiene {3}"),
    (re.compile(r"^(\w+) add up to (-?\d+); there are (\d+)$"), "{e0} suman {1}; hay {2}"),
    (re.compile(r"^seat (\d) \((.+)\) took at least (\d+) scoring cards in (\d+) tricks \(4 cards a trick\)$"),
     "{1} se llevó al menos {2} cartas que puntúan en {3} bazas (4 cartas por baza)"),
    (re.compile(r"^seat (\d) \((.+)\) took (\d+) of the last two tricks but (\d+) tricks in all$"),
     "{1} se llevó {2} de las dos últimas bazas pero {3} bazas en total"),
    (re.compile(r"^every scoring card is taken by someone: (.+) (?:is|are) not assigned$"),
     "cada carta que puntúa la gana alguien: falta asignar {0}"),
    (re.compile(r"^(\w+) is listed twice$"), "{0} aparece dos veces"),
    (re.compile(r"^a seat is a whole number 0-3, not null$"), "falta elegir un jugador"),
    (re.compile(r"^must be a whole number, not null$"), "falta un número"),
    (re.compile(r"^koz has been played (\d+) times already$"), "koz ya se ha jugado {0} veces"),
    (re.compile(r"^seat (\d) \((.+)\) has already chosen koz (\d+) times \(3\+2\)$"),
     "{1} ya ha elegido koz {2} veces (3+2)"),
    (re.compile(r"^([\w-]+) has been played (\d+) times already$"), "{0} ya se ha jugado {1} veces"),
    (re.compile(r"^seat (\d) \((.+)\) has already chosen (\d+) penalties \(3\+2\)$"),
     "{1} ya ha elegido {2} castigos (3+2)"),
    (re.compile(r"^the points add up to (-?\d+); this hand's total is (-?\d+)$"),
     "los puntos suman {0}; el total de esta mano es {1}"),
    (re.compile(r"^missing: an adjusted ruling needs a reason$"), "falta: un ajuste necesita un motivo"),
    (re.compile(r"^missing: the offending seat$"), "falta: el jugador infractor"),
    (re.compile(r"^charge-offender is for negative hands only$"),
     "cargar al infractor solo vale en manos negativas"),
]


def _spanish(message: str) -> str:
    for pattern, template in _SPANISH:
        m = pattern.match(message)
        if m:
            groups = m.groups()
            return template.format(*groups, e0=ELEMENT_ES.get(groups[0], groups[0]).capitalize())
    return message


def translate_error(e: RecordError) -> str:
    message = e.message
    if str(get_locale() or "es") == "es":
        return _spanish(message)
    return message


def field_label(key: str) -> str:
    return str(FIELD_LABELS.get(key, key))
