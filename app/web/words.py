"""The app's words for people, each defined once (issue 11.4).

The engine names things by id (``follow-suit``, ``charge-offender``, ``3:+2``, ``TS``) and
keeps no words for people except a card's face (:attr:`app.rules.cards.Card.symbol`) and
a contract's name. Everything a page or a printed sheet says about them is here: suit
symbols and card faces, signed numbers, the auction's calls, dates and times in the club's
time zone, and (in :mod:`app.web.referee_words`) the referee's rule names, demands and
sentences and the ruling kinds. Templates get these as filters and globals
(:func:`init_words`); views and the PDF service use the same functions, so one word is
never spelled two ways.
"""
from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import Any

from babel.lists import format_list
from flask import Flask, current_app
from flask_babel import format_date, format_datetime, format_decimal, get_locale, pgettext
from flask_babel import lazy_gettext as _l
from markupsafe import Markup, escape

from app.i18n import page_translations
from app.rules import PROFILES, Contract, Profile
from app.rules.cards import SUIT_SYMBOLS as ENGINE_SUIT_SYMBOLS
from app.rules.cards import SUITS as SUIT_LETTERS
from app.rules.cards import Card
from app.rules.errors import InputError
from app.rules.game.record import RULING_KINDS
from app.rules.referee.auction import Call
from app.rules.referee.sale import NULL_BID_POINTS, OTHER_433_POINTS, OWNER_433_POINTS, TRICK_BID_POINTS

#: ``{"S": "♠", ...}`` from the engine's own order; hearts and diamonds print red.
SUIT_SYMBOLS: dict[str, str] = dict(zip(SUIT_LETTERS, ENGINE_SUIT_SYMBOLS, strict=True))
RED_SUITS = ("H", "D")
MINUS = "−"
#: Each language of the app named in itself (the language switch).
LANGUAGE_NAMES = {"es": "Español", "en": "English", "tr": "Türkçe", "ru": "Русский"}
#: Each table option of a profile and its values, as the new-game form and the PDFs name them.
OPTION_LABELS = {
    "keep_kh": (_l("King of hearts discard"), {"off": _l("forced (K♥ must be discarded when void)"),
                                               "on": _l("free (keep the K♥)")}),
    "choice_limit": (_l("Choice limits"), {"3+2": _l("3 penalties + 2 koz per player"),
                                           "free": _l("free (only twice per penalty, koz 8)")}),
    "must_overtake": (_l("Must overtake"), {"no": _l("no"), "koz": _l("in koz"), "all": _l("in every hand")}),
    "trump_lead_ban": (_l("Trump lead ban in koz"),
                       {"off": _l("off"), "on": _l("on: not until trumps are broken")}),
    "hearts_lead_ban": (_l("Hearts lead ban"), {"kupa-rifki": _l("Kupa Almaz and Rıfkı"),
                                                "all-penalties": _l("every penalty hand")}),
    "rifki_void": (_l("Void in Rıfkı"),
                   {"kh": _l("must discard the K♥"), "heart": _l("must play a heart, any heart")}),
    "settlement": (_l("Payment after a −N sale"),
                   {"tricks": _l("75 for each trick the owner took, up to the bid"),
                    "bid": _l("the whole bid, whatever the owner took")}),
}

#: The auction's numbers the pages quote (the engine's own constants).
SCORES = {"trick_bid": TRICK_BID_POINTS, "null_bid": NULL_BID_POINTS,
          "owner_433": OWNER_433_POINTS, "other_433": OTHER_433_POINTS}


def _(template: str, **params: object) -> str:
    """The message in the page's language (typed: the catalog always gives text)."""
    found = str(page_translations().ugettext(template))
    return found % params if params else found


def current_lang() -> str:
    return str(get_locale() or "es")


# --- contracts and profiles ----------------------------------------------------------------

#: Every contract by id (ids are unique across profiles; fiestas and subastas share theirs).
CONTRACTS: dict[str, Contract] = {cid: c for p in PROFILES.values() for cid, c in p.contracts.items()}


