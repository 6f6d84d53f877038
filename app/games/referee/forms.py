"""Referee forms: shape only. Whether a card may be played, a ruling adds up or applies to
this hand is the engine's answer (app.rules), never the form's."""
from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import SelectField, StringField
from wtforms.validators import InputRequired, Length, Optional

from app.rules.game.record import RULING_KINDS
from app.rules.limits import POINTS_MAX
from app.security import ID_MAX
from app.web.forms import POINTS, VERSION, WholeNumber, choices

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

    def outcomes(self) -> list[dict[str, Any]]:
        """The outcomes of a weighted ruling typed in (RULES.md §3): each row with anything
        in it, as RECORD.md's ``ruling.weights`` items (a missing value stays None: the
        engine names it)."""
        out = []
        for k in range(OUTCOMES):
            share = getattr(self, f"w{k}_share").data
            label = (getattr(self, f"w{k}_label").data or "").strip()
            points = [getattr(self, f"w{k}_p{s}").data for s in range(4)]
            if share is None and not label and all(p is None for p in points):
                continue
            item: dict[str, Any] = {"share": share, "points": points}
            if label:
                item["label"] = label
            out.append(item)
        return out

    def field_errors(self) -> dict[str, list[str]]:
        """Errors keyed like the engine's ruling fields: kind, seat, points, weights, reason."""
        out: dict[str, list[str]] = {}
        for name, errs in self.errors.items():
            key = "points" if name.startswith("points_") else "weights" if name[:1] == "w" else name
            key = key if key in ("kind", "seat", "points", "weights", "reason", "correction") else "__all__"
            for e in errs:
                text = str(e)
                if key in ("points", "weights") and "integer" in text.lower():
                    text = str(WHOLE)
                if text not in out.get(key, []):
                    out.setdefault(key, []).append(text)
        return out


#: The outcomes a weighted ruling's form offers (RECORD.md allows more; two or three are
#: what a director weighs at a table).
OUTCOMES = 3
for _k in range(OUTCOMES):
    setattr(RulingForm, f"w{_k}_share",
            WholeNumber(_l("Share (percent)"), validators=[Optional()], low=1, high=99))
    setattr(RulingForm, f"w{_k}_label", StringField(_l("Outcome"), validators=[Optional(), Length(max=300)]))
    for _s in range(4):
        setattr(RulingForm, f"w{_k}_p{_s}",
                WholeNumber(POINTS, validators=[Optional()], low=-POINTS_MAX, high=POINTS_MAX))


def seat_choices(players: list[str]) -> list[Any]:
    return choices([("", "—")] + [(str(s), p) for s, p in enumerate(players)])
