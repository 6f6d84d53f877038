"""The fields of one hand's entry (RECORD.md): which entry mode a hand uses, its tricks and
counts read and checked field by field, and the errors that name the field."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.rules.cards import BIT, CARD_BY_TEXT
from app.rules.errors import InputError, RuleError, SumError, Term, contract_term
from app.rules.errors import element as element_term
from app.rules.game.record import (
    CARD_CODES,
    need_list,
    parse_cards,
)
from app.rules.profiles import Contract, Profile, full_counts

#: Whoever is dealt this card chooses (and leads) rifki's hand 1: the record's
#: ``first_chooser`` (RULES.md 1.4).
FIRST_CHOICE_CARD = CARD_BY_TEXT["2D"]


def chooser_deal_problem(profile: Profile, number: int, chooser: int | None,
                         deal: Sequence[int], players: Sequence[str],
                         fld: str) -> RuleError | None:
    """Why a deal (each seat's cards, bit sets) cannot be the deal of hand ``number``
    chosen by ``chooser`` (the schedule's :class:`~app.rules.schedule.Slot`), or None.

    Rifki's hand 1 is chosen by whoever holds the 2♦ (RULES.md 1.4), the record's
    ``first_chooser``; every deal of hand 1 -- a replayed hand 1's replacement too, whose
    chooser is ``first_chooser`` again (§4 Rotation, replays counted once) -- gives the 2♦
    to that seat (docs/decisions.md). Other hands and profiles have no such rule.
    """
    if not profile.chosen or number != 1 or chooser is None:
        return None
    bit = BIT[FIRST_CHOICE_CARD]
    holder = next((s for s, cards in enumerate(deal) if cards & bit), None)
    if holder is None or holder == chooser:
        return None
    return RuleError.of(fld, "first-chooser", "the 2♦ is dealt to seat %(seat)s (%(name)s), "
                        "but hand 1 is chosen (and led) by seat %(seat2)s (%(name2)s), the "
                        "record's first_chooser: the chooser of hand 1 holds the 2♦",
                        seat=holder, name=players[holder], seat2=chooser,
                        name2=players[chooser])


def least_cards(counts: dict[str, list[int]], faces: Sequence[str], s: int) -> int:
    """The fewest scoring cards seat ``s``'s counts allow (the K♥, Q♥, J♥ count twice)."""
    hearts = counts["hearts"][s] if "hearts" in counts else 0
    face = sum(counts[e][s] for e in faces)
    cards = hearts + face - min(hearts, face, len(faces))
    if "kh" in counts and counts["kh"][s]:
        cards = max(cards, 1)
    return cards


def heart_faces(counts: dict[str, list[int]], kh: list[int] | None, faces: Sequence[str],
                 s: int) -> tuple[list[str], list[str]]:
    """The heart faces seat ``s``'s counts say it took, and those they leave possible."""
    must: list[str] = []
    may: list[str] = []
    for e in faces:
        # the K♥ is where the kh count puts it; else all four of a face hold its heart,
        # none hold none
        n = (4 if kh[s] else 0) if e == "kings" and kh is not None else counts[e][s]
        if n == 4:
            must.append(HEART_FACES[e])
        if n:
            may.append(HEART_FACES[e])
    return must, may


def entry_mode(hand: dict[str, Any], contract: Contract, fld: str) -> str:
    """How the hand is entered: counts, captures, tricks (or none: a 433)."""
    modes = [m for m in ("counts", "captures", "tricks") if m in hand]
    if not contract.played:
        nothing_entered(hand, modes, fld)
    elif len(modes) != 1:
        if not modes:
            raise InputError.of(fld, "missing-key",
                                "enter the hand as one of counts, captures or tricks")
        raise InputError.of(f"{fld}.{modes[1]}", "unexpected-key",
                            "enter the hand one way only (%(mode)s is already given)",
                            mode=modes[0])
    if "deal" in hand and modes != ["tricks"]:
        raise InputError.of(f"{fld}.deal", "unexpected-key",
                            "a deal goes with a hand entered as tricks")
    return modes[0] if modes else "none"


def nothing_entered(hand: dict[str, Any], modes: Sequence[str], fld: str) -> None:
    """A 433 has no entry and no deal."""
    if modes:
        raise InputError.of(f"{fld}.{modes[0]}", "unexpected-key",
                            "a 433 is not played: it has no counts, captures or tricks")
    if "deal" in hand:
        raise InputError.of(f"{fld}.deal", "unexpected-key",
                            "a 433 is not played: it has no deal")


def parse_tricks(raw: list[Any], fld: str, deck: int, size: int) -> list[list[int]]:
    """The tricks as card numbers: one pass when every card reads, the slow path names it."""
    codes = CARD_CODES
    try:
        if set(map(type, raw)) <= {list}:
            tricks = [[codes[card0], codes[card1], codes[card2], codes[card3]]
                      for card0, card1, card2, card3 in raw]
            if size == 52:
                return tricks
    except (KeyError, TypeError, ValueError):
        pass
    out = []
    for index, trick in enumerate(raw):
        trick_fld = f"{fld}[{index}]"
        items = need_list(trick, trick_fld, "trick")
        if len(items) != 4:
            raise InputError.of(trick_fld, "length", "a trick has four cards, not %(n)s", n=len(items))
        out.append(parse_cards(items, trick_fld, deck, size))
    return out


#: The heart among the four cards of each face element.
HEART_FACES = {"kings": "K♥", "queens": "Q♥", "jacks": "J♥"}


def missing_element(fld: str, contract: Contract, element: str) -> InputError:
    """The error for an element the contract scores that the entry leaves out."""
    return InputError.of(fld, "missing-key", "missing: %(contract)s scores %(element)s",
                         contract=contract_word(contract), element=element_term(element))


def full_counts_of(profile: Profile) -> Mapping[str, int]:
    return full_counts(profile.deck_size)


def sum_error(fld: str, element: str, total: int, profile: Profile) -> SumError:
    """``hearts add up to 12; a 52-card hand has 13`` (``there are 4`` for faces)."""
    full = full_counts_of(profile)[element]
    if element in ("tricks", "hearts"):
        return SumError.of(fld, "sum", "%(element)s add up to %(total)s; a %(deck)s-card hand "
                           "has %(full)s", element=element_term(element), total=total,
                           deck=profile.deck_size, full=full)
    return SumError.of(fld, "sum", "%(element)s add up to %(total)s; there are %(full)s",
                       element=element_term(element), total=total, full=full)


def last_two_length(fld: str, n_tricks: int, n: int) -> InputError:
    return InputError.of(fld, "length", "names two seats (trick %(before)s then %(last)s), not %(n)s",
                         before=n_tricks - 1, last=n_tricks, n=n)


def contract_word(contract: Contract) -> Term:
    return contract_term(contract.id, contract.name_en)


def counts_of(entered: dict[str, Any], contract: Contract) -> dict[str, list[int]]:
    """Entered counts as per-seat lists (kh and last_two name seats in the record)."""
    out: dict[str, list[int]] = {}
    for element, v in entered.items():
        if element == "kh":
            out[element] = [1 if s == v else 0 for s in range(4)]
        elif element == "last_two":
            out[element] = [v.count(s) for s in range(4)]
        else:
            out[element] = list(v)
    return out
