"""Printable PDFs: the score sheet, a hand's record, a blank sheet, and bulk exports.

Two steps, as indico's PDF export does: build a plain dict from the replayed record
(``*_doc``: no ORM objects ever reach a template), then render ``templates/pdf/*.html``
with ``static/css/pdf.css`` through :func:`app.pdf.render_pdf` (``export_*_pdf``: plain
dicts in, bytes out). A bulk export is ONE HTML document and ONE render, whatever the
number of games: WeasyPrint's fixed costs (fonts above all) are paid once.

The ``export_*`` functions render Jinja templates, so they need a Flask app (and, for
the page's language, a request) context.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Game, Seat
from app.pdf import render_pdf
from app.rules import RecordError, fingerprint, get_profile
from app.rules.cards import RANKS, SUITS
from app.rules.profiles import RIFKI_KOZ_LIMIT, RIFKI_LIMIT_PER_PENALTY, RIFKI_PENALTIES, RIFKI_QUOTA
from app.rules.schedule import slot_for
from app.services import queries

ORIENTATIONS = ("portrait", "landscape")
#: Suits in the order a hand is sorted for reading: colours alternate.
_SUIT_ORDER = {s: i for i, s in enumerate("SHCD")}


@dataclass
class RecordGame:
    """What :func:`queries.sheet_view` reads of a game, for a record that is not stored
    (the benchmark, previews)."""

    record: dict[str, Any]
    id: int = 0
    version: int = 0
    created_at: datetime | None = None

    @property
    def profile(self) -> str:
        return str(self.record["profile"])

    @property
    def hands(self) -> list[dict[str, Any]]:
        return list(self.record.get("hands", []))


def _day(value: Any) -> str | None:
    if isinstance(value, datetime):
        return value.date().isoformat()
    if isinstance(value, date):
        return value.isoformat()
    return None


def _header(game: Any, lang: str) -> dict[str, Any]:
    profile = get_profile(game.profile)
    record = game.record
    return {
        "id": game.id, "profile": profile.id, "profile_name": profile.name(lang),
        "players": list(record["players"]), "clockwise": profile.clockwise,
        "first_seat": record.get(profile.seat_key), "seat_key": profile.seat_key,
        "options": profile.parse_options(record.get("options")).as_dict(profile),
        "date": _day(getattr(game, "created_at", None)),
        "fingerprint": fingerprint(record), "n_hands": profile.n_hands, "lang": lang,
    }


def sheet_doc(game: Any, lang: str = "es") -> dict[str, Any]:
    """The score sheet as a plain dict: :func:`queries.sheet_view` plus the header, the
    fingerprint and the rulings and violations as numbered notes (each row keeps the
    numbers of its notes)."""
    doc = queries.sheet_view(game, lang)
    doc.update(_header(game, lang))
    doc["kind"] = "sheet"
    notes: list[dict[str, Any]] = []
    for row in doc.get("hands", []):
        row["notes"] = []
        if row["ruling"]:
            notes.append({"n": len(notes) + 1, "row": row["row"], "number": row["number"],
                          **row["ruling"], "type": "ruling"})
            row["notes"].append(len(notes))
        for v in row["violations"]:
            notes.append({"n": len(notes) + 1, "row": row["row"], "number": row["number"],
                          **v, "type": "violation"})
            row["notes"].append(len(notes))
    doc["notes"] = notes
    if not doc.get("error"):
        doc["ledger"] = ledger(doc)
    return doc


# --- the ledger: the sheet's hand rows as fixed-width lines ------------------------------
#
# WeasyPrint lays out every table cell as its own block, line and text box, and that is
# what a sheet costs (a 20-hand table with two lines per cell took 4-5 times a bare 20x6
# table). The printed sheet therefore sets each hand as ONE block of two monospaced lines
# (points, then running totals under them), aligned in columns like a ledger: the same
# content, a tenth of the boxes, and a row can never split across pages.

_W_NUM, _W_CONTRACT, _W_WHO, _W_PTS, _W_PAY, _W_CHECK = 2, 22, 16, 10, 12, 9


def _signed(n: int | None) -> str:
    if n is None:
        return ""
    return f"+{n}" if n > 0 else ("0" if n == 0 else f"−{-n}")


def _cut(text: str, width: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[:width - 1] + "…"


def _line(num: str, contract: str, who: str, pts: list[str], pay: str | None, check: str) -> str:
    out = (f"{num:>{_W_NUM}} {_cut(contract, _W_CONTRACT):<{_W_CONTRACT}} "
           f"{_cut(who, _W_WHO):<{_W_WHO}}" + "".join(f"{p:>{_W_PTS}}" for p in pts))
    if pay is not None:
        out += f"  {_cut(pay, _W_PAY):<{_W_PAY}}"
    return (out + f"{check:>{_W_CHECK}}").rstrip()


def ledger(doc: dict[str, Any]) -> dict[str, Any]:
    """The sheet's rows as fixed-width text: ``head``, ``rows`` (``text``, ``cls``),
    ``totals``. Words come from the page's language (Flask-Babel)."""
    from flask_babel import gettext as _

    players = doc["players"]
    pay = doc["profile"] in ("fiestas", "subastas")
    suits = dict(zip(SUITS, "♠♥♦♣"))
    head = [_line("#", _("Contract"), _("Dealer / chooser"), [_cut(p, _W_PTS - 1) for p in players],
                  _("Payment") if pay else None, _("Check")),
            _line("", "", _("Declarer · bid") if pay else "", [_("total")] * 4,
                  "" if pay else None, "")]
    rows = []
    for r in doc.get("hands", []):
        contract = r["contract_name"] + (f" {suits[r['trump']]}" if r.get("trump") else "")
        if r.get("made_king"):
            contract += " · King!"
        marks = []
        if r.get("ruling"):
            marks.append("⚖")
        if r.get("violations"):
            marks.append(f"⚠{len(r['violations'])}")
        if r.get("notes"):
            marks.append(_("note") + " " + ",".join(str(n) for n in r["notes"]))
        if r.get("chooser") is not None:
            who1 = f"{players[r['chooser']]} {_('chose')}"
        elif r.get("dealer") is not None:
            who1 = f"{players[r['dealer']]} {_('dealt')}"
        else:
            who1 = ""
        who2 = ""
        if r.get("declarer") is not None:
            who2 = players[r["declarer"]] + (f" · {r['bid']}" if r.get("bid") else "")
        elif r.get("owner") is not None:
            who2 = f"{players[r['owner']]} ({_('owner')})"
        payments = [f"{players[s]} {_signed(v)}" for s, v in enumerate(r["payments"]) if v]
        if not r["counted"]:
            check = _("replayed")
        else:
            check = "✓" if r["check_ok"] else _signed(r["diff"])
        line1 = _line(str(r["number"]), contract, who1, [_signed(v) or "0" for v in r["points"]],
                      (payments[0] if payments else "") if pay else None, check)
        line2 = _line("", " ".join(marks), who2,
                      [_signed(v) or "0" for v in r["running_totals"]],
                      (payments[1] if len(payments) > 1 else "") if pay else None, "")
        cls = "replayed" if not r["counted"] else ("bad" if not r["check_ok"] else "")
        rows.append({"text": f"{line1}\n{line2}", "cls": cls})
    totals = doc.get("totals") or [0, 0, 0, 0]
    zero = "✓" if doc.get("zero_sum_ok", True) else _signed(doc.get("sum", 0) - doc.get("expected_sum", 0))
    total_line = _line("Σ", _("Totals"), _("hand %(n)s of %(total)s", n=doc.get("hands_played", 0),
                                             total=doc["n_hands"]),
                       [_signed(v) or "0" for v in totals], "" if pay else None, zero)
    return {"head": "\n".join(head), "rows": rows, "totals": total_line}


