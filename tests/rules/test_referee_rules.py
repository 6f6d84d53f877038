"""The referee (RULES.md §3, §4): every rule id, in every profile/contract where it
applies and under every option that changes it; a legal and an illegal play, each with
the deal (exact, evidence CARD@TRICK or CARD@deal) and without it (only what later plays
prove, evidence CARD@TRICK). Hands are built by the test-side reference model
(helpers.autoplay) and go through score_record as records with ``tricks``."""
import pytest

from app.rules import score_record

from .helpers import FIESTA_NEG, RU32_ORDER, Ctx, autoplay, filler, legal, make_deal, rec, suit
from .referee_cases import CASES, Case

RULE_IDS = ["follow-suit", "hearts-lead", "hearts-first-trick", "kh-lead", "kh-discard",
            "kh-first-trick", "must-trump", "must-overtrump", "must-head-trump",
            "penalty-discard", "penalty-drop", "must-overtake", "trump-lead"]


def position(case: Case):
    """(hand number, leader seat) of the case's contract in its profile."""
    if case.profile == "ru32":
        n = RU32_ORDER.index(case.contract) + 1
        return n, n % 4                      # first_dealer 0: dealer n-1, leader n
    if case.profile in ("fiestas", "subastas"):
        if case.contract in FIESTA_NEG:
            n = FIESTA_NEG.index(case.contract) + 1
            return n, n % 4
        return 7, 3                          # hand 7: owner 2, everyone passes, seat 3 leads
    # rifki: seat 2 chooses and leads hand 2 (first_chooser 1 chose hand 1, a filler): a
    # case's deal may give the 2♦ to anyone, hand 1's gives it to first_chooser
    return 2, 2


def build(case: Case, play: str | None):
    n, leader = position(case)
    ctx = Ctx(case.profile, case.contract, case.trump, case.options)
    ab = lambda rel: (leader + rel) % 4  # noqa: E731
    deal = make_deal(ctx.size, {ab(r): c.split() for r, c in case.fixed.items()},
                     {ab(r): v for r, v in case.voids.items()})
    overrides = {(t, ab(r)): c for (t, r), c in case.plays.items()}
    if play is not None:
        overrides[(case.at[0], ab(case.at[1]))] = play
    played = autoplay(ctx, deal, leader, overrides)
    return n, leader, ctx, deal, played


def hand_record(case: Case, n: int, played, deal, with_deal: bool):
    hand: dict = {"contract": case.contract, "tricks": played.tricks}
    if case.trump:
        hand["trump"] = case.trump
    if with_deal:
        hand["deal"] = deal
    if case.profile == "ru32":
        hands = [filler("ru32", k) for k in range(1, n)]
        return rec("ru32", hands + [hand], first=0,
                   options=case.options or None)
    if case.profile in ("fiestas", "subastas"):
        hands = [filler(case.profile, k) for k in range(1, min(n, 7))]
        if n == 7:
            hand["auction"] = ["3:pass", "0:pass", "1:pass"]
        return rec(case.profile, hands + [hand], first=0)
    return rec("rifki", [filler("rifki", 1), hand], first=1, options=case.options or None)


def proof_cards(case: Case, ctx: Ctx, played, subject: int) -> list[str]:
    """The cards whose possession proves the violation (reference model)."""
    t, _ = case.at
    holding = played.holding_at(subject, t)
    trick_so_far = played.tricks[t - 1][:case.at[1] - rel_of_leader(played, t, case)]
    if case.rule == "follow-suit":
        return [c for c in holding if suit(c) == suit(trick_so_far[0])]
    before = [c for tr in played.tricks[:t - 1] for c in tr]
    cands, _ = legal(ctx, holding, trick_so_far, t, before)
    return cands


def rel_of_leader(played, t, case):
    n, leader = position(case)
    return (played.leaders[t - 1] - leader) % 4


def subject_of(case: Case) -> int:
    _, leader = position(case)
    return (leader + case.at[1]) % 4


def check_reference(case: Case, ctx: Ctx, played, card: str, expected_rule):
    """Self-check of the case: the reference model agrees the play is (il)legal, and
    every other play of the hand is legal."""
    t, _ = case.at
    subject = subject_of(case)
    for k, tr in enumerate(played.tricks):
        before = [c for x in played.tricks[:k] for c in x]
        for pos, c in enumerate(tr):
            s = played.seat_of(k, pos)
            if (k + 1, s) == (t, subject):
                continue
            cands, _ = legal(ctx, played.holding_at(s, k + 1), tr[:pos], k + 1, before)
            assert c in cands, f"case setup: {c} by seat {s} in trick {k + 1} is illegal"
    holding = played.holding_at(subject, t)
    pos = (subject - played.leaders[t - 1]) % 4
    assert played.tricks[t - 1][pos] == card, "the subject play is not where the case says"
    trick_so_far = played.tricks[t - 1][:pos]
    before = [c for tr in played.tricks[:t - 1] for c in tr]
    cands, rule = legal(ctx, holding, trick_so_far, t, before)
    if expected_rule is None:
        assert card in cands
    else:
        assert card not in cands
        if trick_so_far and suit(card) != suit(trick_so_far[0]) and \
                any(suit(c) == suit(trick_so_far[0]) for c in holding):
            rule = "follow-suit"
        assert rule == expected_rule


