"""The subastas positive fiesta without trumps (RULES.md 1.3, contract ``notrump``) is
offered wherever subastas offers a trump hand: after a +N sale and to the owner, in the
counts entry and trick by trick, on the sheet, its PDF and the blank sheet. Fiestas has none.
"""
from __future__ import annotations

import io
import re
from typing import Any

from pypdf import PdfReader

from app.rules.game.hand import HandState
from tests.rules.helpers import make_deal
from tests.web.helpers import counts_form, record_of, version_of
from tests.web.test_hands import NEGATIVES

SALE = "3:+3,0:pass,1:pass,owner:accept"      # hand 7: Carla (2) owns; Dani (3) buys at +3
PASSES = "3:pass,0:pass,1:pass"


def offered(client: Any, gid: int, auction: str) -> list[str]:
    html = client.get(f"/games/{gid}/hands/new", query_string={"auction": auction}).get_data(
        as_text=True)
    return re.findall(r'name="contract" value="([^"]+)"', html)


def test_notrump_is_offered_where_subastas_offers_a_trump_hand(client: Any, make_game: Any) -> None:
    gid = make_game("subastas", hands=NEGATIVES)
    assert offered(client, gid, SALE) == ["trump", "notrump"]
    assert offered(client, gid, PASSES) == ["trump", "notrump", "nulos", "433"]
    fiestas = make_game("fiestas", hands=NEGATIVES)
    assert offered(client, fiestas, SALE) == ["trump"]
    assert "notrump" not in offered(client, fiestas, PASSES)


def test_notrump_entered_as_counts_after_a_sale(client: Any, make_game: Any) -> None:
    gid = make_game("subastas", hands=NEGATIVES)
    html = client.get(f"/games/{gid}/hands/new",
                      query_string={"auction": SALE, "contract": "notrump"}).get_data(as_text=True)
    assert "Fiesta without trumps" in html and 'id="row-tricks"' in html
    data = counts_form({"tricks": [2, 5, 3, 3]}, version_of(client, gid), auction=SALE,
                       contract="notrump", leader="3")
    r = client.post(f"/games/{gid}/hands/new", data=data)
    assert r.status_code == 302, r.get_data(as_text=True)
    hand = record_of(client, gid)["hands"][6]
    assert hand == {"contract": "notrump", "leader": 3, "auction": SALE.split(","),
                    "counts": {"tricks": [2, 5, 3, 3]}}
    sheet = client.get(f"/games/{gid}").get_data(as_text=True)
    row = sheet[sheet.index('id="hand-7"'):].split("</tr>")[0]
    assert "Fiesta without trumps" in row
    pdf = client.get(f"/games/{gid}/sheet.pdf")
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages)
    assert "Fiesta without trumps" in text


def test_notrump_trick_by_trick_referees_only_follow_suit(client: Any, make_game: Any) -> None:
    gid = make_game("subastas", hands=NEGATIVES)
    r = client.get(f"/games/{gid}/hands/tricks",
                   query_string={"contract": "notrump", "auction": PASSES, "plays": "2S,2H"})
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and "Fiesta without trumps" in html
    assert html.count('class="cardbtn') == 52
    # with the deal: a void player discards freely, a revoke is follow-suit
    deal = make_deal(52, {3: ["2S"], 0: ["2H", "3C"], 1: ["3S", "4H"]}, {0: "S"})
    state = HandState("subastas", {}, "notrump", None, 3, deal=deal)
    state.play("2S")
    assert sorted(state.legal_cards()) == sorted(deal[0])          # any of 13 cards
    assert state.why_illegal("3C") is None and state.why_illegal("2H") is None
    state.play("2H")
    assert state.why_illegal("4H").rule == "follow-suit"


def test_blank_sheets_list_the_fiesta_contracts_of_their_profile(client: Any, make_game: Any) -> None:
    def text(profile: str) -> str:
        gid = make_game(profile)
        data = client.get(f"/games/{gid}/blank.pdf").data
        pages = PdfReader(io.BytesIO(data)).pages
        return re.sub(r"\s+", "", "".join(p.extract_text() for p in pages))   # lines wrap

    assert "Fiestawithouttrumps" in text("subastas")
    assert "Fiestawithouttrumps" not in text("fiestas")
