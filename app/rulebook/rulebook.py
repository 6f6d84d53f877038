"""The rule book of one profile as data, read from the engine (app.rules): contracts and
their values, the schedule, the auction ladder, the table options and which referee rule
applies where. The pages (/rules/<profile>) and docs/rules.md only word it; nothing here is
copied from RULES.md by hand."""
from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any

from app.rules import PROFILES, Contract, Options, Profile
from app.rules.cards import KH_BIT, Card
from app.rules.profiles import (
    COUNT_ELEMENTS,
    ELEMENTS,
    RIFKI_KOZ_LIMIT,
    RIFKI_LIMIT_PER_PENALTY,
    RIFKI_PENALTIES,
    RIFKI_QUOTA,
)
from app.rules.referee.play import RULE_IDS, TRUMP_FIESTA, TRUMP_KOZ, PlayRules, play_rules
from app.rules.referee.sale import bid_points, sale_terms
from app.rules.scoring import card_counts, hand_points

#: RULES.md 1.1's worked example (seed 000, "Una carta cuenta de varias maneras"): the
#: last trick of a hand in which the K♥ counts under several elements holds these cards.
COUNT_EXAMPLE = ("KH", "QH", "JS", "7C")
#: RULES.md 1.3's worked example of the settlement: a sale at this bid, the owner takes
#: this many tricks.
SETTLEMENT_EXAMPLE = ("-2", 1)


def rules_in_force(r: PlayRules) -> tuple[str, ...]:
    """The referee rule ids a hand played under ``r`` can break, in RULE_IDS order."""
    found = {"follow-suit"}
    flags = {"hearts-lead": r.hearts_lead, "kh-lead": r.kh_lead, "trump-lead": r.trump_lead,
             "kh-discard": bool(r.kh_discard_from), "kh-first-trick": r.kh_first_trick,
             "hearts-first-trick": r.hearts_first_trick,
             "must-trump": r.trump_mode in (TRUMP_FIESTA, TRUMP_KOZ),
             "must-overtrump": r.trump_mode == TRUMP_FIESTA,
             "must-head-trump": r.trump_mode == TRUMP_FIESTA,
             "penalty-discard": bool(r.penalty_mask), "penalty-drop": r.penalty_drop,
             "must-overtake": r.must_overtake}
    found.update(rule for rule, on in flags.items() if on)
    return tuple(rule for rule in RULE_IDS if rule in found)


def _option_sets(profile: Profile) -> list[Options]:
    specs = profile.options
    return [Options(**dict(zip((s.name for s in specs), combo, strict=True)))
            for combo in itertools.product(*(s.values for s in specs))]


def _played(profile: Profile) -> list[Contract]:
    return [c for c in profile.contracts.values() if c.played]


def _hands_of(profile: Profile) -> dict[str, list[int]]:
    """The hand numbers the schedule fixes each contract to."""
    hands: dict[str, list[int]] = {}
    for n, cid in enumerate(profile.schedule, 1):
        if cid is not None:
            hands.setdefault(cid, []).append(n)
    return hands


def _referee_values(r: PlayRules | None) -> dict[str, Any]:
    """What the referee checks in a contract played under ``r`` (nothing when not played)."""
    if r is None:
        return {"rules": (), "kh_discard_from": 0, "hearts_breakable": False}
    return {"rules": rules_in_force(r), "kh_discard_from": r.kh_discard_from,
            "hearts_breakable": bool(r.hearts_lead and r.hearts_breakable)}


def _contract_row(profile: Profile, defaults: Options, c: Contract,
                  hands: dict[str, list[int]]) -> dict[str, Any]:
    r = play_rules(profile, defaults, c) if c.played else None
    return {
        "id": c.id, "contract": c, "hands": hands.get(c.id, []),
        "values": [(e, c.values[e]) for e in ELEMENTS if c.values.get(e)],
        "per_seat": {e: c.values[e] for e in COUNT_ELEMENTS if c.values.get(e)},
        "base": c.base, "total": c.total, "ends_early": c.ends_early,
        "trump_game": c.trump_game, "fiesta": c.fiesta, "played": c.played,
        # the kings count and the jacks do not (ru32's boys: "La jota no tiene penalización")
        "kings_only": bool(c.values.get("kings")) and not c.values.get("jacks"),
        **_referee_values(r),
    }


def _contract_rows(profile: Profile, defaults: Options) -> list[dict[str, Any]]:
    hands = _hands_of(profile)
    return [_contract_row(profile, defaults, c, hands) for c in profile.contracts.values()]


def _by_option(profile: Profile, defaults: Options,
               by_default: set[str]) -> dict[str, list[tuple[str, str]]]:
    """The rules that only a table option brings in, and the option values that do."""
    by_option: dict[str, list[tuple[str, str]]] = {}
    for spec in profile.options:
        for value in spec.values[1:]:
            opts = replace(defaults, **{spec.name: value})
            for c in _played(profile):
                for rule in rules_in_force(play_rules(profile, opts, c)):
                    if rule not in by_default and (spec.name, value) not in by_option.get(rule, []):
                        by_option.setdefault(rule, []).append((spec.name, value))
    return by_option


