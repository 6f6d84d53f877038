"""What a fiesta's auction settles (RULES.md 1.3 "Settlement"): what a bid is worth, what
the buyer pays, the outcome of an auction with or without a sale, and the contract a fiesta
may not be."""
from __future__ import annotations

from dataclasses import dataclass, field

from app.rules.errors import RuleError
from app.rules.profiles import Contract, Options, Profile
from app.rules.schedule import Slot

#: What one trick of a +N bid and one null of a -N bid are worth (RULES.md 1.3).
TRICK_BID_POINTS = 25


NULL_BID_POINTS = 75


#: A 433 is not played: the owner scores 4 tricks at 25, each other player 3 (RULES.md 1.3).
OWNER_433_POINTS = 4 * TRICK_BID_POINTS


OTHER_433_POINTS = 3 * TRICK_BID_POINTS


def bid_points(bid: str) -> int:
    """What a bid is worth: +N is N tricks at 25, -N is N nulls at 75."""
    n = int(bid[1:])
    return TRICK_BID_POINTS * n if bid[0] == "+" else NULL_BID_POINTS * n


@dataclass(frozen=True, slots=True)
class SaleTerms:
    """What the buyer of a fiesta pays its owner (RULES.md 1.3 "Settlement"): ``most`` is the
    bid's points; with ``per_trick`` the payment is that much for each trick the owner took,
    up to ``most`` (a -N sale of subastas under ``settlement: tricks``), else ``most``."""

    bid: str
    most: int
    per_trick: int = 0

    def payment(self, owner_tricks: int) -> int:
        if not self.per_trick:
            return self.most
        return min(self.most, self.per_trick * owner_tricks)


def sale_terms(profile: Profile, options: Options, bid: str) -> SaleTerms:
    """The settlement of a sale at ``bid`` -- the one place that reads the option
    ``settlement``. After a +N sale, and in ``fiestas`` (no such option), the buyer pays the
    full bid whatever the hand yields; after a -N sale of ``subastas`` the seed's own words
    ("recibe puntos por tantas bazas del competidor como las que había ofrecido ... la suma
    del competidor no disminuye") make it 75 a trick the owner took, up to N, unless the
    table chose ``bid``."""
    points = bid_points(bid)
    by_tricks = (bid[0] == "-" and any(spec.name == "settlement" for spec in profile.options)
                 and options.settlement == "tricks")
    return SaleTerms(bid, points, NULL_BID_POINTS if by_tricks else 0)


@dataclass(slots=True)
class AuctionOutcome:
    sale: bool = False
    declarer: int | None = None     # the buyer after a sale
    bid: str | None = None          # the winning bid after a sale
    payment: int = 0                # the bid's points: what the buyer pays the owner, or its
                                    # ceiling (see sale_terms)
    reason: str = "no-bids"         # sale | no-bids | withdrawn | rejected | refused
    bids: int = 0                   # +N/-N calls made (the subastas 433 rule)
    contracts: tuple[str, ...] = ()  # what may be played now
    leaders: tuple[int, ...] = ()   # who may lead (the first is the default)
    extra: dict[str, object] = field(default_factory=dict)


def no_sale_outcome(owner: int, reason: str, bids: int, profile: Profile) -> AuctionOutcome:
    """The owner plays (or skips) the fiesta: a positive fiesta (the profile's
    ``positive_fiestas``: trump, and in subastas notrump), nulos or 433 as the rules allow."""
    positive = profile.positive_fiestas
    if reason == "refused":
        contracts: tuple[str, ...] = ("nulos",)
    elif profile.bids_bar_433 and bids >= profile.bids_bar_433:
        contracts = positive + ("nulos",)
    else:
        contracts = positive + ("nulos", "433")
    return AuctionOutcome(reason=reason, bids=bids, contracts=contracts,
                          leaders=((owner + 1) % 4, owner))


def fiesta_contract_error(outcome: AuctionOutcome, f: str) -> RuleError:
    code = "fiesta-contract"
    if outcome.sale:
        if outcome.contracts == ("trump",):
            return RuleError.of(f, code, "after a sale at %(bid)s the buyer plays a trump",
                                bid=outcome.bid)
        if "trump" in outcome.contracts:
            return RuleError.of(f, code, "after a sale at %(bid)s the buyer plays a fiesta "
                                "with or without trumps", bid=outcome.bid)
        return RuleError.of(f, code, "after a sale at %(bid)s the buyer plays nulos",
                            bid=outcome.bid)
    if outcome.reason == "refused":
        return RuleError.of(f, code, "after refusing 8 o nulos the owner plays nulos")
    return RuleError.of(f, code,
                        "433 is allowed only when the auction drew fewer than three bids")


def sale_of(outcome: AuctionOutcome | None, slot: Slot, contract: Contract
          ) -> tuple[int | None, str | None, list[int], tuple[int, ...]]:
    """The declarer, the winning bid, the sale's payments and the seats that may lead."""
    payments = [0, 0, 0, 0]
    if outcome is None:
        return None, None, payments, (slot.leader,) if slot.leader is not None else ()
    if outcome.sale:
        declarer = outcome.declarer
        assert declarer is not None and slot.owner is not None
        payments[declarer] -= outcome.payment
        payments[slot.owner] += outcome.payment
        return declarer, outcome.bid, payments, outcome.leaders
    if contract.played:
        leaders = outcome.leaders[:1] if contract.id == "nulos" else outcome.leaders
        return slot.owner, None, payments, leaders
    return None, None, payments, ()
