"""The one setup service: auction, contract, trump and leader asked of the engine."""
from __future__ import annotations

from typing import Any

import pytest

from app.games.entry import entry
from app.games.entry import setup as svc
from app.rules import entry_problems, load
from tests.conftest import base_record

NEGATIVES = [{"contract": c, "counts": counts} for c, counts in [
    ("no-tricks", {"tricks": [1, 5, 3, 4]}), ("no-hearts", {"hearts": [1, 5, 3, 4]}),
    ("no-queens", {"queens": [1, 1, 1, 1]}),
    ("no-men", {"kings": [1, 1, 1, 1], "jacks": [2, 0, 1, 1]}),
    ("no-kh", {"kh": 2}), ("no-last-two", {"last_two": [1, 1]})]]


def fiesta_ctx(profile: str = "fiestas") -> entry.Context:
    ctx = entry.context(base_record(profile, hands=NEGATIVES), 6)
    assert ctx.next.fiesta and ctx.next.owner == 2     # Dani (3) calls first
    return ctx


def test_the_auction_step_until_it_is_finished() -> None:
    ctx = fiesta_ctx()
    step = svc.resolve(ctx, None, None, None, "3:+2,0:pass")
    assert step.step == "auction" and not step.ready and step.problems == ()
    step = svc.resolve(ctx, None, None, None, "3:+2,0:+1")
    assert step.step == "auction" and step.problems[0].field == "auction[1]"


def test_a_sale_then_trump_and_the_buyer_leads() -> None:
    ctx = fiesta_ctx()
    calls = "3:+2,0:pass,1:pass,owner:accept"
    step = svc.resolve(ctx, "trump", None, None, calls)
    assert not step.ready and [p.code for p in step.problems] == ["choose-trump"]
    step = svc.resolve(ctx, "trump", "H", None, calls)
    assert step.setup is not None
    assert (step.setup.contract, step.setup.trump, step.setup.leader,
            step.setup.record_leader) == ("trump", "H", 3, 3)
    assert step.setup.auction == calls.split(",")
    assert step.leaders == {"trump": (3, 0)}
    step = svc.resolve(ctx, "nulos", None, None, calls)
    assert not step.ready and step.problems[0].field == "contract"


def test_433_has_no_leader() -> None:
    step = svc.resolve(fiesta_ctx(), "433", None, "3", "none")
    assert step.setup is not None and step.setup.leader is None
    assert step.leaders["433"] == ()


@pytest.mark.parametrize(("profile", "calls"), [
    # subastas: bids, the owner rejects; fiestas: a refused "8 o nulos"
    ("subastas", "3:+2,0:+3,1:pass,3:pass,owner:reject"),
    ("fiestas", "3:+6,0:pass,1:pass,owner:eight-or-nulos,3:refuse"),
])
def test_only_the_leaders_the_engine_accepts_are_offered(profile: str, calls: str) -> None:
    ctx = fiesta_ctx(profile)
    step = svc.resolve(ctx, None, None, None, calls)
    assert step.step == "fiesta" and "nulos" in step.leaders
    assert step.leaders["nulos"] == (3,)             # the seat after the owner, only
    # every seat offered for a contract is one the record accepts, every other one is not
    for cid, seats in step.leaders.items():
        for seat in range(4):
            hand: dict[str, Any] = {"contract": cid, "leader": seat,
                                    "auction": calls.split(","),
                                    "counts": {"tricks": [2, 3, 4, 4]}}
            if cid == "trump":
                hand["trump"] = "S"
            if cid == "433":
                continue
            # the record check itself, on the record with this hand as hand 7
            problems = entry_problems({**ctx.record, "hands": ctx.record["hands"][:6] + [hand]}, 6)
            refused = any(p.field.endswith(".leader") for p in problems)
            assert refused == (seat not in seats), (cid, seat, problems)
    # the owner as leader of nulos: refused at the setup step, in the engine's words
    step = svc.resolve(ctx, "nulos", None, "2", calls)
    assert not step.ready and step.problems[0].field == "leader"
    assert step.problems[0].code == "leader"
    step = svc.resolve(ctx, "nulos", None, None, calls)
    assert step.setup is not None and step.setup.leader == 3


def test_rifki_choice_and_its_limits() -> None:
    hands = [{"contract": "el-almaz", "counts": {"tricks": [3, 4, 2, 4]}}] * 2
    ctx = entry.context(base_record("rifki", hands=hands), 2)
    step = svc.resolve(ctx, None, None, None, None)
    assert step.step == "choose" and step.chooser == 2 and len(step.choices) == 7
    step = svc.resolve(ctx, "el-almaz", None, None, None)
    assert not step.ready and step.problems[0].code == "penalty-limit"
    step = svc.resolve(ctx, "koz", None, None, None)
    assert [p.code for p in step.problems] == ["choose-trump"]
    step = svc.resolve(ctx, "koz", "D", "1", None)
    assert step.setup is not None and (step.setup.contract, step.setup.trump) == ("koz", "D")
    assert step.setup.record_leader is None and step.setup.leader == 2


def test_a_fixed_schedule_is_ready_whatever_was_submitted() -> None:
    ctx = entry.context(base_record("ru32"), 0)
    step = svc.resolve(ctx, "whatever", "X", "9", None)
    assert step.setup is not None and (step.setup.contract, step.setup.leader) == ("no-tricks", 1)


def test_of_hand_is_the_stored_setup() -> None:
    hand = {"contract": "trump", "trump": "C", "leader": 0,
            "auction": ["3:+2", "0:+3", "1:pass", "3:pass", "owner:accept"],
            "counts": {"tricks": [4, 3, 3, 3]}}
    record = base_record("fiestas", hands=NEGATIVES + [hand])
    load(record)
    setup = svc.of_hand(entry.context(record, 6))
    assert (setup.contract, setup.trump, setup.leader, setup.record_leader) == ("trump", "C", 0, 0)
