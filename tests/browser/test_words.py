"""Plain words at the table (issue 14.4, 14.7 and the rules links) in Chromium at 375 px:
no internal id or JSON on a page, the auction and the change log in words, times in the
club's time zone, counts with their plural, the check line that says what it checks, the
players in alphabetical order, and a "?" from each entry page to its contract's rules."""
from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from tests.browser.conftest import shot
from tests.browser.test_referee import import_game
from tests.conftest import base_record, load_record

pytestmark = pytest.mark.browser

#: Ids the engine and the record use; none may show on a page in words.
IDS = ("charge-offender", "as-played", "follow-suit", "hearts-lead", "penalty-limit",
       "choice-limit", "owner:", ":pass", '"counts"', '"tricks"', "+00:00")


@pytest.fixture
def phone(page: Any) -> Any:
    """The table's phone: 375 px wide, Spanish (tests/browser/conftest.py)."""
    return page


def visible_text(page: Any) -> str:
    return str(page.inner_text("main") if page.locator("main").count() else page.inner_text("body"))


def no_ids(page: Any) -> None:
    text = visible_text(page)
    shown = [i for i in IDS if i in text]
    assert not shown, f"{page.url} shows {shown}"


def revoke_record() -> dict[str, Any]:
    """ru32 with a trick hand whose revokes are proven, ruled against Carla at 00:52 UTC."""
    from tests.browser.test_table_ux import revoke_plays

    plays = revoke_plays()
    record = base_record("ru32")
    record["players"] = ["Ana", "Beto", "Carla", "Óscar"]
    record["hands"] = [{"contract": "no-tricks", "tricks": [plays[k:k + 4] for k in range(0, 32, 4)],
                        "ruling": {"kind": "charge-offender", "seat": 2, "reason": "renuncio",
                                   "by": "Juez", "at": "2026-12-01T00:52:11+00:00"}}]
    return record


def test_rulings_rules_times_and_the_change_log_are_in_words(phone: Any) -> None:
    gid = import_game(phone, revoke_record())
    phone.goto(f"/games/{gid}")
    no_ids(phone)
    assert "⚖ cargar al infractor" in phone.inner_text("#hand-1")
    assert "Asistir al palo" in visible_text(phone)
    phone.goto(f"/games/{gid}/hands/1")
    no_ids(phone)
    # 00:52 UTC is 01:52 in Madrid (the club's time zone), written the Spanish way
    when = phone.locator("#current-ruling time")
    assert when.inner_text() == "1 dic 2026, 1:52:11"
    assert when.get_attribute("datetime") == "2026-12-01T00:52:11+00:00"
    # the hand page shows the totals after this hand
    assert [phone.inner_text(f'td[data-total="{s}"]') for s in range(4)] == ["0", "0", "−16", "0"]
    # a correction, then the change log in words
    phone.click('label:has(input[name="kind"][value="adjusted"])')
    for s, p in enumerate(["-4", "-4", "-8", "0"]):
        phone.fill(f"#points_{s}", p)
    phone.fill("#reason", "reparto")
    phone.click("#save-ruling")
    phone.wait_for_url(re.compile(r"/hands/1#ruling$"))
    phone.goto(f"/games/{gid}/audit")
    no_ids(phone)
    change = phone.inner_text('#audit li[data-action="edit_hand"]')
    assert "Decisión arbitral: cargar al infractor (Carla) — “renuncio” → puntos ajustados [−4, −4, −8, 0]" \
        in change, change
    assert re.search(r"\d{1,2} dic 2026, \d{1,2}:\d\d:\d\d", change)
    assert "Horas de Europe/Madrid." in visible_text(phone)
    phone.screenshot(path=shot("kingsheet-words-audit-375.png"), full_page=True)


def test_the_auction_is_a_list_of_calls_with_names(phone: Any) -> None:
    record = load_record("subastas_complete.json")
    gid = import_game(phone, record)
    result_row = next(i for i, h in enumerate(record["hands"]) if h.get("auction"))
    phone.goto(f"/games/{gid}/hands/{result_row + 1}")
    no_ids(phone)
    calls = phone.locator("#auction li").all_inner_texts()
    assert len(calls) == len(record["hands"][result_row]["auction"])
    names = record["players"]
    for text, call in zip(calls, record["hands"][result_row]["auction"], strict=True):
        who, what = call.split(":", 1)
        if who.isdigit():
            assert text.startswith(names[int(who)] + ": "), text
        assert what not in ("pass", "accept", "reject") or what not in text
    phone.screenshot(path=shot("kingsheet-words-auction-375.png"))


