"""Filters of the game list and the season form (shape only)."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import DateField, SelectField, StringField
from wtforms.validators import DataRequired, Length, Optional

from app.rules import PROFILES
from app.web.forms import choices
from app.web.words import profile_name

STATUS_LABELS = (("", _l("any status")), ("in_progress", _l("in progress")), ("complete", _l("finished")))


class GameFilterForm(FlaskForm):
    """The game list's filters, read from the address (GET: no state changes, no CSRF)."""

    class Meta:
        csrf = False

    player = SelectField(_l("Player"), coerce=int, default=0, validators=[Optional()])
    profile = SelectField(_l("Game"), default="", validators=[Optional()])
    status = SelectField(_l("Status"), default="", choices=choices(STATUS_LABELS), validators=[Optional()])
    date_from = DateField(_l("From"), validators=[Optional()])
    date_to = DateField(_l("To"), validators=[Optional()])

    def set_choices(self, players: list[tuple[int, str]]) -> None:
        self.player.choices = choices([(0, _l("any player")), *players])
        profiles = [(p.id, profile_name(p)) for p in PROFILES.values()]
        self.profile.choices = choices([("", _l("any game")), *profiles])


class SeasonForm(FlaskForm):
    name = StringField(_l("Name"), validators=[DataRequired(), Length(max=80)])
    starts_on = DateField(_l("First day"), validators=[DataRequired()])
    ends_on = DateField(_l("Last day"), validators=[DataRequired()])


class ConfirmForm(FlaskForm):
    """A button that changes something: only the CSRF token."""
