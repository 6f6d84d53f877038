"""Rifki's limits on chosen contracts (RULES.md 1.4): per contract, and per seat under "3+2".

:class:`Quota` is the state after the hands played so far (counted hands only), a value;
:func:`choice_problem` says why a choice breaks a limit.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from app.rules.errors import RuleError, Term
from app.rules.profiles import RIFKI_KOZ_LIMIT, RIFKI_LIMIT_PER_PENALTY, RIFKI_QUOTA, Options

_EMPTY: Mapping[str, int] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Quota:
    """What the choosers have chosen so far (counted hands only), and whether the per-seat
    limit of "3+2" applies (``limited``; option ``choice_limit``)."""

    penalties: tuple[int, ...] = (0, 0, 0, 0)   # per seat: penalty contracts chosen
    koz: tuple[int, ...] = (0, 0, 0, 0)         # per seat: koz chosen
    limited: bool = True
    played: Mapping[str, int] = field(default_factory=lambda: _EMPTY)  # times each contract played
    penalty_limit: int = RIFKI_QUOTA["penalty"]
    koz_limit: int = RIFKI_QUOTA["koz"]

    def of(self, seat: int) -> dict[str, object]:
        """One seat's quota as ``services.entry.chooser_quota`` gave it: penalties, koz,
        limited, penalty_limit, koz_limit."""
        return {"penalties": self.penalties[seat], "koz": self.koz[seat],
                "limited": self.limited, "penalty_limit": self.penalty_limit,
                "koz_limit": self.koz_limit}


def choice_problem(cid: str, chooser: int, played: Mapping[str, int],
                   seat_penalties: Sequence[int], seat_koz: Sequence[int], options: Options,
                   players: Sequence[str]) -> RuleError | None:
    """Why ``chooser`` may not choose ``cid`` now (``.code`` is the rule, field "contract"),
    or None."""
    done = played.get(cid, 0)
    f = "contract"
    if cid == "koz":
        if done >= RIFKI_KOZ_LIMIT:
            return RuleError.of(f, "koz-limit", "koz has been played %(n)s times already",
                                n=RIFKI_KOZ_LIMIT)
        if options.choice_limit == "3+2" and seat_koz[chooser] >= RIFKI_QUOTA["koz"]:
            return RuleError.of(f, "choice-limit",
                                "seat %(seat)s (%(name)s) has already chosen koz %(n)s times "
                                "(3+2)", seat=chooser, name=players[chooser],
                                n=RIFKI_QUOTA["koz"])
        return None
    if done >= RIFKI_LIMIT_PER_PENALTY:
        return RuleError.of(f, "penalty-limit", "%(contract)s has been played %(n)s times already",
                            contract=Term(cid, "contract"), n=RIFKI_LIMIT_PER_PENALTY)
    if options.choice_limit == "3+2" and seat_penalties[chooser] >= RIFKI_QUOTA["penalty"]:
        return RuleError.of(f, "choice-limit",
                            "seat %(seat)s (%(name)s) has already chosen %(n)s penalties (3+2)",
                            seat=chooser, name=players[chooser], n=RIFKI_QUOTA["penalty"])
    return None
