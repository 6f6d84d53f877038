"""Referee mode: trick-by-trick entry, the violations and the rulings (RULES.md §2.3, §3).

The page's state travels in the address (setup, deal, plays), so a reload or a lost
connection loses nothing; every request replays it through the engine's
:class:`app.rules.hand.HandState`, which is authoritative for turns, winners, captures and
points. A finished hand is scored by replaying the whole record (the sheet's own path), so
what the page shows is exactly what the sheet and ``kingsheet score`` will say.

Reads build plain dicts for the templates; the two writes (:func:`save_tricks`,
:func:`apply_ruling`) go through :mod:`app.services.hands`, which checks the optimistic
lock, replays the record before writing and keeps the audit log.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from sqlalchemy.orm import Session

from app.rules import RecordError, load
from app.rules.cards import BIT, SUIT_MASK, SUITS, Card, cards_of
from app.rules.errors import InputError
from app.rules.hand import HandState
from app.rules.play import RULE_IDS, evidence_texts, judge_play, trick_winner
from app.services import hands as hands_service
from app.services.setup import Setup


def _(template: str, **params: object) -> str:
    """The message in the page's language (typed: the catalog always gives text)."""
    return str(gettext(template, **params))


SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = ("H", "D")
RULING_KINDS = ("as-played", "replay", "charge-offender", "adjusted")

#: Every rule id of the referee, named as players say them.
RULE_NAMES = {
    "follow-suit": _l("Follow suit"),
    "hearts-lead": _l("Leading hearts"),
    "hearts-first-trick": _l("Heart in the first trick"),
    "kh-lead": _l("Leading the K♥"),
    "kh-discard": _l("Forced K♥ discard"),
    "kh-first-trick": _l("K♥ in the first trick"),
    "must-trump": _l("Must trump"),
    "must-overtrump": _l("Must overtrump"),
    "must-head-trump": _l("Must head a trump lead"),
    "penalty-discard": _l("Penalty card discard"),
    "penalty-drop": _l("Penalty card drop"),
    "must-overtake": _l("Must win the trick"),
    "trump-lead": _l("Leading trumps"),
}

#: What each rule asks of a player, in one sentence (shown next to a card it forbids).
RULE_DEMANDS = {
    "follow-suit": _l("A player holding a card of the suit led must play one."),
    "hearts-lead": _l("No heart may be led while the leader holds another suit."),
    "hearts-first-trick": _l("In the first trick a void player may not discard a heart "
                             "while holding another suit."),
    "kh-lead": _l("The K♥ may not be led unless it is the player's last card."),
    "kh-discard": _l("A player void in the suit led who holds the K♥ must play it."),
    "kh-first-trick": _l("In the first trick the K♥ may be played only to follow hearts."),
    "must-trump": _l("A player void in the suit led must play a trump."),
    "must-overtrump": _l("A void player must beat the trump on the table when able."),
    "must-head-trump": _l("On a trump lead, a player with a higher trump must play one."),
    "penalty-discard": _l("A player void in the suit led must play a penalty card of this "
                          "hand."),
    "penalty-drop": _l("A penalty card below the highest card of its suit on the table must "
                       "be dropped."),
    "must-overtake": _l("A player who can win the trick with the suit led must do so."),
    "trump-lead": _l("No trump may be led before trumps are broken while the leader holds "
                     "another suit."),
}

#: What a player who broke the rule did (the engine's sentence, in the page's language).
RULE_BROKEN = {
    "follow-suit": _l("did not follow suit"),
    "hearts-lead": _l("led a heart while holding other suits"),
    "hearts-first-trick": _l("discarded a heart in the first trick while holding other suits"),
    "kh-lead": _l("led the K♥ while holding other cards"),
    "kh-discard": _l("did not discard the K♥ when void in the led suit"),
    "kh-first-trick": _l("played the K♥ in the first trick without following hearts"),
    "must-trump": _l("did not trump when void in the led suit"),
    "must-overtrump": _l("did not overtrump when able"),
    "must-head-trump": _l("did not play a higher trump on a trump lead when able"),
    "penalty-discard": _l("did not discard a penalty card when void in the led suit"),
    "penalty-drop": _l("did not drop a penalty card under a higher card of its suit"),
    "must-overtake": _l("did not play a card that wins the trick when able"),
    "trump-lead": _l("led a trump before trumps were broken while holding other suits"),
}