def contract_name(contract: Contract | str | None, profile: Profile | str | None = None) -> str:
    """A contract (or its id, in ``profile`` when given: ru32 and fiestas both have a
    ``no-tricks``) named in the page's language: the catalogs' entry of its English name
    (``msgctxt "contract"``); an unknown id as it is, "—" for none."""
    if isinstance(contract, str):
        if isinstance(profile, str):
            profile = PROFILES.get(profile)
        found = (profile.contracts if profile is not None else CONTRACTS).get(contract)
    else:
        found = contract
    if found is None:
        return "—" if contract is None else str(contract)
    return str(pgettext("contract", found.name_en))


def profile_name(profile: Profile | str) -> str:
    """A profile (or its id) named in the page's language (``msgctxt "profile"``)."""
    found = PROFILES.get(profile) if isinstance(profile, str) else profile
    return str(profile) if found is None else str(pgettext("profile", found.name_en))


def profile_description(profile: Profile) -> str:
    """A profile's one-line description in the page's language."""
    return str(pgettext("profile-description", profile.description_en))


# --- numbers and cards ---------------------------------------------------------------------

def signed(n: int | None) -> str:
    """``+150``, ``−100`` (the minus sign, not a hyphen), ``0``; empty for None."""
    if n is None:
        return ""
    return f"+{n}" if n > 0 else str(n).replace("-", MINUS)


def decimal(value: float | None) -> str:
    """A number with one decimal in the page's language, the minus sign as in
    :func:`signed`: ``−12,0`` in Spanish, ``-12.0`` never; "–" for None (no average)."""
    if value is None:
        return "–"
    return str(format_decimal(value, "0.0")).replace("-", MINUS)


def points(value: float | None) -> str:
    """An event's points: a whole number as it is, a shared one with up to two decimals
    (``1,75`` in Spanish), the minus sign as in :func:`signed`; "–" for None."""
    if value is None:
        return "–"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        # what the pattern makes of a whole number in every language (no grouping, no
        # decimals), without Babel: a results screen shows hundreds of them
        return str(int(value)).replace("-", MINUS)
    return str(format_decimal(value, "0.##")).replace("-", MINUS)


def payment_text(payments: Sequence[int]) -> str:
    """A hand's auction payment by seat numbers: "2 → 4: 100" (seat 2 pays seat 4 100), or
    each seat's signed payment when it is not one payer and one payee; "" for none."""
    payers = [s for s, v in enumerate(payments) if v < 0]
    payees = [s for s, v in enumerate(payments) if v > 0]
    if len(payers) == 1 and len(payees) == 1:
        return f"{payers[0] + 1} → {payees[0] + 1}: {payments[payees[0]]}"
    return ", ".join(f"{s + 1}: {signed(v)}" for s, v in enumerate(payments) if v)


def suit_color(letter: str) -> str:
    return "red" if letter in RED_SUITS else "black"


def card_view(code: str) -> dict[str, Any]:
    """``{"code": "TS", "rank": "10", "suit": "♠", "color": "black", "text": "10♠"}``."""
    text = Card.parse(code).symbol
    letter = code[-1]
    return {"code": code, "rank": text[:-1], "suit": text[-1], "letter": letter,
            "color": suit_color(letter), "text": text}


def card_face(code: str) -> str:
    """``"TS"`` -> ``"10♠"``: a card as players read it (the engine's ``Card.symbol``)."""
    return Card.parse(code).symbol


def suit_markup(letter: str | None) -> Markup:
    if not letter:
        return Markup("")
    symbol = SUIT_SYMBOLS.get(letter, escape(letter))
    return Markup(f'<span class="{suit_color(letter)}" title="{escape(letter)}">{symbol}</span>')


def in_suit_colour(letter: str, text: str) -> Markup:
    """``text`` (escaped) in the colour of suit ``letter``: how every card is printed."""
    return Markup('<span class="{}">{}</span>').format(suit_color(letter), text)


def red_suits(text: Any) -> Markup:
    """``text`` (escaped, unless it is Markup already) with each ♥ and ♦ printed red, as
    every card and suit is elsewhere: for sentences that name a card ("the K♥", "who holds
    the 2♦")."""
    html = str(escape(text))
    for letter in RED_SUITS:
        symbol = SUIT_SYMBOLS[letter]
        html = html.replace(symbol, in_suit_colour(letter, symbol))
    return Markup(html)


def card_markup(code: str) -> Markup:
    try:
        text = card_face(code)
    except Exception:  # noqa: BLE001 - a template never fails on a card it cannot read
        return Markup(escape(code))
    return in_suit_colour(code[-1:], text)


