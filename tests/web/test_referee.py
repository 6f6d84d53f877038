"""Referee mode through the test client: trick entry, the deal, the hand record page,
rulings, errors (never a 500; a rejected entry changes nothing)."""
from __future__ import annotations

import random
import re
from html import unescape as html_unescape
from typing import Any

import pytest

from app.rules import score_record
from app.rules.cards import cards_of
from app.rules.game.hand import HandState
from app.rules.profiles import PROFILES
from tests.browser.test_referee import CASES as REFEREE_CASES
from tests.browser.test_referee import case_setup
from tests.conftest import base_record
from tests.web.helpers import csrf_from, legal_hand, record_of, version_of

# ru32 hand 1 (no-tricks, Beto leads) played without regard to the rules in trick 1:
# Carla discards 7♣ on the spade lead and shows 9♠ in trick 2 -- a proven revoke.
REVOKE = ["AS", "7C", "8S", "KS", "7S", "9S", "TS", "JS"]


def finish_without_deal(plays: list[str], contract: str = "no-tricks", leader: int = 1,
                        seed: int = 0) -> list[str]:
    """Completes a ru32 hand from `plays` with any unplayed cards (rules ignored)."""
    state = HandState("ru32", {}, contract, None, leader)
    for c in plays:
        state.play(c)
    rest = [str(c) for c in cards_of(PROFILES["ru32"].deck)]
    random.Random(seed).shuffle(rest)
    played = set(plays)
    for c in rest:
        if state.over:
            break
        if c not in played:
            state.play(c)
    return [c for t in state.tricks() for c in t]


def url(gid: int, plays: list[str], **params: str) -> str:
    q = "&".join([f"plays={','.join(plays)}"] + [f"{k}={v}" for k, v in params.items()])
    return f"/games/{gid}/hands/tricks?{q}"


def deal_params(deal: list[list[str]]) -> dict[str, str]:
    return {f"deal{s}": ",".join(cards) for s, cards in enumerate(deal)}


def test_trick_page_shows_turn_grid_and_leader(client: Any, make_game: Any) -> None:
    gid = make_game("ru32")
    r = client.get(f"/games/{gid}/hands/tricks")
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert 'id="turn" class="turn-now" data-seat="1"' in html and "Beto leads" in html
    assert html.count('class="cardbtn') == 32
    assert 'data-card="AH"' in html and "♥" in html


def test_52_card_grid_in_fiestas(client: Any, make_game: Any) -> None:
    gid = make_game("fiestas")
    html = client.get(f"/games/{gid}/hands/tricks").get_data(as_text=True)
    assert html.count('class="cardbtn') == 52


def test_a_tap_or_a_typed_card_leads_to_the_next_state(client: Any, make_game: Any) -> None:
    gid = make_game("ru32")
    r = client.get(url(gid, ["AS"], add="10s"))
    assert r.status_code == 303 and r.headers["Location"].endswith("plays=AS,TS")
    r = client.get(r.headers["Location"])
    html = r.get_data(as_text=True)
    assert "Dani plays" in html and 'data-plays="2"' in html


@pytest.mark.parametrize("typed,message", [
    ("zz", "zz is not a card"), ("AS", "A♠ has already been played."),
    ("2C", "2♣ is not in this deck.")])
def test_a_bad_typed_card_is_refused_and_kept(client: Any, make_game: Any, typed: str,
                                              message: str) -> None:
    gid = make_game("ru32")
    r = client.get(url(gid, ["AS"], add=typed))
    html = r.get_data(as_text=True)
    assert r.status_code == 422
    assert message in html
    assert re.search(r'id="add" name="add" value="' + re.escape(typed) + '"', html)
    assert 'data-plays="1"' in html


def test_a_card_not_held_is_refused_with_the_deal(client: Any, make_game: Any) -> None:
    gid = make_game("ru32")
    deal, _plays = legal_hand("ru32", "no-tricks", 1, 3)
    not_beto = deal[0][0]
    r = client.get(url(gid, [], add=not_beto, **deal_params(deal)))
    assert r.status_code == 422
    assert "is not in Beto&#39;s hand" in r.get_data(as_text=True)


