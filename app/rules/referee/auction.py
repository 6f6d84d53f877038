"""The fiesta auction of `fiestas` and `subastas` (RULES.md 1.2, 1.3 and §4 "Auction").

A :class:`Call` is one call as a value (``Call.parse("3:+2")``, printed back as it parses).
:class:`Auction` is a small state machine: ``legal_calls()`` says what may be called now,
``verify_call(call)`` whether one may be called (raising :class:`RuleError` with the rule's
name, the auction unchanged), ``apply_call(call)`` checks and applies it (``call(text)``:
parse, then apply), and ``outcome`` says what the auction decided once it is ``finished``.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass

from app.rules.errors import InputError, RecordError, RuleError
from app.rules.profiles import PROFILES, Profile
from app.rules.referee.sale import AuctionOutcome, bid_points, no_sale_outcome

BIDDING, ANSWER, RAISE, ULTIMATUM, DONE = "bidding", "answer", "raise", "ultimatum", "done"
OWNER_ANSWERS = ("accept", "too-little", "eight-or-nulos", "reject")
_CALL = re.compile(r"^(?:([0-3])|(owner)):(pass|withdraw|refuse|[+-][1-8]|accept|too-little|"
                   r"eight-or-nulos|reject)$")


@dataclass(frozen=True, slots=True)
class Call:
    """One call of a fiesta's auction as RECORD.md writes it: who calls (a seat 0-3, or
    ``"owner"``) and what (``pass``, ``withdraw``, ``refuse``, a bid ``+N``/``-N``, or one of
    the owner's answers). ``str(call)`` is the record's text (``"3:+2"``)."""

    who: int | str
    what: str

    @classmethod
    def parse(cls, text: object) -> Call:
        """The call written ``text`` (spaces and case aside); InputError when it is none."""
        if not isinstance(text, str):
            raise InputError.of("", "type", 'a call is a string like "1:+2" or "owner:accept"')
        m = _CALL.match(text.strip().lower())
        if not m:
            raise InputError.of("", "call", '"%(call)s" is not a call (like "1:+2", "2:pass", '
                                '"owner:accept")', call=text)
        return cls("owner" if m.group(2) else int(m.group(1)), m.group(3))

    @property
    def is_bid(self) -> bool:
        return self.what[0] in "+-"

    def __str__(self) -> str:
        return f"{self.who}:{self.what}"


class Auction:
    """One fiesta's auction. ``owner`` is the fiesta's dealer; seats bid from owner+1."""

    def __init__(self, profile_id: str | Profile, owner: int) -> None:
        profile = profile_id if isinstance(profile_id, Profile) else PROFILES.get(profile_id)
        if profile is None or not profile.auction:
            raise ValueError(f"{profile_id} has no auction")
        self.profile = profile
        self.ladder = profile.ladder
        self.positive = profile.positive_fiestas
        self.owner = owner
        self.order = [(owner + k) % 4 for k in (1, 2, 3)]
        self.passed: set[int] = set()
        self.best: str | None = None
        self.best_seat: int | None = None
        self.turn = self.order[0]
        self.phase = BIDDING
        self.calls: list[str] = []
        self.bids = 0
        self.result = AuctionOutcome()

    # --- reading -------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.phase == DONE

    @property
    def to_call(self) -> int | str | None:
        """The seat to call, ``"owner"`` for the owner's answer, None when finished."""
        if self.phase == BIDDING:
            return self.turn
        if self.phase == ANSWER:
            return "owner"
        if self.phase in (RAISE, ULTIMATUM):
            return self.best_seat
        return None

    def rank(self, bid: str) -> int:
        return self.ladder.index(bid)

    def _higher_bids(self) -> list[str]:
        start = 0 if self.best is None else self.rank(self.best) + 1
        return list(self.ladder[start:])

    def legal_calls(self) -> list[str]:
        """Every call that is legal now, as ``"SEAT:CALL"`` / ``"owner:ANSWER"``."""
        if self.phase == BIDDING:
            seat = self.turn
            bids = self._higher_bids()
            if self.best is not None and self._may_match(seat):
                bids.insert(0, self.best)
            return [f"{seat}:pass"] + [f"{seat}:{b}" for b in bids]
        if self.phase == ANSWER:
            return [f"owner:{a}" for a in self._answers()]
        if self.phase == RAISE:
            return [f"{self.best_seat}:{b}" for b in self._higher_bids()] + [
                f"{self.best_seat}:withdraw"]
        if self.phase == ULTIMATUM:
            return [f"{self.best_seat}:+8", f"{self.best_seat}:refuse"]
        return []

    def _answers(self) -> list[str]:
        """The owner's answers to the best bid."""
        answers = ["accept", "too-little"]
        if self._ultimatum_open():
            answers.append("eight-or-nulos")
        if self.profile.owner_may_reject:
            answers.append("reject")
        return answers

    def _may_match(self, seat: int) -> bool:
        """Priority: a seat earlier in bidding order than the best bidder may equal its bid."""
        if self.best is None or self.best_seat is None:
            return False
        if self.profile.top_bid_sells and self.best == self.ladder[-1]:
            return False
        return self.order.index(seat) < self.order.index(self.best_seat)

    @property
    def outcome(self) -> AuctionOutcome:
        return self.result

    # --- calling -------------------------------------------------------------------------
    def call(self, text: object) -> None:
        """Checks and applies the call written ``text``; raises RuleError (field "") naming
        the rule, InputError when ``text`` is not a call."""
        self.apply_call(Call.parse(text), as_written=str(text))

    def verify_call(self, call: Call) -> None:
        """Raises the RuleError :meth:`apply_call` would raise for ``call``; the auction is
        left as it is either way."""
        trial = copy.copy(self)
        trial.calls, trial.passed, trial.order = list(self.calls), set(self.passed), list(self.order)
        trial.apply_call(call)

    def apply_call(self, call: Call, *, as_written: str | None = None) -> None:
        """Checks and applies one call; raises RuleError (field "") naming the rule (and the
        call ``as_written``, when it was typed otherwise)."""
        text = str(call) if as_written is None else as_written
        if self.phase == DONE:
            raise RuleError.of("", "auction-over", '"%(call)s": the auction is already over',
                               call=text)
        who, what = call.who, call.what
        expected = self.to_call
        if who != expected:
            raise self._out_of_turn(who, expected, text)
        if self.phase == BIDDING:
            self._bidding(who, what, text)  # type: ignore[arg-type]
        elif self.phase == ANSWER:
            self._answer(what, text)
        elif self.phase == RAISE:
            self._raise(what, text)
        else:
            self._ultimatum(what, text)
        self.calls.append(str(call))

    def _out_of_turn(self, who: int | str, expected: int | str | None, text: str) -> RuleError:
        """Why a call by ``who`` is not the call expected now, saying what may be called."""
        if who == "owner":
            return self._owner_out_of_turn(expected, text)
        if isinstance(who, int) and who == self.owner:
            return RuleError.of("", "auction-owner",
                                '"%(call)s": seat %(seat)s owns this fiesta and does not bid',
                                call=text, seat=who)
        if isinstance(who, int) and who in self.passed and self.phase == BIDDING:
            return RuleError.of("", "auction-pass-final",
                                '"%(call)s": seat %(seat)s has passed; a pass is final',
                                call=text, seat=who)
        if expected == "owner":
            return RuleError.of("", "auction-turn", '"%(call)s": it is the owner\'s answer',
                                call=text)
        if self.phase == RAISE:
            return RuleError.of("", "auction-turn", '"%(call)s": after "es poco" only seat '
                                "%(seat)s calls: a higher bid or withdraw", call=text,
                                seat=expected)
        if self.phase == ULTIMATUM:
            return RuleError.of("", "auction-turn", '"%(call)s": after "8 o nulos" only seat '
                                "%(seat)s calls: +8 or refuse", call=text, seat=expected)
        return RuleError.of("", "auction-turn", '"%(call)s": it is seat %(seat)s\'s call',
                            call=text, seat=expected)

    def _owner_out_of_turn(self, expected: int | str | None, text: str) -> RuleError:
        """An owner's answer while a seat is to call: what that seat may call now."""
        if self.phase == RAISE:
            return RuleError.of("", "auction-turn", '"%(call)s": after "es poco" the owner has '
                                "answered; seat %(seat)s now raises (a higher bid) or "
                                "withdraws", call=text, seat=expected)
        if self.phase == ULTIMATUM:
            return RuleError.of("", "auction-turn", '"%(call)s": after "8 o nulos" the owner '
                                "has answered; seat %(seat)s now offers +8 or refuses",
                                call=text, seat=expected)
        return RuleError.of("", "auction-turn", '"%(call)s": the owner answers only when '
                            "bidding has stopped; it is seat %(seat)s's call",
                            call=text, seat=expected)

    def _check_bid(self, what: str, text: str, may_match: bool) -> None:
        if what not in self.ladder:
            raise RuleError.of("", "auction-bid", '"%(call)s": %(bid)s is not a bid here '
                               "(bids: %(bids)s)", call=text, bid=what, bids=" ".join(self.ladder))
        if self.best is not None:
            r, best = self.rank(what), self.rank(self.best)
            if r < best or (r == best and not may_match):
                if may_match:
                    raise RuleError.of("", "auction-ladder", '"%(call)s": %(bid)s does not equal '
                                       "or beat the best bid %(best)s", call=text, bid=what,
                                       best=self.best)
                raise RuleError.of("", "auction-ladder", '"%(call)s": %(bid)s does not beat the '
                                   "best bid %(best)s", call=text, bid=what, best=self.best)

    def _bidding(self, seat: int, what: str, text: str) -> None:
        if what == "pass":
            self.passed.add(seat)
        elif what in ("withdraw", "refuse") or what in OWNER_ANSWERS:
            raise RuleError.of("", "auction-call",
                               '"%(call)s": only a bid or pass is called while bidding', call=text)
        else:
            self._check_bid(what, text, self._may_match(seat))
            self.best, self.best_seat = what, seat
            self.bids += 1
            if self._sells_at_once(what):
                self._sale()
                return
        self._next_bidder(seat)

    def _next_bidder(self, seat: int) -> None:
        """After ``seat``'s call: the next seat still bidding, the owner's answer once only
        the best bidder is left, or the end when everyone passed."""
        active = [s for s in self.order if s not in self.passed]
        if not active:
            self._no_sale("no-bids")
            return
        if self.best_seat is not None and active == [self.best_seat]:
            self.phase = ANSWER
            return
        i = self.order.index(seat)
        for k in range(1, 4):
            nxt = self.order[(i + k) % 3]
            if nxt not in self.passed:
                self.turn = nxt
                break

    def _answer(self, what: str, text: str) -> None:
        if what not in OWNER_ANSWERS:
            if self.profile.owner_may_reject:
                raise RuleError.of("", "auction-call", '"%(call)s": the owner answers accept, '
                                   "too-little, eight-or-nulos or reject", call=text)
            raise RuleError.of("", "auction-call", '"%(call)s": the owner answers accept, '
                               "too-little or eight-or-nulos", call=text)
        if what == "accept":
            self._sale()
        elif what == "too-little":
            self.phase = RAISE
        elif what == "eight-or-nulos":
            if not self._ultimatum_open():
                raise RuleError.of("", "eight-or-nulos",
                                   '"%(call)s": "8 o nulos" is offered only to a +6 or +7 bid',
                                   call=text)
            self.phase = ULTIMATUM
        else:
            if not self.profile.owner_may_reject:
                raise RuleError.of("", "reject", '"%(call)s": reject exists only in subastas',
                                   call=text)
            self._no_sale("rejected")

    def _raise(self, what: str, text: str) -> None:
        if what == "withdraw":
            self._no_sale("withdrawn")
            return
        if what[0] not in "+-":
            raise RuleError.of("", "auction-call",
                               '"%(call)s": after "es poco" the bidder raises or withdraws',
                               call=text)
        self._check_bid(what, text, False)
        self.best = what
        self.bids += 1
        if self._sells_at_once(what):
            self._sale()
        else:
            self.phase = ANSWER

    def _ultimatum(self, what: str, text: str) -> None:
        if what == "+8":
            self.bids += 1
            self.best = "+8"
            self._sale()
        elif what == "refuse":
            self._no_sale("refused")
        else:
            raise RuleError.of("", "auction-call",
                               '"%(call)s": after "8 o nulos" the bidder calls +8 or refuse',
                               call=text)

    def _sale(self) -> None:
        assert self.best is not None and self.best_seat is not None
        d = self.best_seat
        self.phase = DONE
        self.result = AuctionOutcome(
            sale=True, declarer=d, bid=self.best, payment=bid_points(self.best), reason="sale",
            bids=self.bids, contracts=self.positive if self.best[0] == "+" else ("nulos",),
            leaders=(d, (d + 1) % 4))

    def _no_sale(self, reason: str) -> None:
        self.phase = DONE
        self.result = no_sale_outcome(self.owner, reason, self.bids, self.profile)

    def _ultimatum_open(self) -> bool:
        """Whether the owner may answer "8 o nulos" to the best bid."""
        return self.profile.ultimatum_any_bid or self.best in ("+6", "+7")

    def _sells_at_once(self, bid: str) -> bool:
        """The top bid of a profile where it is a sale at once (subastas' +8)."""
        return self.profile.top_bid_sells and bid == self.ladder[-1]


def run_auction(profile_id: str, owner: int, calls: list[object] | None,
                fld: str) -> tuple[AuctionOutcome, list[str]]:
    """Plays a recorded auction; errors name ``fld[j]``. No calls: no auction was held."""
    if calls is None:
        return no_sale_outcome(owner, "no-bids", 0, PROFILES[profile_id]), []
    auction = Auction(profile_id, owner)
    for j, text in enumerate(calls):
        try:
            auction.call(text)
        except RecordError as e:
            raise e.moved(f"{fld}[{j}]") from None
    if not auction.finished:
        who = auction.to_call
        if who == "owner":
            raise RuleError.of(fld, "auction-unfinished",
                               "the auction is not finished: it waits for the owner's answer")
        raise RuleError.of(fld, "auction-unfinished",
                           "the auction is not finished: it waits for a call from seat %(seat)s",
                           seat=who)
    return auction.outcome, auction.calls


