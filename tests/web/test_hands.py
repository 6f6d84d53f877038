"""Entering and correcting hands through the pages."""
from __future__ import annotations

import re

import pytest

from tests.conftest import load_record
from tests.web.helpers import counts_form, record_of, version_of

NEGATIVES = [
    {"contract": "no-tricks", "counts": {"tricks": [1, 5, 3, 4]}},
    {"contract": "no-hearts", "counts": {"hearts": [1, 5, 3, 4]}},
    {"contract": "no-queens", "counts": {"queens": [1, 1, 1, 1]}},
    {"contract": "no-men", "counts": {"kings": [1, 1, 1, 1], "jacks": [2, 0, 1, 1]}},
    {"contract": "no-kh", "counts": {"kh": 2}},
    {"contract": "no-last-two", "counts": {"last_two": [1, 1]}},
]


def audit_count(client, gid):
    return client.get(f"/games/{gid}/audit").get_data(as_text=True).count("<li data-action")


def test_counts_entry_shows_only_what_the_contract_needs(client, make_game):
    gid = make_game("fiestas", hands=NEGATIVES[:3])
    html = client.get(f"/games/{gid}/hands/new").get_data(as_text=True)
    assert 'id="row-kings"' in html and 'id="row-jacks"' in html
    assert 'id="row-tricks"' not in html and 'id="row-hearts"' not in html
    assert 'id="mode-captures"' in html


def test_no_card_picker_for_trick_contracts(client, make_game):
    gid = make_game("fiestas")
    html = client.get(f"/games/{gid}/hands/new").get_data(as_text=True)
    assert 'id="row-tricks"' in html and 'id="mode-captures"' not in html


def test_counts_entry_saves_and_sheet_shows_it(client, make_game):
    gid = make_game("ru32")
    r = client.post(f"/games/{gid}/hands/new", data=counts_form({"tricks": [1, 2, 3, 2]}, 1))
    assert r.status_code == 302
    assert record_of(client, gid)["hands"] == [{"contract": "no-tricks", "counts": {"tricks": [1, 2, 3, 2]}}]
    html = client.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="hand-1"' in html and "✓" in html


def test_captures_entry(client, make_game):
    gid = make_game("fiestas", hands=NEGATIVES[:2])
    html = client.get(f"/games/{gid}/hands/new?mode=captures").get_data(as_text=True)
    cards = re.findall(r'data-card="(\w+)"', html)
    assert sorted(cards) == ["QC", "QD", "QH", "QS"]
    data = {"version": str(version_of(client, gid)), "mode": "captures",
            "card_QS": "0", "card_QH": "2", "card_QD": "2", "card_QC": "3"}
    r = client.post(f"/games/{gid}/hands/new", data=data)
    assert r.status_code == 302, r.get_data(as_text=True)
    hand = record_of(client, gid)["hands"][2]
    assert hand["captures"]["cards"] == [["QS"], [], ["QH", "QD"], ["QC"]]


def test_rejected_entry_keeps_input_and_changes_nothing(client, make_game):
    gid = make_game("fiestas", hands=NEGATIVES[:1])
    before = record_of(client, gid)
    version = version_of(client, gid)
    logged = audit_count(client, gid)
    r = client.post(f"/games/{gid}/hands/new", data=counts_form({"hearts": [1, 5, 3, 3]}, version))
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    row = html[html.index('id="row-hearts"'):]
    row = row[: row.index("</fieldset>")]
    assert "add up to 12" in row and "13" in row          # the check, next to its field
    assert re.search(r'name="hearts_3"[^>]*value="3"', html)  # what was typed is kept
    assert record_of(client, gid) == before
    assert version_of(client, gid) == version
    assert audit_count(client, gid) == logged


def test_trick_room_error_lands_on_tricks(client, make_game):
    first_six = [{"counts": {"tricks": [1, 2, 3, 2]}}, {"counts": {"kings": [1, 1, 1, 1]}},
                 {"counts": {"queens": [1, 1, 1, 1]}}, {"counts": {"hearts": [2, 2, 2, 2]}},
                 {"counts": {"kh": 0}}, {"counts": {"last_two": [0, 1]}}]
    gid = make_game("ru32", hands=first_six)
    data = counts_form({"tricks": [0, 3, 3, 2], "hearts": [1, 3, 2, 2], "kings": [1, 1, 1, 1],
                        "queens": [1, 1, 1, 1], "kh": 1, "last_two": [1, 2]}, version_of(client, gid))
    r = client.post(f"/games/{gid}/hands/new", data=data)
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    row = html[html.index('id="row-tricks"'):]
    assert "took at least" in row[: row.index("</fieldset>")]


