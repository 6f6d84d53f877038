"""Hand entry forms. Shape only: numbers in range, seats 0-3, suits, known modes.

Which fields exist depends on the contract (the engine's EntrySpec says what it scores);
whether the numbers add up, the calls are legal or a choice is allowed is the engine's.
"""
from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import Form, SelectField, StringField
from wtforms.validators import InputRequired, Length, Optional

from app.rules.cards import SUITS
from app.rules.entry import EntrySpec
from app.rules.game.record import RULING_KINDS
from app.rules.limits import POINTS_MAX
from app.rules.profiles import COUNT_ELEMENTS
from app.security import ID_MAX
from app.web.forms import COUNT_LABELS, POINTS, VERSION, WholeNumber, choices

SEAT_PAIRS = [("", "—"), ("0", "0"), ("1", "1"), ("2", "2"), ("3", "3")]


def _seat(value: Any) -> int | None:
    if value in (None, "") or str(value) not in ("0", "1", "2", "3"):
        return None
    return int(value)


class SetupForm(Form):
    """The hand's setup, carried in the query string between steps and in hidden fields."""

    contract = StringField(validators=[Optional(), Length(max=24)])
    trump = SelectField(choices=choices([("", "—"), *((s, s) for s in SUITS)]),
                        validators=[Optional()], default="")
    leader = SelectField(choices=choices(SEAT_PAIRS), validators=[Optional()], default="")
    auction = StringField(validators=[Optional(), Length(max=600)])
    mode = SelectField(choices=choices([("counts", "counts"), ("captures", "captures"),
                                        ("tricks", "tricks")]),
                       default="counts")

    def validate(self, extra_validators: Any = None) -> bool:
        """Also blanks any value that fails its shape, so later steps never see it."""
        ok = super().validate(extra_validators)
        for f in self:
            if f.errors:
                f.data = f.default or ""
        return bool(ok)

    @property
    def leader_seat(self) -> int | None:
        return _seat(self.leader.data)


class _HandFormBase(FlaskForm):
    version = WholeNumber(VERSION, validators=[InputRequired()], low=0, high=ID_MAX)
    correction = StringField(_l("Reason for correcting a confirmed sheet"),
                             validators=[Optional(), Length(max=300)])
    ruling_kind = SelectField(_l("Ruling"), choices=choices((k, k) for k in RULING_KINDS),
                              default="as-played")
    ruling_seat = SelectField(_l("Offending player"), choices=choices(SEAT_PAIRS), default="",
                              validators=[Optional()])
    ruling_points_0 = WholeNumber(POINTS, validators=[Optional()], low=-POINTS_MAX,
                                  high=POINTS_MAX)
    ruling_points_1 = WholeNumber(POINTS, validators=[Optional()], low=-POINTS_MAX,
                                  high=POINTS_MAX)
    ruling_points_2 = WholeNumber(POINTS, validators=[Optional()], low=-POINTS_MAX,
                                  high=POINTS_MAX)
    ruling_points_3 = WholeNumber(POINTS, validators=[Optional()], low=-POINTS_MAX,
                                  high=POINTS_MAX)
    ruling_reason = StringField(_l("Reason"), validators=[Optional(), Length(max=300)])

    spec: EntrySpec
    mode: str

    def entry_data(self) -> dict[str, Any]:
        """Field name -> value (seats as int), for app.games.entry.draft.HandDraft.of_form."""
        out: dict[str, Any] = {}
        for f in self:
            if f.name.startswith(("card_", "kh", "last_two_")):
                out[f.name] = _seat(f.data)
            elif f.name.split("_")[0] in COUNT_ELEMENTS:
                out[f.name] = f.data
        return out

    def ruling(self, who: str, at: str) -> dict[str, Any] | None:
        kind = self.ruling_kind.data
        if kind == "as-played" or not kind:
            return None
        ruling: dict[str, Any] = {"kind": kind}
        if kind == "charge-offender":
            ruling["seat"] = _seat(self.ruling_seat.data)
        if kind == "adjusted":
            ruling["points"] = [getattr(self, f"ruling_points_{s}").data for s in range(4)]
        if self.ruling_reason.data:
            ruling["reason"] = self.ruling_reason.data.strip()
        ruling["by"] = who
        ruling["at"] = at
        return ruling


def hand_form_class(spec: EntrySpec, mode: str) -> type[_HandFormBase]:
    attrs: dict[str, Any] = {}
    rows = spec.capture_counts if mode == "captures" and spec.has_cards else spec.counts
    required = _l("Enter a number for each player.")
    for el in rows:
        for s in range(4):
            attrs[f"{el}_{s}"] = WholeNumber(COUNT_LABELS.get(el, el),
                                             validators=[InputRequired(message=required)],
                                             low=0, high=spec.full[el])
    if mode == "captures" and spec.has_cards:
        for card in spec.cards:
            attrs[f"card_{card}"] = SelectField(choices=choices(SEAT_PAIRS), default="",
                                                validators=[Optional()])
    elif spec.kh:
        attrs["kh"] = SelectField(choices=choices(SEAT_PAIRS), default="", validators=[Optional()])
    if spec.last_two:
        attrs["last_two_0"] = SelectField(choices=choices(SEAT_PAIRS), default="", validators=[Optional()])
        attrs["last_two_1"] = SelectField(choices=choices(SEAT_PAIRS), default="", validators=[Optional()])
    attrs.update(spec=spec, mode=mode)
    return type("HandForm", (_HandFormBase,), attrs)
