"""The hands after the next one (issue 39): what a phone keeps to enter them with no network,
on top of hands the server has not had yet -- each as the schedule has it (dealer, leader,
and the contract where the schedule fixes it), a chooser's with what may still be chosen.
Shared by the entry pages (app/games/entry/hand_pages.py) and the trick-by-trick pages
(app/games/referee/trick_pages.py)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import abort
from flask_babel import gettext as _

from app.games.entry import entry
from app.games.entry import setup as setup_service
from app.rules.game.results import NextHand
from app.rules.schedule import slot_for

#: How many hands after the next one a phone keeps the entry pages of (offline.json).
AHEAD = 3


def hand_after(profile: Any, first_seat: int, number: int) -> NextHand | None:
    """Hand ``number`` as the schedule has it, before the hands ahead of it reach the server:
    its dealer, leader and, where the schedule fixes it, its contract; a chooser's hand
    names its chooser, a fiesta its owner (what they choose or the auction decides is not
    known yet). None: past the last hand."""
    if number > profile.n_hands:
        return None
    slot = slot_for(profile, first_seat, number)
    return NextHand(slot.number, slot.contract, slot.dealer, slot.owner, slot.chooser,
                    slot.leader, slot.fiesta)


def ahead_context(ctx: entry.Context, ahead: int) -> entry.Context | None:
    """The hand ``ahead`` hands after the next one, as the schedule has it, for a phone that
    will enter it with no network on top of the ones before (the engine checks it when it
    arrives). A chooser's or a fiesta's hand is one too: its page says what is not known
    yet. None: no such hand."""
    if ctx.next is None or not 1 <= ahead <= AHEAD:
        return None
    after = hand_after(ctx.profile, ctx.prefix_result.record.first_seat, ctx.next.number + ahead)
    return None if after is None else replace(ctx, index=ctx.index + ahead, next=after)


def chosen_ahead(ctx: entry.Context, contract: str | None, trump: str | None
                  ) -> setup_service.SetupStep:
    """The setup of a chooser's hand on a page ahead: the hands before it wait on the phone,
    so what the chooser may still choose is not known here. A contract the engine refuses
    for the whole table now (played its times) stays refused; the limits of the seat that
    chooses next now (``choice-limit``) are not this chooser's, so those are offered: the
    server checks the choice when the hand arrives."""
    chooser = ctx.next.chooser
    choices = tuple(replace(c, allowed=True, rule=None, message=None, error=None)
                    if c.rule == "choice-limit" else c for c in entry.rifki_choices(ctx))
    step = setup_service.SetupStep("choose", chooser=chooser, choices=choices,
                                   quota=entry.chooser_quota(ctx, chooser))
    known = ctx.profile.contracts.get(contract or "")
    if known is None or not any(c.allowed and c.contract == contract for c in choices):
        return step
    trump = trump if known.trump_game and trump in setup_service.SUITS else None
    if known.trump_game and trump is None:
        return step
    params = {"contract": known.id, **({"trump": trump} if trump else {})}
    return replace(step, step="ready",
                   setup=setup_service.Setup(known.id, trump, ctx.next.leader, None, None, "", params))


def ahead_or_404(ctx: entry.Context, ahead: int) -> tuple[entry.Context, int]:
    """The context of a later hand's page and its index (404 when there is none)."""
    later = ahead_context(ctx, ahead)
    if later is None:
        abort(404)
    return later, later.index


def not_known(nxt: NextHand, players: list[str], before: int) -> str | None:
    """What a page of a later hand (entered on top of hands the server has not had) cannot
    know yet: what its chooser may still choose, or what its fiesta's auction decides."""
    if nxt.fiesta and nxt.owner is not None:
        return str(_("Not known yet: hand %(n)s is the fiesta of %(name)s, and its auction is "
                 "entered call by call with the server. Enter it once hand %(before)s and the "
                 "ones before it have been sent.", n=nxt.number, name=players[nxt.owner],
                 before=before))
    if nxt.contract is None and nxt.chooser is not None:
        return str(_("Not known yet: %(name)s chooses the contract, and what is left to choose "
                 "depends on hand %(before)s and the ones before it, which wait on this phone. "
                 "Choose what is played: the server checks it when they arrive.",
                 name=players[nxt.chooser], before=before))
    return None
