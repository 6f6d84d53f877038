"""Referee forms: shape only. Whether a card may be played, a ruling adds up or applies to
this hand is the engine's answer (app.rules), never the form's."""
from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import SelectField, StringField
from wtforms.validators import InputRequired, Length, Optional

from app.forms import POINTS, VERSION, WholeNumber, choices
from app.rules.limits import POINTS_MAX
from app.rules.record import RULING_KINDS
from app.security import ID_MAX

SEATS = [("", "—"), ("0", "0"), ("1", "1"), ("2", "2"), ("3", "3")]
WHOLE = _l("Type a whole number.")


class SaveTricksForm(FlaskForm):
    """Saving a hand entered trick by trick (the tricks themselves are in the address)."""

    version = WholeNumber(VERSION, validators=[InputRequired()], low=0, high=ID_MAX)
    correction = StringField(_l("Reason for correcting a confirmed sheet"),
                             validators=[Optional(), Length(max=300)])


class RulingForm(FlaskForm):
    """The table's ruling on one hand (RULES.md §3)."""

    version = WholeNumber(VERSION, validators=[InputRequired()], low=0, high=ID_MAX)
    correction = StringField(_l("Reason for correcting a confirmed sheet"),
                             validators=[Optional(), Length(max=300)])
    kind = SelectField(_l("Ruling"), choices=choices((k, k) for k in RULING_KINDS),
                       default="as-played",
                       validators=[InputRequired(message=_l("Choose a ruling."))])
    seat = SelectField(_l("Offending player"), choices=choices(SEATS), default="",
                       validators=[Optional()])
    points_0 = WholeNumber(POINTS, validators=[Optional()], low=-POINTS_MAX, high=POINTS_MAX,
                           render_kw={"inputmode": "numeric"})
    points_1 = WholeNumber(POINTS, validators=[Optional()], low=-POINTS_MAX, high=POINTS_MAX)
    points_2 = WholeNumber(POINTS, validators=[Optional()], low=-POINTS_MAX, high=POINTS_MAX)
    points_3 = WholeNumber(POINTS, validators=[Optional()], low=-POINTS_MAX, high=POINTS_MAX)
    reason = StringField(_l("Reason"), validators=[Optional(), Length(max=300)])

    def seat_value(self) -> int | None:
        v = self.seat.data
        return int(v) if v in ("0", "1", "2", "3") else None

    def points(self) -> list[int | None] | None:
        values = [getattr(self, f"points_{s}").data for s in range(4)]
        return None if all(v is None for v in values) else values

    def field_errors(self) -> dict[str, list[str]]:
        """Errors keyed like the engine's ruling fields: kind, seat, points, reason."""
        out: dict[str, list[str]] = {}
        for name, errs in self.errors.items():
            key = "points" if name.startswith("points_") else name
            key = key if key in ("kind", "seat", "points", "reason", "correction") else "__all__"
            for e in errs:
                text = str(e)
                if key == "points" and "integer" in text.lower():
                    text = str(WHOLE)
                if text not in out.get(key, []):
                    out.setdefault(key, []).append(text)
        return out


def seat_choices(players: list[str]) -> list[Any]:
    return choices([("", "—")] + [(str(s), p) for s, p in enumerate(players)])
