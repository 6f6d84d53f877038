"""Reads: plain dicts built from the replayed record (no ORM objects reach templates)."""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from app.models import AuditEntry, Game, GameStatus, Player, Seat
from app.rules import RecordError, build_report, digest, get_profile, load


def get_game(session: Session, game_id: int) -> Game | None:
    return session.get(Game, game_id)


_REPLAYS: OrderedDict[str, Any] = OrderedDict()
_REPLAYS_LOCK = threading.Lock()
_REPLAYS_KEPT = 64


def replay_game(game: Game, record_digest: str | None = None) -> Any:
    """The engine's GameResult for the stored record (RecordError if it no longer replays).

    Results are kept per worker for the last few records, keyed by the SHA-256 of the
    record's content: a sheet is read far more often than it changes, and the same content
    always replays to the same result. Callers must not change a result."""
    key = record_digest or digest(game.record)
    with _REPLAYS_LOCK:
        result = _REPLAYS.get(key)
        if result is not None:
            _REPLAYS.move_to_end(key)
            return result
    result = load(game.record)
    with _REPLAYS_LOCK:
        _REPLAYS[key] = result
        while len(_REPLAYS) > _REPLAYS_KEPT:
            _REPLAYS.popitem(last=False)
    return result


def report(game: Game) -> dict[str, Any]:
    return build_report(replay_game(game))


def leaders(totals: list[int]) -> list[int]:
    top = max(totals)
    return [s for s, t in enumerate(totals) if t == top]


@dataclass
class GameSummary:
    id: int
    profile: str
    players: list[str]
    hands_played: int
    n_hands: int
    complete: bool
    totals: list[int] | None
    leaders: list[int]
    winners: list[int]
    updated_at: Any
    broken: bool = False


def summarize(game: Game) -> GameSummary:
    players = list(game.record.get("players", []))
    profile = get_profile(game.profile)
    try:
        result = replay_game(game)
    except RecordError:
        return GameSummary(game.id, game.profile, players, len(game.hands), profile.n_hands,
                           False, None, [], [], game.updated_at, broken=True)
    played = sum(1 for h in result.hands if h.counted)
    return GameSummary(game.id, game.profile, players, played, profile.n_hands, result.complete,
                       list(result.totals), leaders(list(result.totals)) if result.hands else [],
                       list(result.winners), game.updated_at)


def list_games(session: Session) -> list[GameSummary]:
    """In-progress games first, each group newest first."""
    games = session.scalars(select(Game).order_by(Game.updated_at.desc(), Game.id.desc())).all()
    summaries = [summarize(g) for g in games]
    summaries.sort(key=lambda s: s.complete)  # stable: keeps newest first inside each group
    return summaries


def roster(session: Session) -> list[dict[str, Any]]:
    """Every player with games played and wins (a shared win counts for each winner)."""
    players = session.scalars(select(Player).order_by(func.lower(Player.name))
                              .options(selectinload(Player.seats).selectinload(Seat.game))).all()
    rows = []
    cache: dict[int, list[int]] = {}
    for player in players:
        wins = 0
        games = 0
        for seat in player.seats:
            games += 1
            game = seat.game
            if game.status != GameStatus.COMPLETE:
                continue
            if game.id not in cache:
                try:
                    cache[game.id] = list(replay_game(game).winners)
                except RecordError:
                    cache[game.id] = []
            if seat.seat in cache[game.id]:
                wins += 1
        rows.append({"id": player.id, "name": player.name, "games": games, "wins": wins})
    return rows


def player_names(session: Session) -> list[str]:
    return list(session.scalars(select(Player.name).order_by(func.lower(Player.name))).all())


def player_games(session: Session, player_id: int) -> tuple[Player, list[tuple[int, GameSummary]]] | None:
    player = session.get(Player, player_id)
    if player is None:
        return None
    seats = sorted(player.seats, key=lambda s: s.game_id, reverse=True)
    return player, [(seat.seat, summarize(seat.game)) for seat in seats]


def audit_log(session: Session, game_id: int) -> list[AuditEntry]:
    return list(session.scalars(select(AuditEntry).where(AuditEntry.game_id == game_id)
                                .order_by(AuditEntry.id.desc())).all())


def _contract_name(profile: Any, contract_id: str | None, lang: str) -> str | None:
    if contract_id is None:
        return None
    contract = profile.contracts.get(contract_id)
    return contract.name(lang) if contract else contract_id


def _violation(v: Any, players: list[str] | None) -> dict[str, Any]:
    """A violation as a plain dict, with its rule's name and a sentence in the page's
    language (the engine's own ``message`` is English)."""
    out = {"trick": v.trick, "seat": v.seat, "card": v.card, "rule": v.rule,
           "message": v.message, "evidence": list(v.evidence)}
    if players:
        from app.services.referee import violation_row

        row = violation_row(v, players)
        out.update(rule_name=row["rule_name"], sentence=row["sentence"])
    else:
        out.update(rule_name=v.rule, sentence=v.message)
    return out