def test_tampered_addresses_never_fail(client: Any, make_game: Any) -> None:
    gid = make_game("ru32")
    for q in ["plays=AS,,KS", "plays=QQ,ZZ", "plays=AS,AS", "deal0=AS&deal1=XX",
              "deal0=AS,KS&deal1=&deal2=&deal3=", "plays=" + ",".join(["AS"] * 60),
              "contract=nope&leader=7&trump=Q", "step=deal&dealt=1&c_AS=9"]:
        r = client.get(f"/games/{gid}/hands/tricks?{q}")
        assert r.status_code in (200, 303, 422), q
    r = client.get(f"/games/{gid}/hands/tricks?plays=AS,AS")
    assert r.status_code == 422 and "already been played" in r.get_data(as_text=True)


def test_save_a_hand_entered_trick_by_trick(client: Any, make_game: Any) -> None:
    gid = make_game("ru32")
    deal, plays = legal_hand("ru32", "no-tricks", 1, 7)
    page = client.get(url(gid, plays, **deal_params(deal))).get_data(as_text=True)
    assert 'id="save-hand"' in page and "The hand is over." in page
    shown = [int(x.replace("−", "-").replace("+", "")) for x in
             re.findall(r'data-final="\d">([^<]+)<', page)]
    r = client.post(url(gid, plays, **deal_params(deal)),
                    data={"version": str(version_of(client, gid)), "scorer": "Eva"})
    assert r.status_code == 302 and r.headers["Location"].endswith("#hand-1")
    record = record_of(client, gid)
    hand = record["hands"][0]
    assert hand["tricks"][0] == plays[:4] and hand["deal"] == deal
    assert score_record(record)["hands"][0]["points"] == shown
    audit = client.get(f"/games/{gid}/audit").get_data(as_text=True)
    assert "directora" in audit   # the logged-in user, never a typed name


@pytest.mark.parametrize("with_deal", [True, False], ids=["deal", "no-deal"])
@pytest.mark.parametrize("case", REFEREE_CASES, ids=[c[0] for c in REFEREE_CASES])
def test_every_profile_by_its_tricks_scores_as_the_engine(client: Any, make_game: Any, case: Any,
                                                            with_deal: bool) -> None:
    """A whole hand of each profile, with and without its deal, played on the trick page by
    its address (as the page's script asks for it, card after card) and saved: the points
    the page shows at the end are the engine's for the saved record (the browser plays one
    of the two ways per profile: tests/browser/test_referee.py)."""
    profile, prior, contract, trump, leader, query, seed = case_setup(case, with_deal)
    gid = make_game(profile, hands=prior)
    deal, plays = legal_hand(profile, contract, leader, seed, trump)
    extra = deal_params(deal) if with_deal else {}
    setup = dict(p.split("=", 1) for p in query.split("&")) if query else {}
    for k in (4, len(plays) - 1):                # the page part way through and one card short
        assert client.get(url(gid, plays[:k], **setup, **extra)).status_code == 200
    page = client.get(url(gid, plays, **setup, **extra)).get_data(as_text=True)
    shown = [int(x.replace("−", "-").replace("+", "")) for x in
             re.findall(r'data-final="\d">([^<]+)<', page)]
    assert len(shown) == 4, page[:300]
    r = client.post(url(gid, plays, **setup, **extra),
                    data={"version": str(version_of(client, gid)), "scorer": "Eva"})
    assert r.status_code == 302, r.get_data(as_text=True)[:500]
    record = record_of(client, gid)
    hand = record["hands"][len(prior)]
    assert hand["tricks"] == [plays[k:k + 4] for k in range(0, len(plays), 4)]
    assert ("deal" in hand) == with_deal
    assert score_record(record)["hands"][len(prior)]["points"] == shown


