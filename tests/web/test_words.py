"""The words of the pages (app.web.words, app.games.sheet.changelog, app.collation): one
vocabulary, counts with their plural forms, times in the club's time zone, the change log
as a human diff, names in alphabetical order."""
from __future__ import annotations

import re
from typing import Any

import pytest

from app.collation import by_name, name_key
from app.games.sheet import changelog
from app.rules import RecordError, load
from app.web import referee_words, words
from app.web.messages import PLURALS, translate_error
from tests.conftest import PLAYERS, base_record


def test_names_sort_as_people_expect() -> None:
    names = ["Zoe", "Óscar", "oscar", "Nuria", "Ñoño", "Ángel", "álvaro", "Bea"]
    assert sorted(names, key=name_key) == ["álvaro", "Ángel", "Bea", "Nuria", "Ñoño", "oscar",
                                           "Óscar", "Zoe"]
    assert [n for n, in by_name([("Ёлка",), ("Дима",), ("Егор",)], lambda r: r[0])] == \
        ["Дима", "Егор", "Ёлка"]


def test_red_suits_colour_only_hearts_and_diamonds_and_escape_the_rest() -> None:
    from markupsafe import Markup

    html = words.red_suits('<b>Ana</b> holds the 2♦, K♥ and A♠ & 3♣')
    assert html == ('&lt;b&gt;Ana&lt;/b&gt; holds the 2<span class="red">♦</span>, '
                    'K<span class="red">♥</span> and A♠ &amp; 3♣')
    kept = words.red_suits(Markup("<i>K♥</i>"))   # markup already made is kept as it is
    assert kept == Markup('<i>K<span class="red">♥</span></i>')


def test_signed_cards_and_calls_have_one_spelling(app: Any) -> None:
    assert words.signed(-975) == "−975" and words.signed(5) == "+5" and words.signed(0) == "0"
    assert words.card_face("TS") == "10♠" and words.card_view("QH")["color"] == "red"
    with app.test_request_context(headers={"Accept-Language": "es"}):
        assert words.call_text("owner:accept", PLAYERS, 2) == "Carla: acepta: vendida"
        assert words.call_text("3:-2", PLAYERS, 2) == "Dani: −2"
        assert words.call_text("0:pass", PLAYERS, None) == "Ana: paso"
        assert words.call_what("owner:too-little") == "es poco"
        assert words.call_what("2:-3") == "−3" and words.call_what("1:+8") == "+8"
        # a hand's bid and the ladder hold the call's part after the seat: no splitting
        assert words.bid_words("-2") == "−2" and words.bid_words("+7") == "+7"
        assert words.bid_words("accept") == "acepta: vendida"
        assert referee_words.ruling_label("charge-offender") == "cargar al infractor"


def test_decimals_days_and_payments_have_one_spelling(app: Any) -> None:
    """The page and the PDF write them through the same filters: −12,0 in Spanish."""
    from datetime import date

    with app.test_request_context(headers={"Accept-Language": "es"}):
        assert words.decimal(-12.0) == "−12,0" and words.decimal(3.25) == "3,2"
        assert words.decimal(None) == "–"
        assert words.local_date(date(2026, 12, 1), "long") == "1 de diciembre de 2026"
        rendered = app.jinja_env.from_string("{{ -12.0 | decimal }} {{ d | date('long') }}").render(
            d=date(2026, 12, 1))
        assert rendered == "−12,0 1 de diciembre de 2026"
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert words.decimal(-12.0) == "−12.0"
    assert words.payment_text([-100, 100, 0, 0]) == "1 → 2: 100"
    assert words.payment_text([-50, -50, 100, 0]) == "1: −50, 2: −50, 3: +100"


@pytest.mark.parametrize("lang", ["es", "en", "tr", "ru"])
def test_event_points_whole_numbers_skip_babel_and_read_the_same(app: Any, lang: str) -> None:
    """words.points writes a whole number itself (a results screen shows hundreds): exactly
    what Babel's pattern writes, in every language, big and negative ones included."""
    from flask_babel import format_decimal

    with app.test_request_context(headers={"Accept-Language": lang}):
        for value in (0, 7, -16, 1234567, -98765, 3.0, -2.0, 1e6):
            assert words.points(value) == str(format_decimal(value, "0.##")).replace("-", words.MINUS)
        assert words.points(-16) == "−16" and words.points(1234567) == "1234567"
        shared = words.points(1.75)     # a shared place (events._number)
        assert shared == ("1,75" if lang in ("es", "tr", "ru") else "1.75")
        assert words.points(-1.5) == ("−1,5" if lang != "en" else "−1.5")


def test_times_are_shown_in_the_club_time_zone(app: Any) -> None:
    with app.test_request_context(headers={"Accept-Language": "es"}):
        assert words.local_datetime("2026-12-01T00:52:11+00:00") == "1 dic 2026, 1:52:11"
        assert words.local_time("2026-07-01T22:05:00+00:00") == "00:05"      # summer: UTC+2
        assert words.iso_utc("2026-12-01T00:52:11") == "2026-12-01T00:52:11+00:00"
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert words.local_datetime("2026-12-01T00:52:11+00:00") == "Dec 1, 2026, 1:52:11\u202fAM"


def _limit_error() -> RecordError:
    hands = [{"contract": "el-almaz", "counts": {"tricks": [3, 4, 2, 4]}}] * 3
    with pytest.raises(RecordError) as info:
        load(base_record("rifki", hands=hands))
    return info.value


@pytest.mark.parametrize("lang,n,expected", [("es", 1, "ya se ha jugado 1 vez"),
                                             ("es", 2, "ya se ha jugado 2 veces"),
                                             ("en", 1, "has been played 1 time already"),
                                             ("en", 2, "has been played 2 times already")])
