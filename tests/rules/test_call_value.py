"""A call of a fiesta's auction as a value (issue 37 item 4): parsed once, printed as it
parses, and checked by the auction without changing it (verify) before it is applied."""
from __future__ import annotations

import pytest

from app.rules.errors import InputError, RuleError
from app.rules.referee.auction import Auction, Call


@pytest.mark.parametrize("text", ["3:+2", "0:-1", "owner:accept", "2:pass", "1:eight-or-nulos", "owner:reject"])
def test_a_call_prints_as_it_parses(text):
    assert str(Call.parse(text)) == text
    assert Call.parse(f"  {text.upper()} ") == Call.parse(text)


def test_who_and_what():
    assert Call.parse("owner:too-little") == Call("owner", "too-little")
    assert Call.parse("3:+2").who == 3 and Call.parse("3:+2").is_bid
    assert not Call.parse("1:pass").is_bid


@pytest.mark.parametrize("text", ["4:+2", "owner", "1:+9", "1:bid", "", 3])
def test_what_is_not_a_call_is_refused_on_its_own_code(text):
    with pytest.raises(InputError) as e:
        Call.parse(text)
    assert e.value.code in {"type", "call"}


def test_verify_says_what_apply_would_and_changes_nothing():
    auction = Auction("fiestas", owner=0)
    before = (auction.phase, auction.to_call, list(auction.calls))
    with pytest.raises(RuleError) as e:
        auction.verify_call(Call(2, "+1"))            # seat 1 calls first
    assert e.value.code == "auction-turn"
    auction.verify_call(Call(1, "+1"))                # legal: checked, not applied
    assert (auction.phase, auction.to_call, list(auction.calls)) == before
    auction.apply_call(Call(1, "+1"))
    assert auction.calls == ["1:+1"] and auction.to_call == 2


def test_verify_agrees_with_apply_over_every_call_of_a_whole_auction():
    auction = Auction("subastas", owner=1)
    for text in ["2:+1", "3:pass", "0:+2", "2:pass", "owner:accept"]:
        for candidate in {*auction.legal_calls(), "0:+8", "3:pass", "owner:reject"}:
            trial = Auction("subastas", owner=1)
            for done in auction.calls:
                trial.call(done)
            try:
                auction.verify_call(Call.parse(candidate))
                verified = True
            except RuleError:
                verified = False
            try:
                trial.call(candidate)
                applied = True
            except RuleError:
                applied = False
            assert verified == applied, (auction.calls, candidate)
        auction.call(text)
    assert auction.finished
