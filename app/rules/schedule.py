"""The schedule: who deals, owns, chooses and leads each hand (RULES.md §1, §4 Rotation).

Hand numbers count counted hands: a replayed hand and its replacement share a number.
"""
from __future__ import annotations

from dataclasses import dataclass

from app.rules.profiles import Profile


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