def test_engine_counts_take_their_plural_form(app: Any, lang: str, n: int, expected: str) -> None:
    e = _limit_error()
    assert e.template in PLURALS
    e.params["n"] = n
    with app.test_request_context(headers={"Accept-Language": lang}):
        assert expected in translate_error(e)


def test_the_change_log_says_what_changed(app: Any) -> None:
    before = {"contract": "no-tricks", "counts": {"tricks": [1, 5, 3, 4]}}
    after = {"contract": "no-tricks", "counts": {"tricks": [2, 4, 3, 4]},
             "ruling": {"kind": "replay", "reason": "cartas vistas"}}
    with app.test_request_context(headers={"Accept-Language": "es"}):
        lines = changelog.hand_lines(before, after, PLAYERS, "es")
        assert lines == ["Bazas: Ana 1 → 2, Beto 5 → 4",
                         "Decisión arbitral: como se jugó → repetir la mano — “cartas vistas”"]
        caps = changelog.hand_lines({"contract": "no-queens", "captures": {"cards": [["QS"], [], [], []]}},
                                    {"contract": "no-queens", "captures": {"cards": [[], ["QS"], [], []]}},
                                    PLAYERS, "es")
        assert caps == ["Cartas ganadas, Ana: −Q♠", "Cartas ganadas, Beto: +Q♠"]
        added = changelog.hand_lines(None, {"contract": "kh", "counts": {"kh": 2}}, PLAYERS, "es")
        assert added[1] == "Rey de corazones: — → Carla"
        assert changelog.entry_lines("import", None, base_record("ru32"), PLAYERS, "es") == \
            ["Ana, Beto, Carla, Dani"]


def test_the_live_status_formats_in_the_club_time_zone(client: Any, make_game: Any) -> None:
    gid = make_game("ru32")
    html = client.get(f"/games/{gid}").get_data(as_text=True)
    assert 'data-tz="Europe/Madrid"' in html
    assert re.search(r'data-updated-at="\d{4}-\d\d-\d\dT[\d:.]+\+00:00"', html)


def test_the_433_hint_only_where_a_433_may_be_chosen(client: Any, make_game: Any) -> None:
    from tests.web.test_hands import NEGATIVES

    gid = make_game("subastas", hands=NEGATIVES)
    hint = "Not used for a 433."
    passes = client.get(f"/games/{gid}/hands/new", query_string={"auction": "3:pass,0:pass,1:pass"})
    assert hint in passes.get_data(as_text=True)
    three_bids = "3:+1,0:+2,1:+3,3:pass,0:pass,owner:reject"     # 433 needs fewer than 3 bids
    html = client.get(f"/games/{gid}/hands/new", query_string={"auction": three_bids}).get_data(
        as_text=True)
    assert 'name="contract" value="nulos"' in html and 'value="433"' not in html
    assert hint not in html


def test_a_refused_call_is_quoted_in_words(client: Any, make_game: Any) -> None:
    from tests.web.test_hands import NEGATIVES

    gid = make_game("subastas", hands=NEGATIVES)      # hand 7: Carla owns, Dani calls first
    html = client.get(f"/games/{gid}/hands/new", query_string={"auction": "3:+1,3:+2"}).get_data(
        as_text=True)
    assert "Call 2 was refused" in html
    assert "&#34;Dani: +2&#34;" in html or '"Dani: +2"' in html
    assert "3:+2" not in html.split("Call 2 was refused")[1].split("</p>")[0]


def test_an_engine_error_page_speaks_the_page_language(tmp_path: Any) -> None:
    from tests.conftest import make_app

    application = make_app(f"sqlite:///{tmp_path / 'k.sqlite'}")

    def refuse() -> str:
        raise RecordError.of("hands[0].counts.tricks", "sum", "%(element)s add up to %(total)s; "
                             "there are %(full)s", element="tricks", total=12, full=13)

    application.add_url_rule("/_refuse", "refuse", refuse)
    client = application.test_client()
    html = client.get("/_refuse", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert "suman 12" in html and "add up to" not in html
    api = client.get("/_refuse", headers={"Accept": "application/json"}).get_json()
    assert api["error"]["code"] == "sum" and "add up to 12" in api["error"]["message"]


@pytest.mark.parametrize("lang", ["es", "en", "tr", "ru"])
def test_contract_and_profile_names_come_from_the_catalogs(app: Any, lang: str) -> None:
    """The same names the engine keeps beside them today, but through gettext (msgctxt
    "contract" / "profile", msgid the English name); an id is looked up in its profile."""
    from app.rules import PROFILES

    with app.test_request_context(headers={"Accept-Language": lang}):
        for profile in PROFILES.values():
            assert words.profile_name(profile) == words.profile_name(profile.id) == profile.name(lang)
            assert words.profile_description(profile) == profile.description(lang)
            for cid, contract in profile.contracts.items():
                assert words.contract_name(cid, profile.id) == contract.name(lang), (profile.id, cid)
        assert words.contract_name(None) == "—" and words.contract_name("nothing") == "nothing"


def test_the_web_takes_names_from_the_catalogs_not_the_engines_table() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    found = []
    engine = root / "app" / "rules"
    for path in sorted([*(p for p in (root / "app").rglob("*.py") if not p.is_relative_to(engine)),
                        *(root / "templates").rglob("*.html")]):
        name = str(path.relative_to(root / "templates")) if path.suffix == ".html" else path.name
        text = path.read_text(encoding="utf-8")
        if re.search(r"\.name\(lang\)|\.description\(lang\)|name_es|OTHER_NAMES", text):
            found.append(name)
    assert found == []
