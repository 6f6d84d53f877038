from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import DataRequired, Length


class ScorerForm(FlaskForm):
    name = StringField(_l("Your name"), validators=[DataRequired(), Length(max=60)])
