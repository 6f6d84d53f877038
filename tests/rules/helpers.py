"""Test-side reference model of RULES.md, written independently of app.rules.

It is the cross-check: it knows the trick winner, which cards are legal under each
rule of RULES.md section 3 (one function per rule id), and can play out a complete
legal hand from a deal by always choosing the lowest legal card, with chosen plays
overwritten. Nothing here imports the engine.
"""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RECORDS = REPO / "tests" / "data" / "records"
KINGSHEET = Path(sys.executable).parent / "kingsheet"

SUITS = "SHDC"
RANKS52 = "AKQJT98765432"
RANKS32 = "AKQJT987"
RANK_VALUE = {r: 14 - i for i, r in enumerate(RANKS52)}  # A=14 ... 2=2


def deck(size: int) -> list[str]:
    ranks = RANKS32 if size == 32 else RANKS52
    return [r + s for s in SUITS for r in ranks]


def suit(card: str) -> str:
    return card[-1]


def rank(card: str) -> int:
    return RANK_VALUE[card[0]]


def low_key(card: str) -> tuple[int, int]:
    """Sort key: lowest rank first, then C D H S."""
    return (rank(card), "CDHS".index(suit(card)))


# ---------------------------------------------------------------- contracts

RU32_ORDER = ["no-tricks", "no-boys", "no-girls", "no-hearts", "no-king", "no-last-two",
              "eralash", "plus-tricks", "plus-boys", "plus-girls", "plus-hearts",
              "plus-king", "plus-last-two", "plus-eralash"]
FIESTA_NEG = ["no-tricks", "no-hearts", "no-queens", "no-men", "no-kh", "no-last-two"]
RIFKI_PENALTIES = ["el-almaz", "kupa-almaz", "erkek-almaz", "kiz-almaz", "rifki", "son-iki"]

# scoring elements per (profile, contract): element -> value per unit
def scoring(profile: str, contract: str) -> dict[str, int]:
    if profile == "ru32":
        base = contract.removeprefix("plus-")
        sign = 1 if contract.startswith("plus-") else -1
        table = {"no-tricks": {"tricks": 2}, "tricks": {"tricks": 2},
                 "no-boys": {"kings": 4}, "boys": {"kings": 4},
                 "no-girls": {"queens": 4}, "girls": {"queens": 4},
                 "no-hearts": {"hearts": 2}, "hearts": {"hearts": 2},
                 "no-king": {"kh": 16}, "king": {"kh": 16},
                 "no-last-two": {"last_two": 8}, "last-two": {"last_two": 8}}
        if base in ("eralash",):
            vals = {"tricks": 2, "kings": 4, "queens": 4, "hearts": 2, "kh": 16, "last_two": 8}
        else:
            vals = table[base]
        return {k: sign * v for k, v in vals.items()}
    if profile in ("fiestas", "subastas"):
        return {"no-tricks": {"tricks": -20}, "no-hearts": {"hearts": -20},
                "no-queens": {"queens": -50}, "no-men": {"kings": -30, "jacks": -30},
                "no-kh": {"kh": -160}, "no-last-two": {"last_two": -90},
                "trump": {"tricks": 25}, "notrump": {"tricks": 25}}.get(contract, {})
    return {"el-almaz": {"tricks": -50}, "kupa-almaz": {"hearts": -30},
            "erkek-almaz": {"kings": -60, "jacks": -60}, "kiz-almaz": {"queens": -100},
            "rifki": {"kh": -320}, "son-iki": {"last_two": -180},
            "koz": {"tricks": 50}}[contract]


def scoring_cards(profile: str, contract: str, size: int) -> set[str]:
    el = scoring(profile, contract)
    cards: set[str] = set()
    for c in deck(size):
        if ("hearts" in el and suit(c) == "H") or ("kings" in el and c[0] == "K") or \
           ("queens" in el and c[0] == "Q") or ("jacks" in el and c[0] == "J") or \
           ("kh" in el and c == "KH"):
            cards.add(c)
    return cards


def ends_early(profile: str, contract: str) -> bool:
    el = scoring(profile, contract)
    return bool(el) and "tricks" not in el and "last_two" not in el


# ---------------------------------------------------------------- the rules

@dataclass
class Ctx:
    profile: str
    contract: str
    trump: str | None = None
    options: dict = field(default_factory=dict)

    def opt(self, name: str, default: str) -> str:
        return self.options.get(name, default)

    @property
    def size(self) -> int:
        return 32 if self.profile == "ru32" else 52


def hearts_lead_applies(ctx: Ctx) -> bool:
    c = ctx.contract
    if ctx.profile == "ru32":
        return c in ("no-hearts", "no-king", "eralash", "plus-hearts", "plus-king", "plus-eralash")
    if ctx.profile == "fiestas":
        return c in ("no-hearts", "no-kh")
    if ctx.profile == "subastas":
        return c == "no-hearts"
    if ctx.opt("hearts_lead_ban", "kupa-rifki") == "all-penalties":
        return c in RIFKI_PENALTIES
    return c in ("kupa-almaz", "rifki")


