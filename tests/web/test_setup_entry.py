"""Setting a fiesta or rifki hand up through the pages: only what the engine accepts is
offered, and changing the setup never drops what was typed (issue 14 item 2)."""
from __future__ import annotations

import re
from typing import Any

from tests.web.helpers import counts_form, record_of, version_of
from tests.web.test_hands import NEGATIVES

#: subastas hand 9: Ana (0) owns it; Beto and Carla bid, Dani passes, the owner rejects
HAND_9 = "1:+2,2:+3,3:pass,1:pass,owner:reject"


def subastas_hand_9(make_game: Any) -> int:
    return int(make_game("subastas", hands=NEGATIVES + [{"contract": "433"}] * 2))


def leader_offers(html: str) -> dict[str, set[str]]:
    """Seat -> the contracts the page offers it to lead."""
    block = html[html.index('id="leader-choice"'):].split("</fieldset>")[0]
    return {seat: set(contracts.split()) for contracts, seat in
            re.findall(r'data-contracts="([^"]*)"><input type="radio" name="leader" value="(\d)"',
                       block)}


def test_nulos_after_a_rejection_is_offered_to_its_one_leader(client: Any, make_game: Any) -> None:
    gid = subastas_hand_9(make_game)
    html = client.get(f"/games/{gid}/hands/new", query_string={"auction": HAND_9}).get_data(True)
    offers = leader_offers(html)
    assert "nulos" in offers["1"] and "nulos" not in offers.get("0", set())
    assert "trump" in offers["1"] and "trump" in offers["0"]
    # the owner for nulos is refused at the setup step, before anything is typed
    r = client.get(f"/games/{gid}/hands/new",
                   query_string={"auction": HAND_9, "contract": "nulos", "leader": "0"})
    html = r.get_data(True)
    assert r.status_code == 422 and 'id="hand-form"' not in html and 'id="fiesta-form"' in html
    assert "Beto" in html[html.index('class="error"'):]
    # nulos without a leader: Beto leads, and the save agrees
    r = client.get(f"/games/{gid}/hands/new", query_string={"auction": HAND_9, "contract": "nulos"})
    html = r.get_data(True)
    assert r.status_code == 200 and 'name="leader" value="1"' in html
    data = counts_form({"tricks": [2, 3, 4, 4]}, version_of(client, gid), auction=HAND_9,
                       contract="nulos", leader="1")
    assert client.post(f"/games/{gid}/hands/new", data=data).status_code == 302
    assert record_of(client, gid)["hands"][8]["leader"] == 1


def test_refused_eight_or_nulos_in_fiestas(client: Any, make_game: Any) -> None:
    gid = int(make_game("fiestas", hands=NEGATIVES))
    calls = "3:+6,0:pass,1:pass,owner:eight-or-nulos,3:refuse"
    html = client.get(f"/games/{gid}/hands/new", query_string={"auction": calls}).get_data(True)
    assert leader_offers(html) == {"3": {"nulos"}}


def test_changing_the_contract_keeps_the_typed_counts(client: Any, make_game: Any) -> None:
    gid = subastas_hand_9(make_game)
    version = version_of(client, gid)
    typed = counts_form({"tricks": [2, 3, 4, 4]}, version, auction=HAND_9, contract="nulos",
                        leader="1", mode="counts", ruling_reason="Eva")
    # "change the contract": the form goes back to the setup step, the counts along
    r = client.post(f"/games/{gid}/hands/new", data=typed,
                    query_string={"auction": HAND_9, "mode": "counts", "change": "setup"})
    html = r.get_data(True)
    assert r.status_code == 200 and 'id="fiesta-form"' in html
    carried = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', html))
    assert {k: carried[k] for k in ("tricks_0", "tricks_1", "tricks_2", "tricks_3")} == {
        "tricks_0": "2", "tricks_1": "3", "tricks_2": "4", "tricks_3": "4"}
    assert "csrf_token" not in carried
    # trumps instead: the entry page shows the counts typed before
    query = {**carried, "contract": "trump", "trump": "H", "leader": "0"}
    html = client.get(f"/games/{gid}/hands/new", query_string=query).get_data(True)
    assert 'id="hand-form"' in html
    for seat, n in enumerate([2, 3, 4, 4]):
        assert re.search(rf'name="tricks_{seat}" id="tricks_{seat}" value="{n}"', html), seat
    assert 'value="Eva"' in html


