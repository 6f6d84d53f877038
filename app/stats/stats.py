"""A player's statistics (issue 26): per contract, Kings made, the auction, head-to-head,
records and streaks -- over finished games only.

:func:`seat_counters` reads what each seat did in a game from its replay (hands and points
per contract, the cards each contract counts that the seat took, Kings made, fiestas bought
and sold, their bids and payments, 433s). They are stored per seat (:class:`SeatStat`)
with the game's stored results, and summed per player and profile (:class:`PlayerStat`)
and per pair of players (:class:`HeadToHead`) by adding the difference of each change, so
a player's page reads a few rows whatever the number of games. Records and streaks come
from the rating steps (:mod:`app.stats.ratings`), which follow the games in order.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import Table, and_, case, func, select, tuple_
from sqlalchemy.orm import Session, aliased

from app.models import HeadToHead, Player, PlayerStat, RatingStep, SeatResult, SeatStat
from app.models.rating import H2H_COLUMNS
from app.rules import PROFILES, get_profile
from app.rules.referee.sale import bid_points
from app.stats import leaderboard
from app.stats.sums import add_to_sums

SEAT_STAT = cast(Table, SeatStat.__table__)
Counters = dict[str, int]
StatKey = tuple[int, str, str]          # (player_id, profile, key)
PairKey = tuple[int, int, str]          # (player_id, opponent_id, profile)
OPPONENTS_SHOWN = 20


# --- what a seat did in one game -------------------------------------------------------------

def _hand_counters(out: list[defaultdict[str, int]], h: Any) -> None:
    cid = h.contract.id
    for s in range(4):
        _seat_hand_counters(out[s], h, cid, s)
    if h.made_king and h.king_seat is not None:
        out[h.king_seat]["kings"] += 1
    if h.bid is not None and h.declarer is not None and h.owner is not None and h.declarer != h.owner:
        _sale_counters(out, h)
    if not h.contract.played and h.owner is not None:      # a 433: the owner's call
        out[h.owner]["433"] += 1


def _seat_hand_counters(c: defaultdict[str, int], h: Any, cid: str, s: int) -> None:
    """Seat ``s``'s hand of the contract, points and cards taken per scoring element."""
    c[f"hands:{cid}"] += 1
    c[f"points:{cid}"] += int(h.points[s])
    for element, value in h.contract.values.items():
        if value and element in h.counts:
            c[f"took:{cid}:{element}"] += int(h.counts[element][s])


def _sale_counters(out: list[defaultdict[str, int]], h: Any) -> None:
    """A contract sold at auction: the buyer's purchase and payment, the owner's sale."""
    out[h.declarer]["bought"] += 1
    out[h.declarer]["bid_points"] += bid_points(h.bid)
    out[h.declarer]["paid"] += int(h.payments[h.declarer])
    out[h.owner]["sold"] += 1
    out[h.owner]["received"] += int(h.payments[h.owner])


def seat_counters(result: Any) -> list[Counters]:
    """Each seat's counters over the counted hands of a replayed game (zeros left out)."""
    out: list[defaultdict[str, int]] = [defaultdict(int) for _ in range(4)]
    for h in result.hands:
        if h.counted:
            _hand_counters(out, h)
    return [{k: v for k, v in sorted(c.items()) if v} for c in out]


# --- keeping the sums ------------------------------------------------------------------------

