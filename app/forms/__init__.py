"""WTForms classes: shape only (types, ranges, choices). Legality comes from the engine."""
from __future__ import annotations

from typing import Any

from wtforms import SelectChoice


def choices(pairs: Any) -> list[SelectChoice]:
    """SelectField choices from (value, label) pairs (WTForms 3.3 wants SelectChoice)."""
    return [SelectChoice(str(v), label) for v, label in pairs]
