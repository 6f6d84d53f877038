"""What may come next (app.rules.game.choices): every offered setup is exactly what the record
check accepts, and every verify_… raises the error load raises (issue 20 items 1 and 3).

Positions are random legal games of every profile (app.rules.simulate), cut after a random
number of hands; the next hand is probed with each candidate setup and a valid entry.
"""
from __future__ import annotations

import random
from typing import Any

import pytest

from app.rules import RecordError, entry_problems, load
from app.rules.game.choices import NextChoices, append, contract_choices, preview, preview_problems
from app.rules.counting import COUNTS, counting
from app.rules.referee.play import play_rules
from app.rules.profiles import PROFILES
from app.rules.game.record import card_text
from app.rules.simulate import random_deal, random_game, random_play

OPTIONS = {"ru32": [{}, {"keep_kh": "on"}], "fiestas": [{}], "subastas": [{}],
           "rifki": [{}, {"choice_limit": "free"}]}
CASES = [(p, o, seed) for p, opts in OPTIONS.items() for o in opts for seed in range(5)]
WORDS = ["pass", "withdraw", "refuse", "accept", "too-little", "eight-or-nulos", "reject"] + [
    f"{s}{n}" for s in "+-" for n in range(1, 9)]
ALL_CALLS = [f"{who}:{w}" for who in ("0", "1", "2", "3", "owner") for w in WORDS]


def key(e: RecordError) -> tuple:
    return type(e), e.field, e.code, e.template, dict(e.params), e.message


def outcome(fn, *args) -> tuple | None:
    """The error key ``fn(*args)`` raises, or None."""
    try:
        fn(*args)
    except RecordError as e:
        return key(e)
    return None


def position(profile_id: str, options: dict, seed: int, at_end: bool = False
             ) -> tuple[dict, random.Random]:
    """A legal record cut after a random number of hands (``at_end``: the whole game)."""
    rng = random.Random(f"{profile_id}{options}{seed}")
    n = PROFILES[profile_id].n_hands
    k = n if at_end else rng.randrange(n)
    return random_game(profile_id, rng, options or None, with_deal=False, hands=k), rng


def next_hand_at(profile_id: str, options: dict, seed: int
                 ) -> tuple[dict, random.Random, Any, NextChoices, list[str] | None]:
    """A random position, its replay, the engine's answers after it and a random legal
    auction of the next hand (None when it is no fiesta)."""
    record, rng = position(profile_id, options, seed)
    result = load(record)
    choices = NextChoices(result)
    return record, rng, result, choices, auction_for(choices, rng)


def with_hand(record: dict, hand: dict) -> dict:
    return {**record, "hands": [*record["hands"], hand]}


def valid_hand(record: dict, cid: str, leader: int | None, calls: list[str] | None,
               rng: random.Random, *, explicit: bool, trump: object = None) -> dict:
    """The next hand with this setup and a valid entry (tricks played legally from a random
    deal by ``leader``); a setup the engine refuses is refused before the entry."""
    profile = PROFILES[record["profile"]]
    hand: dict = {"contract": cid}
    contract = profile.contracts.get(cid)
    if contract is not None and contract.trump_game:
        hand["trump"] = trump or rng.choice("SHDC")
    elif trump is not None:
        hand["trump"] = trump
    if calls is not None:
        hand["auction"] = list(calls)
    if explicit and leader is not None:
        hand["leader"] = leader
    if contract is not None and contract.played and leader is not None:
        opts = profile.parse_options(record.get("options"))
        trump_text = hand.get("trump")
        suit = "SHDC".find(trump_text) if trump_text in ("S", "H", "D", "C") else -1
        if contract.trump_game and suit < 0:
            return hand                  # refused at the trump, before the entry
        tricks = random_play(profile, play_rules(profile, opts, contract), contract, suit, leader,
                             random_deal(profile, rng), rng)
        hand["tricks"] = [[card_text(c) for c in t] for t in tricks]
    return hand


def auction_for(choices: NextChoices, rng: random.Random) -> list[str] | None:
    """A random finished auction of the next hand (None: none held, or no fiesta)."""
    if not choices.legal_calls() or rng.random() < 0.2:
        return None
    calls: list[str] = []
    while legal := choices.legal_calls(calls):
        passing = [c for c in legal if c.endswith(("pass", "withdraw", "refuse"))]
        calls.append(rng.choice(passing) if passing and rng.random() < 0.5 else rng.choice(legal))
    return calls


@pytest.mark.parametrize(("profile_id", "options", "seed"), CASES)
def test_offered_contracts_are_those_the_record_check_accepts(profile_id, options, seed):
    record, rng, result, choices, calls = next_hand_at(profile_id, options, seed)
    offered = choices.contracts(calls)
    assert offered, "a game not over always has a next contract"
    for cid in [*PROFILES[profile_id].contracts, "bogus"]:
        leaders = choices.leaders(cid, calls)
        hand = valid_hand(record, cid, leaders[0] if leaders else None, calls, rng, explicit=False)
        expected = outcome(load, with_hand(record, hand))
        assert (expected is None) == (cid in offered) == choices.can_contract(cid, calls), cid
        assert outcome(choices.verify_contract, cid, calls) == expected