RULING_LABELS = {
    "as-played": _l("as played"),
    "replay": _l("replay the hand"),
    "charge-offender": _l("charge the offender"),
    "adjusted": _l("adjusted points"),
}

assert set(RULE_NAMES) == set(RULE_IDS) == set(RULE_DEMANDS) == set(RULE_BROKEN)


# --- cards as the page shows them ----------------------------------------------------------

def card_view(code: str) -> dict[str, Any]:
    """``{"code": "TS", "rank": "10", "suit": "♠", "color": "black", "text": "10♠"}``."""
    rank, suit = code[:-1], code[-1]
    rank = "10" if rank == "T" else rank
    symbol = SUIT_SYMBOLS[suit]
    return {"code": code, "rank": rank, "suit": symbol, "letter": suit,
            "color": "red" if suit in RED_SUITS else "black", "text": rank + symbol}


def card_text(code: str) -> str:
    return str(card_view(code)["text"])


def deck_by_suit(profile: Any) -> list[dict[str, Any]]:
    """The deck, suit by suit, high to low (the card grid)."""
    out = []
    for s, letter in enumerate(SUITS):
        cards = sorted(cards_of(profile.deck & SUIT_MASK[s]), reverse=True)
        out.append({"letter": letter, "symbol": SUIT_SYMBOLS[letter],
                    "color": "red" if letter in RED_SUITS else "black",
                    "cards": [str(c) for c in cards]})
    return out


def parse_card(text: str) -> str:
    """Canonical code of a typed card (``kh``, ``10s``, ``Q♦``) or InputError."""
    return str(Card.parse(text))


def parse_card_list(text: str | None) -> list[str]:
    """``"AS,10h"`` -> ``["AS", "TH"]``; InputError naming the first bad item."""
    out = []
    for k, item in enumerate(t for t in (text or "").replace(" ", "").split(",") if t):
        try:
            out.append(parse_card(item))
        except InputError:
            raise InputError(f"[{k}]", f'"{item}" is not a card', "card") from None
    return out


# --- rule texts ---------------------------------------------------------------------------

def rule_name(rule: str) -> str:
    return str(RULE_NAMES.get(rule, rule))


def rule_demand(rule: str) -> str:
    return str(RULE_DEMANDS.get(rule, ""))


def evidence_text(item: str) -> str:
    """``"9S@6"`` -> "9♠ played at trick 6"; ``"9S@deal"`` -> "9♠ in the deal"."""
    code, _sep, where = item.partition("@")
    try:
        shown = card_text(str(Card.parse(code)))
    except InputError:
        shown = code
    if where == "deal":
        return _("%(card)s in the deal", card=shown)
    return _("%(card)s played at trick %(t)s", card=shown, t=where)


def violation_row(v: Any, players: list[str]) -> dict[str, Any]:
    """One line of the violations panel, in the page's language."""
    name = players[v.seat] if 0 <= v.seat < len(players) else str(v.seat)
    evidence = [evidence_text(e) for e in v.evidence]
    sentence = _("%(name)s %(did)s at trick %(t)s: played %(card)s, holding %(proof)s.",
                 name=name, did=str(RULE_BROKEN.get(v.rule, v.rule)), t=v.trick,
                 card=card_text(v.card), proof=", ".join(evidence))
    return {"trick": v.trick, "seat": v.seat, "player": name, "card": v.card,
            "card_view": card_view(v.card), "rule": v.rule, "rule_name": rule_name(v.rule),
            "demand": rule_demand(v.rule), "evidence": evidence, "raw_evidence": list(v.evidence),
            "sentence": sentence}


