"""The forms of a call to the director (shape only; app/games/table/calls.py keeps the limits
of the notes and says which field went wrong)."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, TextAreaField


class CallForm(FlaskForm):
    """The table calls the director: a note, if the table wants to say why."""

    note = TextAreaField(_l("Note for the director (optional)"))


class AnswerForm(FlaskForm):
    """The director answers a call."""

    note = TextAreaField(_l("Answer"))
    next = HiddenField()
