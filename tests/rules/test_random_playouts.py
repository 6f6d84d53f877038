"""Seeded random playouts: random deals, plays that are sometimes illegal; the engine's
violations (with and without the deal), trick winners, early end and points must match
the test-side reference model (helpers.legal), which is written from RULES.md alone."""
import random

import pytest

from app.rules import score_record

from .helpers import (FIESTA_NEG, RU32_ORDER, Ctx, autoplay, deck, legal, position, record_for,
                      scoring, suit)

SETUPS = (
    [("ru32", c, None, {}) for c in RU32_ORDER]
    + [("ru32", c, None, {"keep_kh": "on"}) for c in ("no-king", "eralash", "plus-king")]
    + [(p, c, None, {}) for p in ("fiestas", "subastas") for c in FIESTA_NEG + ["nulos"]]
    + [(p, "trump", t, {}) for p in ("fiestas", "subastas") for t in "SH"]
    + [("rifki", c, None, o) for c in ("el-almaz", "kupa-almaz", "erkek-almaz", "kiz-almaz",
                                        "rifki", "son-iki")
       for o in ({}, {"must_overtake": "all"}, {"hearts_lead_ban": "all-penalties"},
                 {"rifki_void": "heart"})]
    + [("rifki", "koz", t, o) for t in "HC"
       for o in ({}, {"must_overtake": "koz"}, {"trump_lead_ban": "on"},
                 {"must_overtake": "all", "trump_lead_ban": "on"})]
)


def rule_of(ctx, holding, trick, t, before, card):
    cands, rule = legal(ctx, holding, trick, t, before)
    if card in cands:
        return None
    if trick and suit(card) != suit(trick[0]) and any(suit(c) == suit(trick[0]) for c in holding):
        return "follow-suit"
    return rule


def playout(ctx, leader, rng, p_bad):
    """A random deal played at random, a share ``p_bad`` of the plays ignoring the rules."""
    cards = deck(ctx.size)
    rng.shuffle(cards)
    n = ctx.size // 4
    deal = [sorted(cards[i * n:(i + 1) * n]) for i in range(4)]
    played = autoplay(ctx, deal, leader, pick=lambda hand, cands: rng.choice(
        sorted(hand if rng.random() < p_bad else cands)))
    return deal, played.tricks, played.leaders, played.winners


def expected_violations(ctx, deal, tricks, leaders, with_deal):
    out = []
    before = []
    for k, trick in enumerate(tricks):
        for pos, card in enumerate(trick):
            seat = (leaders[k] + pos) % 4
            if with_deal:
                gone = {c for j in range(k) for q, c in enumerate(tricks[j])
                        if (leaders[j] + q) % 4 == seat}
                holding = [c for c in deal[seat] if c not in gone]
            else:
                holding = [c for j in range(k, len(tricks)) for q, c in enumerate(tricks[j])
                           if (leaders[j] + q) % 4 == seat]
            rule = rule_of(ctx, holding, trick[:pos], k + 1, before, card)
            if rule:
                out.append((k + 1, seat, card, rule))
        before.extend(trick)
    return out


def expected_points(profile, contract, tricks, winners, size):
    el = scoring(profile, contract)
    n = size // 4
    pts = [0, 0, 0, 0]
    for k, (trick, w) in enumerate(zip(tricks, winners)):
        if contract == "nulos":
            pts[w] -= 75
            continue
        for e, v in el.items():
            pts[w] += v * {"tricks": 1, "last_two": int(k + 1 > n - 2),
                           "hearts": sum(suit(c) == "H" for c in trick),
                           "kings": sum(c[0] == "K" for c in trick),
                           "queens": sum(c[0] == "Q" for c in trick),
                           "jacks": sum(c[0] == "J" for c in trick),
                           "kh": int("KH" in trick)}[e]
    if contract == "nulos":
        pts = [p + 325 for p in pts]
    return pts


@pytest.mark.parametrize("setup", SETUPS, ids=[f"{p}-{c}-{t or ''}-{o}" for p, c, t, o in SETUPS])
def test_random_playouts_match_reference(setup):
    profile, contract, trump, options = setup
    ctx = Ctx(profile, contract, trump, options)
    _, leader = position(profile, contract)
    rng = random.Random(f"{profile}/{contract}/{trump}/{sorted(options.items())}")
    for game in range(12):
        deal, tricks, leaders, winners = playout(ctx, leader, rng, p_bad=(0, 0.2, 0.5)[game % 3])
        for with_deal in (True, False):
            record = record_for(profile, contract, trump, options or None, tricks,
                                deal if with_deal else None)
            hand = score_record(record)["hands"][-1]
            assert hand["trick_winners"] == winners
            assert hand["tricks_played"] == len(tricks)
            assert hand["ended_early"] is (len(tricks) < ctx.size // 4)
            assert hand["points"] == expected_points(profile, contract, tricks, winners, ctx.size)
            got = [(v["trick"], v["seat"], v["card"], v["rule"]) for v in hand["violations"]]
            want = expected_violations(ctx, deal, tricks, leaders, with_deal)
            assert got == want, f"game {game}, deal={with_deal}: tricks={tricks} deal={deal}"
