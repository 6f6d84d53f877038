"""The rules pages: /rules (the four games) and /rules/<profile>, Spanish and English.

Names and numbers come from the engine and the referee's texts (app.services.rulebook,
RULE_NAMES, RULE_DEMANDS, RULING_LABELS, the new-game page's option labels); the template
only words them. ``kingsheet-rules-md`` writes the English pages to docs/rules.md."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, render_template

from app.rules import PROFILES
from app.services.referee import RULE_DEMANDS, RULE_NAMES, RULING_KINDS, RULING_LABELS
from app.services.rulebook import rulebook
from app.web.games import OPTION_LABELS, lang
from app.web.messages import FIELD_LABELS

bp = Blueprint("rules", __name__)


def page_context(profile_id: str, language: str) -> dict[str, Any]:
    return {"book": rulebook(profile_id), "lang": language, "profiles": PROFILES,
            "rule_names": RULE_NAMES, "rule_demands": RULE_DEMANDS, "elements": FIELD_LABELS,
            "ruling_kinds": RULING_KINDS, "ruling_labels": RULING_LABELS,
            "option_labels": OPTION_LABELS}


@bp.get("/rules")
def index() -> str:
    return render_template("rules/index.html", profiles=PROFILES, lang=lang())


@bp.get("/rules/<profile_id>")
def profile(profile_id: str) -> str:
    if profile_id not in PROFILES:
        abort(404)
    return render_template("rules/profile.html", **page_context(profile_id, lang()))