def penalty_cards(ctx: Ctx) -> set[str]:
    """Rifki penalty cards of the contract (penalty-discard / penalty-drop)."""
    c = ctx.contract
    d = deck(52)
    if c == "kupa-almaz":
        return {x for x in d if suit(x) == "H"}
    if c == "erkek-almaz":
        return {x for x in d if x[0] in "KJ"}
    if c == "kiz-almaz":
        return {x for x in d if x[0] == "Q"}
    if c == "rifki":
        return {"KH"}
    return set()


def overtake_applies(ctx: Ctx) -> bool:
    mo = ctx.opt("must_overtake", "no")
    return ctx.profile == "rifki" and (mo == "all" or (mo == "koz" and ctx.contract == "koz"))


def current_winner(trick: list[str], trump: str | None) -> str:
    led = suit(trick[0])
    trumps = [c for c in trick if trump and suit(c) == trump]
    if trumps:
        return max(trumps, key=rank)
    return max((c for c in trick if suit(c) == led), key=rank)


def legal(ctx: Ctx, holding: list[str], trick: list[str], trick_no: int,
          played_before: list[str]) -> tuple[list[str], str | None]:
    """The legal cards and the rule id that restricts them (None: free / follow-suit)."""
    H = list(holding)
    if not trick:  # leading
        if ctx.profile == "subastas" and ctx.contract == "no-kh" and "KH" in H and len(H) > 1:
            return [c for c in H if c != "KH"], "kh-lead"
        if hearts_lead_applies(ctx):
            broken = ctx.profile == "rifki" and any(suit(c) == "H" for c in played_before)
            if not broken and any(suit(c) != "H" for c in H):
                return [c for c in H if suit(c) != "H"], "hearts-lead"
        if ctx.profile == "rifki" and ctx.contract == "koz" and ctx.opt("trump_lead_ban", "off") == "on":
            broken = any(suit(c) == ctx.trump for c in played_before)
            if not broken and any(suit(c) != ctx.trump for c in H):
                return [c for c in H if suit(c) != ctx.trump], "trump-lead"
        return H, None
    led = suit(trick[0])
    follow = [c for c in H if suit(c) == led]
    if follow:
        if ctx.profile == "fiestas" and ctx.contract == "trump" and led == ctx.trump:
            top = max(rank(c) for c in trick if suit(c) == ctx.trump)
            higher = [c for c in follow if rank(c) > top]
            if higher:
                return higher, "must-head-trump"
        if ctx.profile == "rifki":
            if ctx.contract in ("erkek-almaz", "kiz-almaz", "rifki"):
                top = max(rank(c) for c in trick if suit(c) == led)
                drop = [c for c in follow if c in penalty_cards(ctx) and rank(c) < top]
                if drop:
                    return drop, "penalty-drop"
            if overtake_applies(ctx):
                win = current_winner(trick, ctx.trump)
                if suit(win) == led:
                    beat = [c for c in follow if rank(c) > rank(win)]
                    if beat:
                        return beat, "must-overtake"
        return follow, None
    # void in the led suit
    if ctx.profile == "ru32":
        if ctx.contract in ("no-king", "eralash", "plus-king", "plus-eralash") \
                and ctx.opt("keep_kh", "off") == "off" and "KH" in H:
            return ["KH"], "kh-discard"
        return H, None
    if ctx.profile in ("fiestas", "subastas"):
        # subastas trump and notrump hands have no trump duties (RULES.md 1.3): any card
        if ctx.profile == "fiestas" and ctx.contract == "trump":
            trumps = [c for c in H if suit(c) == ctx.trump]
            on_table = [c for c in trick if suit(c) == ctx.trump]
            if on_table:
                top = max(rank(c) for c in on_table)
                higher = [c for c in trumps if rank(c) > top]
                if higher:
                    return higher, "must-overtrump"
                return H, None
            if trumps:
                return trumps, "must-trump"
            return H, None
        if ctx.profile == "fiestas" and ctx.contract == "no-kh":
            if trick_no == 1:
                # the K♥ on a non-heart lead in trick 1 is illegal whatever else is held
                # (RULES.md §4): with a known holding of the K♥ alone nothing is legal
                if "KH" in H:
                    return [c for c in H if c != "KH"], "kh-first-trick"
                return H, None
            if "KH" in H:
                return ["KH"], "kh-discard"
        if ctx.profile == "fiestas" and ctx.contract == "no-hearts" and trick_no == 1:
            if any(suit(c) != "H" for c in H):
                return [c for c in H if suit(c) != "H"], "hearts-first-trick"
        return H, None
    # rifki
    if ctx.contract == "koz":
        trumps = [c for c in H if suit(c) == ctx.trump]
        if trumps:
            return trumps, "must-trump"
        return H, None
    if ctx.contract == "rifki" and ctx.opt("rifki_void", "kh") == "heart":
        if "KH" in H:
            return [c for c in H if suit(c) == "H"], "penalty-discard"
        return H, None
    pen = [c for c in H if c in penalty_cards(ctx)]
    if pen:
        return pen, "penalty-discard"
    return H, None