def early_end_text(contract: Any, trick_no: int) -> str:
    """Why a hand ended before its last trick, as players say it."""
    scored = [e for e in ("hearts", "kings", "queens", "jacks", "kh") if contract.values.get(e)]
    why = {("hearts",): _("the last heart is taken"), ("queens",): _("the last queen is taken"),
           ("kings",): _("the last king is taken"),
           ("kings", "jacks"): _("the last king and the last jack are taken"),
           ("kh",): _("the K♥ is taken")}.get(tuple(scored), _("every scoring card is taken"))
    return _("Hand over after trick %(t)s: %(why)s.", t=trick_no, why=why)


# --- the deal -----------------------------------------------------------------------------

def deal_from_params(values: Any) -> list[list[str]] | None:
    """The deal carried in the address (``deal0`` ... ``deal3``), or None. InputError."""
    keys = [f"deal{s}" for s in range(4)]
    if not any(values.get(k) for k in keys):
        return None
    deal = []
    for s, k in enumerate(keys):
        try:
            deal.append(parse_card_list(values.get(k)))
        except InputError as e:
            raise InputError(f"deal{s}", e.message, "card") from None
    return deal


def deal_params(deal: list[list[str]] | None) -> dict[str, str]:
    if not deal:
        return {}
    return {f"deal{s}": ",".join(cards) for s, cards in enumerate(deal)}


def deal_from_assignment(profile: Any, assigned: dict[str, int | None],
                         players: list[str]) -> tuple[list[list[str]], dict[int, str]]:
    """The deal from "card -> seat" taps, the last seat filled with the remaining cards.

    Returns (deal, problems by seat); problems say how many cards a seat has.
    """
    n = profile.n_tricks
    deal: list[list[str]] = [[], [], [], []]
    rest = []
    for card in (str(c) for c in sorted(cards_of(profile.deck), reverse=True)):
        seat = assigned.get(card)
        if seat is None:
            rest.append(card)
        else:
            deal[seat].append(card)
    short = [s for s in range(4) if len(deal[s]) < n]
    if rest and len(short) == 1 and len(deal[short[0]]) + len(rest) == n \
            and all(len(deal[s]) == n for s in range(4) if s != short[0]):
        deal[short[0]].extend(rest)
        rest = []
    problems = {}
    for s in range(4):
        if len(deal[s]) != n:
            problems[s] = _("%(name)s has %(k)s cards; each player is dealt %(n)s.",
                            name=players[s], k=len(deal[s]), n=n)
    return deal, problems


def check_deal(profile: Any, deal: list[list[str]], players: list[str]) -> str | None:
    """What is wrong with a deal read from the address (sizes, deck, repeats), or None."""
    n = profile.n_tricks
    seen = 0
    for s, cards in enumerate(deal):
        if len(cards) != n:
            return _("%(name)s has %(k)s cards; each player is dealt %(n)s.",
                     name=players[s], k=len(cards), n=n)
        for c in cards:
            b = BIT[Card.parse(c)]
            if not profile.deck & b:
                return _("%(card)s is not in the %(n)s-card deck.", card=card_text(c),
                         n=profile.deck_size)
            if seen & b:
                return _("%(card)s is dealt twice.", card=card_text(c))
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
            return k, input_message(e, state)
    return len(plays), None


def input_message(e: InputError, state: HandState | None = None) -> str:
    """An engine input error about one card, in the page's language."""
    code = getattr(e, "code", "")
    text = e.message
    card = text.split(" ", 1)[0]
    shown = card_text(card) if _is_card(card) else card
    if code == "hand-over":
        return _("The hand is over: no more cards can be played.")
    if code == "card-twice":
        return _("%(card)s has already been played.", card=shown)
    if code == "card-not-held" and state is not None and state.to_play is not None:
        return _("%(card)s is not in %(name)s's hand.", card=shown,
                 name=state.names[state.to_play])
    if code == "card" and "deck" in text:
        return _("%(card)s is not in this deck.", card=shown)
    if code == "card":
        return _("%(text)s is not a card (type it like KH, 10s or qd).",
                 text=text.split('"')[1] if '"' in text else text)
    return text