def test_switching_counts_and_cards_keeps_the_typed_values(client: Any, make_game: Any) -> None:
    gid = int(make_game("fiestas", hands=NEGATIVES[:1]))          # hand 2: no hearts
    typed = counts_form({"hearts": [1, 2, 3, 2]}, version_of(client, gid), mode="counts")
    r = client.post(f"/games/{gid}/hands/new?mode=captures&change=mode", data=typed)
    html = r.get_data(True)
    assert r.status_code == 200 and 'id="card-picker"' in html
    assert len(record_of(client, gid)["hands"]) == 1             # nothing was saved
    kept = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', html))
    assert kept["hearts_2"] == "3"
    # and back: the hearts typed before are there again
    r = client.post(f"/games/{gid}/hands/new?mode=counts&change=mode", data=kept)
    assert re.search(r'name="hearts_2" id="hearts_2" value="3"', r.get_data(True))


def test_rifki_change_of_choice_keeps_the_typed_counts(client: Any, make_game: Any) -> None:
    gid = int(make_game("rifki"))
    typed = counts_form({"tricks": [4, 3, 3, 3]}, version_of(client, gid), contract="koz",
                        trump="S", mode="counts")
    r = client.post(f"/games/{gid}/hands/new?mode=counts&change=setup", data=typed)
    html = r.get_data(True)
    assert 'id="choose"' in html and '<input type="hidden" name="tricks_0" value="4">' in html


#: subastas hand 7: Carla (2) owns it; Dani buys at -2
MINUS_2 = "3:-2,0:pass,1:pass,owner:accept"


def test_a_minus_sale_says_what_the_buyer_pays_under_the_settlement(client: Any,
                                                                    make_game: Any) -> None:
    """RULES.md 1.3 "Settlement": the page names the payment before the hand is typed, and
    the saved hand pays what the owner's tricks give (here 1 trick: 75, not 150)."""
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    gid = int(make_game("subastas", hands=NEGATIVES))
    html = client.get(f"/games/{gid}/hands/new", query_string={"auction": MINUS_2}).get_data(True)
    outcome = re.sub(r"\s+", " ", html[html.index('id="auction-outcome"'):].split("</p>")[0])
    assert "Dani compra a −2 y paga a Carla 75 por cada baza que tome Carla, hasta 150." in outcome
    data = counts_form({"tricks": [4, 4, 1, 4]}, version_of(client, gid), auction=MINUS_2,
                       contract="nulos")
    assert client.post(f"/games/{gid}/hands/new", data=data).status_code == 302
    report = client.get(f"/games/{gid}/report.json").get_json()
    assert report["hands"][6]["payments"] == [0, 0, 75, -75]
    sheet = client.get(f"/games/{gid}").get_data(True)
    assert 'class="pay" title="Pago">+75<' in sheet and 'class="pay" title="Pago">−75<' in sheet
    # the hand's page says how the payment was settled (RULES.md 1.3)
    page = re.sub(r"\s+", " ", client.get(f"/games/{gid}/hands/7").get_data(True))
    assert ("Pago: Dani compró a −2: 75 por cada baza que tomó Carla (1), hasta 150; "
            "Dani paga 75 a Carla") in page

    bid = int(make_game("subastas", hands=NEGATIVES, options={"settlement": "bid"}))
    html = client.get(f"/games/{bid}/hands/new", query_string={"auction": MINUS_2}).get_data(True)
    assert "Dani compra a −2 y paga 150 a Carla." in html
    data = counts_form({"tricks": [4, 4, 1, 4]}, version_of(client, bid), auction=MINUS_2,
                       contract="nulos")
    assert client.post(f"/games/{bid}/hands/new", data=data).status_code == 302
    page = re.sub(r"\s+", " ", client.get(f"/games/{bid}/hands/7").get_data(True))
    assert "Pago: Dani compró a −2: Dani paga a Carla la apuesta entera, 150" in page


def test_the_new_game_form_offers_the_settlement(client: Any) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    html = client.get("/games/new").get_data(True)
    block = html[html.index('data-profile="subastas"'):].split("</details>")[0]
    assert "Pago tras una venta a −N" in block and 'name="opt_settlement"' in block
    chosen = re.search(r'<option value="(\w+)" selected>([^<]*)</option>', block)
    assert chosen and chosen.groups() == (
        "tricks", "75 por cada baza que tomó el dueño, hasta la apuesta · habitual")