def _sorted_cards(cards: list[str]) -> list[str]:
    return sorted(cards, key=lambda c: (_SUIT_ORDER[c[-1]], -RANKS.index(c[0])))


def hand_doc(game: Any, row: int, lang: str = "es") -> dict[str, Any] | None:
    """Hand row ``row`` (1-based, as in the record) as a plain dict, or None if there is
    no such row. RecordError if the record no longer replays."""
    if not 1 <= row <= len(game.hands):
        return None
    result = queries.replay_game(game)
    profile = get_profile(game.profile)
    h = result.hands[row - 1]
    doc = _header(game, lang)
    doc.update(queries.hand_row(h, profile, lang, list(game.record["players"])))
    doc["kind"] = "hand"
    doc["played_points"] = list(h.played_points)
    doc["early_end_reason"] = h.early_end_reason
    doc["tricks_played"] = h.tricks_played
    tricks = []
    for k, cards in enumerate(h.tricks):
        leader = h.trick_leaders[k] if k < len(h.trick_leaders) else None
        by_seat: list[str | None] = [None] * 4
        if leader is not None:
            for i, card in enumerate(cards):
                by_seat[(leader + i) % 4] = card
        tricks.append({"n": k + 1, "leader": leader, "cards": list(cards), "by_seat": by_seat,
                       "winner": h.trick_winners[k] if k < len(h.trick_winners) else None})
    doc["tricks"] = tricks
    deal = h.deal
    doc["deal"] = [_sorted_cards(list(c)) for c in deal] if deal else None
    captured = h.captured
    doc["captured"] = [_sorted_cards(list(c)) for c in captured] if captured is not None else None
    doc["counts"] = {k: list(v) if isinstance(v, (list, tuple)) else v for k, v in (h.counts or {}).items()}
    doc["contract_values"] = dict(h.contract.values)
    return doc


