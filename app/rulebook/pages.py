"""The rules pages: /rules (the four games) and /rules/<profile>, Spanish and English.

Names and numbers come from the engine and the referee's texts (app.rulebook.rulebook,
app.web.words, the new-game page's option labels); the template
only words them. ``flask --app app rules markdown`` writes the English pages as docs/rules.md."""
from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import click
from flask import Blueprint, abort, current_app, render_template
from flask_babel import force_locale

from app.rulebook.rulebook import rulebook
from app.rules import PROFILES
from app.rules.game.record import RULING_KINDS
from app.web.common import lang
from app.web.messages import FIELD_LABELS
from app.web.referee_words import RULE_DEMANDS, RULE_NAMES, RULING_LABELS
from app.web.words import OPTION_LABELS

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


# --- docs/rules.md: the English pages as Markdown -------------------------------------------

class _Markdown(HTMLParser):
    """Just enough HTML -> Markdown for the rules pages: headings (one level down, under the
    book's title), lists, paragraphs and definition lists; links keep their text; the
    page's navigation is dropped. Only what is inside <article> is read."""

    PREFIX = {"h1": "\n## ", "h2": "\n### ", "h3": "\n#### ", "p": "\n", "dt": "\n"}
    BLOCKS = {"p", "li", "dt", "dd", "h1", "h2", "h3", "ul", "dl", "div"}

    def __init__(self) -> None:
        super().__init__()
        self.out: list[str] = []
        self.line: list[str] = []
        self.prefix = ""
        self.depth = 0          # list nesting
        self.skip = 0           # inside <nav>
        self.inside = False     # inside <article>

    def _flush(self) -> None:
        text = " ".join("".join(self.line).split())
        self.line = []
        if text:
            self.out.append(self.prefix + text)
        self.prefix = ""

    #: What an inline tag writes where it opens.
    OPENING_MARKS = {"strong": "**", "dt": "**", "em": "*", "br": " "}

    def _enter(self, tag: str) -> None:
        """Keeps count of where the parser is: inside the article, inside a <nav>."""
        if tag == "article":
            self.inside = True
        elif tag == "nav":
            self.skip += 1

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._enter(tag)
        if not self.inside or self.skip:
            return
        if tag in self.BLOCKS:
            self._flush()
            self.prefix = "  " * (self.depth - 1) + "- " if tag == "li" else self.PREFIX.get(tag, "")
        if tag == "ul":
            self.depth += 1
        elif tag in self.OPENING_MARKS:
            self.line.append(self.OPENING_MARKS[tag])

    def handle_endtag(self, tag: str) -> None:
        if tag == "nav":
            self.skip -= 1
            return
        if not self.inside or self.skip:
            return
        if tag in ("strong", "dt"):
            self.line.append("**")
        elif tag == "em":
            self.line.append("*")
        if tag in self.BLOCKS:
            self._flush()
        if tag == "ul":
            self.depth -= 1
        elif tag == "article":
            self.inside = False

    def handle_data(self, data: str) -> None:
        if self.inside and not self.skip:
            self.line.append(data)


def markdown_book() -> str:
    """docs/rules.md: every profile's English rules page, as Markdown."""
    parts = ["<!-- Written by `flask --app app rules markdown > docs/rules.md` from the pages at",
             "     /rules/<profile> (templates/rules/profile.html): do not edit by hand. -->",
             "", "# kingsheet rules", "",
             "The rules kingsheet scores and referees, one section per game. The app serves the "
             "same pages in Spanish and English at `/rules/<profile>`, linked from the new-game "
             "page, the hand entry pages and every rule violation."]
    for pid in PROFILES:
        with current_app.test_request_context(f"/rules/{pid}"), force_locale("en"):
            html = render_template("rules/profile.html", **page_context(pid, "en"))
        parser = _Markdown()
        parser.feed(html)
        parser.close()
        parts.extend(parser.out)
    return "\n".join(parts).strip() + "\n"


@bp.cli.command("markdown")
def markdown_command() -> None:
    """Print docs/rules.md (the English rules pages as Markdown)."""
    click.echo(markdown_book(), nl=False)
