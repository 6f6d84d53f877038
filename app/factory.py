"""Placeholder factory until the score sheet app lands (issue 3)."""
from __future__ import annotations

from typing import Any

from flask import Flask


def build_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True,
                template_folder="../templates", static_folder="../static")
    if test_config:
        app.config.update(test_config)

    @app.get("/")
    def index() -> str:
        return "kingsheet"

    return app