def test_saving_before_the_end_changes_nothing(client: Any, make_game: Any) -> None:
    gid = make_game("ru32")
    v = version_of(client, gid)
    r = client.post(url(gid, ["AS", "KS"]), data={"version": str(v)})
    assert r.status_code == 422 and "not over yet" in r.get_data(as_text=True)
    assert record_of(client, gid)["hands"] == [] and version_of(client, gid) == v


def test_stale_version_is_a_conflict_and_keeps_the_entry(client: Any, make_game: Any) -> None:
    gid = make_game("ru32")
    plays = finish_without_deal([])
    r = client.post(url(gid, plays), data={"version": "99"})
    assert r.status_code == 409 and 'id="conflict"' in r.get_data(as_text=True)
    assert record_of(client, gid)["hands"] == []


def test_csrf_is_required(csrf_app: Any) -> None:
    from app.db import get_session
    from app.games.games import import_game

    with csrf_app.app_context():
        gid = import_game(get_session(), base_record("ru32"), who="t").id
    client = csrf_app.test_client()
    plays = finish_without_deal([])
    r = client.post(url(gid, plays), data={"version": "1"})
    assert r.status_code == 400
    r = client.post(f"/games/{gid}/hands/1/ruling", data={"version": "1", "kind": "replay"})
    assert r.status_code == 400
    page = client.get(url(gid, plays)).get_data(as_text=True)
    r = client.post(url(gid, plays), data={"version": "1", "csrf_token": csrf_from(page)})
    assert r.status_code == 302


def test_deal_step_fills_the_last_seat_and_names_a_short_one(client: Any, make_game: Any) -> None:
    gid = make_game("ru32")
    deal, _ = legal_hand("ru32", "no-tricks", 1, 2)
    data = {f"c_{c}": str(s) for s in range(3) for c in deal[s]}
    q = "&".join(f"{k}={v}" for k, v in data.items())
    r = client.get(f"/games/{gid}/hands/tricks?plays=&dealt=1&{q}")
    assert r.status_code == 303
    loc = r.headers["Location"]
    assert set(loc.split("deal3=")[1].split("&")[0].split(",")) == set(deal[3])
    html = client.get(loc).get_data(as_text=True)
    assert html.count('class="cardbtn') == 32 and html.count(" legal\"") == 8
    short = dict(data)
    short.pop(f"c_{deal[1][0]}")
    q = "&".join(f"{k}={v}" for k, v in short.items())
    r = client.get(f"/games/{gid}/hands/tricks?plays=&dealt=1&{q}")
    html = r.get_data(as_text=True)
    assert r.status_code == 422 and "Beto has 7 cards; each player is dealt 8." in html
    assert f'name="c_{deal[0][0]}"' in html and 'value="0" selected' in html


def test_hand_record_page(client: Any, make_game: Any) -> None:
    plays = finish_without_deal(REVOKE)
    hand = {"contract": "no-tricks", "tricks": [plays[k:k + 4] for k in range(0, 32, 4)]}
    gid = make_game("ru32", hands=[hand])
    r = client.get(f"/games/{gid}/hands/1")
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert html.count('<tr data-trick=') == 8
    assert 'data-rule="follow-suit"' in html and "Follow suit" in html
    assert "9♠ played at trick 2" in html
    assert 'id="ruling-form"' in html
    sheet = client.get(f"/games/{gid}").get_data(as_text=True)
    assert f'href="/games/{gid}/hands/1#violations"' in sheet
    es = client.get(f"/games/{gid}/hands/1", headers={"Accept-Language": "es"})
    text = es.get_data(as_text=True)
    assert "Asistir al palo" in text and "9♠ jugado en la baza 2" in text


@pytest.mark.parametrize("path", ["/games/999/hands/1", "/games/{gid}/hands/2",
                                  "/games/{gid}/hands/0", "/games/{gid}/hands/2/tricks",
                                  "/games/999/hands/tricks"])
