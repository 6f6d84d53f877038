"""The new-game and import forms (shape only; the engine checks the record)."""
from __future__ import annotations

from typing import Any, TypeVar, cast

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import Field, RadioField, SelectField, StringField
from wtforms.validators import DataRequired, InputRequired, Length, Optional, Regexp, ValidationError

from app.rules import PROFILES
from app.security import ID_MAX
from app.web.forms import VERSION, WholeNumber, choices

PIN_SHAPE = Regexp(r"^\d{4}$", message=_l("A PIN is 4 digits."))
SEAT_FIELDS = ("player_0", "player_1", "player_2", "player_3")


def option_field_name(name: str) -> str:
    return f"opt_{name}"


class ProfileOptions:
    """A form with a select per table option of every profile (``opt_<name>``)."""

    def options_for(self, profile_id: str) -> dict[str, str]:
        profile = PROFILES[profile_id]
        return {spec.name: getattr(self, option_field_name(spec.name)).data for spec in profile.options}


F = TypeVar("F", bound=type)


def with_option_fields(base: F, name: str) -> F:
    """``base`` with a select field per table option of every profile, defaults chosen."""
    attrs: dict[str, Any] = {}
    for profile in PROFILES.values():
        for spec in profile.options:
            attrs[option_field_name(spec.name)] = SelectField(
                spec.name, choices=choices((v, v) for v in spec.values), default=spec.values[0])
    return cast(F, type(name, (base,), attrs))


class _NewGameBase(FlaskForm, ProfileOptions):
    profile = RadioField(_l("Game"), choices=choices((p, p) for p in PROFILES), default="fiestas",
                         validators=[DataRequired()])
    player_0 = StringField(_l("Seat 1"), validators=[DataRequired(), Length(max=60)])
    player_1 = StringField(_l("Seat 2"), validators=[DataRequired(), Length(max=60)])
    player_2 = StringField(_l("Seat 3"), validators=[DataRequired(), Length(max=60)])
    player_3 = StringField(_l("Seat 4"), validators=[DataRequired(), Length(max=60)])
    first_seat = SelectField(_l("First dealer"), default="draw",
                             choices=choices((v, v) for v in ("draw", "0", "1", "2", "3")))
    # each seat's confirmation PIN (4 digits, optional): typed at the table at the end
    pin_0 = StringField(_l("PIN"), validators=[Optional(), PIN_SHAPE])
    pin_1 = StringField(_l("PIN"), validators=[Optional(), PIN_SHAPE])
    pin_2 = StringField(_l("PIN"), validators=[Optional(), PIN_SHAPE])
    pin_3 = StringField(_l("PIN"), validators=[Optional(), PIN_SHAPE])

    def validate_player_3(self, field: Field) -> None:
        names = [(getattr(self, f).data or "").strip().casefold() for f in SEAT_FIELDS]
        if all(names) and len(set(names)) < 4:
            raise ValidationError(_l("Each seat needs a different player."))

    def pins(self) -> list[str | None]:
        return [(getattr(self, f"pin_{s}").data or "").strip() or None for s in range(4)]

    def players(self) -> list[str]:
        return [" ".join((getattr(self, f).data or "").split()) for f in SEAT_FIELDS]



NewGameForm = with_option_fields(_NewGameBase, "NewGameForm")


class ImportForm(FlaskForm):
    record = FileField(_l("Record file (JSON)"), validators=[FileRequired()])


class VersionedForm(FlaskForm):
    """A form that changes a game carries the version it was loaded at."""

    version = WholeNumber(VERSION, validators=[InputRequired()], low=0, high=ID_MAX)
    correction = StringField(_l("Reason for correcting a confirmed sheet"),
                             validators=[Optional(), Length(max=300)])


class FirstSeatForm(VersionedForm):
    """Who deals first (rifki: who holds the 2♦), as the table has it, before hand 1."""

    seat = SelectField(_l("Seat"), coerce=int, choices=choices((s, str(s + 1)) for s in range(4)))