@pytest.mark.parametrize(("profile_id", "options", "seed"), CASES)
def test_offered_leaders_are_those_the_record_check_accepts(profile_id, options, seed):
    record, rng = position(profile_id, options, seed)
    choices = NextChoices(load(record))
    calls = auction_for(choices, rng)
    for cid in choices.contracts(calls):
        leaders = choices.leaders(cid, calls)
        played = PROFILES[profile_id].contracts[cid].played
        assert bool(leaders) == played
        for seat in range(4):
            hand = valid_hand(record, cid, seat, calls, rng, explicit=True)
            expected = outcome(load, with_hand(record, hand))
            assert (expected is None) == (seat in leaders) == choices.can_lead(cid, seat, calls)
            assert outcome(choices.verify_leader, cid, seat, calls) == expected
            if expected is not None:
                assert expected[1] == f"hands[{len(record['hands'])}].leader"
        if leaders:   # the first leader is the default: the hand without a leader key
            hand = valid_hand(record, cid, leaders[0], calls, rng, explicit=False)
            assert outcome(load, with_hand(record, hand)) is None


@pytest.mark.parametrize(("profile_id", "options", "seed"), CASES)
def test_offered_trumps_are_those_the_record_check_accepts(profile_id, options, seed):
    record, rng = position(profile_id, options, seed)
    choices = NextChoices(load(record))
    calls = auction_for(choices, rng)
    for cid in choices.contracts(calls):
        leaders = choices.leaders(cid, calls)
        for trump in ["S", "H", "D", "C", "X", 3]:
            hand = valid_hand(record, cid, leaders[0] if leaders else None, calls, rng,
                              explicit=False, trump=trump)
            expected = outcome(load, with_hand(record, hand))
            assert (expected is None) == (trump in choices.trumps(cid)) \
                == choices.can_trump(cid, trump, calls)
            assert outcome(choices.verify_trump, cid, trump, calls) == expected


@pytest.mark.parametrize(("profile_id", "seed"), [(p, s) for p in PROFILES for s in range(4)])
def test_offered_calls_are_those_the_record_check_accepts(profile_id, seed):
    record, rng = position(profile_id, {}, seed)
    fiesta = PROFILES[profile_id].is_fiesta(len(record["hands"]) + 1)
    if PROFILES[profile_id].auction and not fiesta:     # jump to the fiestas
        record = random_game(profile_id, random.Random(seed), hands=6 + seed % 4)
    choices = NextChoices(load(record))
    i = len(record["hands"])
    calls = auction_for(choices, rng) or []
    for j in range(len(calls) + 1):
        so_far = calls[:j]
        legal = choices.legal_calls(so_far)
        for call in ALL_CALLS:
            hand = {"contract": "nulos", "auction": [*so_far, call]} if choices.legal_calls() \
                else {"auction": [*so_far, call]}
            expected = outcome(load, with_hand(record, hand))
            refused = expected is not None and expected[1].startswith(f"hands[{i}].auction[{j}]")
            if choices.legal_calls():
                assert (not refused) == (call in legal) == choices.can_call(so_far, call), call
                if refused:
                    assert outcome(choices.verify_call, so_far, call) == expected
            else:
                assert legal == () and not choices.can_call(so_far, call)
                assert outcome(choices.verify_call, so_far, call) == expected


@pytest.mark.parametrize("profile_id", list(PROFILES))
def test_a_game_over_offers_nothing_and_says_so_as_load_does(profile_id):
    record, rng = position(profile_id, {}, 0, at_end=True)
    choices = NextChoices(load(record))
    assert choices.contracts() == () and choices.legal_calls() == ()
    setups = choices.setups()
    assert setups.next is None and setups.contracts == ()
    cid = next(iter(PROFILES[profile_id].contracts))
    expected = outcome(load, with_hand(record, valid_hand(record, cid, 0, None, rng, explicit=False)))
    assert expected is not None and expected[2] == "game-over"
    assert outcome(choices.verify_contract, cid) == expected