def test_missing_count_is_a_form_error(client, make_game):
    gid = make_game("fiestas")
    r = client.post(f"/games/{gid}/hands/new", data={"version": "1", "tricks_0": "1", "tricks_1": "x"})
    assert r.status_code == 400
    assert "Enter a number for each player" in r.get_data(as_text=True)
    assert record_of(client, gid)["hands"] == []


def test_spanish_error_message(app, make_game):
    gid = make_game("fiestas")
    client = app.test_client()
    r = client.post(f"/games/{gid}/hands/new", data=counts_form({"tricks": [1, 5, 3, 3]}, 1),
                    headers={"Accept-Language": "es"})
    html = r.get_data(as_text=True)
    assert r.status_code == 422 and "Las bazas suman 12; una mano de 52 cartas tiene 13" in html


def row_of(html, element):
    row = html[html.index(f'id="row-{element}"'):]
    return row[: row.index("</fieldset>")]


def test_spanish_sum_error_next_to_its_field(app, make_game):
    gid = make_game("fiestas", hands=NEGATIVES[:1])
    client = app.test_client()
    r = client.post(f"/games/{gid}/hands/new",
                    data=counts_form({"hearts": [1, 5, 3, 3]}, version_of(client, gid)),
                    headers={"Accept-Language": "es"})
    assert r.status_code == 422
    assert "Los corazones suman 12; una mano de 52 cartas tiene 13" in row_of(r.get_data(as_text=True),
                                                                               "hearts")


def test_every_wrong_element_is_shown_at_once(app, make_game):
    gid = make_game("fiestas", hands=NEGATIVES[:3])
    client = app.test_client()
    data = counts_form({"kings": [1, 1, 1, 2], "jacks": [0, 0, 1, 1]}, version_of(client, gid))
    r = client.post(f"/games/{gid}/hands/new", data=data, headers={"Accept-Language": "es"})
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    assert "Los reyes suman 5; hay 4" in row_of(html, "kings")
    assert "Las jotas suman 2; hay 4" in row_of(html, "jacks")
    r = client.post(f"/games/{gid}/hands/new", data=data, headers={"Accept-Language": "en"})
    html = r.get_data(as_text=True)
    assert "Kings add up to 5; there are 4" in row_of(html, "kings")
    assert "Jacks add up to 2; there are 4" in row_of(html, "jacks")
    assert len(record_of(client, gid)["hands"]) == 3


def test_every_card_problem_is_shown_at_once_in_spanish(app, make_game):
    gid = make_game("ru32", hands=[{"counts": {"tricks": [1, 2, 3, 2]}},
                                   {"counts": {"kings": [1, 1, 1, 1]}},
                                   {"counts": {"queens": [1, 1, 1, 1]}}])
    client = app.test_client()
    data = {"version": str(version_of(client, gid)), "mode": "captures",
            "card_AH": "0", "card_KH": "0", "card_QH": "1"}
    r = client.post(f"/games/{gid}/hands/new", data=data, headers={"Accept-Language": "es"})
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    assert "cada carta que puntúa la gana alguien: faltan por asignar" in html


def fiesta_game(make_game, profile="fiestas"):
    return make_game(profile, hands=NEGATIVES)


def test_auction_offers_only_legal_calls(client, make_game):
    gid = fiesta_game(make_game)
    html = client.get(f"/games/{gid}/hands/new").get_data(as_text=True)
    # hand 7: Carla (seat 2) deals and owns the fiesta; Dani (3) calls first
    calls = re.findall(r'data-call="([^"]+)"', html)
    assert calls[0] == "3:pass" and "3:+1" in calls and all(c.startswith("3:") for c in calls)
    html = client.get(f"/games/{gid}/hands/new", query_string={"auction": "3:+4"}).get_data(as_text=True)
    calls = re.findall(r'data-call="([^"]+)"', html)
    assert "0:+4" not in calls and "0:+5" in calls and "0:+3" not in calls
    r = client.get(f"/games/{gid}/hands/new", query_string={"auction": "3:+4,0:+2"})
    assert r.status_code == 422 and 'class="error"' in r.get_data(as_text=True)