def _rows_by_seat(rows: Sequence[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    return {int(r["seat"]): r for r in rows}


def add_stats(deltas: dict[StatKey, int], rows: Sequence[dict[str, Any]], counters: dict[int, Counters],
              sign: int) -> None:
    for seat, row in _rows_by_seat(rows).items():
        if row["complete"]:
            for key, value in counters.get(seat, {}).items():
                k = (int(row["player_id"]), str(row["profile"]), key)
                deltas[k] = deltas.get(k, 0) + sign * value


def add_pairs(deltas: dict[PairKey, list[int]], rows: Sequence[dict[str, Any]], sign: int) -> None:
    if not rows or not rows[0]["complete"]:
        return
    for a in rows:
        for b in rows:
            if a is b:
                continue
            k = (int(a["player_id"]), int(b["player_id"]), str(a["profile"]))
            acc = deltas.setdefault(k, [0, 0, 0, 0])
            ta, tb = int(a["total"]), int(b["total"])
            for i, v in enumerate((1, int(ta > tb), int(ta < tb), ta - tb)):
                acc[i] += sign * v


def apply(session: Session, stats: dict[StatKey, int], pairs: dict[PairKey, list[int]]) -> None:
    add_to_sums(session, cast(Table, PlayerStat.__table__), ["player_id", "profile", "key"], ["value"],
                [{"player_id": p, "profile": prof, "key": k, "value": v}
                 for (p, prof, k), v in sorted(stats.items()) if v])
    add_to_sums(session, cast(Table, HeadToHead.__table__), ["player_id", "opponent_id", "profile"],
                H2H_COLUMNS,
                [{"player_id": p, "opponent_id": o, "profile": prof, **dict(zip(H2H_COLUMNS, v, strict=True))}
                 for (p, o, prof), v in sorted(pairs.items()) if any(v)])


def add_changes(stats: dict[StatKey, int], pairs: dict[PairKey, list[int]], changes: Iterable[Any]) -> None:
    """The differences of player_stat and head_to_head after these games' seat rows and
    counters changed (:class:`app.stats.results.Change`): the sums' projector."""
    for c in changes:
        add_stats(stats, c.old, dict(c.old_counters), -1)
        add_stats(stats, c.new, dict(c.new_counters), +1)
        add_pairs(pairs, c.old, -1)
        add_pairs(pairs, c.new, +1)


# --- rebuild ---------------------------------------------------------------------------------

def of_games(column: Any, ids: Sequence[int]) -> Any:
    """``column`` among ``ids``: ``=`` for one game (a save's case; an expanding ``IN``
    costs more to build and to run), ``IN`` for many."""
    return column == ids[0] if len(ids) == 1 else column.in_(ids)


def _wanted_stats(session: Session) -> dict[StatKey, int]:
    wanted: dict[StatKey, int] = defaultdict(int)
    last = (0, -1)
    while True:
        rows = session.execute(
            select(SeatStat.game_id, SeatStat.seat, SeatStat.counters, SeatResult.player_id,
                   SeatResult.profile)
            .join(SeatResult, and_(SeatResult.game_id == SeatStat.game_id, SeatResult.seat == SeatStat.seat))
            .where(SeatResult.complete, tuple_(SeatStat.game_id, SeatStat.seat) > tuple_(*last))
            .order_by(SeatStat.game_id, SeatStat.seat).limit(4000)).all()
        for gid, seat, counters, pid, profile in rows:
            for k, v in counters.items():
                wanted[(int(pid), str(profile), k)] += int(v)
            last = (gid, seat)
        if len(rows) < 4000:
            return {k: v for k, v in wanted.items() if v}


def _wanted_pairs(session: Session) -> dict[PairKey, list[int]]:
    a, b = aliased(SeatResult), aliased(SeatResult)
    rows = session.execute(
        select(a.player_id, b.player_id, a.profile, func.count(),
               func.sum(case((a.total > b.total, 1), else_=0)),
               func.sum(case((a.total < b.total, 1), else_=0)),
               func.sum(a.total - b.total))
        .join(b, and_(a.game_id == b.game_id, a.seat != b.seat))
        .where(a.complete).group_by(a.player_id, b.player_id, a.profile))
    return {(int(p), int(o), str(prof)): [int(g), int(ah), int(bh), int(pts)]
            for p, o, prof, g, ah, bh, pts in rows}


def wanted_sums(session: Session) -> tuple[dict[StatKey, int], dict[PairKey, list[int]]]:
    """player_stat and head_to_head as the seat rows say (read, nothing written: a check,
    and the 0013 migration's backfill)."""
    return _wanted_stats(session), _wanted_pairs(session)


def sums_agree(session: Session) -> bool:
    """player_stat and head_to_head say what the seat rows say (a check: nothing written)."""
    stats = {(r.player_id, r.profile, r.key): r.value for r in session.scalars(select(PlayerStat)) if r.value}
    pairs = {(r.player_id, r.opponent_id, r.profile): [getattr(r, c) for c in H2H_COLUMNS]
             for r in session.scalars(select(HeadToHead)) if r.games}
    return (stats, pairs) == wanted_sums(session)


# --- the player's page -----------------------------------------------------------------------

@dataclass
class ContractLine:
    contract: str
    hands: int
    points: int
    took: list[tuple[str, int]]          # (element, how many the player took in those hands)

    @property
    def average(self) -> float:
        return self.points / self.hands if self.hands else 0.0


@dataclass
class Opponent:
    player_id: int
    name: str
    games: int
    ahead: int
    behind: int
    points: int


@dataclass
class GameMark:
    game_id: int
    total: int
    played_at: Any


@dataclass
class ProfileStats:
    profile: str
    games: int = 0                  # finished games
    wins: int = 0
    points: int = 0                 # sum of final totals
    contracts: list[ContractLine] = field(default_factory=list)
    kings: int = 0
    auction: dict[str, int] = field(default_factory=dict)
    best: GameMark | None = None
    worst: GameMark | None = None
    streak: int = 0                 # wins in a row ending with the latest game
    best_streak: int = 0
    rating: leaderboard.RatingRow | None = None
    opponents: list[Opponent] = field(default_factory=list)
    more_opponents: int = 0

    @property
    def average(self) -> float | None:
        return self.points / self.games if self.games else None

    @property
    def average_bid(self) -> float | None:
        return self.auction["bid_points"] / self.auction["bought"] if self.auction.get("bought") else None


AUCTION_KEYS = ("bought", "bid_points", "paid", "sold", "received", "433")


def _contracts(profile: str, sums: dict[str, int]) -> list[ContractLine]:
    out = []
    for cid, contract in get_profile(profile).contracts.items():
        hands = sums.get(f"hands:{cid}", 0)
        if hands:
            took = [(e, sums.get(f"took:{cid}:{e}", 0)) for e, v in contract.values.items() if v]
            out.append(ContractLine(cid, hands, sums.get(f"points:{cid}", 0), took))
    return out


def _mark(step: RatingStep | None) -> GameMark | None:
    return GameMark(step.game_id, step.total, step.played_at) if step is not None else None


def _records(session: Session, player_id: int, stats: ProfileStats) -> None:
    rs = RatingStep
    mine = (rs.player_id == player_id, rs.profile == stats.profile)
    last = session.scalars(select(rs).where(*mine).order_by(rs.games.desc()).limit(1)).first()
    if last is None:
        return
    stats.games, stats.wins, stats.points = last.games, last.wins, last.points
    stats.streak, stats.best_streak = last.streak, last.best_streak
    # straight off the index (player_id, profile, total): one row each, whatever the games
    stats.best = _mark(session.scalars(select(rs).where(*mine).order_by(rs.total.desc()).limit(1)).first())
    stats.worst = _mark(session.scalars(select(rs).where(*mine).order_by(rs.total).limit(1)).first())


def opponents(session: Session, player_id: int, profile: str, limit: int | None = OPPONENTS_SHOWN
              ) -> tuple[list[Opponent], int]:
    """The player's opponents in a profile, most games together first (``limit`` of them),
    and how many there are in all."""
    h = HeadToHead
    where = (h.player_id == player_id, h.profile == profile, h.games > 0)
    stmt = (select(h, Player.name).join(Player, Player.id == h.opponent_id).where(*where)
            .order_by(h.games.desc(), Player.folded_name, Player.id))
    if limit is not None:
        stmt = stmt.limit(limit)
    rows = [Opponent(r.opponent_id, name, r.games, r.ahead, r.behind, r.points)
            for r, name in session.execute(stmt)]
    total = session.scalar(select(func.count()).select_from(h).where(*where)) or 0
    return rows, int(total)


def player_profiles(session: Session, player_id: int, opponents_shown: int | None = OPPONENTS_SHOWN
                    ) -> list[ProfileStats]:
    """The player's statistics per profile played to the end (RULES.md order)."""
    sums: dict[str, dict[str, int]] = defaultdict(dict)
    for r in session.scalars(select(PlayerStat).where(PlayerStat.player_id == player_id)):
        sums[r.profile][r.key] = r.value
    rated = {r.profile: r for r in leaderboard.player_ratings(session, player_id)}
    out = []
    for profile in PROFILES:
        if profile not in rated:
            continue
        stats = ProfileStats(profile, contracts=_contracts(profile, sums[profile]),
                             kings=sums[profile].get("kings", 0), rating=rated[profile])
        if get_profile(profile).auction:
            stats.auction = {k: sums[profile].get(k, 0) for k in AUCTION_KEYS}
        _records(session, player_id, stats)
        stats.opponents, n = opponents(session, player_id, profile, opponents_shown)
        stats.more_opponents = n - len(stats.opponents)
        out.append(stats)
    return out


