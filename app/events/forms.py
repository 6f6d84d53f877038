"""The forms of an event's pages (shape only; app/events/events.py checks the rest)."""
from __future__ import annotations

import re
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, DateField, SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length, Optional

from app.games.forms import PIN_SHAPE, ProfileOptions, with_option_fields
from app.rules import PROFILES
from app.web.forms import WholeNumber, choices

#: A line of the players box: a name, and after a comma the player's 4-digit PIN.
_WITH_PIN = re.compile(r"^(?P<name>.*\S)\s*,\s*(?P<pin>\d{4})$")
SEATING_LABELS = (("balanced", _l("balanced: fewest repeated opponents, then seats")),
                  ("swiss", _l("swiss: by the standings (1-4, 5-8, …)")),
                  ("random", _l("random")))
SCORING_LABELS = (("points", _l("total points of the games")),
                  ("ranking", _l("ranking points by place at each table")))
SIT_OUT_LABELS = (("nothing", _l("nothing")), ("average", _l("the average of the round")))


class _EventBase(FlaskForm, ProfileOptions):
    name = StringField(_l("Name"), validators=[DataRequired(), Length(max=80)])
    day = DateField(_l("Date"), validators=[DataRequired()])
    profile = SelectField(_l("Game"), choices=choices((p, p) for p in PROFILES), default="fiestas")
    players = TextAreaField(_l("Players"), validators=[DataRequired(), Length(max=30000)])
    rounds = WholeNumber(_l("Rounds"), low=1, high=30, default=3)
    seating = SelectField(_l("Seating after round 1"), choices=choices(SEATING_LABELS), default="balanced")
    scoring = SelectField(_l("Scoring"), choices=choices(SCORING_LABELS), default="points")
    ranking_points = StringField(_l("Ranking points by place"), default="4-2-1-0",
                                 validators=[Optional(), Length(max=40)])
    sit_out = SelectField(_l("A sit-out scores"), choices=choices(SIT_OUT_LABELS), default="nothing")
    season = SelectField(_l("Season"), default="", validators=[Optional()])

    def entries(self) -> tuple[list[str], dict[str, str]]:
        """(names, PINs by name) from the players box, one player a line."""
        names, pins = [], {}
        for line in (self.players.data or "").splitlines():
            found = _WITH_PIN.match(line.strip())
            name = " ".join((found.group("name") if found else line).split())
            if name:
                names.append(name)
                if found:
                    pins[name] = found.group("pin")
        return names, pins

    def ranking(self) -> list[Any]:
        """The ranking points typed as ``4-2-1-0`` (or with commas or spaces); what is not a
        number is kept as text, so the service names the field."""
        parts = [p for p in re.split(r"[\s,;/-]+", self.ranking_points.data or "") if p]
        out: list[Any] = []
        for p in parts:
            try:
                out.append(float(p.replace(",", ".")) if "." in p else int(p))
            except ValueError:
                out.append(p)
        return out or [4, 2, 1, 0]

EventForm = with_option_fields(_EventBase, "EventForm")


class DrawForm(FlaskForm):
    force = BooleanField(_l("Draw it although some tables are not locked"))
    reason = StringField(_l("Reason"), validators=[Optional(), Length(max=300)])


class SwapForm(FlaskForm):
    first = SelectField(_l("Player"), validators=[DataRequired()])
    second = SelectField(_l("swaps seats with"), validators=[DataRequired()])


class WithdrawForm(FlaskForm):
    player = SelectField(_l("Player"), validators=[DataRequired()])


class LateForm(FlaskForm):
    name = StringField(_l("Name"), validators=[DataRequired(), Length(max=60)])
    pin = StringField(_l("PIN"), validators=[Optional(), PIN_SHAPE])