def _rule_rows(profile: Profile, defaults: Options,
               contracts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each rule some table of the profile can break: the contracts it applies to by
    default and the option values that bring it in."""
    by_default = {rule for row in contracts for rule in row["rules"]}
    by_option = _by_option(profile, defaults, by_default)
    every = {rule for opts in _option_sets(profile) for c in _played(profile)
             for rule in rules_in_force(play_rules(profile, opts, c))}
    return [{"id": rule, "contracts": [row["contract"] for row in contracts if rule in row["rules"]],
             "options": by_option.get(rule, [])} for rule in RULE_IDS if rule in every]


def _count_case(c: Contract, trick: int) -> dict[str, Any]:
    """What the winner of ``trick`` (a card mask), the last trick of a ``c`` hand, scores
    for it: the engine's own scoring of one seat that took that trick and no other."""
    counts = card_counts(c, [trick, 0, 0, 0])
    counts.update({e: [1, 0, 0, 0] for e in ("tricks", "last_two") if c.values.get(e)})
    items = [(e, counts[e][0], c.values[e] * counts[e][0]) for e in ELEMENTS
             if c.values.get(e) and counts.get(e, [0])[0]]
    return {"contract": c, "items": items, "total": hand_points(c, counts)[0],
            "jacks_score": bool(c.values.get("jacks"))}


def _count_example(profile: Profile) -> dict[str, Any]:
    """"One card counts in several ways": the example trick scored in each contract of the
    profile in which the K♥ counts under more than one element (ru32's two Eralash)."""
    cards = [Card.parse(text) for text in COUNT_EXAMPLE]
    trick = sum(card.bit for card in cards)
    several = [c for c in _played(profile)
               if sum(1 for _e, mask in c.card_elements if mask & KH_BIT) > 1]
    if not several:
        return {}
    return {"count_example": {"cards": [str(card) for card in cards],
                              "cases": [_count_case(c, trick) for c in several]}}


def _settlement(profile: Profile) -> dict[str, Any]:
    """The settlement of a sale (RULES.md 1.3) where a table option sets it (subastas): each
    value of the option, with the worked example priced by the engine (sale_terms, the
    nulos contract)."""
    spec = next((s for s in profile.options if s.name == "settlement"), None)
    if spec is None:
        return {}
    bid, owner_tricks = SETTLEMENT_EXAMPLE
    nulos = profile.contracts["nulos"]
    owner_score = hand_points(nulos, {"tricks": [owner_tricks, 0, 0, 0]})[0]
    cases = {}
    for value in spec.values:
        terms = sale_terms(profile, replace(Options(), settlement=value), bid)
        payment = terms.payment(owner_tricks)
        cases[value] = {"per_trick": terms.per_trick, "payment": payment,
                        "owner": owner_score + payment}
    return {"settlement": {"default": spec.values[0], "bid": bid, "owner_tricks": owner_tricks,
                           "nulos_base": nulos.base, "nulos_trick": nulos.values["tricks"],
                           "owner_score": owner_score, "cases": cases}}


def _trump_play(contracts: list[dict[str, Any]]) -> dict[str, Any]:
    """The profile's trump contract (a fiesta's trump, rifki's koz) and the referee rules
    of that hand: what a player void in the suit led must or may play there."""
    row = next((row for row in contracts if row["trump_game"] and row["played"]), None)
    return {"trump_play": {"contract": row["contract"], "rules": row["rules"]}} if row else {}


def _rifki_values(profile: Profile) -> dict[str, Any]:
    """The choice limits and quotas of a profile whose first chooser picks (rifki)."""
    if profile.seat_key != "first_chooser":
        return {}
    penalties = sum(-c.total * RIFKI_LIMIT_PER_PENALTY for c in profile.contracts.values()
                    if c.id in RIFKI_PENALTIES)
    return {"limit_per_penalty": RIFKI_LIMIT_PER_PENALTY, "koz_limit": RIFKI_KOZ_LIMIT,
            "quota": dict(RIFKI_QUOTA), "penalties_total": -penalties,
            "koz_total": RIFKI_KOZ_LIMIT * profile.contracts["koz"].total,
            "choices_per_seat": profile.n_hands // 4}


def rulebook(profile_id: str) -> dict[str, Any]:
    """Everything the rules page of ``profile_id`` shows (KeyError for an unknown id)."""
    profile = PROFILES[profile_id]
    defaults = Options()
    contracts = _contract_rows(profile, defaults)
    fixed = [c for c in profile.schedule if c is not None]
    return {
        "profile": profile, "contracts": contracts, "rules": _rule_rows(profile, defaults, contracts),
        "fixed": fixed,
        "n_fixed": len(fixed),
        "ladder": [(bid, bid_points(bid)) for bid in profile.ladder],
        "options": profile.options,
        "negative_total": sum(profile.contracts[c].total for c in fixed if profile.contracts[c].negative),
        **_rifki_values(profile), **_count_example(profile), **_settlement(profile),
        **_trump_play(contracts),
    }


__all__ = ["rulebook", "rules_in_force"]
