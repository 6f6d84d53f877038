"""kingsheet: the digital score sheet and referee assistant for King.

Only the application factory lives here. Flask is imported inside it, so that the rules
engine and the `kingsheet score` command start without loading the web stack.
"""
from __future__ import annotations

from typing import Any


def create_app(test_config: dict[str, Any] | None = None) -> Any:
    from app.factory import build_app

    return build_app(test_config)