def _is_card(text: str) -> bool:
    try:
        Card.parse(text)
    except InputError:
        return False
    return True


def live_violations(state: HandState, players: list[str]) -> list[dict[str, Any]]:
    """The violations the plays so far prove (RULES.md §3), as the engine judges them.

    With the deal each play is judged on the holding before it; without it, on the cards
    the seat is seen to play at that trick or later (so far). Evidence is written as the
    engine writes it: a proving card the seat later played is ``CARD@TRICK``.
    """
    plays = [int(c) for c in state.plays]
    leader = state.leader
    seat = leader
    tricks: list[list[int]] = []
    leaders: list[int] = []
    for k in range(0, len(plays), 4):
        trick = plays[k:k + 4]
        leaders.append(seat)
        tricks.append(trick)
        if len(trick) == 4:
            seat = (seat + trick_winner(trick, state.trump)) & 3
    played_at: list[dict[int, int]] = [{}, {}, {}, {}]
    seen = [0, 0, 0, 0]
    for t, trick in enumerate(tricks):
        for pos, c in enumerate(trick):
            s = (leaders[t] + pos) & 3
            played_at[s][c] = t + 1
            seen[s] |= BIT[c]
    holding = state.deal if state.deal is not None else seen
    out = []
    before = 0
    for t, trick in enumerate(tricks):
        for pos, c in enumerate(trick):
            s = (leaders[t] + pos) & 3
            h = holding[s] & ~before & ~sum(BIT[x] for x in trick[:pos])
            found = judge_play(state.rules, state.trump, t + 1, trick[:pos], c, h | BIT[c],
                               before)
            if found is not None:
                rule, proof = found
                ev = evidence_texts(proof & (h | BIT[c]), played_at[s])
                out.append(_Violation(t + 1, s, str(Card(c)), rule, ev))
        for c in trick:
            before |= BIT[c]
    return [violation_row(v, players) for v in out]


@dataclass
class _Violation:
    trick: int
    seat: int
    card: str
    rule: str
    evidence: list[str]


