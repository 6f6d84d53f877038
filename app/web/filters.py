"""Template helpers: cards and suits with their symbols and colours, signed numbers."""
from __future__ import annotations

from typing import Any

from flask import Flask
from markupsafe import Markup, escape

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED = {"H", "D"}


def suit(letter: str | None) -> Markup:
    if not letter:
        return Markup("")
    color = "red" if letter in RED else "black"
    symbol = SUITS.get(letter, escape(letter))
    return Markup(f'<span class="{color}" title="{escape(letter)}">{symbol}</span>')


def card(code: str) -> Markup:
    rank, s = code[:-1], code[-1]
    rank = "10" if rank == "T" else rank
    color = "red" if s in RED else "black"
    return Markup(f'<span class="{color}">{escape(rank)}{SUITS.get(s, escape(s))}</span>')


def signed(n: int | None) -> str:
    if n is None:
        return ""
    return f"+{n}" if n > 0 else str(n).replace("-", "−")


def init_filters(app: Flask) -> None:
    app.jinja_env.filters["suit"] = suit
    app.jinja_env.filters["card"] = card
    app.jinja_env.filters["signed"] = signed

    @app.context_processor
    def inject() -> dict[str, Any]:
        from flask_babel import get_locale

        return {"current_lang": str(get_locale() or "es"), "SUITS": SUITS}