def winner_seat(trick: list[str], leader: int, trump: str | None) -> int:
    w = current_winner(trick, trump)
    return (leader + trick.index(w)) % 4


@dataclass
class Played:
    tricks: list[list[str]]
    leaders: list[int]
    winners: list[int]
    deal: list[list[str]]

    def seat_of(self, t: int, pos: int) -> int:
        return (self.leaders[t] + pos) % 4

    def played_at(self, seat: int, card: str) -> int | None:
        """1-based trick where seat played card, or None."""
        for t, tr in enumerate(self.tricks):
            for pos, c in enumerate(tr):
                if c == card and self.seat_of(t, pos) == seat:
                    return t + 1
        return None

    def holding_at(self, seat: int, trick_no: int) -> list[str]:
        """Cards of the deal still held by seat when trick trick_no starts."""
        gone = set()
        for t in range(trick_no - 1):
            for pos, c in enumerate(self.tricks[t]):
                if self.seat_of(t, pos) == seat:
                    gone.add(c)
        return [c for c in self.deal[seat] if c not in gone]


def autoplay(ctx: Ctx, deal: list[list[str]], leader: int,
             overrides: dict[tuple[int, int], str] | None = None,
             full: bool = False, pick=None) -> Played:
    """Plays the lowest legal card each time, except overrides[(trick_no, seat)]; or
    ``pick(hand, legal_cards)`` chooses.

    Stops at the early end of the contract unless full=True.
    """
    overrides = overrides or {}
    hands = [list(h) for h in deal]
    ntricks = len(deal[0])
    score = scoring_cards(ctx.profile, ctx.contract, ctx.size)
    tricks, leaders, winners, played = [], [], [], []
    lead = leader
    for t in range(1, ntricks + 1):
        trick: list[str] = []
        for pos in range(4):
            seat = (lead + pos) % 4
            if (t, seat) in overrides:
                card = overrides[(t, seat)]
                assert card in hands[seat], f"override {card} not held by seat {seat} at trick {t}"
            else:
                cands, _ = legal(ctx, hands[seat], trick, t, played)
                card = pick(hands[seat], cands) if pick else min(cands, key=low_key)
            hands[seat].remove(card)
            trick.append(card)
        tricks.append(trick)
        leaders.append(lead)
        lead = winner_seat(trick, lead, ctx.trump)
        winners.append(lead)
        played.extend(trick)
        if not full and ends_early(ctx.profile, ctx.contract) and score <= set(played):
            break
    return Played(tricks, leaders, winners, [list(h) for h in deal])


def make_deal(size: int, fixed: dict[int, list[str]] | None = None,
              voids: dict[int, str] | None = None, order: str = "SHDC") -> list[list[str]]:
    """A deal with fixed cards per seat; the rest dealt in sequence to seats with room
    that are not void in the card's suit (voids: seat -> suits)."""
    fixed = fixed or {}
    voids = voids or {}
    n = size // 4
    hands = [list(fixed.get(s, [])) for s in range(4)]
    used = {c for h in hands for c in h}
    assert len(used) == sum(len(h) for h in hands), "a fixed card twice"
    ranks = RANKS32 if size == 32 else RANKS52
    rest = [r + s for s in order for r in ranks if r + s not in used]
    for s in range(4):
        for c in hands[s]:
            assert suit(c) not in voids.get(s, ""), f"seat {s} void in {suit(c)} holds {c}"
    seat = 0
    for c in rest:
        for k in range(4):
            s = (seat + k) % 4
            if len(hands[s]) < n and suit(c) not in voids.get(s, ""):
                hands[s].append(c)
                seat = (s + 1) % 4
                break
        else:
            raise AssertionError(f"cannot place {c}")
    return hands


# ---------------------------------------------------------------- records

def rec(profile: str, hands: list[dict], options: dict | None = None, first: int = 0,
        players: list | None = None) -> dict:
    r: dict = {"format": "kingsheet/1", "profile": profile,
               "players": players or ["Ana", "Beto", "Carla", "Dani"], "hands": hands}
    if options is not None:
        r["options"] = options
    r["first_chooser" if profile == "rifki" else "first_dealer"] = first
    return r