def trick_rows(tricks: list[list[str]], leaders: list[int], winners: list[int],
               flagged: set[tuple[int, int]]) -> list[dict[str, Any]]:
    """The trick grid: per trick, each seat's card, the leader and the winner."""
    rows = []
    for t, trick in enumerate(tricks):
        lead = leaders[t]
        by_seat: list[dict[str, Any] | None] = [None, None, None, None]
        for pos, code in enumerate(trick):
            s = (lead + pos) & 3
            cell = card_view(code)
            cell["flagged"] = (t + 1, s) in flagged
            by_seat[s] = cell
        winner = winners[t] if t < len(winners) else None
        rows.append({"number": t + 1, "leader": lead, "winner": winner, "cards": by_seat,
                     "order": [(lead + p) & 3 for p in range(4)]})
    return rows


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
    leaders = summary["leaders"]
    winners = summary["winners"]
    violations = live_violations(state, players)
    flagged = {(v["trick"], v["seat"]) for v in violations}
    to_play = summary["to_play"]
    played = {str(Card(c)) for c in state.plays}
    hand_mask = state.holding(to_play) if to_play is not None else None
    grid = []
    forbidden: dict[str, list[str]] = {}
    for suit in deck_by_suit(profile):
        cells = []
        for code in suit["cards"]:
            cell = card_view(code)
            status = "open"
            why = None
            if code in played:
                status = "played"
            elif to_play is None:
                status = "closed"
            elif hand_mask is not None:
                if not hand_mask & BIT[Card.parse(code)]:
                    status = "other"
                else:
                    v = state.why_illegal(code)
                    if v is not None:
                        status = "illegal"
                        why = {"rule": v.rule, "name": rule_name(v.rule),
                               "demand": rule_demand(v.rule)}
                        forbidden.setdefault(v.rule, []).append(code)
                    else:
                        status = "legal"
            cell.update(status=status, why=why)
            cells.append(cell)
        grid.append({**suit, "cards": cells})
    current_no = summary["trick_no"] if not summary["over"] else None
    counts = {"tricks": [winners.count(s) for s in range(4)]}
    last_play = None
    if state.plays:
        k = len(state.plays) - 1
        t, pos = divmod(k, 4)
        s = (leaders[t] + pos) & 3
        last_play = {"seat": s, "card": card_view(str(Card(state.plays[-1]))),
                     "violation": next((v for v in violations
                                        if v["trick"] == t + 1 and v["seat"] == s), None)}
    early = None
    if summary["ended_early"]:
        early = early_end_text(contract, len(winners))
    return {
        "state": state, "summary": summary, "contract": contract,
        "tricks": trick_rows(w_tricks, leaders, winners, flagged),
        "current": w_tricks[-1] if w_tricks and len(w_tricks[-1]) < 4 else [],
        "current_no": current_no,
        "current_leader": (leaders[-1] if w_tricks and len(w_tricks[-1]) < 4
                           else (winners[-1] if winners else setup.leader)),
        "to_play": to_play, "over": summary["over"], "early_end": early,
        "points": summary["points"], "counts": counts,
        "captured": [[card_view(c) for c in cards] for cards in summary["captured"]],
        "grid": grid, "forbidden": [{"rule": r, "name": rule_name(r), "demand": rule_demand(r),
                                     "cards": [card_view(c) for c in cs]}
                                    for r, cs in forbidden.items()],
        "violations": violations, "last_play": last_play,
        "plays": [str(Card(c)) for c in state.plays], "n_valid": n_ok, "problem": problem,
        "deal": deal, "n_tricks": profile.n_tricks,
    }


def hand_dict(setup: Setup, plays: list[str], deal: list[list[str]] | None,
              ruling: dict[str, Any] | None = None) -> dict[str, Any]:
    """The hand as the record holds it (RECORD.md): ``tricks`` and, if known, ``deal``."""
    hand: dict[str, Any] = {"contract": setup.contract}
    if setup.trump:
        hand["trump"] = setup.trump
    if setup.record_leader is not None:
        hand["leader"] = setup.record_leader
    if setup.auction is not None:
        hand["auction"] = list(setup.auction)
    hand["tricks"] = [plays[k:k + 4] for k in range(0, len(plays), 4)]
    if deal is not None:
        hand["deal"] = [list(cards) for cards in deal]
    if ruling:
        hand["ruling"] = dict(ruling)
    return hand


def score_hand(record: dict[str, Any], index: int, hand: dict[str, Any]) -> Any:
    """The engine's HandResult of `hand` placed at `index` (the hands before it kept)."""
    data = copy.deepcopy(record)
    data["hands"] = list(data.get("hands", []))[:index] + [hand]
    return load(data).hands[index]


def save_tricks(session: Session, game: Any, index: int, hand: dict[str, Any], *,
                expected_version: int | None, who: str) -> Any:
    """Records the hand (a new one, or the correction of row index+1)."""
    if index < len(game.hands):
        return hands_service.replace_hand(session, game, index, hand,
                                          expected_version=expected_version, who=who)
    return hands_service.record_hand(session, game, hand, expected_version=expected_version,
                                     who=who)


# --- rulings ------------------------------------------------------------------------------

