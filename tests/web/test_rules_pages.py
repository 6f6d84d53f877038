"""The rules pages (/rules/<profile>, Spanish and English), docs/rules.md, the favicon and
the web app manifest."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.rulebook.rulebook import rulebook
from app.rules import PROFILES
from app.web.referee_words import RULE_NAMES, RULING_LABELS

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


def page_text(app, profile: str, lang: str, part: str | None = None) -> str:
    """The rendered text of /rules/<profile> in ``lang`` (or of its element id=``part``),
    inline tags dropped so that a sentence reads as on the screen."""
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    html = client.get(f"/rules/{profile}").get_data(as_text=True)
    if part is not None:
        start = html.index(f'id="{part}"')
        html = html[start:html.index("</div>", start)]
    return text_of(re.sub(r"</?(span|strong|em|a|small)\b[^>]*>", "", html))


def plays(profile: str, contract: str, trick: str, card: str, holding: str,
          broken: str = "", trump: str = "", **options: str) -> str | None:
    """The rule the engine finds broken by playing ``card`` onto ``trick`` (cards as
    text) while holding ``holding`` (the card included), or None."""
    from app.rules import Options
    from app.rules.cards import SUITS, Card
    from app.rules.referee.checks import judge_play, play_rules

    def mask(text: str) -> int:
        return sum(Card.parse(t).bit for t in text.split())

    p = PROFILES[profile]
    rules = play_rules(p, Options(**options), p.contracts[contract])
    found = judge_play(rules, SUITS.index(trump) if trump else -1, 3,
                       [Card.parse(t) for t in trick.split()], Card.parse(card),
                       mask(holding), mask(broken))
    return found[0] if found else None


#: What each rules page must state (issue 21): sentences of the rendered page, by language.
STATED = {
    "fiestas": {
        "es": ["En Fiesta con triunfo hay que seguir el palo si se puede. Si no se puede, hay que "
               "fallar, superando el triunfo que ya esté en la mesa si se puede. Si no se puede "
               "superar, se juega cualquier carta.",
               "Quien no puede superarlo puede jugar cualquier carta."],
        "en": ["In Fiesta with trumps you follow suit when you can. If you cannot, you must "
               "trump, beating the trump already on the table if you can. If you cannot beat it, "
               "play any card.",
               "A player who cannot beat it may play any card."],
    },
    "ru32": {
        "es": ["Una carta cuenta de varias maneras En Eralash Negativo la última baza contiene "
               "K♥, Q♥, J♠, 7♣. Su ganador recibe bazas −2, corazones −4 (2 × −2), reyes −4, "
               "damas −4, rey de corazones −16, dos últimas bazas −8: −38. El K♥ cuenta como "
               "corazón, como rey y como K♥. La jota no puntúa. En Eralash Positivo la misma "
               "baza da +38.",
               "Los corazones nunca se «rompen»: se haya jugado lo que se haya jugado, incluso un "
               "corazón descartado por otro, solo puede salir con corazón quien no tiene más que "
               "corazones."],
        "en": ["One card counts in several ways In Eralash (negative) the last trick holds K♥, "
               "Q♥, J♠, 7♣. Its winner scores tricks −2, hearts −4 (2 × −2), kings −4, queens −4, "
               "king of hearts −16, last two tricks −8: −38. The K♥ counts as a heart, as a king "
               "and as the K♥. The jack scores nothing. In Eralash (positive) the same trick "
               "gives +38.",
               "Hearts are never “broken”: whatever has been played, even a heart another player "
               "discarded, a heart may be led only by a player who holds nothing but hearts."],
    },
    "subastas": {
        "es": ["En Fiesta con triunfo hay que seguir el palo si se puede. No se puede fallar "
               "mientras se pueda seguir el palo. Quien no tiene el palo de salida puede jugar "
               "cualquier carta: no hay obligación de fallar ni de superar el triunfo de la mesa.",
               "Liquidación: tras una venta a +N el pujador paga al dueño la oferta entera, "
               "25 × N, salga como salga la mano. Tras una venta a −N el pujador paga 75 por cada "
               "baza que se llevó el dueño, hasta N (75 × lo menor entre N y las bazas del "
               "dueño), así que el dueño conserva 325 salvo que se lleve más de N bazas. Con la "
               "opción de mesa «Pago tras una venta a −N: la apuesta entera, tome lo que tome el "
               "dueño» el pujador paga la oferta entera, 75 × N.",
               "Ejemplo: una venta a −2 en la que el dueño se lleva 1 baza. El dueño suma 250 en "
               "nulos (325 − 75); el pujador le paga 75, así que el dueño conserva 325 (250 + 75). "
               "Con la oferta entera el pujador paga 150 y el dueño termina con 400."],
        "en": ["In Fiesta with trumps you follow suit when you can. You may not trump while you "
               "can follow suit. A player void in the suit led may play any card: there is no "
               "duty to trump, nor to beat a trump on the table.",
               "Settlement: after a +N sale the buyer pays the owner the whole bid, 25 × N, "
               "whatever the hand yields. After a −N sale the buyer pays 75 for each trick the "
               "owner took, up to N (75 × the smaller of N and the owner's tricks), so the owner "
               "keeps 325 unless they take more than N tricks. With the table option “Payment "
               "after a −N sale: the whole bid, whatever the owner took” the buyer pays the whole "
               "bid, 75 × N.",
               "Example: a −2 sale in which the owner takes 1 trick. The owner scores 250 in "
               "nulos (325 − 75); the buyer pays 75, so the owner keeps 325 (250 + 75). With the "
               "whole bid the buyer pays 150 and the owner ends on 400."],
    },
    "rifki": {
        "es": ["Con «debe descartar el K♥», quien no tiene el palo de salida y tiene el K♥ debe "
               "jugarlo. Con «debe jugar un corazón, cualquiera», ese jugador sigue obligado a "
               "jugar un corazón: el K♥ u otro cualquiera. En los dos casos, quien no tiene el "
               "palo de salida ni el K♥ puede jugar cualquier carta.",
               "En Koz hay que seguir el palo si se puede. Si no se puede, hay que jugar triunfo, "
               "aunque no gane la baza"],
        "en": ["With “must discard the K♥”, a player void in the suit led who holds the K♥ must "
               "play it. With “must play a heart, any heart”, that player must still play a heart: the "
               "K♥ or any other. Either way a void player without the K♥ may play any card.",
               "In Koz (trumps) you follow suit when you can. If you cannot, you must play a "
               "trump, even one that cannot win"],
    },
}


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("profile", list(STATED))
def test_rules_page_states_what_a_player_needs(app, profile, lang):
    text = page_text(app, profile, lang)
    for sentence in STATED[profile][lang]:
        assert sentence in text


def test_fiestas_page_a_void_player_who_cannot_overtrump_plays_any_card():
    # spades led, a trump (hearts) on the table: holding only a lower trump, any card goes
    assert plays("fiestas", "trump", "AS QH", "2C", "2C 3H", trump="H") is None
    assert plays("fiestas", "trump", "AS QH", "2C", "2C KH", trump="H") == "must-overtrump"
    assert plays("fiestas", "trump", "AS", "2C", "2C 3H", trump="H") == "must-trump"


def test_ru32_page_figures_are_the_engines(app):
    """The K♥ example is priced by the engine (-38 / +38, as seed 000 says); no-boys counts
    kings only; hearts stay unleadable whatever has been played."""
    cases = rulebook("ru32")["count_example"]["cases"]
    assert [(case["contract"].id, case["total"]) for case in cases] == [
        ("eralash", -38), ("plus-eralash", 38)]
    assert PROFILES["ru32"].contracts["no-boys"].values == {"kings": -4}
    for lang, words in (("es", "Las jotas no puntúan: solo los reyes cuentan como chicos."),
                        ("en", "Jacks score nothing: only the kings count as boys.")):
        for contract in ("no-boys", "plus-boys"):
            assert words in page_text(app, "ru32", lang, f"contract-{contract}")
        assert words not in page_text(app, "ru32", lang, "contract-no-girls")
    # a heart was discarded in an earlier trick: leading one while holding a club is still barred
    assert plays("ru32", "no-hearts", "", "7H", "7H 8C", broken="9H") == "hearts-lead"
    assert plays("ru32", "no-hearts", "", "7H", "7H 8H", broken="9H") is None
    assert plays("rifki", "kupa-almaz", "", "7H", "7H 8C", broken="9H") is None


def test_subastas_page_settlement_follows_the_engine(app):
    """The example's figures are sale_terms' and the nulos contract's; fiestas' page keeps
    "whatever the hand yields", subastas' does not say it of a −N sale."""
    from app.rules import Options
    from app.rules.referee.sale import sale_terms

    subastas = PROFILES["subastas"]
    book = rulebook("subastas")["settlement"]
    assert (book["owner_score"], book["cases"]["tricks"]["payment"], book["cases"]["tricks"]["owner"],
            book["cases"]["bid"]["payment"]) == (250, 75, 325, 150)
    for value in ("tricks", "bid"):
        assert sale_terms(subastas, Options(settlement=value), "+3").payment(0) == 75
    assert sale_terms(subastas, Options(), "-2").payment(1) == 75
    assert sale_terms(subastas, Options(settlement="bid"), "-2").payment(1) == 150
    whatever = "the buyer pays the bid's points to the owner whatever the hand yields"
    assert whatever in page_text(app, "fiestas", "en")
    assert whatever not in page_text(app, "subastas", "en")
    assert "as the settlement below says" in page_text(app, "subastas", "en")
    assert "lo que dice la liquidación de abajo" in page_text(app, "subastas", "es")


def test_rifki_page_both_readings_of_rifki_void_are_the_engines():
    # clubs led; the player has no club
    assert plays("rifki", "rifki", "AC", "2S", "2S 5H KH") == "penalty-discard"
    assert plays("rifki", "rifki", "AC", "5H", "2S 5H KH") == "penalty-discard"
    assert plays("rifki", "rifki", "AC", "5H", "2S 5H KH", rifki_void="heart") is None
    assert plays("rifki", "rifki", "AC", "2S", "2S 5H KH", rifki_void="heart") == "penalty-discard"
    for value in ("kh", "heart"):
        assert plays("rifki", "rifki", "AC", "2S", "2S 5H", rifki_void=value) is None


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
    from app.rulebook.pages import markdown_book

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
