"""What may come next: the legal setups of the next hand, as values.

:func:`contract_choices`: the rifki contracts the next chooser may name, within the limits.
"""
from __future__ import annotations

from dataclasses import dataclass

from app.rules.builder import builder_for
from app.rules.errors import RecordError
from app.rules.profiles import RIFKI_KOZ_LIMIT, RIFKI_LIMIT_PER_PENALTY, RIFKI_PENALTIES
from app.rules.results import Record


@dataclass(frozen=True, slots=True)
class Choice:
    contract: str
    allowed: bool
    rule: str | None
    message: str | None
    played: int               # times played so far in the game
    limit: int                # per-game limit of this contract
    error: RecordError | None = None   # why not, translatable (field "contract")


def contract_choices(record: object) -> list[Choice]:
    """The rifki contracts the next chooser may name, each with why not when refused."""
    assert isinstance(record, Record)
    builder = builder_for(record)
    if builder.complete or not builder.profile.chosen:
        return []
    slot = builder.slot()
    out = []
    for cid in RIFKI_PENALTIES + ("koz",):
        problem = builder.choice_problem(cid, slot)
        limit = RIFKI_KOZ_LIMIT if cid == "koz" else RIFKI_LIMIT_PER_PENALTY
        out.append(Choice(cid, problem is None, problem.code if problem else None,
                          problem.message if problem else None,
                          builder.contract_count.get(cid, 0), limit, problem))
    return out
