"""Printable PDFs: the score sheet, a hand's record, a blank sheet, and bulk exports.

Two steps, as indico's PDF export does: build a plain dict from the replayed record
(``*_doc``: no ORM objects ever reach a template), then render ``templates/pdf/*.html``
with ``static/css/pdf.css`` through :func:`app.printing.render.render_pdf`
(``app.printing.responses.export_*_pdf``: plain dicts in, bytes out). A bulk export is ONE
HTML document and ONE render, whatever the number of games: WeasyPrint's fixed costs
(fonts above all) are paid once.

The ``export_*`` functions render Jinja templates, so they need a Flask app (and, for
the page's language, a request) context.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import and_, bindparam, select
from sqlalchemy.orm import Session, object_session

from app.games import queries
from app.games.table.confirm import event_place
from app.models import Game, GameLink, LinkKind, SeatResult, StoredResult
from app.rules import RecordError, fingerprint, get_profile
from app.rules.cards import RANKS
from app.rules.profiles import RIFKI_KOZ_LIMIT, RIFKI_LIMIT_PER_PENALTY, RIFKI_PENALTIES, RIFKI_QUOTA
from app.rules.schedule import slot_for
from app.stats.results import day_start


@dataclass(frozen=True)
class PdfStamp:
    """What names a game's printed content, read without its record: enough to find a kept
    render (``app.printing.cache``) in one statement. ``record_digest`` and ``n_rows`` come
    from the stored results (written with the record, in its transaction); None when the
    game has none yet. ``share_token`` is its live share link (the PDF footer prints it)."""

    game_id: int
    version: int
    created_at: datetime | None
    record_digest: str | None
    n_rows: int | None
    share_token: str | None


def _stamp_statements() -> tuple[Any, Any]:
    """The two statements of :func:`pdf_stamp` (by game id, by share token), built once:
    a PDF download that finds its render kept runs one of them and reads nothing else."""
    latest_share = (select(GameLink.token)
                    .where(GameLink.game_id == Game.id, GameLink.kind == LinkKind.SHARE,
                           GameLink.ended_at.is_(None))
                    .order_by(GameLink.id.desc()).limit(1).correlate(Game).scalar_subquery())
    base = (select(Game.id, Game.version, Game.created_at, StoredResult.record_digest,
                   StoredResult.n_rows, latest_share)
            .outerjoin(StoredResult, StoredResult.game_id == Game.id))
    by_id = base.where(Game.id == bindparam("game_id"))
    by_token = base.join(GameLink, and_(GameLink.game_id == Game.id,
                                        GameLink.token == bindparam("token"),
                                        GameLink.kind == LinkKind.SHARE, GameLink.ended_at.is_(None)))
    return by_id, by_token


_STAMP_BY_ID, _STAMP_BY_TOKEN = _stamp_statements()


def pdf_stamp(session: Session, game_id: int | None = None, *,
              share_token: str | None = None) -> PdfStamp | None:
    """The :class:`PdfStamp` of a game, by id or by a live share token (None: no such game,
    or the token is unknown or revoked): one statement."""
    if share_token is not None:
        row = session.connection().execute(_STAMP_BY_TOKEN, {"token": share_token}).first()
    else:
        row = session.connection().execute(_STAMP_BY_ID, {"game_id": game_id}).first()
    if row is None:
        return None
    return PdfStamp(int(row[0]), int(row[1]), row[2], row[3], row[4], row[5])


#: How sheets are laid on the page: "auto" is each game's :func:`default_orientation`.
ORIENTATIONS = ("auto", "portrait", "landscape")
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


def day_of(value: Any) -> date | None:
    """The day of a stored moment (the templates write it: the ``date`` filter)."""
    if isinstance(value, datetime):
        return value.date()
    return value if isinstance(value, date) else None


def default_orientation(profile_id: str) -> str:
    """How a sheet prints when the reader does not ask: the auction profiles have two more
    columns (declarer and bid, payment), which read better across a landscape page."""
    return "landscape" if get_profile(profile_id).auction else "portrait"


#: The score sheet's column widths (percent of the table), per kind of sheet. With
#: ``table-layout: fixed`` these are the whole layout: nothing is measured, long names wrap.
SHEET_COLUMNS: dict[str, dict[str, float]] = {
    "plain": {"n": 4, "contract": 31, "pts": 14.5, "chk": 7},
    "auction": {"n": 3, "contract": 19, "who2": 14, "pts": 12, "pay": 9, "chk": 7},
}


def _header(game: Any, lang: str) -> dict[str, Any]:
    profile = get_profile(game.profile)
    record = game.record
    return {
        "id": game.id, "profile": profile.id,
        "players": list(record["players"]), "clockwise": profile.clockwise,
        "first_seat": record.get(profile.seat_key), "seat_key": profile.seat_key,
        "options": profile.parse_options(record.get("options")).as_dict(profile),
        "date": day_of(getattr(game, "created_at", None)),
        "fingerprint": fingerprint(record), "n_hands": profile.n_hands, "lang": lang,
        "orientation": default_orientation(profile.id),
    }


def sheet_doc(game: Any, lang: str = "es") -> dict[str, Any]:
    """The score sheet as a plain dict: :func:`queries.sheet_view` plus the header, the
    fingerprint and the rulings and violations as numbered notes (each row keeps the
    numbers of its notes)."""
    doc = queries.sheet_view(game, lang)
    doc.update(_header(game, lang))
    doc["kind"] = "sheet"
    session = object_session(game) if isinstance(game, Game) else None   # not a RecordGame
    doc["place"] = event_place(session, game.id) if session is not None else None
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
    for row in doc.get("hands", []):
        row["note_marks"] = number_ranges(row["notes"])
    doc["auction"] = get_profile(game.profile).auction
    doc["widths"] = SHEET_COLUMNS["auction" if doc["auction"] else "plain"]
    return doc


def _sorted_cards(cards: list[str]) -> list[str]:
    return sorted(cards, key=lambda c: (_SUIT_ORDER[c[-1]], -RANKS.index(c[0])))


def number_ranges(numbers: list[int]) -> str:
    """Note numbers as a reader scans them: [1, 2, 3, 5] -> "1–3, 5"."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)


