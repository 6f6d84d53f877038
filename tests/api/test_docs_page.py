"""/api/v1/docs speaks the page's language (issue 41): its own headings and labels through
the catalogs, Spanish first; each route's summary stays the OpenAPI document's English,
marked as such."""
from __future__ import annotations

import html
from typing import Any

import pytest

WORDS = {
    "es": ["La API JSON de kingsheet, versión 1", "Cómo llamarla", "Rutas", "Respuestas:"],
    "en": ["kingsheet's JSON API, version 1", "How to call it", "Routes", "Answers:"],
    "tr": ["kingsheet JSON API'si, sürüm 1", "Nasıl çağrılır", "Yollar", "Yanıtlar:"],
    "ru": ["JSON API kingsheet, версия 1", "Как её вызывать", "Маршруты", "Ответы:"],
}


def docs_page(app: Any, accept_language: str | None) -> tuple[str, str]:
    """(the page's HTML, its text with the entities read) for an anonymous reader."""
    client = app.test_client(user=None)
    if accept_language is not None:
        client.environ_base["HTTP_ACCEPT_LANGUAGE"] = accept_language
    r = client.get("/api/v1/docs")
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    return page, html.unescape(page)


@pytest.mark.parametrize("lang", list(WORDS))
def test_the_api_docs_page_is_in_the_pages_language(app, lang):
    page, text = docs_page(app, lang)
    assert f'<html lang="{lang}">' in page
    for word in WORDS[lang]:
        assert word in text, (lang, word)
    assert not [words[1] for other, words in WORDS.items() if other != lang and words[1] in text]
    # the headers and the error's shape are code, written as markup inside the sentence
    assert "<code>Authorization: Bearer &lt;token&gt;</code>" in page
    # every route is there, its summary the document's English
    assert "<code>POST /api/v1/games/{game_id}/hands</code>" in page
    assert '<p lang="en">Record the next hand (needs If-Match)</p>' in page


def test_the_api_docs_page_is_spanish_first(app):
    page, text = docs_page(app, None)
    assert '<html lang="es">' in page and WORDS["es"][0] in text and WORDS["en"][1] not in text
