"""The schedule: who deals, owns, chooses and leads each hand (RULES.md §1, §4 Rotation).

Hand numbers count counted hands: a replayed hand and its replacement share a number.
"""
from __future__ import annotations

from dataclasses import dataclass

from app.rules.errors import RecordError
from app.rules.profiles import RIFKI_KOZ_LIMIT, RIFKI_LIMIT_PER_PENALTY, RIFKI_PENALTIES, Profile


@dataclass(frozen=True, slots=True)
class Slot:
    number: int
    contract: str | None      # fixed by the schedule, else None
    dealer: int | None
    owner: int | None         # fiesta hands
    chooser: int | None       # rifki
    leader: int | None        # default leader (fiestas: before the auction decides)
    fiesta: bool


def slot_for(profile: Profile, first_seat: int, number: int) -> Slot:
    """The schedule slot of hand ``number`` (1-based).

    **Decision** (RULES.md is silent): a rifki record names no dealer -- only the seat
    holding the 2♦ -- so rifki hands report ``dealer: null``; the chooser leads.
    """
    seat = (first_seat + number - 1) % 4
    if profile.chosen:
        return Slot(number, None, None, None, seat, seat, False)
    fiesta = profile.is_fiesta(number)
    return Slot(number, profile.fixed_contract(number), seat, seat if fiesta else None, None,
                (seat + 1) % 4, fiesta)


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
    from app.rules.replay import Record, builder_for

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