def test_not_found(client: Any, make_game: Any, path: str) -> None:
    gid = make_game("ru32", hands=[{"contract": "no-tricks", "counts": {"tricks": [2, 2, 2, 2]}}])
    assert client.get(path.format(gid=gid)).status_code == 404
    assert client.post(f"/games/{gid}/hands/5/ruling", data={"version": "1"}).status_code == 404


def ruling_form(client: Any, gid: int, **data: str) -> Any:
    data.setdefault("version", str(version_of(client, gid)))
    return client.post(f"/games/{gid}/hands/1/ruling", data=data)


@pytest.mark.parametrize("data,field_text", [
    ({"kind": "adjusted", "points_0": "-4", "points_1": "-4", "points_2": "-4",
      "points_3": "-3", "reason": "x"}, "the points add up to −15; this hand&#39;s total is −16"),
    ({"kind": "adjusted", "points_0": "-16", "points_1": "0", "points_2": "0",
      "points_3": "0"}, "an adjusted ruling needs a reason"),
    ({"kind": "adjusted", "points_0": "abc", "reason": "x"}, "Type a whole number."),
    ({"kind": "adjusted", "reason": "x"}, "missing: the four adjusted points"),
    ({"kind": "charge-offender"}, "the offending seat"),
    ({"kind": "bogus"}, "Not a valid choice"),
])
def test_ruling_errors_name_the_field_and_change_nothing(client: Any, make_game: Any,
                                                         data: dict[str, str],
                                                         field_text: str) -> None:
    gid = make_game("ru32", hands=[{"contract": "no-tricks", "counts": {"tricks": [2, 2, 2, 2]}}])
    before = record_of(client, gid)
    r = ruling_form(client, gid, **data)
    html = r.get_data(as_text=True)
    assert r.status_code in (400, 422)
    assert field_text in html
    assert record_of(client, gid) == before
    if data.get("points_0"):
        assert f'value="{data["points_0"]}"' in html          # what was typed stays


def test_charge_offender_only_on_negative_hands(client: Any, make_game: Any) -> None:
    # hand 8 of ru32 is plus-tricks: build the record directly
    hands: list[dict[str, Any]] = [{"counts": {"tricks": [2, 2, 2, 2]}}]
    hands += [{"counts": {"kings": [1, 1, 1, 1]}}, {"counts": {"queens": [1, 1, 1, 1]}},
              {"counts": {"hearts": [2, 2, 2, 2]}}, {"counts": {"kh": 0}},
              {"counts": {"last_two": [0, 1]}},
              {"counts": {"tricks": [2, 2, 2, 2], "hearts": [2, 2, 2, 2],
                          "kings": [1, 1, 1, 1], "queens": [1, 1, 1, 1], "kh": 0,
                          "last_two": [0, 1]}},
              {"counts": {"tricks": [2, 2, 2, 2]}}]
    gid = make_game("ru32", hands=hands)
    html = client.get(f"/games/{gid}/hands/8").get_data(as_text=True)
    assert 'value="charge-offender"' not in html
    r = client.post(f"/games/{gid}/hands/8/ruling",
                    data={"version": str(version_of(client, gid)), "kind": "charge-offender",
                          "seat": "1"})
    assert r.status_code == 422 and "negative hands only" in r.get_data(as_text=True)


def test_rulings_change_the_totals_and_are_audited(client: Any, make_game: Any) -> None:
    plays = finish_without_deal(REVOKE)
    hand = {"contract": "no-tricks", "tricks": [plays[k:k + 4] for k in range(0, 32, 4)]}
    gid = make_game("ru32", hands=[hand])
    r = ruling_form(client, gid, kind="charge-offender", seat="2", reason="revoke",
                    scorer="Juez")
    assert r.status_code == 303 and r.headers["Location"].endswith("/hands/1#ruling")
    rec = record_of(client, gid)
    ruling = rec["hands"][0]["ruling"]
    assert ruling["kind"] == "charge-offender" and ruling["seat"] == 2 and ruling["by"] == "directora"
    assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$", ruling["at"])
    assert score_record(rec)["totals"] == [0, 0, -16, 0]
    page = client.get(f"/games/{gid}/hands/1").get_data(as_text=True)
    assert 'id="ruled-points"' in page and "recorded by directora" in page
    sheet = client.get(f"/games/{gid}").get_data(as_text=True)
    assert f'/games/{gid}/hands/1#ruling' in sheet
    r = ruling_form(client, gid, kind="adjusted", points_0="-4", points_1="-4", points_2="-8",
                    points_3="0", reason="split")
    assert score_record(record_of(client, gid))["totals"] == [-4, -4, -8, 0]
    r = ruling_form(client, gid, kind="as-played")
    assert "ruling" not in record_of(client, gid)["hands"][0]
    audit = client.get(f"/games/{gid}/audit").get_data(as_text=True)
    assert audit.count("<li data-action") >= 4


