"""What the referee's pages show: the trick page, the hand record page, the live
violations, in the page's language (presentation of :mod:`app.games.referee.referee`).

Every request replays the address's state through the engine's
:class:`app.rules.game.hand.HandState`, which is authoritative for turns, winners, captures,
points and the rules; the words come from :mod:`app.web.words`.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import render_template, url_for
from flask_babel import ngettext

from app.games import queries
from app.games.entry.setup import Setup
from app.games.referee.deal_viewer import alternatives_views, use_link, viewer_view
from app.rules.cards import BIT, SUIT_MASK, SUITS, Card, cards_of
from app.rules.errors import InputError
from app.rules.game.hand import HandState, turn_order
from app.web.messages import translate_error
from app.web.referee_words import (
    RULING_LABELS,
    early_end_text,
    explanation_text,
    rule_demand,
    rule_name,
    violation_row,
)
from app.web.words import SUIT_SYMBOLS, _, card_face, card_view, current_lang, signed, suit_color


def deck_by_suit(profile: Any) -> list[dict[str, Any]]:
    """The deck, suit by suit, high to low (the card grid)."""
    out = []
    for s, letter in enumerate(SUITS):
        cards = sorted(cards_of(profile.deck & SUIT_MASK[s]), reverse=True)
        out.append({"letter": letter, "symbol": SUIT_SYMBOLS[letter],
                    "color": suit_color(letter),
                    "cards": [str(c) for c in cards]})
    return out



def _tapped(profile: Any, assigned: dict[str, int | None]) -> tuple[list[list[str]], list[str]]:
    """The cards each seat was tapped, and the cards tapped to none (deck order, high first)."""
    deal: list[list[str]] = [[], [], [], []]
    rest = []
    for card in (str(c) for c in sorted(cards_of(profile.deck), reverse=True)):
        seat = assigned.get(card)
        if seat is None:
            rest.append(card)
        else:
            deal[seat].append(card)
    return deal, rest


def _fill_last_seat(deal: list[list[str]], rest: list[str], n: int) -> None:
    """Gives the untapped cards to the one seat still short, when they make its hand."""
    short = [s for s in range(4) if len(deal[s]) < n]
    if not rest or len(short) != 1:
        return
    last = short[0]
    if len(deal[last]) + len(rest) == n and all(len(deal[s]) == n for s in range(4) if s != last):
        deal[last].extend(rest)


def deal_from_assignment(profile: Any, assigned: dict[str, int | None],
                         players: list[str]) -> tuple[list[list[str]], dict[int, str]]:
    """The deal from "card -> seat" taps, the last seat filled with the remaining cards.

    Returns (deal, problems by seat); problems say how many cards a seat has.
    """
    n = profile.n_tricks
    deal, rest = _tapped(profile, assigned)
    _fill_last_seat(deal, rest, n)
    problems = {s: dealt_text(name=players[s], k=len(deal[s]), n=n)
                for s in range(4) if len(deal[s]) != n}
    return deal, problems


def dealt_text(*, name: str, k: int, n: int) -> str:
    """"Ana has 7 cards; each player is dealt 8." (the count in the page's language)."""
    return str(ngettext("%(name)s has %(num)s card; each player is dealt %(n)s.",
                        "%(name)s has %(num)s cards; each player is dealt %(n)s.", k,
                        name=name, n=n))


def check_deal(profile: Any, deal: list[list[str]], players: list[str]) -> str | None:
    """What is wrong with a deal read from the address (sizes, deck, repeats), or None."""
    n = profile.n_tricks
    seen = 0
    for s, cards in enumerate(deal):
        if len(cards) != n:
            return dealt_text(
                     name=players[s], k=len(cards), n=n)
        for c in cards:
            b = BIT[Card.parse(c)]
            if not profile.deck & b:
                return _("%(card)s is not in the %(n)s-card deck.", card=card_face(c),
                         n=profile.deck_size)
            if seen & b:
                return _("%(card)s is dealt twice.", card=card_face(c))
            seen |= b
    return None



# --- play ---------------------------------------------------------------------------------

def replay_plays(state: HandState, plays: list[str]) -> tuple[int, str | None]:
    """Plays the cards in order; stops at the first one the engine cannot take.

    Returns (how many were played, the message of the refused card or None).
    """
    for k, card in enumerate(plays):
        try:
            state.play(card)
        except InputError as e:
            return k, input_message(e)
    return len(plays), None


def input_message(e: InputError) -> str:
    """An engine input error about one card, in the page's language (from its code and
    params: the engine's English wording is never parsed)."""
    params = e.params
    card = params.get("card")
    shown = card_face(str(card)) if card is not None else ""
    if e.code == "hand-over":
        return _("The hand is over: no more cards can be played.")
    if e.code == "card-twice":
        return _("%(card)s has already been played.", card=shown)
    if e.code == "card-not-held" and "name" in params:
        return _("%(card)s is not in %(name)s's hand.", card=shown, name=str(params["name"]))
    if e.code == "card" and "deck" in params:
        return _("%(card)s is not in this deck.", card=shown)
    if e.code == "card" and "text" in params:
        return _("%(text)s is not a card (type it like KH, 10s or qd).", text=str(params["text"]))
    return translate_error(e)


def live_violations(state: HandState, players: list[str]) -> list[dict[str, Any]]:
    """The violations the plays so far prove (RULES.md §3), as the engine judges them
    (:meth:`HandState.violations`), in rows for the page."""
    return [violation_row(v, players) for v in state.violations()]


def trick_rows(tricks: Sequence[Sequence[str]], seats: Sequence[Sequence[int]],
               winners: Sequence[int], flagged: set[tuple[int, int]]) -> list[dict[str, Any]]:
    """The trick grid: per trick, each seat's card, the leader and the winner (who played
    each card is the engine's: ``seats``)."""
    rows = []
    for t, trick in enumerate(tricks):
        by_seat: list[dict[str, Any] | None] = [None, None, None, None]
        for code, s in zip(trick, seats[t], strict=True):
            cell = card_view(code)
            cell["flagged"] = (t + 1, s) in flagged
            by_seat[s] = cell
        winner = winners[t] if t < len(winners) else None
        lead = seats[t][0]
        rows.append({"number": t + 1, "leader": lead, "winner": winner, "cards": by_seat,
                     "order": list(turn_order(lead))})
    return rows


def _cell_status(state: HandState, code: str, played: set[str], to_play: int | None,
                 hand_mask: int | None) -> tuple[str, Any]:
    """A card of the grid: its status and, for an illegal one, the violation it would be."""
    if code in played:
        return "played", None
    if to_play is None:
        return "closed", None
    if hand_mask is None:
        return "open", None
    if not hand_mask & BIT[Card.parse(code)]:
        return "other", None
    v = state.why_illegal(code)
    return ("legal", None) if v is None else ("illegal", v)


def _card_grid(profile: Any, state: HandState, to_play: int | None
               ) -> tuple[list[dict[str, Any]], dict[str, list[str]]]:
    """The card grid, suit by suit, each card with its status; and the cards of the seat
    to play that each rule forbids."""
    played = {str(Card(c)) for c in state.plays}
    hand_mask = state.holding(to_play) if to_play is not None else None
    grid = []
    forbidden: dict[str, list[str]] = {}
    for suit in deck_by_suit(profile):
        cells = []
        for code in suit["cards"]:
            cell = card_view(code)
            status, v = _cell_status(state, code, played, to_play, hand_mask)
            why = None
            if v is not None:
                why = {"rule": v.rule, "name": rule_name(v.rule), "demand": rule_demand(v.rule)}
                forbidden.setdefault(v.rule, []).append(code)
            cell.update(status=status, why=why)
            cells.append(cell)
        grid.append({**suit, "cards": cells})
    return grid, forbidden


def _last_play(state: HandState, seats: Sequence[Sequence[int]],
               violations: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The card played last, its seat and the violation it made (if any)."""
    if not state.plays:
        return None
    t, s = len(seats) - 1, seats[-1][-1]
    return {"seat": s, "card": card_view(str(Card(state.plays[-1]))),
            "violation": next((v for v in violations
                               if v["trick"] == t + 1 and v["seat"] == s), None)}


def _forbidden_rows(forbidden: dict[str, list[str]]) -> list[dict[str, Any]]:
    return [{"rule": r, "name": rule_name(r), "demand": rule_demand(r),
             "cards": [card_view(c) for c in cs]} for r, cs in forbidden.items()]


def _captured_view(captured: Sequence[Sequence[str]]) -> list[list[dict[str, Any]]]:
    return [[card_view(c) for c in cards] for cards in captured]


def _current_trick(w_tricks: Sequence[Sequence[str]]) -> Sequence[str]:
    """The trick being played (empty between tricks)."""
    return w_tricks[-1] if w_tricks and len(w_tricks[-1]) < 4 else []


def tricks_view(profile: Any, options: dict[str, str], players: list[str], setup: Setup,
                deal: list[list[str]] | None, plays: list[str]) -> dict[str, Any]:
    """Everything the trick-by-trick page shows, from the state in the address."""
    assert setup.leader is not None, "a 433 has no tricks"
    state = HandState(profile.id, options, setup.contract, setup.trump, setup.leader,
                      deal=deal, names=players)
    n_ok, problem = replay_plays(state, plays)
    summary = state.summary()
    contract = state.contract
    w_tricks = state.tricks()
    winners = summary["winners"]
    violations = live_violations(state, players)
    flagged = {(v["trick"], v["seat"]) for v in violations}
    to_play = summary["to_play"]
    grid, forbidden = _card_grid(profile, state, to_play)
    seats = summary["seats"]
    return {
        "state": state, "summary": summary, "contract": contract,
        "tricks": trick_rows(w_tricks, seats, winners, flagged),
        "current": _current_trick(w_tricks),
        "current_no": None if summary["over"] else summary["trick_no"],
        "current_leader": summary["leading"],
        "current_order": list(turn_order(summary["leading"])),
        "to_play": to_play, "over": summary["over"],
        "early_end": early_end_text(contract, len(winners)) if summary["ended_early"] else None,
        "points": summary["points"], "counts": {"tricks": [winners.count(s) for s in range(4)]},
        "captured": _captured_view(summary["captured"]),
        "grid": grid, "forbidden": _forbidden_rows(forbidden),
        "violations": violations, "last_play": _last_play(state, seats, violations),
        "plays": [str(Card(c)) for c in state.plays], "n_valid": n_ok, "problem": problem,
        "deal": deal, "n_tricks": profile.n_tricks,
    }



# --- the hand record page -----------------------------------------------------------------

def _deal_view(deal: Sequence[Sequence[str]] | None) -> list[list[dict[str, Any]]] | None:
    """Each seat's dealt cards, suit by suit, high to low."""
    if deal is None:
        return None
    return [[_suit_view(cards, letter) for letter in SUITS] for cards in deal]


def _suit_view(cards: Sequence[str], letter: str) -> dict[str, Any]:
    codes = sorted((c for c in cards if c[-1] == letter), key=lambda c: -Card.parse(c))
    return {"symbol": SUIT_SYMBOLS[letter], "color": suit_color(letter),
            "cards": [card_view(c) for c in codes]}


def _ruling_view(ruling: Any) -> dict[str, Any]:
    return {"kind": ruling.kind, "label": str(RULING_LABELS.get(ruling.kind, ruling.kind)),
            "seat": ruling.seat, "points": ruling.points, "reason": ruling.reason,
            "by": ruling.by, "at": ruling.at, "weights": queries.outcomes_of(ruling)}


def weights_text(weights: Sequence[dict[str, Any]] | None) -> str:
    """A weighted ruling's outcomes in one line: "70 % with Q♠ (+10, -20, 0, +10 signed) · 30 % …"."""
    return " · ".join(
        f"{w['share']} %" + (f" {w['label']}" if w.get("label") else "")
        + " (" + " ".join(signed(p) or "0" for p in w["points"]) + ")" for w in weights or ())


def hand_record_view(result: Any, index: int, players: list[str], lang: str) -> dict[str, Any]:
    """What the hand record page shows, from the replayed game."""
    h = result.hands[index]
    violations = [violation_row(v, players) for v in h.violations]
    flagged = {(v["trick"], v["seat"]) for v in violations}
    early = early_end_text(h.contract, h.tricks_played) if h.ended_early else None
    note = result.payment_note(index)
    return {
        "index": index, "row": index + 1, "number": h.number, "contract": h.contract,
        "trump": h.trump, "mode": h.mode,
        "dealer": h.dealer, "owner": h.owner, "chooser": h.chooser, "declarer": h.declarer,
        "leader": h.leader, "bid": h.bid, "auction": list(h.auction),
        "played_points": list(h.played_points), "points": list(h.points),
        "payments": list(h.payments), "has_payment": any(h.payments) or note is not None,
        "payment_note": explanation_text(note) if note is not None else None,
        "total": h.total, "expected_total": h.expected_total, "counted": h.counted,
        "running_totals": list(h.running_totals),
        "tricks": trick_rows(h.tricks, h.trick_seats, h.trick_winners, flagged),
        "tricks_won": [h.trick_winners.count(s) for s in range(4)],
        "ended_early": h.ended_early, "early_end": early, "deal": _deal_view(h.deal),
        "captured": _captured_view(h.captured) if h.captured is not None else None,
        "counts": dict(h.counts), "violations": violations,
        "ruling": _ruling_view(h.ruling),
        "made_king": h.made_king, "negative": h.contract.negative,
        "totals": list(h.running_totals),   # after this hand, not the game's final ones
    }


def hand_record_page(game: Any, index: int, form: Any, errors: dict[str, list[str]],
                     status: int, share: str | None = None, step: str | None = None,
                     uses: Sequence[str] = ()) -> Any:
    """The hand record page (with the ruling form, or read-only behind the share link
    ``share``), from the game's kept replay; its deal viewer at the step ``?trick=``
    asked for (``step``, as sent); ``uses``: the outcomes the address fills in (``?use=``),
    each alternative's link adding one."""
    players = list(game.record["players"])
    result = queries.replay_game(game)
    view = hand_record_view(result, index, players, current_lang())

    def step_url(k: int) -> str:
        if share:
            return url_for("share.hand", token=share, n=index + 1, trick=k, _anchor="viewer")
        return url_for("hand_record.hand", game_id=game.id, n=index + 1, trick=k, _anchor="viewer")

    h = result.hands[index]
    viewer = viewer_view(h, players, result.profile.clockwise, view["tricks"], step, step_url)
    alternatives = alternatives_views(game.record, index, view["violations"], h.deal is not None)
    return render_template("referee/hand.html", h=view, game_id=game.id, players=players,
                           profile=result.profile, form=form, errors=errors,
                           version=game.version, lang=current_lang(), share=share,
                           n_rows=len(game.hands), viewer=viewer,
                           alternatives=alternatives, uses=list(uses), use_link=use_link), status
