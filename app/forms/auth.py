"""Login, the first director, and the table's confirmation (shape only)."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import PasswordField, StringField
from wtforms.validators import DataRequired, EqualTo, Length


class LoginForm(FlaskForm):
    username = StringField(_l("User name"), validators=[DataRequired(), Length(max=40)])
    password = PasswordField(_l("Password"), validators=[DataRequired(), Length(max=200)])


class FirstDirectorForm(FlaskForm):
    username = StringField(_l("User name"), validators=[DataRequired(), Length(max=40)])
    password = PasswordField(_l("Password"), validators=[DataRequired(), Length(min=8, max=200)])
    confirm = PasswordField(_l("Password again"),
                            validators=[DataRequired(), EqualTo("password", _l("The two passwords differ."))])


class LogoutForm(FlaskForm):
    pass
