"""Random legal games, for property tests, benchmarks and demonstrations.

Everything here plays by the engine's own rules (:func:`legal_cards`), from a
``random.Random`` the caller seeds, so a failing case can be replayed from its seed.
"""
from __future__ import annotations

import random
from typing import Any

from app.rules.cards import BIT, cards_of, iter_bits
from app.rules.game.builder import GameBuilder
from app.rules.game.entry_fields import FIRST_CHOICE_CARD
from app.rules.game.record import FORMAT, card_text
from app.rules.profiles import PROFILES, Contract, Profile
from app.rules.referee.auction import Auction
from app.rules.referee.play import PlayRules, judge_play, play_rules, trick_winner


def legal_cards(rules: PlayRules, trump: int, trick_no: int, trick: list[int], holding: int,
                broken: int) -> list[int]:
    """The cards of ``holding`` that break no rule if played now."""
    return [c for c in iter_bits(holding)
            if judge_play(rules, trump, trick_no, trick, c, holding, broken) is None]


def random_deal(profile: Profile, rng: random.Random, first_chooser: int | None = None
                ) -> list[int]:
    """Each seat's cards (bit sets), shuffled. With ``first_chooser`` (rifki's hand 1) that
    seat holds the 2♦, as the record's ``first_chooser`` does (RULES.md 1.4): the 2♦ changes
    places with the seat's first card (no other draw, so a seed's later draws stay put)."""
    cards = list(iter_bits(profile.deck))
    rng.shuffle(cards)
    n = profile.n_tricks
    if first_chooser is not None and profile.chosen:
        k = cards.index(FIRST_CHOICE_CARD)
        j = first_chooser * n
        cards[k], cards[j] = cards[j], cards[k]
    return [sum(BIT[c] for c in cards[s * n:(s + 1) * n]) for s in range(4)]


def random_play(profile: Profile, rules: PlayRules, contract: Contract, trump: int, leader: int,
                deal: list[int], rng: random.Random) -> list[list[int]]:
    """Random legal tricks from a deal, stopping at the early end."""
    holding = list(deal)
    tricks: list[list[int]] = []
    broken = 0
    taken = 0
    seat = leader
    for t in range(profile.n_tricks):
        trick: list[int] = []
        for pos in range(4):
            s = (seat + pos) & 3
            options = legal_cards(rules, trump, t + 1, trick, holding[s], broken)
            card = rng.choice(options)
            trick.append(card)
            holding[s] &= ~BIT[card]
        tricks.append(trick)
        mask = sum(BIT[c] for c in trick)
        broken |= mask
        taken |= mask
        seat = (seat + trick_winner(trick, trump)) & 3
        if contract.ends_after(taken):
            break
    return tricks


def _random_auction(profile: Profile, owner: int, rng: random.Random) -> list[str]:
    auction = Auction(profile.id, owner)
    while not auction.finished:
        calls = auction.legal_calls()
        passing = [c for c in calls if c.endswith(":pass") or c.endswith("withdraw")]
        if passing and rng.random() < 0.55:
            auction.call(rng.choice(passing))
        else:
            # favour low bids so auctions stay realistic
            auction.call(calls[min(len(calls) - 1, int(rng.expovariate(0.8)))])
    return auction.calls


def random_game(profile_id: str, rng: random.Random, options: dict[str, str] | None = None,
                with_deal: bool = True, hands: int | None = None) -> dict[str, Any]:
    """A whole legal game record, every hand entered as tricks (with the deal)."""
    profile = PROFILES[profile_id]
    opts = profile.parse_options(options or {})
    players = ["Ana", "Beto", "Carla", "Dani"]
    first = rng.randrange(4)
    record: dict[str, Any] = {"format": FORMAT, "profile": profile_id,
                              "options": dict(options or {}), "players": players,
                              profile.seat_key: first, "hands": []}
    builder = GameBuilder(profile, opts, players, first)
    n = profile.n_hands if hands is None else hands
    for i in range(n):
        hand, leaders = _random_setup(builder, rng)
        _random_entry(builder, hand, leaders, rng, with_deal)
        builder.add(hand, i)
        record["hands"].append(hand)
    return record


def _random_setup(builder: GameBuilder, rng: random.Random
                  ) -> tuple[dict[str, Any], tuple[int, ...]]:
    """A random legal setup of the builder's next hand (contract, auction, trump), and the
    seats that may lead it."""
    profile, slot = builder.profile, builder.slot()
    hand: dict[str, Any] = {}
    leaders: tuple[int, ...]
    if slot.fiesta:
        assert slot.owner is not None
        cid, leaders = _random_fiesta(profile, slot.owner, rng, hand)
    else:
        if slot.contract is not None:
            cid = slot.contract
        else:
            cid = rng.choice([c for c in profile.contracts
                              if builder.choice_problem(c, slot) is None])
        leaders = (slot.leader,) if slot.leader is not None else ()
    hand["contract"] = cid
    if profile.contracts[cid].trump_game:
        hand["trump"] = "SHDC"[rng.randrange(4)]
    return hand, leaders


def _random_fiesta(profile: Profile, owner: int, rng: random.Random, hand: dict[str, Any]
                   ) -> tuple[str, tuple[int, ...]]:
    """A random auction (into ``hand``), the contract it allows and who may lead it."""
    calls = _random_auction(profile, owner, rng)
    a = Auction(profile, owner)
    for c in calls:
        a.call(c)
    out = a.outcome
    cid = rng.choice(out.contracts)
    if calls:
        hand["auction"] = calls
    return cid, out.leaders if cid != "nulos" or out.sale else out.leaders[:1]


def _random_entry(builder: GameBuilder, hand: dict[str, Any], leaders: tuple[int, ...],
                  rng: random.Random, with_deal: bool) -> None:
    """Random legal tricks (and the deal) for a played hand; a 433 has none."""
    profile = builder.profile
    contract = profile.contracts[hand["contract"]]
    if not contract.played:
        return
    trump = "SHDC".index(hand["trump"]) if "trump" in hand else -1
    leader = rng.choice(leaders)
    if len(leaders) > 1:
        hand["leader"] = leader
    slot = builder.slot()
    deal = random_deal(profile, rng, slot.chooser if slot.number == 1 else None)
    rules = play_rules(profile, builder.options, contract)
    tricks = random_play(profile, rules, contract, trump, leader, deal, rng)
    hand["tricks"] = [[card_text(c) for c in t] for t in tricks]
    if with_deal:
        hand["deal"] = [[card_text(c) for c in cards_of(m)] for m in deal]