def _tricks_doc(h: Any) -> list[dict[str, Any]]:
    """Each trick of a hand: its cards in play order and by seat, who led, who took it."""
    tricks = []
    for k, (cards, seats) in enumerate(zip(h.tricks, h.trick_seats, strict=True)):
        by_seat: list[str | None] = [None] * 4
        for card, seat in zip(cards, seats, strict=True):
            by_seat[seat] = card
        tricks.append({"n": k + 1, "leader": seats[0], "cards": list(cards), "by_seat": by_seat,
                       "winner": h.trick_winners[k] if k < len(h.trick_winners) else None})
    return tricks


def _sorted_seats(cards: Any) -> list[list[str]] | None:
    """Each seat's cards sorted for reading (None stays None)."""
    return [_sorted_cards(list(c)) for c in cards] if cards is not None else None


def _counts_doc(counts: dict[str, Any] | None) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, (list, tuple)) else v for k, v in (counts or {}).items()}


def hand_doc(game: Any, row: int, lang: str = "es") -> dict[str, Any] | None:
    """Hand row ``row`` (1-based, as in the record) as a plain dict, or None if there is
    no such row. RecordError if the record no longer replays."""
    if not 1 <= row <= len(game.hands):
        return None
    result = queries.replay_game(game)
    profile = get_profile(game.profile)
    h = result.hands[row - 1]
    doc = _header(game, lang)
    doc.update(queries.hand_row(h, profile, lang))
    doc["kind"] = "hand"
    doc["played_points"] = list(h.played_points)
    doc["early_end"] = h.early_end      # an Explanation: the template writes it
    doc["payment_note"] = result.payment_note(row - 1)   # how a sale was settled (or None)
    doc["tricks_played"] = h.tricks_played
    doc["tricks"] = _tricks_doc(h)
    deal = h.deal
    doc["deal"] = _sorted_seats(deal) if deal else None
    doc["captured"] = _sorted_seats(h.captured)
    doc["counts"] = _counts_doc(h.counts)
    doc["contract_values"] = dict(h.contract.values)
    return doc


