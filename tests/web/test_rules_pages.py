"""The rules pages (/rules/<profile>, Spanish and English), docs/rules.md, the favicon and
the web app manifest."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.rules import PROFILES
from app.services.rulebook import rulebook
from app.web.words import RULE_NAMES, RULING_LABELS

DOCS = Path(__file__).resolve().parent.parent.parent / "docs" / "rules.md"


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#39;", "'")


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("profile", list(PROFILES))
def test_rules_page_names_every_contract_rule_and_ruling(app, profile, lang):
    from flask_babel import force_locale

    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    r = client.get(f"/rules/{profile}")
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    text = text_of(html)
    p = PROFILES[profile]
    assert p.name(lang) in text
    for c in p.contracts.values():
        assert f'id="contract-{c.id}"' in html and c.name(lang) in text
        total = f"{c.total:+d}".replace("-", "−")
        assert total in text
    book = rulebook(profile)
    with app.test_request_context(), force_locale(lang):
        for rule in book["rules"]:
            assert f'id="rule-{rule["id"]}"' in html
            assert str(RULE_NAMES[rule["id"]]) in text
        for label in RULING_LABELS.values():
            assert str(label) in text
    if p.auction:
        assert 'id="auction"' in html and all(bid.replace("-", "−") in text for bid in p.ladder)
    words = {"es": "Quién reparte, sale y elige", "en": "Who deals, leads and chooses"}
    assert words[lang] in text


def test_rules_pages_link_from_the_new_game_page_and_404_for_unknown(client):
    html = client.get("/games/new").get_data(as_text=True)
    for pid in PROFILES:
        assert f'href="/rules/{pid}"' in html
    assert client.get("/rules/poker").status_code == 404
    assert client.get("/rules").status_code == 200


def test_referee_rules_follow_the_engine():
    """Every rule the engine enforces in a contract is on that contract's rules; an option
    that brings a rule in is named."""
    book = rulebook("rifki")
    by_id = {r["id"]: r for r in book["rules"]}
    assert ("must_overtake", "all") in by_id["must-overtake"]["options"]
    assert ("trump_lead_ban", "on") in by_id["trump-lead"]["options"]
    koz = next(row for row in book["contracts"] if row["id"] == "koz")
    assert "must-trump" in koz["rules"] and "penalty-discard" not in koz["rules"]
    ru32 = {row["id"]: row["rules"] for row in rulebook("ru32")["contracts"]}
    assert ru32["no-king"] == ("follow-suit", "hearts-lead", "kh-discard")
    assert ru32["no-tricks"] == ("follow-suit",)


def test_docs_rules_md_is_the_english_pages(app):
    from app.web.rules import markdown_book

    with app.app_context():
        book = markdown_book()
    assert DOCS.read_text() == book, (
        "docs/rules.md is stale: run `.venv/bin/flask --app app rules markdown > docs/rules.md`")
    assert "## Rules: Turkish King (Rıfkı)" in book and "Follow suit" in book


def test_favicon_and_manifest(client):
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.mimetype.startswith("image/")
    r.close()
    html = client.get("/").get_data(as_text=True)
    assert 'rel="manifest"' in html and 'rel="icon"' in html
    m = client.get("/manifest.webmanifest")
    assert m.mimetype == "application/manifest+json"
    data = m.get_json(force=True)
    assert data["display"] == "standalone"
    for icon in data["icons"]:
        r = client.get(icon["src"])
        assert r.status_code == 200
        r.close()