# --- the auction ---------------------------------------------------------------------------

CALL_LABELS = {
    "pass": _l("pass"), "withdraw": _l("withdraw"), "refuse": _l("refuse 8"),
    "accept": _l("accept: sold"), "too-little": _l("too little"),
    "eight-or-nulos": _l("8 or nulos"), "reject": _l("reject"),
}


def bid_words(what: str) -> str:
    """What a call says, given its part after the seat (``"+2"``, ``"-3"``, ``"accept"``):
    a bid with the minus sign, an answer in words. The record's bids (a hand's ``bid``, the
    ladder) are written this way."""
    label = CALL_LABELS.get(what)
    return str(label) if label is not None else what.replace("-", MINUS)


def call_what(call: str) -> str:
    """What a call says (``"3:+2"`` -> "+2", ``"owner:accept"`` -> "accept: sold"); the
    engine reads the call (:class:`app.rules.referee.auction.Call`)."""
    try:
        return bid_words(Call.parse(call).what)
    except InputError:
        return call                       # never met: calls shown come from replayed records


def call_text(call: str, players: Sequence[str], owner: int | None) -> str:
    """One call with its player's name: ``"owner:accept"`` -> "Quique: accept: sold"."""
    try:
        parsed = Call.parse(call)
    except InputError:
        return call
    seat = owner if parsed.who == "owner" else parsed.who
    name = players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else _("owner")
    return f"{name}: {bid_words(parsed.what)}"


# --- dates and times -----------------------------------------------------------------------

def as_utc(value: datetime | str | None) -> datetime | None:
    """A stored time as an aware UTC datetime (SQLite gives naive UTC; records ISO text)."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            return None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def iso_utc(value: datetime | str | None) -> str:
    """The ``datetime`` attribute of a ``<time>``: ISO 8601 with its offset."""
    found = as_utc(value)
    return found.isoformat() if found else ""


def local_datetime(value: datetime | str | None, fmt: str = "medium") -> str:
    """A moment in the page's language and the club's time zone (``CLUB_TIME_ZONE``)."""
    found = as_utc(value)
    if found is None:
        return "" if value is None else str(value)
    return str(format_datetime(found, fmt))


def local_time(value: datetime | str | None) -> str:
    found = as_utc(value)
    return str(format_datetime(found, "HH:mm")) if found else ""


def local_date(value: date | datetime | str | None, fmt: str = "medium") -> str:
    if value is None or value == "":
        return ""
    if isinstance(value, datetime | str):
        found = as_utc(value)
        return str(format_date(found, fmt)) if found else str(value)
    return str(format_date(value, fmt))


def name_list(names: list[str]) -> str:
    """Names as a sentence lists them in the page's language ("Ana, Beto y Carla")."""
    return str(format_list(list(names), locale=current_lang())) if names else ""


def final_order(totals: list[int] | None) -> list[int]:
    """The seats from the highest total down (seat order among equals)."""
    found = list(totals or [0, 0, 0, 0])
    return sorted(range(len(found)), key=lambda s: (-found[s], s))


def time_zone() -> str:
    return str(current_app.config.get("BABEL_DEFAULT_TIMEZONE") or "UTC")


def init_words(app: Flask) -> None:
    """Filters and globals of every template (pages and PDFs)."""
    app.jinja_env.filters.update(suit=suit_markup, card=card_markup, signed=signed,
                                 decimal=decimal, points=points, payment_text=payment_text,
                                 red_suits=red_suits,
                                 datetime=local_datetime, date=local_date, time=local_time,
                                 iso=iso_utc, face=card_face)
    app.jinja_env.globals.update(contract_name=contract_name, profile_name=profile_name,
                                 profile_description=profile_description,
                                 ruling_kinds=RULING_KINDS, SCORES=SCORES,
                                 LANGUAGE_NAMES=LANGUAGE_NAMES, time_zone=time_zone,
                                 call_text=call_text, call_what=call_what, bid_words=bid_words,
                                 name_list=name_list,
                                 final_order=final_order)

    @app.context_processor
    def inject() -> dict[str, Any]:
        return {"current_lang": current_lang(), "SUITS": SUIT_SYMBOLS}