def _blank_row(profile: Any, first: int, number: int) -> dict[str, Any]:
    """Hand ``number`` of the schedule: its fixed contract (if any) and its seats."""
    slot = slot_for(profile, first, number)
    return {"number": number, "contract": slot.contract,
            "fiesta": slot.fiesta, "dealer": slot.dealer, "owner": slot.owner,
            "chooser": slot.chooser, "leader": slot.leader}


def _choice_grid(profile: Any, options: dict[str, Any]) -> dict[str, Any] | None:
    """For a profile whose contracts are chosen (rifki): each contract's limit and, with
    the 3+2 option, each seat's quota."""
    if not profile.chosen:
        return None
    quota = options.get("choice_limit") == "3+2"
    return {
        "contracts": [{"id": cid,
                       "limit": RIFKI_KOZ_LIMIT if cid == "koz" else RIFKI_LIMIT_PER_PENALTY,
                       "koz": cid == "koz"}
                      for cid in RIFKI_PENALTIES + ("koz",)],
        "quota": dict(RIFKI_QUOTA) if quota else None,
        "choices_per_seat": profile.n_hands // 4,
    }


def blank_doc(game: Any, lang: str = "es") -> dict[str, Any]:
    """A sheet to play on paper with the game's seats: the schedule (contracts fixed by
    the profile, dealer, owner, chooser, leader per hand) with empty cells; for rifki the
    choice grid with each seat's quota and each contract's limit."""
    doc = _header(game, lang)
    doc["kind"] = "blank"
    profile = get_profile(game.profile)
    first = doc["first_seat"] if doc["first_seat"] is not None else 0
    doc["rows"] = [_blank_row(profile, first, number) for number in range(1, profile.n_hands + 1)]
    doc["auction"] = profile.auction
    doc["fiesta_contracts"] = [c.id for c in profile.contracts.values() if c.fiesta]
    doc["grid"] = _choice_grid(profile, doc["options"])
    return doc


# --- finding games for a bulk export --------------------------------------------------------

def find_games(session: Session, *, date_from: date | None = None, date_to: date | None = None,
               player_id: int | None = None) -> list[int]:
    """Ids of the games started in [date_from, date_to] (days, inclusive) and/or with one
    player, oldest first: one indexed query over the stored results (no record is loaded)."""
    t: Any = SeatResult if player_id is not None else StoredResult
    stmt = select(t.game_id).order_by(t.played_at, t.game_id)
    if player_id is not None:
        stmt = stmt.where(t.player_id == player_id)
    if date_from is not None:
        stmt = stmt.where(t.played_at >= day_start(date_from))
    if date_to is not None:
        stmt = stmt.where(t.played_at < day_start(date_to + timedelta(days=1)))
    return [int(i) for i in session.scalars(stmt)]


def game_sheet_doc(session: Session, game_id: int, lang: str) -> dict[str, Any] | None:
    game = queries.get_game(session, game_id)
    if game is None:
        return None
    return sheet_doc_or_error(game, lang)


def sheet_doc_or_error(game: Any, lang: str) -> dict[str, Any]:
    """:func:`sheet_doc`, or for a record that no longer replays its header and the error
    (``error``; the bulk export prints it)."""
    try:
        return sheet_doc(game, lang)
    except RecordError as e:  # a broken record still prints its header and the error
        doc = _header(game, lang)                 # (the template writes it in its language)
        doc.update({"kind": "sheet", "error": e, "hands": [], "notes": []})
        return doc