@pytest.mark.parametrize(("profile_id", "options", "seed"), CASES)
def test_setups_gather_the_answers(profile_id, options, seed):
    record, rng, result, choices, calls = next_hand_at(profile_id, options, seed)
    setups = choices.setups(calls)
    assert setups.index == len(record["hands"]) and setups.next == result.next
    assert setups.contracts == choices.contracts(calls)
    assert dict(setups.leaders) == {c: choices.leaders(c, calls) for c in setups.contracts}
    assert all(setups.trumps[c] == choices.trumps(c) for c in setups.contracts)
    assert setups.choices == tuple(contract_choices(result.record))
    if PROFILES[profile_id].chosen:
        allowed = [c.contract for c in setups.choices if c.allowed]
        assert sorted(allowed) == sorted(setups.contracts)
    # the same answers from the record, a builder or the state
    for state in (result.record, result.state):
        assert NextChoices(state).setups(calls) == setups


# --- one hand on the cached state --------------------------------------------------------

@pytest.mark.parametrize(("profile_id", "options", "seed"), CASES)
def test_preview_and_append_are_what_load_gives(profile_id, options, seed):
    rng = random.Random(seed)
    n = rng.randrange(1, PROFILES[profile_id].n_hands + 1)
    full = random_game(profile_id, rng, options or None, with_deal=bool(seed % 2), hands=n)
    prefix = {**full, "hands": full["hands"][:-1]}
    before, after = load(prefix), load(full)
    with counting() as counts:
        hand = preview(before, full["hands"][-1])
        grown = append(before, full["hands"][-1])
    assert (counts.replays, counts.hands) == (0, 2)
    assert hand == after.hands[-1]
    assert grown == after
    assert grown.canonical_record() == after.canonical_record()
    assert grown.state == after.state
    assert preview_problems(before, full["hands"][-1]) == []
    # what may come next after the grown result is what it is after the replayed one
    assert NextChoices(grown).setups() == NextChoices(after).setups()


BAD_HANDS = [
    lambda h: {**h, "leader": 7},
    lambda h: {**h, "contract": "bogus"},
    lambda h: {**h, "tricks": h["tricks"][:-1]} if "tricks" in h else {**h, "counts": {}},
    lambda h: {**h, "tricks": [h["tricks"][0], h["tricks"][0]]} if "tricks" in h else h,
    lambda h: {**h, "ruling": {"kind": "adjusted", "points": [1, 2, 3]}},
    lambda h: [h],
]


@pytest.mark.parametrize(("profile_id", "seed"), [(p, s) for p in PROFILES for s in range(3)])
@pytest.mark.parametrize("bad", range(len(BAD_HANDS)))
def test_preview_raises_and_reports_what_load_and_entry_problems_do(profile_id, seed, bad):
    rng = random.Random(seed)
    n = rng.randrange(1, PROFILES[profile_id].n_hands + 1)
    full = random_game(profile_id, rng, with_deal=False, hands=n)
    hand = BAD_HANDS[bad](full["hands"][-1])
    broken = {**full, "hands": [*full["hands"][:-1], hand]}
    before = load({**full, "hands": full["hands"][:-1]})
    assert outcome(preview, before, hand) == outcome(load, broken)
    assert [key(e) for e in preview_problems(before, hand)] == \
        [key(e) for e in entry_problems(broken, n - 1)]


def test_counts_entry_problems_through_preview_problems():
    record = random_game("fiestas", random.Random(1), with_deal=False, hands=3)
    before = load({**record, "hands": record["hands"][:2]})
    bad = {"contract": "no-queens", "counts": {"queens": [3, 3, 0, 0]}}
    got = preview_problems(before, bad)
    assert [key(e) for e in got] == \
        [key(e) for e in entry_problems({**record, "hands": [*record["hands"][:2], bad]}, 2)]
    assert got and got[0].field == "hands[2].counts.queens"


def test_a_replay_is_counted_once_and_a_preview_replays_nothing():
    record = random_game("rifki", random.Random(3), with_deal=False, hands=5)
    start = COUNTS.replays
    with counting() as counts:
        result = load(record)
        assert (counts.replays, counts.hands) == (1, 0)
        entry_problems(record, 4)
        assert counts.replays == 2
        with counting() as inner:
            preview_problems(result, {"contract": "koz"})
        assert (inner.replays, inner.hands) == (0, 1)
        NextChoices(result).setups()            # read from the result's state
        assert counts.replays == 2
        NextChoices(result.record)              # a record is replayed once
        assert counts.replays == 3
    assert COUNTS.replays == start + 3


def test_the_state_keeps_the_replays_of_the_next_hand():
    from app.rules.limits import REPLAY_MAX

    game = random_game("rifki", random.Random(5), with_deal=False, hands=3)
    replayed = {**game["hands"][2], "ruling": {"kind": "replay"}}
    record = {**game, "hands": [*game["hands"][:2], *[replayed] * REPLAY_MAX]}
    result = load(record)
    assert result.state is not None and result.state.replays == REPLAY_MAX
    expected = outcome(load, with_hand(record, replayed))
    assert expected is not None and expected[2] == "replay-limit"
    assert outcome(preview, result, replayed) == expected
    assert append(result, game["hands"][2]) == load(with_hand(record, game["hands"][2]))