def test_replay_brings_the_same_hand_back(client: Any, make_game: Any) -> None:
    gid = make_game("ru32", hands=[{"contract": "no-tricks", "counts": {"tricks": [2, 2, 2, 2]}}])
    r = ruling_form(client, gid, kind="replay", reason="misdeal")
    assert r.status_code == 303
    report = score_record(record_of(client, gid))
    assert report["next"]["number"] == 1 and report["next"]["contract"] == "no-tricks"
    html = client.get(f"/games/{gid}/hands/tricks").get_data(as_text=True)
    assert "Hand 1" in html and "Beto leads" in html


def test_correct_a_hand_trick_by_trick(client: Any, make_game: Any) -> None:
    deal, plays = legal_hand("ru32", "no-tricks", 1, 11)
    hand = {"contract": "no-tricks", "tricks": [plays[k:k + 4] for k in range(0, 32, 4)],
            "deal": deal}
    gid = make_game("ru32", hands=[hand])
    r = client.get(f"/games/{gid}/hands/1/tricks")
    assert r.status_code == 302 and "plays=" + ",".join(plays) in r.headers["Location"]
    loc = r.headers["Location"]
    html = client.get(loc).get_data(as_text=True)
    assert 'id="save-hand"' in html
    r = client.post(loc, data={"version": str(version_of(client, gid))})
    assert r.status_code == 302
    assert record_of(client, gid)["hands"][0]["tricks"] == hand["tricks"]


def test_fiesta_needs_its_auction_first(client: Any, make_game: Any) -> None:
    negatives = [{"counts": {"tricks": [1, 5, 3, 4]}}, {"counts": {"hearts": [1, 5, 3, 4]}},
                 {"counts": {"queens": [1, 1, 1, 1]}},
                 {"counts": {"kings": [1, 1, 1, 1], "jacks": [2, 0, 1, 1]}},
                 {"counts": {"kh": 2}}, {"counts": {"last_two": [1, 1]}}]
    gid = make_game("fiestas", hands=negatives)
    r = client.get(f"/games/{gid}/hands/tricks")
    assert r.status_code == 302 and f"/games/{gid}/hands/new" in r.headers["Location"]
    calls = "3:%2B2,0:pass,1:pass,owner:accept"
    r = client.get(f"/games/{gid}/hands/tricks?contract=trump&trump=H&auction={calls}")
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and "Dani leads" in html and html.count('class="cardbtn') == 52
    entry = client.get(f"/games/{gid}/hands/new?contract=trump&trump=H&auction={calls}")
    assert 'id="mode-tricks"' in entry.get_data(as_text=True)


def test_trick_mode_is_carried_through_the_setup_steps_to_the_trick_page(
        client: Any, make_game: Any) -> None:
    # a fixed contract: straight to the trick page
    gid = make_game("ru32")
    r = client.get(f"/games/{gid}/hands/new?mode=tricks")
    assert r.status_code == 302
    assert f"/games/{gid}/hands/tricks?contract=no-tricks" in r.headers["Location"]
    # a fiesta: the auction and the contract are set up first, then the trick page
    gid = make_game("fiestas", hands=filler_negatives())     # hand 7: Carla's fiesta
    q = "auction=3:pass,0:pass,1:pass&contract=trump&trump=S&leader=3&mode=tricks"
    r = client.get(f"/games/{gid}/hands/new?{q}")
    assert r.status_code == 302
    loc = r.headers["Location"]
    assert f"/games/{gid}/hands/tricks?" in loc
    assert "contract=trump" in loc and "trump=S" in loc and "auction=3:pass" in loc
    page = client.get(loc)
    assert page.status_code == 200 and 'class="cardbtn' in page.get_data(as_text=True)