def test_auction_sale_payment_on_sheet(client, make_game):
    gid = fiesta_game(make_game)
    auction = "3:+2,0:pass,1:-1,3:+4,1:pass,owner:accept"
    html = client.get(f"/games/{gid}/hands/new", query_string={"auction": auction}).get_data(as_text=True)
    assert "Dani buys at +4 and pays 100 to Carla" in html
    data = counts_form({"tricks": [2, 6, 3, 2]}, version_of(client, gid), auction=auction,
                       contract="trump", trump="S", leader="3")
    r = client.post(f"/games/{gid}/hands/new", data=data)
    assert r.status_code == 302, r.get_data(as_text=True)
    hand = record_of(client, gid)["hands"][6]
    assert hand["auction"] == auction.split(",") and hand["trump"] == "S" and hand["leader"] == 3
    html = client.get(f"/games/{gid}").get_data(as_text=True)
    row = html[html.index('id="hand-7"'):].split("</tr>")[0]
    pay = re.findall(r'<span class="pay"[^>]*>([^<]*)</span>', row)
    assert pay[2] == "+100" and pay[3] == "−100"   # inside Carla's and Dani's cells


def test_433_after_three_passes(client, make_game):
    gid = fiesta_game(make_game)
    auction = "3:pass,0:pass,1:pass"
    html = client.get(f"/games/{gid}/hands/new", query_string={"auction": auction}).get_data(as_text=True)
    assert 'value="433"' in html
    r = client.post(f"/games/{gid}/hands/new", data={"version": str(version_of(client, gid)),
                                                     "auction": auction, "contract": "433"})
    assert r.status_code == 302
    assert record_of(client, gid)["hands"][6] == {"contract": "433", "auction": auction.split(",")}


def test_fiesta_contract_not_allowed_after_sale(client, make_game):
    gid = fiesta_game(make_game)
    auction = "3:+2,0:pass,1:pass,owner:accept"
    r = client.get(f"/games/{gid}/hands/new", query_string={"auction": auction, "contract": "nulos"})
    assert r.status_code == 422


def test_rifki_choice_shows_limits_and_refuses_with_rule(client, make_game):
    hands = [{"contract": "el-almaz", "counts": {"tricks": [3, 4, 2, 4]}}] * 2
    gid = make_game("rifki", hands=hands)
    html = client.get(f"/games/{gid}/hands/new").get_data(as_text=True)
    assert re.search(r'value="el-almaz" disabled', html)
    assert "played 2 of 2" in html and 'id="quota"' in html
    r = client.get(f"/games/{gid}/hands/new", query_string={"contract": "el-almaz"})
    text = r.get_data(as_text=True)
    # the rule in words, never its id (issue 14.4)
    assert r.status_code == 422 and "has been played 2 times already" in text
    assert 'data-rule="penalty-limit"' in text
    r = client.get(f"/games/{gid}/hands/new", query_string={"contract": "koz"})
    assert "Choose the trump suit" in r.get_data(as_text=True)
    r = client.get(f"/games/{gid}/hands/new", query_string={"contract": "koz", "trump": "H"})
    assert r.status_code == 200 and 'id="row-tricks"' in r.get_data(as_text=True)
    r = client.post(f"/games/{gid}/hands/new", data=counts_form({"tricks": [4, 3, 3, 3]},
                                                                version_of(client, gid),
                                                                contract="koz", trump="H"))
    assert r.status_code == 302
    assert record_of(client, gid)["hands"][2] == {"contract": "koz", "trump": "H",
                                                  "counts": {"tricks": [4, 3, 3, 3]}}


def test_rifki_quota_3_plus_2(client, make_game):
    koz = {"contract": "koz", "trump": "S", "counts": {"tricks": [4, 3, 3, 3]}}
    pen = {"contract": "el-almaz", "counts": {"tricks": [3, 4, 2, 4]}}
    # seat 0 chooses hands 1, 5, 9: koz, koz, then a third koz is over the quota
    hands = [koz, pen, {"contract": "son-iki", "counts": {"last_two": [0, 1]}}, pen, koz,
             {"contract": "kiz-almaz", "counts": {"queens": [1, 1, 1, 1]}},
             {"contract": "kiz-almaz", "counts": {"queens": [1, 1, 1, 1]}},
             {"contract": "son-iki", "counts": {"last_two": [0, 1]}}]
    gid = make_game("rifki", hands=hands)
    r = client.get(f"/games/{gid}/hands/new", query_string={"contract": "koz", "trump": "S"})
    assert r.status_code == 422 and "choice-limit" in r.get_data(as_text=True)


def test_edit_prefills_and_corrects(client, make_game):
    gid = make_game("fiestas", hands=NEGATIVES[:2])
    html = client.get(f"/games/{gid}/hands/1/edit").get_data(as_text=True)
    assert re.search(r'name="tricks_1"[^>]*value="5"', html)
    r = client.post(f"/games/{gid}/hands/1/edit",
                    data=counts_form({"tricks": [2, 4, 3, 4]}, version_of(client, gid)))
    assert r.status_code == 302
    assert record_of(client, gid)["hands"][0]["counts"]["tricks"] == [2, 4, 3, 4]
    html = client.get(f"/games/{gid}/audit").get_data(as_text=True)
    # the change in words, not the stored JSON (issue 14.4)
    assert 'data-action="edit_hand"' in html and "Tricks: Ana 1 → 2, Beto 5 → 4" in html
    assert "[1, 5, 3, 4]" not in html


