"""Spanish first, English second (Flask-Babel).

The locale comes from the language the visitor picked (kept in the session), else from
the browser's Accept-Language, else Spanish. Message catalogs live in translations/ as
.po files; a missing or stale .mo is compiled here, so a fresh clone needs no extra step.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask, current_app, g, has_app_context, request, session
from flask_babel import Babel, get_locale, get_translations

TRANSLATIONS_DIR = Path(__file__).resolve().parent.parent / "translations"


def select_locale() -> str:
    languages = current_app.config["LANGUAGES"]
    chosen = session.get("lang")
    if chosen in languages:
        return str(chosen)
    return request.accept_languages.best_match(languages) or current_app.config["BABEL_DEFAULT_LOCALE"]


def compile_catalogs(directory: Path = TRANSLATIONS_DIR) -> None:
    """Compile every messages.po whose .mo is missing or older."""
    for po_path in directory.glob("*/LC_MESSAGES/*.po"):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        with po_path.open("rb") as f:
            catalog = read_po(f, locale=po_path.parent.parent.name)
        tmp = mo_path.with_suffix(".mo.tmp")
        with tmp.open("wb") as f:
            write_mo(f, catalog)
        tmp.replace(mo_path)


def init_babel(app: Flask) -> None:
    try:
        compile_catalogs()
    except OSError:
        app.logger.warning("could not compile translations in %s", TRANSLATIONS_DIR)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS_DIR))
    Babel(app, locale_selector=select_locale)
    app.jinja_env.install_gettext_callables(   # type: ignore[attr-defined]
        gettext=lambda s: page_translations().ugettext(s),
        ngettext=lambda s, p, n: page_translations().ungettext(s, p, n),
        pgettext=lambda c, s: page_translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: page_translations().unpgettext(c, s, p, n),
        newstyle=True)


def page_translations() -> Any:
    """The catalog of the page's language, found once per request (and locale).

    Flask-Babel finds it again for every message (its context, the locale, the locale's
    name as the catalog's key): on a sheet, most of what the page's ~60 messages cost.
    Kept with the very locale object Flask-Babel holds, so ``force_locale`` (another
    object) finds its own catalog and the page's again after it."""
    if not has_app_context():
        return get_translations()
    ctx = getattr(g, "_flask_babel", None)
    kept = g.get("_kingsheet_catalog")
    if kept is not None and ctx is not None and kept[0] is getattr(ctx, "babel_locale", None):
        return kept[1]
    translations = get_translations()
    g._kingsheet_catalog = (get_locale(), translations)
    return translations