def test_correcting_a_trick_hand_goes_to_the_trick_page(client: Any, make_game: Any) -> None:
    deal, plays = legal_hand("ru32", "no-tricks", 1, seed=3)
    tricks = [plays[i:i + 4] for i in range(0, len(plays), 4)]
    gid = make_game("ru32", hands=[{"contract": "no-tricks", "tricks": tricks, "deal": deal}])
    r = client.get(f"/games/{gid}/hands/1/edit")
    assert r.status_code == 302
    assert r.headers["Location"].endswith(f"/games/{gid}/hands/1/tricks")


def filler_negatives() -> list[dict[str, Any]]:
    """The six negative hands of a fiestas game, entered as counts."""
    order = ["no-tricks", "no-hearts", "no-queens", "no-men", "no-kh", "no-last-two"]
    counts = {"no-tricks": {"tricks": [4, 3, 3, 3]}, "no-hearts": {"hearts": [4, 3, 3, 3]},
              "no-queens": {"queens": [1, 1, 1, 1]}, "no-men": {"kings": [1, 1, 1, 1],
                                                                 "jacks": [1, 1, 1, 1]},
              "no-kh": {"kh": 0}, "no-last-two": {"last_two": [0, 1]}}
    return [{"contract": c, "counts": counts[c]} for c in order]