def build_ruling(kind: str, *, seat: int | None, points: list[int | None] | None,
                 reason: str | None, who: str, at: str) -> dict[str, Any] | None:
    """The record's ``ruling`` (RECORD.md) from the form's values; None for as-played."""
    if kind not in RULING_KINDS:
        raise RecordError.of("ruling.kind", "ruling", "%(kind)s is not a ruling", kind=repr(kind))
    ruling: dict[str, Any] = {"kind": kind}
    if kind == "charge-offender" and seat is not None:
        ruling["seat"] = seat
    if kind == "adjusted":
        if points is None or any(p is None for p in points):
            raise RecordError.of("ruling.points", "missing-key",
                                 "missing: the four adjusted points")
        ruling["points"] = list(points)
    reason = (reason or "").strip()
    if reason:
        ruling["reason"] = reason
    ruling["by"] = who
    ruling["at"] = at
    return ruling


def apply_ruling(session: Session, game: Any, index: int, ruling: dict[str, Any] | None, *,
                 expected_version: int | None, who: str) -> Any:
    """Records (or, with an as-played ruling, removes) the ruling on hand row index+1.

    An as-played ruling is kept when it carries a reason or a name, so "who said the hand
    stands, and why" is on the record too. The change is a hand correction: replayed
    first, audited, refused on a stale version.
    """
    hand = copy.deepcopy(game.hands[index])
    if ruling is None:
        hand.pop("ruling", None)
    else:
        hand["ruling"] = ruling
    return hands_service.replace_hand(session, game, index, hand,
                                      expected_version=expected_version, who=who)


# --- the hand record page -----------------------------------------------------------------

def hand_record_view(result: Any, index: int, players: list[str], lang: str) -> dict[str, Any]:
    """What the hand record page shows, from the replayed game."""
    h = result.hands[index]
    violations = [violation_row(v, players) for v in h.violations]
    flagged = {(v["trick"], v["seat"]) for v in violations}
    ruling = h.ruling
    deal = None
    if h.deal is not None:
        deal = []
        for cards in h.deal:
            by_suit = []
            for letter in SUITS:
                codes = sorted((c for c in cards if c[-1] == letter),
                               key=lambda c: -Card.parse(c))
                by_suit.append({"symbol": SUIT_SYMBOLS[letter],
                                "color": "red" if letter in RED_SUITS else "black",
                                "cards": [card_view(c) for c in codes]})
            deal.append(by_suit)
    early = early_end_text(h.contract, h.tricks_played) if h.ended_early else None
    return {
        "index": index, "row": index + 1, "number": h.number, "contract": h.contract,
        "contract_name": h.contract.name(lang), "trump": h.trump, "mode": h.mode,
        "dealer": h.dealer, "owner": h.owner, "chooser": h.chooser, "declarer": h.declarer,
        "leader": h.leader, "bid": h.bid, "auction": list(h.auction),
        "played_points": list(h.played_points), "points": list(h.points),
        "payments": list(h.payments), "has_payment": any(h.payments),
        "total": h.total, "expected_total": h.expected_total, "counted": h.counted,
        "running_totals": list(h.running_totals),
        "tricks": trick_rows(h.tricks, h.trick_leaders, h.trick_winners, flagged),
        "tricks_won": [h.trick_winners.count(s) for s in range(4)],
        "ended_early": h.ended_early, "early_end": early, "deal": deal,
        "captured": [[card_view(c) for c in cards] for cards in h.captured]
        if h.captured is not None else None,
        "counts": dict(h.counts), "violations": violations,
        "ruling": {"kind": ruling.kind, "label": str(RULING_LABELS.get(ruling.kind, ruling.kind)),
                   "seat": ruling.seat, "points": ruling.points, "reason": ruling.reason,
                   "by": ruling.by, "at": ruling.at},
        "made_king": h.made_king, "negative": h.contract.negative,
        "totals": list(result.totals),
    }


__all__ = ["RULE_BROKEN", "RULE_DEMANDS", "RULE_NAMES", "Setup", "apply_ruling",
           "build_ruling", "card_view", "deal_from_assignment", "early_end_text",
           "hand_dict", "hand_record_view", "live_violations",
           "save_tricks", "score_hand", "tricks_view", "violation_row"]

