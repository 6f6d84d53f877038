"""The forms of a player's page: a director renames the player or merges them into another
(shape only; app/players/roster.py checks the rest)."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, SelectField, StringField
from wtforms.validators import DataRequired, Length


class RenameForm(FlaskForm):
    # the service refuses an empty or too long name, naming the field
    name = StringField(_l("New name"), validators=[Length(max=300)])


class MergeForm(FlaskForm):
    into = SelectField(_l("Merge into"), validators=[DataRequired()])
    #: "yes" once the director saw what the merge does and confirmed it
    confirmed = HiddenField()