def filler(profile: str, number: int, contract: str | None = None) -> dict:
    """A simple valid counts hand for schedule position number (1-based)."""
    if profile == "ru32":
        c = RU32_ORDER[number - 1]
        el = scoring("ru32", c)
        counts: dict = {}
        if "tricks" in el:
            counts["tricks"] = [2, 2, 2, 2]
        if "hearts" in el:
            counts["hearts"] = [2, 2, 2, 2]
        if "kings" in el:
            counts["kings"] = [1, 1, 1, 1]
        if "queens" in el:
            counts["queens"] = [1, 1, 1, 1]
        if "kh" in el:
            counts["kh"] = 0
        if "last_two" in el:
            counts["last_two"] = [1, 2]
        return {"contract": c, "counts": counts}
    if profile in ("fiestas", "subastas"):
        if number <= 6:
            c = FIESTA_NEG[number - 1]
            counts = {"no-tricks": {"tricks": [4, 3, 3, 3]}, "no-hearts": {"hearts": [4, 3, 3, 3]},
                      "no-queens": {"queens": [1, 1, 1, 1]},
                      "no-men": {"kings": [1, 1, 1, 1], "jacks": [1, 1, 1, 1]},
                      "no-kh": {"kh": 0}, "no-last-two": {"last_two": [0, 1]}}[c]
            return {"contract": c, "counts": counts}
        return {"contract": "433"}
    c = contract or "koz"
    counts = {"el-almaz": {"tricks": [4, 3, 3, 3]}, "kupa-almaz": {"hearts": [4, 3, 3, 3]},
              "erkek-almaz": {"kings": [1, 1, 1, 1], "jacks": [1, 1, 1, 1]},
              "kiz-almaz": {"queens": [1, 1, 1, 1]}, "rifki": {"kh": 0},
              "son-iki": {"last_two": [0, 1]}, "koz": {"tricks": [4, 3, 3, 3]}}[c]
    h = {"contract": c, "counts": counts}
    if c == "koz":
        h["trump"] = "S"
    return h


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    exe = str(KINGSHEET) if KINGSHEET.exists() else "kingsheet"
    return subprocess.run([exe, "score", *args], input=stdin, capture_output=True,
                          text=True, timeout=60, cwd=str(REPO))


def write_json(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False))
    return path


def deepcopy(x):
    return copy.deepcopy(x)


# ---------------------------------------------------------------- one hand in a game

def position(profile, contract):
    if profile == "ru32":
        n = RU32_ORDER.index(contract) + 1
        return n, n % 4
    if profile in ("fiestas", "subastas"):
        if contract in FIESTA_NEG:
            n = FIESTA_NEG.index(contract) + 1
            return n, n % 4
        return 7, 3
    # rifki: hand 2, chosen and led by seat 2 (first_chooser 1 chose hand 1, a filler), so
    # that a random deal may give the 2♦ to anyone (hand 1's deal gives it to first_chooser)
    return 2, 2


def record_for(profile, contract, trump, options, tricks, deal):
    n, _ = position(profile, contract)
    hand = {"contract": contract, "tricks": tricks}
    if trump:
        hand["trump"] = trump
    if deal is not None:
        hand["deal"] = deal
    if profile == "ru32":
        return rec("ru32", [filler("ru32", k) for k in range(1, n)] + [hand], first=0,
                   options=options)
    if profile in ("fiestas", "subastas"):
        if n == 7:
            hand["auction"] = ["3:pass", "0:pass", "1:pass"]
        return rec(profile, [filler(profile, k) for k in range(1, min(n, 7))] + [hand], first=0)
    return rec("rifki", [filler("rifki", 1), hand], first=1, options=options)


# ---------------------------------------------------------------- counts that can happen

def seat_counts_possible(size: int, counted: dict[str, int], has_kh: bool | None) -> bool:
    """Can one seat have taken cards with these per-element counts (RULES.md §2)?

    ``counted``: element -> count for the card elements entered (hearts, kings, queens,
    jacks); ``has_kh``: whether the seat is credited with the K♥ (None: not counted).
    Brute force over which of K♥ Q♥ J♥ the seat took, the other cards of each kind being
    interchangeable. Tricks are not looked at.
    """
    ranks = RANKS32 if size == 32 else RANKS52
    n_hearts = len(ranks)
    for kh in (0, 1):
        for qh in (0, 1):
            for jh in (0, 1):
                if has_kh is not None and kh != has_kh:
                    continue
                faces = {"kings": kh, "queens": qh, "jacks": jh}
                ok = all(0 <= counted[e] - faces[e] <= 3 for e in faces if e in counted)
                plain = counted.get("hearts", 0) - kh - qh - jh
                if "hearts" in counted:
                    ok = ok and 0 <= plain <= n_hearts - 3
                if ok:
                    return True
    return False