LEGAL = [c for c in CASES if c.good]
ILLEGAL = [c for c in CASES if c.bad]


@pytest.mark.parametrize("with_deal", [True, False], ids=["deal", "no-deal"])
@pytest.mark.parametrize("case", LEGAL, ids=[c.id for c in LEGAL])
def test_legal_play_is_not_reported(case, with_deal):
    n, leader, ctx, deal, played = build(case, case.good)
    check_reference(case, ctx, played, case.good, None)
    report = score_record(hand_record(case, n, played, deal, with_deal))
    hand = report["hands"][-1]
    assert hand["leader"] == leader
    assert hand["trick_winners"] == played.winners
    assert hand["tricks_played"] == len(played.tricks)
    assert hand["violations"] == []


@pytest.mark.parametrize("with_deal", [True, False], ids=["deal", "no-deal"])
@pytest.mark.parametrize("case", ILLEGAL, ids=[c.id for c in ILLEGAL])
def test_illegal_play_is_reported_with_evidence(case, with_deal):
    n, leader, ctx, deal, played = build(case, case.bad)
    check_reference(case, ctx, played, case.bad, case.rule)
    subject = subject_of(case)
    t = case.at[0]
    proofs = proof_cards(case, ctx, played, subject)
    allowed = set()
    for c in proofs:
        at = played.played_at(subject, c)
        if at is not None and at > t:
            allowed.add(f"{c}@{at}")
        elif with_deal:
            allowed.add(f"{c}@deal")
    if case.rule == "kh-first-trick" and not with_deal:
        # the K♥ ends the hand: its own play proves it (RULES.md §4)
        allowed.add(f"KH@{t}")
    report = score_record(hand_record(case, n, played, deal, with_deal))
    hand = report["hands"][-1]
    assert hand["trick_winners"] == played.winners
    viol = hand["violations"]
    if not with_deal:
        proven = bool(allowed)
        assert proven == case.nodeal, "case table: nodeal flag does not match the play"
        if not proven:  # "the referee never guesses"
            assert viol == [], viol
            return
    assert len(viol) == 1, viol
    v = viol[0]
    assert (v["trick"], v["seat"], v["card"], v["rule"]) == (t, subject, case.bad, case.rule)
    assert isinstance(v["message"], str) and v["message"]
    assert v["evidence"], "a violation carries its evidence"
    assert set(v["evidence"]) <= allowed, (v["evidence"], sorted(allowed))
    if not with_deal:
        assert all(not e.endswith("@deal") for e in v["evidence"])


def test_every_rule_id_has_legal_and_illegal_cases():
    covered = {c.rule for c in ILLEGAL}
    assert covered == set(RULE_IDS)
    proven_without_deal = {c.rule for c in ILLEGAL if c.nodeal}
    # kh-lead (subastas) ends the no-kh hand on the spot: RULES.md §4 says it can only be
    # proven with the deal; a K♥ in trick 1 of fiestas no-kh is proven by itself
    assert proven_without_deal == set(RULE_IDS) - {"kh-lead"}


@pytest.mark.parametrize("profile,contract,trump", [
    ("ru32", "no-tricks", None), ("fiestas", "no-tricks", None), ("fiestas", "trump", "S"),
    ("subastas", "nulos", None), ("rifki", "koz", "D"), ("rifki", "rifki", None)])
def test_lowest_legal_playout_has_no_violations(profile, contract, trump):
    case = Case("playout", profile, contract, None, (1, 0), trump=trump)
    for seed_fixed in ({}, {0: "2H 3H"} if profile != "ru32" else {0: "7H 8H"}):
        case.fixed = seed_fixed
        n, leader, ctx, deal, played = build(case, None)
        for with_deal in (True, False):
            report = score_record(hand_record(case, n, played, deal, with_deal))
            assert report["hands"][-1]["violations"] == []
            assert report["hands"][-1]["trick_winners"] == played.winners


def test_ru32_no_breaking_hearts_led_again_later():
    """ru32: "There is no 'breaking' hearts: another player's heart discard lifts nothing"."""
    case = next(c for c in CASES if c.id == "hearts-lead-ru32-no-breaking")
    n, leader, ctx, deal, played = build(case, case.bad)
    assert any(suit(c) == "H" for c in played.tricks[0])  # a heart fell in trick 1
    hand = score_record(hand_record(case, n, played, deal, True))["hands"][-1]
    assert [v["rule"] for v in hand["violations"]] == ["hearts-lead"]


def test_violations_do_not_change_the_score():
    """RULES.md §3: "The referee reports; it does not rewrite the score."""
    case = next(c for c in CASES if c.id == "kh-discard-ru32-no-king")
    n, leader, ctx, deal, played = build(case, case.bad)
    hand = score_record(hand_record(case, n, played, deal, True))["hands"][-1]
    assert hand["violations"]
    kh_winner = next(w for tr, w in zip(played.tricks, played.winners) if "KH" in tr)
    expected = [0, 0, 0, 0]
    expected[kh_winner] = -16
    assert hand["points"] == expected
    assert hand["ruling"] == "as-played"