def blank_doc(game: Any, lang: str = "es") -> dict[str, Any]:
    """A sheet to play on paper with the game's seats: the schedule (contracts fixed by
    the profile, dealer, owner, chooser, leader per hand) with empty cells; for rifki the
    choice grid with each seat's quota and each contract's limit."""
    doc = _header(game, lang)
    doc["kind"] = "blank"
    profile = get_profile(game.profile)
    first = doc["first_seat"] if doc["first_seat"] is not None else 0
    rows = []
    for number in range(1, profile.n_hands + 1):
        slot = slot_for(profile, first, number)
        contract = profile.contracts.get(slot.contract) if slot.contract else None
        rows.append({"number": number, "contract": slot.contract,
                     "contract_name": contract.name(lang) if contract else None,
                     "fiesta": slot.fiesta, "dealer": slot.dealer, "owner": slot.owner,
                     "chooser": slot.chooser, "leader": slot.leader})
    doc["rows"] = rows
    doc["auction"] = profile.auction
    doc["fiesta_contracts"] = [{"id": c.id, "name": c.name(lang)} for c in profile.contracts.values()
                               if c.fiesta]
    doc["grid"] = None
    if profile.id == "rifki":
        quota = doc["options"].get("choice_limit") == "3+2"
        doc["grid"] = {
            "contracts": [{"id": cid, "name": profile.contracts[cid].name(lang),
                           "limit": RIFKI_KOZ_LIMIT if cid == "koz" else RIFKI_LIMIT_PER_PENALTY,
                           "koz": cid == "koz"}
                          for cid in RIFKI_PENALTIES + ("koz",)],
            "quota": dict(RIFKI_QUOTA) if quota else None,
            "choices_per_seat": profile.n_hands // 4,
        }
    return doc


# --- finding games for a bulk export --------------------------------------------------------

def find_games(session: Session, *, date_from: date | None = None, date_to: date | None = None,
               player_id: int | None = None) -> list[int]:
    """Ids of the games started in [date_from, date_to] (days, inclusive) and/or with one
    player, oldest first."""
    stmt = select(Game.id).order_by(Game.created_at, Game.id)
    if player_id is not None:
        stmt = stmt.where(Game.id.in_(select(Seat.game_id).where(Seat.player_id == player_id)))
    ids = list(session.scalars(stmt).all())
    if date_from is None and date_to is None:
        return ids
    out = []
    for game in session.scalars(select(Game).where(Game.id.in_(ids)).order_by(Game.created_at, Game.id)):
        day = game.created_at.date() if game.created_at else None
        if day is None:
            continue
        if (date_from is None or day >= date_from) and (date_to is None or day <= date_to):
            out.append(game.id)
    return out


def game_sheet_doc(session: Session, game_id: int, lang: str) -> dict[str, Any] | None:
    game = queries.get_game(session, game_id)
    if game is None:
        return None
    try:
        return sheet_doc(game, lang)
    except RecordError as e:  # a broken record still prints its header and the error
        doc = _header(game, lang)
        doc.update({"kind": "sheet", "error": str(e), "hands": [], "notes": []})
        return doc


# --- rendering ---------------------------------------------------------------------------

def _render(template: str, progress: Callable[[str, int], None] | None = None,
            **context: Any) -> bytes:
    from flask import render_template

    return render_pdf(render_template(template, **context), progress=progress)


def export_sheet_pdf(doc: dict[str, Any], orientation: str = "portrait") -> bytes:
    if orientation not in ORIENTATIONS:
        raise ValueError(f"orientation is one of {ORIENTATIONS}")
    return _render("pdf/sheet.html", docs=[doc], orientation=orientation)


def export_hand_pdf(doc: dict[str, Any]) -> bytes:
    return _render("pdf/hand.html", doc=doc, orientation="portrait")


def export_blank_pdf(doc: dict[str, Any]) -> bytes:
    return _render("pdf/blank.html", doc=doc, orientation="portrait")


def export_bulk_pdf(docs: list[dict[str, Any]], orientation: str = "portrait",
                    title: str | None = None,
                    progress: Callable[[str, int], None] | None = None) -> bytes:
    """Many score sheets as one PDF: one document, one render; each game starts a page."""
    if orientation not in ORIENTATIONS:
        raise ValueError(f"orientation is one of {ORIENTATIONS}")
    return _render("pdf/sheet.html", progress, docs=docs, orientation=orientation, bulk_title=title)
