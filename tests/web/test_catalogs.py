"""Every language is complete (issue 14): each catalog in translations/ has a non-empty
translation, with the same placeholders, of every message the app can show -- the ones in
the code and templates, the engine's templates and words, and the count forms -- and the
language switch offers every language. A branch that adds a message adds it to every
catalog (translations/README.md)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from app.config import DEFAULTS
from app.rules import PROFILES
from app.rules.game.results import EXPLANATIONS
from app.rules.referee.play import RULE_IDS, rule_sentence
from app.web.messages import PLURALS, TERM_IDS
from tests.web.test_messages import engine_templates

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "translations"
CATALOGS = sorted(p.parent.parent.name for p in TRANSLATIONS.glob("*/LC_MESSAGES/messages.po"))
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdr]")
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "_l": None, "lazy_gettext": None,
            "pgettext": ((1, "c"), 2), "Text": None}   # Text: a service's message (app/errors.py)


def name_messages() -> list[tuple[str, str]]:
    """The names of app/web/words.py contract_name, profile_name and profile_description:
    (context, English name)."""
    found = []
    for profile in PROFILES.values():
        found += [("profile", profile.name_en), ("profile-description", profile.description_en)]
        found += [("contract", contract.name_en) for contract in profile.contracts.values()]
    return found


def source_messages() -> dict[tuple[str | None, str], str | None]:
    """(context, msgid) -> plural msgid of every message in app/ and templates/."""
    found: dict[tuple[str | None, str], str | None] = {}
    method_map = [("**.py", "python"), ("**.html", "jinja2")]
    for sub in ("app", "templates"):
        for _file, _line, message, _comments, context in extract_from_dir(
                str(ROOT / sub), method_map, keywords=KEYWORDS):
            if isinstance(message, tuple):
                if message[0]:
                    found[(context, message[0])] = message[1]
            elif message:
                found[(context, message)] = None
    for template in engine_templates():
        found.setdefault((None, template), None)
    for rule in RULE_IDS:
        found.setdefault((None, rule_sentence(rule)), None)
    for template in EXPLANATIONS:                 # the engine's Explanations (early end, payment)
        found.setdefault((None, template), None)
    found.update(dict.fromkeys(name_messages()))
    for plural, (singular, _count) in PLURALS.items():
        found[(None, singular)] = plural
    for kind, ids in TERM_IDS.items():
        for word in ids:
            found[(kind, word)] = None
    return found


@pytest.fixture(scope="module")
def messages() -> dict[tuple[str | None, str], str | None]:
    return source_messages()


def test_the_app_offers_every_catalog_and_english() -> None:
    assert {"es", "tr", "ru"} <= set(CATALOGS)
    assert set(DEFAULTS["LANGUAGES"]) == set(CATALOGS) | {"en"}


@pytest.mark.parametrize("lang", CATALOGS)
def test_every_message_has_a_translation(lang: str, messages: Any) -> None:
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    problems = []
    for (context, msgid), plural in messages.items():
        found = catalog.get(msgid, context=context)
        if found is None or found.fuzzy:
            problems.append(f"missing: {msgid!r}")
            continue
        forms = list(found.string) if isinstance(found.string, tuple) else [found.string]
        if plural is not None and not isinstance(found.string, tuple):
            problems.append(f"needs its plural forms: {msgid!r}")
            continue
        if not all(forms):
            problems.append(f"empty: {msgid!r}")
            continue
        if context is None:
            want = set(PLACEHOLDER.findall(msgid)) | set(PLACEHOLDER.findall(plural or ""))
            for form in forms:
                got = set(PLACEHOLDER.findall(form))
                if got - want or (want - got) - {"num"}:
                    problems.append(f"placeholders of {msgid!r}: {form!r}")
    assert not problems, f"{lang}: {len(problems)} problems\n" + "\n".join(problems[:40])


@pytest.mark.parametrize("lang", ["tr", "ru"])
def test_a_page_speaks_each_language(client: Any, make_game: Any, lang: str) -> None:
    gid = make_game("rifki" if lang == "tr" else "ru32")
    client.get(f"/lang/{lang}")
    html = client.get(f"/games/{gid}").get_data(as_text=True)
    assert f'<html lang="{lang}">' in html
    words = {"tr": ("Puan çizelgesi", "Türk Kingi (Rıfkı)"), "ru": ("Лист счёта", "Русский Кинг")}
    for word in words[lang]:
        assert word in html
    for code in DEFAULTS["LANGUAGES"]:
        assert f'hreflang="{code}"' in html or f'title="{code}"' in html or code == lang


def test_russian_never_puts_a_name_after_a_preposition_that_declines_it(client: Any) -> None:
    """A game's or contract's name is inserted as written (nominative): after "для" it read
    "для Русский Кинг" (issue 38). The Russian catalog sets such names apart instead."""
    with (TRANSLATIONS / "ru" / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f)
    bad = [m.string for m in catalog if isinstance(m.string, str)
           and re.search(r"\b(для|у|из|от|без|до) %\((name|profile|contract)\)s", m.string)]
    assert bad == []
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru"
    page = client.get("/games/new").get_data(as_text=True)
    assert "Опции стола — Русский Кинг" in page and "для Русский" not in page