def test_counts_plurals_and_the_check_line(phone: Any) -> None:
    record = copy.deepcopy(load_record("ru32_complete.json"))
    record["hands"] = record["hands"][:3]
    gid = import_game(phone, record)
    phone.goto(f"/games/{gid}")
    line = phone.inner_text("#zero-sum-state")
    assert "cada mano suma su total previsto" in line and "−" in line and "-" not in line
    # exactly one violation (a revoke proven by the deal): "1 infracción", not "1 infracciones"
    deal = [["AS", "QS", "TS", "7S", "9H", "JD", "TD", "QC"],
            ["9S", "KH", "AD", "KD", "QD", "8D", "TC", "9C"],
            ["KS", "JS", "JH", "TH", "8H", "9D", "KC", "8C"],
            ["8S", "AH", "QH", "7H", "7D", "AC", "JC", "7C"]]
    plays = ["TS", "9S", "JS", "8S", "8C", "AH", "QC", "9C", "AS", "8D", "KS", "QH", "TD", "QD", "9D",
             "7D", "KD", "TH", "JC", "JD", "AD", "KC", "7H", "QS", "TC", "8H", "AC", "7S", "7C", "9H",
             "KH", "JH"]
    query = "&".join([f"plays={','.join(plays)}"] + [f"deal{s}={','.join(d)}" for s, d in enumerate(deal)])
    phone.goto(f"/games/{gid}/hands/tricks?{query}")
    assert phone.inner_text("#ruling-offer").startswith("Esta mano tiene 1 infracción:")
    phone.click("#save-hand")
    phone.wait_for_url(re.compile(rf"/games/{gid}#hand-4$"))
    assert phone.inner_text(".flash a.flash-link") == "1 infracción señalada: mira el acta de la mano."


def test_rifki_entry_words_and_players_in_alphabetical_order(phone: Any) -> None:
    record = base_record("rifki")
    record["players"] = ["Zoe", "Óscar", "Nuria", "Ángel"]
    gid = import_game(phone, record)
    phone.goto(f"/games/{gid}/hands/new")
    facts = phone.inner_text("#hand-context").strip()
    assert not facts.startswith("·"), facts
    assert "elige y sale" in facts
    no_ids(phone)
    # "?" beside each contract it may choose: its rules
    link = phone.locator("#choose a.help").first
    href = link.get_attribute("href")
    assert re.search(r"/rules/rifki#contract-[\w-]+$", href)
    link.click()
    phone.wait_for_url(re.compile(r"/rules/rifki#contract-"))
    anchor = href.split("#", 1)[1]
    assert phone.locator(f"#{anchor}").is_visible()
    phone.goto("/players")
    names: list[str] = []                      # the roster a page at a time, in its order
    while True:
        found = [n.strip() for n in phone.locator("table a[href^='/players/']").all_inner_texts()]
        names += [n for n in found if n in record["players"]]
        more = phone.locator("a[rel='next']")
        if len(names) == 4 or more.count() == 0:
            break
        more.first.click()
    assert names == ["Ángel", "Nuria", "Óscar", "Zoe"], names


def test_entry_pages_link_their_contract_rules_and_ru32_words(phone: Any) -> None:
    record = copy.deepcopy(load_record("ru32_complete.json"))
    record["hands"] = record["hands"][:12]
    gid = import_game(phone, record)
    phone.goto(f"/games/{gid}/hands/new")
    assert phone.inner_text("#contract-name").startswith("Las Dos Últimas (positivo)")
    for url in (f"/games/{gid}/hands/new", f"/games/{gid}/hands/new?mode=captures",
                f"/games/{gid}/hands/tricks"):
        phone.goto(url)
        link = phone.locator("#contract-rules")
        box = link.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44
        href = link.get_attribute("href")
        assert href.endswith("/rules/ru32#contract-plus-last-two"), href
    phone.click("#contract-rules")
    phone.wait_for_url(re.compile(r"#contract-plus-last-two$"))
    assert phone.locator("#contract-plus-last-two").is_visible()


@pytest.mark.parametrize("lang,words", [("tr", ("Puan çizelgesi", "El Almaz")),
                                        ("ru", ("Лист счёта", "Не брать взяток"))])
def test_the_switch_offers_four_languages_and_each_speaks(phone: Any, lang: str,
                                                          words: tuple[str, str]) -> None:
    gid = import_game(phone, revoke_record())
    phone.goto(f"/games/{gid}")
    switch = phone.locator(".lang-switch a, .lang-switch strong")
    assert [t.strip() for t in switch.all_inner_texts()] == ["ES", "EN", "TR", "RU"]
    links = phone.locator(".lang-switch a")
    for k in range(links.count()):
        box = links.nth(k).bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, box
    phone.click(f'.lang-switch a[hreflang="{lang}"]')
    phone.wait_for_url(re.compile(rf"/games/{gid}$"))
    assert phone.get_attribute("html", "lang") == lang
    text = visible_text(phone)
    for word in words:
        assert word in text, word
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375
    no_ids(phone)
    phone.screenshot(path=shot(f"kingsheet-words-{lang}-375.png"))
