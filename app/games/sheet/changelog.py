"""The change log in words: each saved change as the lines a player reads ("Tricks: Beto
3 → 2"), not the stored before/after JSON (issue 14.4).

A hand's record (RECORD.md) is compared key by key; every line names what changed with the
players' names, the contracts' names and the cards' faces of the page's language.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import ngettext

from app.rules.profiles import ELEMENTS
from app.web.messages import field_label
from app.web.referee_words import ruling_label
from app.web.words import MINUS, SUIT_SYMBOLS, _, call_text, card_face, contract_name, signed

ARROW = " → "


def _name(players: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(players):
        return players[seat]
    return "—" if seat is None else str(seat)


def _contract(cid: Any, lang: str) -> str:
    return contract_name(None if cid is None else str(cid))


def _cards(codes: Any) -> str:
    try:
        return " ".join(card_face(str(c)) for c in codes or ()) or "—"
    except Exception:  # noqa: BLE001 - an unreadable card is shown as stored
        return " ".join(str(c) for c in codes or ())


def _seats_line(label: str, old: Any, new: Any, players: Sequence[str]) -> str | None:
    """``Tricks: Beto 3 → 2, Carla 1 → 2`` for a list of four values, one per seat."""
    old = list(old) if isinstance(old, list) else [None] * 4
    new = list(new) if isinstance(new, list) else [None] * 4
    parts = [f"{_name(players, s)} {_v(old[s] if s < len(old) else None)}{ARROW}"
             f"{_v(new[s] if s < len(new) else None)}"
             for s in range(max(len(old), len(new), 4))
             if (old[s] if s < len(old) else None) != (new[s] if s < len(new) else None)]
    return f"{label}: {', '.join(parts)}" if parts else None


def _v(value: Any) -> str:
    return "—" if value is None else str(value)


def _counts_lines(old: dict[str, Any], new: dict[str, Any], players: Sequence[str]) -> list[str]:
    lines = []
    for key in ELEMENTS:
        a, b = old.get(key), new.get(key)
        if a == b:
            continue
        label = field_label(key)
        if key == "kh":
            lines.append(f"{label}: {_name(players, a)}{ARROW}{_name(players, b)}")
        elif key == "last_two":
            def pair(v: Any) -> str:
                return " / ".join(_name(players, s) for s in v) if isinstance(v, list) else "—"
            lines.append(f"{label}: {pair(a)}{ARROW}{pair(b)}")
        else:
            line = _seats_line(label, a, b, players)
            if line:
                lines.append(line)
    return lines


def _seat_captures_line(s: int, a: Sequence[Any], b: Sequence[Any],
                        players: Sequence[str]) -> str | None:
    """The cards seat ``s`` gained and lost (``Cards, Beto: +K♥`` and the lost with a minus);
    None when they are the same."""
    before = set(a[s]) if s < len(a) else set()
    after = set(b[s]) if s < len(b) else set()
    if before == after:
        return None
    gained = [f"+{_cards([c])}" for c in sorted(after - before)]
    lost = [f"{MINUS}{_cards([c])}" for c in sorted(before - after)]
    return f"{field_label('cards')}, {_name(players, s)}: {' '.join(gained + lost)}"


def _captures_lines(old: dict[str, Any], new: dict[str, Any],
                    players: Sequence[str]) -> list[str]:
    a = old.get("cards") or [[], [], [], []]
    b = new.get("cards") or [[], [], [], []]
    lines = [line for s in range(4) if (line := _seat_captures_line(s, a, b, players)) is not None]
    rest = {k for k in set(old) | set(new) if k != "cards" and old.get(k) != new.get(k)}
    lines.extend(_counts_lines({k: old.get(k) for k in rest}, {k: new.get(k) for k in rest},
                               players))
    return lines



def _tricks_lines(old: Any, new: Any) -> list[str]:
    old, new = list(old or []), list(new or [])
    lines = []
    for t in range(max(len(old), len(new))):
        a = old[t] if t < len(old) else None
        b = new[t] if t < len(new) else None
        if a != b:
            lines.append(_("Trick %(t)s: %(old)s → %(new)s", t=t + 1,
                           old=_cards(a) if a else "—", new=_cards(b) if b else "—"))
    return lines


def _ruling_text(ruling: Any, players: Sequence[str]) -> str:
    if not isinstance(ruling, dict):
        return ruling_label("as-played")
    text = ruling_label(ruling.get("kind"))
    if ruling.get("seat") is not None:
        text += f" ({_name(players, ruling['seat'])})"
    if ruling.get("points"):
        text += " [" + ", ".join(signed(p) or "0" for p in ruling["points"]) + "]"
    if ruling.get("reason"):
        text += f" — “{ruling['reason']}”"
    return text


@dataclass(frozen=True)
class _Page:
    """Who and what the lines name: the players, the page's language, the auction's owner."""

    players: Sequence[str]
    lang: str
    owner: int | None


Hand = dict[str, Any]


def _contract_change(old: Hand, new: Hand, page: _Page) -> list[str]:
    if old.get("contract") == new.get("contract") or not (old or new.get("contract")):
        return []
    label = field_label("contract")
    if not old:
        return [f"{label}: {_contract(new.get('contract'), page.lang)}"]
    return [f"{label}: {_contract(old.get('contract'), page.lang)}"
            f"{ARROW}{_contract(new.get('contract'), page.lang)}"]


def _trump_change(old: Hand, new: Hand, page: _Page) -> list[str]:
    if old.get("trump") == new.get("trump"):
        return []
    return [f"{field_label('trump')}: {SUIT_SYMBOLS.get(str(old.get('trump')), '—')}"
            f"{ARROW}{SUIT_SYMBOLS.get(str(new.get('trump')), '—')}"]


def _leader_change(old: Hand, new: Hand, page: _Page) -> list[str]:
    if old.get("leader") == new.get("leader"):
        return []
    return [f"{field_label('leader')}: {_name(page.players, old.get('leader'))}{ARROW}"
            f"{_name(page.players, new.get('leader'))}"]


def _auction_change(old: Hand, new: Hand, page: _Page) -> list[str]:
    if old.get("auction") == new.get("auction"):
        return []

    def calls(v: Any) -> str:
        return " · ".join(call_text(str(c), page.players, page.owner) for c in v or ()) or "—"
    return [f"{field_label('auction')}: {calls(old.get('auction'))}{ARROW}"
            f"{calls(new.get('auction'))}"]


def _counts_change(old: Hand, new: Hand, page: _Page) -> list[str]:
    a_counts, b_counts = old.get("counts") or {}, new.get("counts") or {}
    return _counts_lines(a_counts, b_counts, page.players) if a_counts != b_counts else []


def _captures_change(old: Hand, new: Hand, page: _Page) -> list[str]:
    a_caps, b_caps = old.get("captures") or {}, new.get("captures") or {}
    return _captures_lines(a_caps, b_caps, page.players) if a_caps != b_caps else []


def _tricks_change(old: Hand, new: Hand, page: _Page) -> list[str]:
    if old.get("tricks") == new.get("tricks"):
        return []
    return _tricks_lines(old.get("tricks"), new.get("tricks"))


def _deal_change(old: Hand, new: Hand, page: _Page) -> list[str]:
    if old.get("deal") == new.get("deal"):
        return []
    if new.get("deal") and not old.get("deal"):
        return [_("The deal was entered.")]
    return [_("The deal was removed.") if not new.get("deal") else _("The deal was changed.")]


def _ruling_change(old: Hand, new: Hand, page: _Page) -> list[str]:
    if old.get("ruling") == new.get("ruling"):
        return []
    return [f"{field_label('ruling')}: {_ruling_text(old.get('ruling'), page.players)}"
            f"{ARROW}{_ruling_text(new.get('ruling'), page.players)}"]


#: What a change of a hand says, part by part, in this order.
_HAND_CHANGES = (_contract_change, _trump_change, _leader_change, _auction_change, _counts_change,
                 _captures_change, _tricks_change, _deal_change, _ruling_change)


def hand_lines(before: Any, after: Any, players: Sequence[str], lang: str,
               owner: int | None = None) -> list[str]:
    """What changed between two versions of a hand (either may be None: added, deleted)."""
    old = before if isinstance(before, dict) else {}
    new = after if isinstance(after, dict) else {}
    page = _Page(players, lang, owner)
    return [line for change in _HAND_CHANGES for line in change(old, new, page)]


def entry_lines(action: str, before: Any, after: Any, players: Sequence[str],
                lang: str, owner: int | None = None) -> list[str]:
    """The lines of one change-log entry."""
    if action in ("create", "import"):
        record = after if isinstance(after, dict) else {}
        n = len(record.get("hands") or [])
        names = ", ".join(str(p) for p in record.get("players") or [])
        return [names, str(ngettext("%(num)s hand", "%(num)s hands", n))] if n else [names]
    if action == "first_seat":
        return [_first_seat_line(before, after, players)]
    if action in ("call_director", "answer_call"):
        return _call_lines(action, after, players)
    if action in ("rename_player", "merge_players"):
        return [_roster_line(before, after)]
    return hand_lines(before, after, players, lang, owner)


def _roster_line(before: Any, after: Any) -> str:
    """A director renamed a seat's player, or merged them into another: "koldo → Koldo"."""
    old = before if isinstance(before, dict) else {}
    new = after if isinstance(after, dict) else {}
    return f"{old.get('player', '?')}{ARROW}{new.get('player', '?')}"


def _call_lines(action: str, after: Any, players: Sequence[str]) -> list[str]:
    """A call to the director: who called from which seat and the note; its answer."""
    data = after if isinstance(after, dict) else {}
    if action == "answer_call":
        return [_("Answer: %(text)s", text=data.get("answer") or "—")]
    seat = data.get("seat")
    lines = [_("Seat: %(player)s", player=_name(players, seat))] if isinstance(seat, int) else []
    if data.get("note"):
        lines.append(_("Note: %(text)s", text=data["note"]))
    return lines


def _first_seat_line(before: Any, after: Any, players: Sequence[str]) -> str:
    """"Who holds the 2♦ (chooses first): Ana → Beto" (or the first dealer)."""
    old = before if isinstance(before, dict) else {}
    new = after if isinstance(after, dict) else {}
    key = next(iter(new), "first_dealer")

    def name(seat: Any) -> str:
        return str(players[seat]) if isinstance(seat, int) and 0 <= seat < len(players) else "?"

    label = _("Who holds the 2♦ (chooses first)") if key == "first_chooser" else _("First dealer")
    return f"{label}: {name(old.get(key))} → {name(new.get(key))}"
