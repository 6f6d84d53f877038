"""WTForms classes: shape only (types, ranges, choices). Legality comes from the engine."""
from __future__ import annotations

import re
from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import IntegerField, SelectChoice

#: What a whole number is typed as: ASCII digits with an optional sign (``int()`` would also
#: take other scripts' digits, underscores and 4,300 digits).
_WHOLE = re.compile(r"[+-]?[0-9]+")
#: WTForms' own message for text that is no integer (translated by WTForms, not our catalog).
_NOT_WHOLE = "Not a valid integer value."
#: The labels that name the number fields in a refusal (the pages' own words for them).
VERSION = _l("Sheet version")
POINTS = _l("Adjusted points")
COUNT_LABELS = {"tricks": _l("Tricks"), "hearts": _l("Hearts"), "kings": _l("Kings"),
                "queens": _l("Queens"), "jacks": _l("Jacks")}
#: The refusal of a number outside its field's range: it names the field.
OUT_OF_RANGE = _l("%(field)s: type a whole number from %(min)s to %(max)s.")


def choices(pairs: Any) -> list[SelectChoice]:
    """SelectField choices from (value, label) pairs (WTForms 3.3 wants SelectChoice)."""
    return [SelectChoice(str(v), label) for v, label in pairs]


class WholeNumber(IntegerField):
    """An integer field bounded to ``low``..``high`` while it is read: a number outside (a
    400-digit count, which WTForms' NumberRange would turn into a float and fail on) is
    refused with :data:`OUT_OF_RANGE`, naming the field by its label in the page's
    language; text that is no whole number keeps WTForms' "Not a valid integer value"."""

    def __init__(self, label: Any = None, validators: Any = None, *, low: int, high: int,
                 **kwargs: Any) -> None:
        super().__init__(label, validators, **kwargs)
        self.low, self.high = low, high

    def process_formdata(self, valuelist: list[Any]) -> None:
        if not valuelist:
            return
        text = str(valuelist[0]).strip()
        if not _WHOLE.fullmatch(text):
            self.data = None
            raise ValueError(self.gettext(_NOT_WHOLE))
        widest = max(len(str(self.low)), len(str(self.high)))
        if len(text.lstrip("+-")) > widest or not self.low <= int(text) <= self.high:
            self.data = None
            raise ValueError(str(OUT_OF_RANGE % {"field": self.label.text, "min": self.low,
                                                 "max": self.high}))
        self.data = int(text)
