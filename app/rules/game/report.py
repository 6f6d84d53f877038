"""The score report of RECORD.md, exactly: ``build_report(result) -> dict``."""
from __future__ import annotations

from typing import Any

from app.rules.game.record import REPORT_FORMAT
from app.rules.game.replay import GameResult


def build_report(result: GameResult) -> dict[str, Any]:
    hands = []
    for h in result.hands:
        hands.append({
            "number": h.number, "contract": h.contract.id, "trump": h.trump,
            "dealer": h.dealer, "owner": h.owner, "chooser": h.chooser,
            "declarer": h.declarer, "leader": h.leader,
            "points": list(h.points), "payments": list(h.payments),
            "total": h.total, "expected_total": h.expected_total,
            "tricks_played": h.tricks_played, "ended_early": h.ended_early,
            "trick_winners": list(h.trick_winners),
            "violations": [v.as_dict() for v in h.violations],
            "ruling": h.ruling.kind, "counted": h.counted,
            "running_totals": list(h.running_totals),
        })
    nxt = result.next
    return {
        "format": REPORT_FORMAT,
        "profile": result.profile.id,
        "players": list(result.record.players),
        "hands": hands,
        "totals": list(result.totals),
        "sum": result.sum, "expected_sum": result.expected_sum,
        "zero_sum_ok": result.zero_sum_ok,
        "complete": result.complete, "winners": list(result.winners),
        "next": None if nxt is None else {
            "number": nxt.number, "contract": nxt.contract, "dealer": nxt.dealer,
            "owner": nxt.owner, "chooser": nxt.chooser, "leader": nxt.leader},
    }