def test_edit_fiesta_hand_keeps_auction(client, make_game):
    data = load_record("fiestas_complete.json")
    gid = make_game(record=data)
    row = next(i for i, h in enumerate(data["hands"]) if h.get("auction")) + 1
    html = client.get(f"/games/{gid}/hands/{row}/edit").get_data(as_text=True)
    assert 'id="hand-form"' in html, html[:3000]
    form = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', html))
    assert form["auction"] == ",".join(data["hands"][row - 1]["auction"])


def test_delete_last_hand(client, make_game):
    gid = make_game("fiestas", hands=NEGATIVES[:2])
    r = client.post(f"/games/{gid}/hands/last/delete", data={"version": str(version_of(client, gid))})
    assert r.status_code == 302
    assert len(record_of(client, gid)["hands"]) == 1


def test_conflict_keeps_typed_values(client, make_game):
    gid = make_game("fiestas")
    stale = version_of(client, gid)
    client.post(f"/games/{gid}/hands/new", data=counts_form({"tricks": [1, 5, 3, 4]}, stale))
    r = client.post(f"/games/{gid}/hands/new", data=counts_form({"hearts": [2, 4, 3, 4]}, stale))
    assert r.status_code == 409
    html = r.get_data(as_text=True)
    assert 'id="conflict"' in html
    assert re.search(r'name="hearts_0"[^>]*value="2"', html)
    assert f'name="version" value="{version_of(client, gid)}"' in html
    assert len(record_of(client, gid)["hands"]) == 1
    r = client.post(f"/games/{gid}/hands/last/delete", data={"version": str(stale)})
    assert len(record_of(client, gid)["hands"]) == 1


def test_ruling_adjusted(client, make_game):
    gid = make_game("fiestas")
    data = counts_form({"tricks": [1, 5, 3, 4]}, 1, ruling_kind="adjusted", ruling_points_0="-60",
                       ruling_points_1="-60", ruling_points_2="-60", ruling_points_3="-80",
                       ruling_reason="misdeal")
    r = client.post(f"/games/{gid}/hands/new", data=data)
    assert r.status_code == 302, r.get_data(as_text=True)
    ruling = record_of(client, gid)["hands"][0]["ruling"]
    assert ruling["kind"] == "adjusted" and ruling["points"] == [-60, -60, -60, -80]
    assert "⚖" in client.get(f"/games/{gid}").get_data(as_text=True)
    data["ruling_points_3"] = "-70"
    r = client.post(f"/games/{gid}/hands/1/edit", data=dict(data, version=str(version_of(client, gid))))
    assert r.status_code == 422


def test_game_over_has_no_new_hand(client, make_game):
    gid = make_game(record=load_record("ru32_complete.json"))
    r = client.get(f"/games/{gid}/hands/new")
    assert r.status_code == 302


@pytest.mark.parametrize("query", [{"leader": "abc"}, {"trump": "X"}, {"mode": "zzz"}, {"auction": "7:+9"},
                                   {"auction": "3:+4,0:+2,owner:accept"}, {"contract": "poker"},
                                   {"auction": "3:pass,0:pass,1:pass", "contract": "433", "leader": "9"}])
def test_garbage_in_the_query_is_never_a_500(client, make_game, query):
    gid = fiesta_game(make_game)
    r = client.get(f"/games/{gid}/hands/new", query_string=query)
    assert r.status_code in (200, 400, 422)
    r = client.post(f"/games/{gid}/hands/new", data=dict(query, version="x"))
    assert r.status_code in (200, 400, 422)
    assert len(record_of(client, gid)["hands"]) == 6


def test_edit_a_hand_entered_trick_by_trick(client, make_game):
    data = load_record("fiestas_complete.json")
    gid = make_game(record=data)
    row = next(i for i, h in enumerate(data["hands"]) if "tricks" in h and not h.get("auction")) + 1
    # by default a trick-by-trick hand is corrected trick by trick (nothing is dropped)
    r = client.get(f"/games/{gid}/hands/{row}/edit")
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/hands/{row}/tricks")
    # asked for explicitly, the cards form shows what the tricks captured
    html = client.get(f"/games/{gid}/hands/{row}/edit?mode=captures").get_data(as_text=True)
    assert 'id="card-picker"' in html
    assert re.search(r'<option value="\d" selected>', html)  # the captured cards are shown
