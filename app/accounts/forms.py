"""Login, the first director, a new account, a new API token (shape only)."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import PasswordField, SelectField, StringField
from wtforms.validators import DataRequired, EqualTo, Length, Optional

from app.web.forms import choices


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


ROLE_CHOICES = [("scorer", _l("scorer: creates and keeps their games")),
                ("player", _l("player: reads, confirms their seat")),
                ("director", _l("director: every game, corrections, accounts"))]


class NewUserForm(FlaskForm):
    """A director creates an account (the same rules as `flask user create`)."""

    username = StringField(_l("User name"), validators=[DataRequired(), Length(max=40)])
    password = PasswordField(_l("Password"), validators=[DataRequired(), Length(min=8, max=200)])
    role = SelectField(_l("Role"), default="scorer", choices=choices(ROLE_CHOICES))
    player = StringField(_l("Roster player (optional)"), validators=[Optional(), Length(max=60)])


class EditUserForm(FlaskForm):
    """A director changes an account's role, or gives it a new password."""

    role = SelectField(_l("Role"), choices=choices(ROLE_CHOICES))
    password = PasswordField(_l("New password (optional)"), validators=[Optional(), Length(min=8, max=200)])


class NewTokenForm(FlaskForm):
    """A user makes one of their own API tokens (``app.accounts.tokens.create_token``)."""

    label = StringField(_l("What it is for"), validators=[DataRequired(), Length(max=60)])


class RevokeTokenForm(FlaskForm):
    """The revoke button of one token: its CSRF token alone."""