def hand_row(h: Any, profile: Any, lang: str, players: list[str] | None = None) -> dict[str, Any]:
    ruling = getattr(h, "ruling", None)
    ruling_kind = getattr(ruling, "kind", "as-played") if ruling else "as-played"
    diff = h.total - h.expected_total
    return {
        "index": h.index, "row": h.index + 1, "number": h.number,
        "contract": h.contract.id, "contract_name": h.contract.name(lang),
        "trump": h.trump, "dealer": h.dealer, "owner": h.owner, "chooser": h.chooser,
        "declarer": h.declarer, "leader": h.leader, "bid": h.bid, "auction": list(h.auction),
        "mode": h.mode, "points": list(h.points), "payments": list(h.payments),
        "has_payment": any(h.payments), "total": h.total, "expected_total": h.expected_total,
        "check_ok": diff == 0, "diff": diff, "running_totals": list(h.running_totals),
        "counted": h.counted, "made_king": getattr(h, "made_king", False),
        "ended_early": getattr(h, "ended_early", False),
        "violations": [_violation(v, players) for v in getattr(h, "violations", ())],
        "ruling": None if ruling_kind == "as-played" else {
            "kind": ruling_kind, "seat": getattr(ruling, "seat", None),
            "points": getattr(ruling, "points", None), "reason": getattr(ruling, "reason", None),
            "by": getattr(ruling, "by", None), "at": getattr(ruling, "at", None)},
    }


def sheet_view(game: Game, lang: str = "es") -> dict[str, Any]:
    """Everything the sheet page shows, from the replayed record."""
    profile = get_profile(game.profile)
    record = game.record
    view: dict[str, Any] = {
        "id": game.id, "version": game.version, "updated_at": getattr(game, "updated_at", None),
        "profile": profile.id,
        "profile_name": profile.name(lang), "n_hands": profile.n_hands,
        "clockwise": profile.clockwise, "players": list(record["players"]),
        "options": dict(record.get("options") or {}), "n_rows": len(record.get("hands", [])),
        "error": None, "hands": [], "next": None, "complete": False,
    }
    record_digest = digest(record)
    view["fingerprint"] = record_digest[:10]
    view["digest"] = record_digest
    try:
        result = replay_game(game, record_digest)
    except RecordError as e:
        view["error"] = str(e)
        return view
    rows = [hand_row(h, profile, lang, view["players"]) for h in result.hands]
    totals = list(result.totals)
    view.update({
        "hands": rows, "totals": totals, "sum": result.sum, "expected_sum": result.expected_sum,
        "zero_sum_ok": result.zero_sum_ok, "complete": result.complete,
        "winners": list(result.winners), "leaders": leaders(totals) if rows else [],
        "any_payment": any(r["has_payment"] for r in rows),
        "hands_played": sum(1 for r in rows if r["counted"]),
    })
    nxt = result.next
    if nxt is not None:
        view["next"] = {
            "number": nxt.number, "contract": nxt.contract,
            "contract_name": _contract_name(profile, nxt.contract, lang),
            "dealer": nxt.dealer, "owner": nxt.owner, "chooser": nxt.chooser,
            "leader": nxt.leader, "fiesta": nxt.fiesta,
        }
    return view


# --- the live sheet: a version check, and what changed since a version ----------------------

@dataclass
class Stamp:
    """What a page polls: the game's version (the optimistic lock, one more per save) and
    when it last changed. Read from the game row alone, without the record."""

    version: int
    updated_at: Any


def game_stamp(session: Session, game_id: int) -> Stamp | None:
    row = session.execute(select(Game.version, Game.updated_at).where(Game.id == game_id)).first()
    return None if row is None else Stamp(int(row[0]), row[1])


CHANGES_SHOWN = 20


def version_before_change(session: Session, game_id: int, hand_index: int) -> int | None:
    """The game's version just before the last change to hand ``hand_index`` (None when the
    change log does not know): what a phone whose entry for that hand was overtaken saw."""
    version = session.scalar(select(func.max(AuditEntry.version)).where(
        AuditEntry.game_id == game_id, AuditEntry.hand_index == hand_index))
    return None if version is None else int(version) - 1


def changes_since(session: Session, game: Game, since: int, lang: str = "es") -> dict[str, Any]:
    """What was saved after version ``since``: the change-log entries (who, when, what, which
    hand row), oldest first, each with the hand as it stands now when it still exists.

    ``complete`` is False when some changes are older than the change log's versions (or
    more than CHANGES_SHOWN): the page then says the game changed without listing it all."""
    entries = list(session.scalars(
        select(AuditEntry).where(AuditEntry.game_id == game.id, AuditEntry.version > since)
        .order_by(AuditEntry.id).limit(CHANGES_SHOWN + 1)).all())
    rows: list[dict[str, Any]] = []
    try:
        result = replay_game(game)
        profile = get_profile(game.profile)
        players = list(game.record["players"])
        rows = [hand_row(h, profile, lang, players) for h in result.hands]
    except RecordError:
        rows = []
    listed = []
    for e in entries[:CHANGES_SHOWN]:
        index = e.hand_index
        now = rows[index] if index is not None and 0 <= index < len(rows) else None
        listed.append({"who": e.who, "at": e.at, "action": e.action.value, "version": e.version,
                       "row": None if index is None else index + 1,
                       "now": None if e.action.value == "delete_hand" else now})
    return {"since": since, "version": game.version, "changes": listed,
            "complete": len(entries) <= CHANGES_SHOWN and game.version - since == len(entries),
            "n_rows": len(game.hands)}