def test_sheet_and_pdf_name_violations_in_the_page_language(client: Any, make_game: Any) -> None:
    plays = finish_without_deal(REVOKE)
    hand = {"contract": "no-tricks", "tricks": [plays[k:k + 4] for k in range(0, 32, 4)]}
    gid = make_game("ru32", hands=[hand])
    es = client.get(f"/games/{gid}", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert "Asistir al palo" in es and "9♠ jugado en la baza 2" in es
    assert "did not follow suit" not in es
    en = client.get(f"/games/{gid}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Follow suit" in en and "9♠ played at trick 2" in en


def _rifki_deal(holder: int) -> list[list[str]]:
    """A 52-card deal, 13 cards a seat, with the 2♦ at seat ``holder``."""
    cards = [str(c) for c in sorted(cards_of(PROFILES["rifki"].deck))]
    deal = [cards[s * 13:(s + 1) * 13] for s in range(4)]
    at = next(s for s in range(4) if "2D" in deal[s])
    deal[at][deal[at].index("2D")], deal[holder][0] = deal[holder][0], "2D"
    return deal


@pytest.mark.parametrize("lang,message", [
    ("es", "el 2♦ le ha tocado al asiento 3 (Carla), pero la mano 1 la elige (y sale) el "
           "asiento 1 (Ana), el primero en elegir (first_chooser): quien elige la mano 1 tiene "
           "el 2♦"),
    ("en", "the 2♦ is dealt to seat 3 (Carla), but hand 1 is chosen (and led) by seat 1 (Ana), "
           "the record&#39;s first_chooser: the chooser of hand 1 holds the 2♦"),
])
def test_rifki_hand_1_deal_with_the_2d_elsewhere_is_refused_next_to_the_deal(
        client: Any, make_game: Any, lang: str, message: str) -> None:
    """RULES.md 1.4: hand 1 is chosen by whoever holds the 2♦ (first_chooser, Ana here). A
    tapped deal giving it to Carla goes back to the deal step with the engine's message in
    the page's language; the cards stay tapped."""
    gid = make_game("rifki")
    headers = {"Accept-Language": lang}
    deal = _rifki_deal(2)
    taps = "&".join(f"c_{c}={s}" for s in range(3) for c in deal[s])
    r = client.get(f"/games/{gid}/hands/tricks?contract=kiz-almaz&plays=&dealt=1&{taps}",
                   headers=headers)
    assert r.status_code == 303
    r = client.get(r.headers["Location"], headers=headers)
    html = r.get_data(as_text=True)
    assert r.status_code == 422 and 'id="deal-entry"' in html
    section = html.split('id="deal-entry"')[1].split("</section>")[0]
    assert f'<p class="error" role="alert">{message}</p>' in section
    assert re.search(r'data-card="2D" data-seat="2"', section)
    skip = re.search(r'href="([^"]+)" data-nav id="deal-skip"', section)
    assert skip and "deal0" not in skip.group(1)       # without the deal: the bad one is left
    r = client.get(html_unescape(skip.group(1)), headers=headers)
    assert r.status_code == 200 and 'id="deal-entry"' not in r.get_data(as_text=True)
    good = _rifki_deal(0)
    r = client.get(url(gid, [], contract="kiz-almaz", **deal_params(good)), headers=headers)
    assert r.status_code == 200 and 'id="deal-entry"' not in r.get_data(as_text=True)


def test_a_weighted_ruling_from_the_page_keeps_the_total_and_is_shown_everywhere(client: Any,
                                                                                 make_game: Any) -> None:
    """A director weighs two outcomes (issue 40, RULES.md §3): 30 % as played, 70 % with
    another card; the hand gets the weighted points, rounded to keep its total; the page,
    the sheet and the sheet's PDF say the outcomes; the form shows them again; shares that
    do not add up to 100 are refused at the outcomes and change nothing."""
    from app.rules.game.rulings import weighted_points

    gid = make_game("ru32", hands=[{"contract": "no-tricks", "counts": {"tricks": [3, 2, 2, 1]}}])
    before = record_of(client, gid)
    bad = ruling_form(client, gid, kind="adjusted", reason="revoke at trick 3",
                      w0_share="30", w0_label="as played", w0_p0="-6", w0_p1="-4", w0_p2="-4", w0_p3="-2",
                      w1_share="60", w1_label="with Q♠", w1_p0="-2", w1_p1="-6", w1_p2="-4", w1_p3="-4")
    html = bad.get_data(as_text=True)
    assert bad.status_code == 422 and record_of(client, gid) == before
    assert 'class="field outcomes invalid"' in html and 'value="60"' in html
    good = ruling_form(client, gid, kind="adjusted", reason="revoke at trick 3",
                       w0_share="30", w0_label="as played", w0_p0="-6", w0_p1="-4", w0_p2="-4", w0_p3="-2",
                       w1_share="70", w1_label="with Q♠", w1_p0="-3", w1_p1="-6", w1_p2="-4", w1_p3="-3")
    assert good.status_code == 303, good.get_data(as_text=True)
    ruling = record_of(client, gid)["hands"][0]["ruling"]
    want = weighted_points([(30, [-6, -4, -4, -2]), (70, [-3, -6, -4, -3])], -16)
    assert ruling["points"] == want and sum(want) == -16
    assert [w["share"] for w in ruling["weights"]] == [30, 70]
    assert ruling["weights"][1] == {"share": 70, "points": [-3, -6, -4, -3], "label": "with Q♠"}
    assert score_record(record_of(client, gid))["totals"] == want
    line = "30 % as played (−6 −4 −4 −2) · 70 % with Q♠ (−3 −6 −4 −3)"
    page = client.get(f"/games/{gid}/hands/1").get_data(as_text=True)
    assert 'id="ruling-weights"' in page and line in page
    assert 'name="w1_share" id="w1_share" value="70"' in page           # the form shows them again
    assert line in client.get(f"/games/{gid}").get_data(as_text=True)
    pdf = client.get(f"/games/{gid}/sheet.pdf")
    assert pdf.status_code == 200
    from tests.printing.test_pdf import text_of

    assert "70 % with Q♠" in " ".join(text_of(pdf.data).split())
