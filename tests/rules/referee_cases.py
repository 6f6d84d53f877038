"""The case table of test_referee_rules.py: one situation per rule/profile/contract/option.

Seats in a case are relative to the hand's leader (0 = leader of trick 1, then play order).
``fixed`` cards are dealt to those seats, ``voids`` keeps suits away from them, the rest of
the deal is filled in order. ``plays`` fixes plays (trick, rel_seat) -> card before the
subject's play; every other play is the lowest legal card (helpers.autoplay). ``at`` is the
subject play (trick, rel_seat); ``bad`` breaks ``rule`` there, ``good`` is legal there.
``nodeal``: whether the later plays prove the violation without the deal.
"""
from dataclasses import dataclass, field

ALL_HEARTS = "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"
ALL_HEARTS32 = "AH KH QH JH TH 9H 8H 7H"


@dataclass
class Case:
    id: str
    profile: str
    contract: str
    rule: str | None               # the rule the bad play breaks (None: a not-apply case)
    at: tuple[int, int]
    good: str | None = None
    bad: str | None = None
    fixed: dict = field(default_factory=dict)
    voids: dict = field(default_factory=dict)
    plays: dict = field(default_factory=dict)
    trump: str | None = None
    options: dict = field(default_factory=dict)
    nodeal: bool = True


def lead1(card):
    return {(1, 0): card}


C = Case
CASES = []

# ------------------------------------------------------------ follow-suit
for prof, con, tr in [("ru32", "no-tricks", None), ("ru32", "eralash", None),
                      ("fiestas", "no-queens", None), ("fiestas", "trump", "H"),
                      ("subastas", "nulos", None), ("rifki", "el-almaz", None),
                      ("rifki", "koz", "H")]:
    lo = "7" if prof == "ru32" else "2"
    hi = "8" if prof == "ru32" else "3"
    CASES.append(C(f"follow-suit-{prof}-{con}", prof, con, "follow-suit", (1, 1),
                   good=hi + "S", bad=lo + "C", trump=tr,
                   fixed={0: lo + "S", 1: f"{hi}S {lo}C"}, plays=lead1(lo + "S")))
# a K♥ held by a player able to follow is follow-suit, not kh-discard
CASES.append(C("follow-suit-kh-not-void-eralash", "ru32", "eralash", "follow-suit", (1, 1),
               good="8S", bad="KH", fixed={0: "7S", 1: "8S KH"}, plays=lead1("7S")))
# a non-trump while trumps are led and held is follow-suit (not must-head-trump)
CASES.append(C("follow-suit-trump-led-fiestas", "fiestas", "trump", "follow-suit", (1, 1),
               good="9H", bad="2C", trump="H", fixed={0: "5H", 1: "9H 2C"}, voids={1: ""},
               plays=lead1("5H")))

# ------------------------------------------------------------ hearts-lead
for con in ["no-hearts", "no-king", "eralash", "plus-hearts", "plus-king", "plus-eralash"]:
    CASES.append(C(f"hearts-lead-ru32-{con}", "ru32", con, "hearts-lead", (1, 0),
                   good="7S", bad="7H", fixed={0: "7H 7S 8S 9S"}))
# the K♥ falls in trick 1 and ends the hand: only the deal proves the leader had spades
CASES.append(C("hearts-lead-ru32-no-king-ended-at-once", "ru32", "no-king", "hearts-lead", (1, 0),
               good="7S", bad="7H", fixed={0: "7H 8H 9H 7S", 1: "KH", 2: "TH JH QH AH"},
               nodeal=False))
# ru32: no breaking: a heart discarded in trick 1 lifts nothing
CASES.append(C("hearts-lead-ru32-no-breaking", "ru32", "no-hearts", "hearts-lead", (2, 0),
               good="7C", bad="7H", fixed={0: "AS 7H 7C", 1: "8H"}, voids={1: "S"},
               plays={(1, 0): "AS", (1, 1): "8H"}))
for con in ["no-hearts", "no-kh"]:
    CASES.append(C(f"hearts-lead-fiestas-{con}", "fiestas", con, "hearts-lead", (1, 0),
                   good="2S", bad="2H", fixed={0: "2H 2S 3S 4S"}))
CASES.append(C("hearts-lead-fiestas-no-kh-leading-kh", "fiestas", "no-kh", "hearts-lead", (1, 0),
               good="2S", bad="KH", fixed={0: "KH 2S 3S 4S"}, nodeal=False))
CASES.append(C("hearts-lead-fiestas-no-breaking", "fiestas", "no-kh", "hearts-lead", (2, 0),
               good="2C", bad="2H", fixed={0: "AS 2H 2C", 1: "3H"}, voids={1: "S"},
               plays={(1, 0): "AS", (1, 1): "3H"}))
CASES.append(C("hearts-lead-subastas-no-hearts", "subastas", "no-hearts", "hearts-lead", (1, 0),
               good="2S", bad="2H", fixed={0: "2H 2S 3S 4S"}))
for con in ["kupa-almaz", "rifki"]:
    CASES.append(C(f"hearts-lead-rifki-{con}", "rifki", con, "hearts-lead", (1, 0),
                   good="2S", bad="2H", fixed={0: "2H 2S 3S 4S"}))
CASES.append(C("hearts-lead-rifki-rifki-leading-kh", "rifki", "rifki", "hearts-lead", (1, 0),
               good="2S", bad="KH", fixed={0: "KH 2S 3S 4S"}, nodeal=False))
for con in ["el-almaz", "erkek-almaz", "kiz-almaz", "son-iki", "kupa-almaz"]:
    CASES.append(C(f"hearts-lead-rifki-all-penalties-{con}", "rifki", con, "hearts-lead", (1, 0),
                   good="2S", bad="2H", fixed={0: "2H 2S 3S 4S"},
                   options={"hearts_lead_ban": "all-penalties"}))
# exemptions: holding nothing but hearts; broken (rifki only)
CASES.append(C("hearts-lead-ru32-only-hearts", "ru32", "no-hearts", None, (1, 0),
               good="7H", fixed={0: ALL_HEARTS32}))
CASES.append(C("hearts-lead-fiestas-only-hearts", "fiestas", "no-hearts", None, (1, 0),
               good="2H", fixed={0: ALL_HEARTS}))
CASES.append(C("hearts-lead-rifki-only-hearts", "rifki", "kupa-almaz", None, (1, 0),
               good="2H", fixed={0: ALL_HEARTS}))
for con in ["kupa-almaz", "rifki"]:
    CASES.append(C(f"hearts-lead-rifki-{con}-broken", "rifki", con, None, (2, 3),
                   good="4H", fixed={0: "2S", 1: "3H", 2: "3S KH", 3: "AS 4H 5S 6S"}, voids={1: "S"},
                   plays={(1, 0): "2S", (1, 1): "3H", (1, 2): "3S", (1, 3): "AS"}))
# not in force
for prof, con, card, tr in [("ru32", "no-tricks", "7H", None), ("ru32", "no-girls", "7H", None),
                            ("ru32", "no-last-two", "7H", None),
                            ("fiestas", "no-queens", "2H", None), ("fiestas", "nulos", "2H", None),
                            ("subastas", "no-kh", "2H", None), ("subastas", "no-men", "2H", None),
                            ("rifki", "el-almaz", "2H", None), ("rifki", "koz", "2H", "S"),
                            ("rifki", "son-iki", "2H", None)]:
    lo = "7" if prof == "ru32" else "2"
    CASES.append(C(f"hearts-lead-not-in-{prof}-{con}", prof, con, None, (1, 0), good=card,
                   trump=tr, fixed={0: f"{card} {lo}S"}))

# ------------------------------------------------------------ hearts-first-trick (fiestas no-hearts)
CASES.append(C("hearts-first-trick-fiestas-no-hearts", "fiestas", "no-hearts", "hearts-first-trick",
               (1, 1), good="2C", bad="2H", fixed={0: "2S", 1: "2H 2C"}, voids={1: "S"},
               plays=lead1("2S")))
CASES.append(C("hearts-first-trick-only-hearts", "fiestas", "no-hearts", None, (1, 1),
               good="2H", fixed={0: "2S", 1: ALL_HEARTS}, plays=lead1("2S")))
CASES.append(C("hearts-first-trick-not-in-trick-2", "fiestas", "no-hearts", None, (2, 0),
               good="3H", fixed={0: "2C 3H 4D", 1: "3C", 2: "4C", 3: "AC 2S"}, voids={0: "S"},
               plays={(1, 0): "2C", (1, 1): "3C", (1, 2): "4C", (1, 3): "AC", (2, 3): "2S"}))
CASES.append(C("hearts-first-trick-not-in-subastas", "subastas", "no-hearts", None, (1, 1),
               good="2H", fixed={0: "2S", 1: "2H 2C"}, voids={1: "S"}, plays=lead1("2S")))

# ------------------------------------------------------------ kh-lead (subastas no-kh)
CASES.append(C("kh-lead-subastas-no-kh", "subastas", "no-kh", "kh-lead", (1, 0),
               good="2S", bad="KH", fixed={0: "KH 2S 3S 4S"}, nodeal=False))
CASES.append(C("kh-lead-subastas-hearts-may-be-led", "subastas", "no-kh", None, (1, 0),
               good="2H", fixed={0: "2H KH 2S"}))

# ------------------------------------------------------------ kh-discard
for con in ["no-king", "eralash", "plus-king", "plus-eralash"]:
    CASES.append(C(f"kh-discard-ru32-{con}", "ru32", con, "kh-discard", (1, 1),
                   good="KH", bad="7C", fixed={0: "7S", 1: "KH 7C 8C"}, voids={1: "S"},
                   plays=lead1("7S")))
    CASES.append(C(f"kh-discard-ru32-{con}-keep-kh", "ru32", con, None, (1, 1),
                   good="7C", fixed={0: "7S", 1: "KH 7C 8C"}, voids={1: "S"},
                   plays=lead1("7S"), options={"keep_kh": "on"}))
# "When hearts are led the player follows normally and may play any heart."
for con in ["no-king", "eralash"]:
    CASES.append(C(f"kh-discard-ru32-{con}-hearts-led-any-heart", "ru32", con, None, (6, 1),
                   good="TH", fixed={0: "AS KS AD KD AC 7H 8H 9H", 1: "7S 8S 7D 8D 7C 8C KH TH"},
                   plays={(1, 0): "AS", (2, 0): "KS", (3, 0): "AD", (4, 0): "KD", (5, 0): "AC",
                          (6, 0): "7H"}))
for con in ["no-hearts", "no-tricks", "plus-girls"]:
    CASES.append(C(f"kh-discard-not-in-ru32-{con}", "ru32", con, None, (1, 1), good="7C",
                   fixed={0: "7S", 1: "KH 7C 8C"}, voids={1: "S"}, plays=lead1("7S")))
FI_T2 = dict(fixed={0: "2C KH 3D", 1: "3C", 2: "4C", 3: "AC 2S"}, voids={0: "S"},
             plays={(1, 0): "2C", (1, 1): "3C", (1, 2): "4C", (1, 3): "AC", (2, 3): "2S"})
CASES.append(C("kh-discard-fiestas-no-kh-trick-2", "fiestas", "no-kh", "kh-discard", (2, 0),
               good="KH", bad="3D", **FI_T2))
CASES.append(C("kh-discard-not-in-subastas-no-kh", "subastas", "no-kh", None, (2, 0),
               good="3D", **FI_T2))

# ------------------------------------------------------------ kh-first-trick (fiestas no-kh)
# Without the deal the K♥ ends the hand at trick 1 and the player's other cards stay unseen;
# the play is illegal whatever they were (RULES.md §4), so the K♥ itself is the evidence.
CASES.append(C("kh-first-trick-fiestas-no-kh", "fiestas", "no-kh", "kh-first-trick", (1, 1),
               good="2C", bad="KH", fixed={0: "2S", 1: "KH 2C"}, voids={1: "S"},
               plays=lead1("2S")))
CASES.append(C("kh-first-trick-not-in-subastas", "subastas", "no-kh", None, (1, 1),
               good="KH", fixed={0: "2S", 1: "KH 2C"}, voids={1: "S"}, plays=lead1("2S")))

# ------------------------------------------------------------ must-trump
for prof, con in [("fiestas", "trump"), ("rifki", "koz")]:
    CASES.append(C(f"must-trump-{prof}-{con}", prof, con, "must-trump", (1, 1), trump="H",
                   good="2H", bad="2C", fixed={0: "2S", 1: "2H 2C"}, voids={1: "S"},
                   plays=lead1("2S")))
# subastas: trumps "solo pueden usarse para cortar"; a void player plays any card (RULES.md 1.3)
CASES.append(C("must-trump-not-in-subastas", "subastas", "trump", None, (1, 1), trump="H",
               good="2C", fixed={0: "2S", 1: "2H 2C"}, voids={1: "S"}, plays=lead1("2S")))
CASES.append(C("must-trump-not-in-subastas-notrump", "subastas", "notrump", None, (1, 1),
               good="2C", fixed={0: "2S", 1: "2H 2C"}, voids={1: "S"}, plays=lead1("2S")))
CASES.append(C("follow-suit-subastas-trump", "subastas", "trump", "follow-suit", (1, 1),
               trump="H", good="3S", bad="2H", fixed={0: "2S", 1: "3S 2H"}, plays=lead1("2S")))
CASES.append(C("follow-suit-subastas-notrump", "subastas", "notrump", "follow-suit", (1, 1),
               good="3S", bad="2H", fixed={0: "2S", 1: "3S 2H"}, plays=lead1("2S")))
# rifki koz: a trump even if it cannot win
CASES.append(C("must-trump-rifki-koz-cannot-win", "rifki", "koz", "must-trump", (1, 2), trump="H",
               good="2H", bad="2C", fixed={0: "2S", 1: "AH", 2: "2H 2C"}, voids={1: "S", 2: "S"},
               plays={(1, 0): "2S", (1, 1): "AH"}))
CASES.append(C("must-trump-rifki-koz-undertrump-ok", "rifki", "koz", None, (1, 2), trump="H",
               good="2H", fixed={0: "2S", 1: "5H", 2: "2H 9H 2C"}, voids={1: "S", 2: "S"},
               plays={(1, 0): "2S", (1, 1): "5H"}))
CASES.append(C("must-trump-not-in-nulos", "fiestas", "nulos", None, (1, 1),
               good="2C", fixed={0: "2S", 1: "2H 2C"}, voids={1: "S"}, plays=lead1("2S")))

# ------------------------------------------------------------ must-overtrump
CASES.append(C("must-overtrump-fiestas-discard", "fiestas", "trump", "must-overtrump", (1, 2),
               trump="H", good="9H", bad="2C", fixed={0: "2S", 1: "5H", 2: "9H 3H 2C"},
               voids={1: "S", 2: "S"}, plays={(1, 0): "2S", (1, 1): "5H"}))
CASES.append(C("must-overtrump-fiestas-undertrump", "fiestas", "trump", "must-overtrump", (1, 2),
               trump="H", good="9H", bad="3H", fixed={0: "2S", 1: "5H", 2: "9H 3H 2C"},
               voids={1: "S", 2: "S"}, plays={(1, 0): "2S", (1, 1): "5H"}))
for bad in ("2C", "3H"):
    CASES.append(C(f"must-overtrump-not-in-subastas-{bad}", "subastas", "trump", None, (1, 2),
                   trump="H", good=bad, fixed={0: "2S", 1: "5H", 2: "9H 3H 2C"},
                   voids={1: "S", 2: "S"}, plays={(1, 0): "2S", (1, 1): "5H"}))
for prof in ["fiestas", "subastas"]:
    CASES.append(C(f"must-overtrump-{prof}-cannot-beat-any-card", prof, "trump", None, (1, 2),
                   trump="H", good="2C", fixed={0: "2S", 1: "AH", 2: "3H 2C"},
                   voids={1: "S", 2: "S"}, plays={(1, 0): "2S", (1, 1): "AH"}))

# ------------------------------------------------------------ must-head-trump
CASES.append(C("must-head-trump-fiestas", "fiestas", "trump", "must-head-trump", (1, 1),
               trump="H", good="9H", bad="3H", fixed={0: "5H", 1: "9H 3H"}, plays=lead1("5H")))
CASES.append(C("must-head-trump-not-in-subastas", "subastas", "trump", None, (1, 1),
               trump="H", good="3H", fixed={0: "5H", 1: "9H 3H"}, plays=lead1("5H")))
for prof in ["fiestas", "subastas"]:
    CASES.append(C(f"must-head-trump-{prof}-cannot-beat", prof, "trump", None, (1, 1),
                   trump="H", good="3H", fixed={0: "AH", 1: "4H 3H"}, plays=lead1("AH")))
# a void player's discard in between changes nothing: trumps were led, 5♥ is the highest
CASES.append(C("must-head-trump-fiestas-after-a-discard", "fiestas", "trump", "must-head-trump",
               (1, 2), trump="H", good="9H", bad="3H", fixed={0: "5H", 1: "2C", 2: "9H 3H"},
               voids={1: "H"}, plays={(1, 0): "5H", (1, 1): "2C"}))
CASES.append(C("must-head-trump-not-in-rifki-koz", "rifki", "koz", None, (1, 1),
               trump="H", good="3H", fixed={0: "5H", 1: "9H 3H"}, plays=lead1("5H")))
CASES.append(C("must-head-trump-not-on-side-suit-fiestas", "fiestas", "trump", None, (1, 1),
               trump="H", good="3S", fixed={0: "5S", 1: "9S 3S"}, plays=lead1("5S")))

# ------------------------------------------------------------ penalty-discard (rifki)
for con, pen in [("kupa-almaz", "2H"), ("erkek-almaz", "KD"), ("erkek-almaz", "JD"),
                 ("kiz-almaz", "QD"), ("rifki", "KH")]:
    CASES.append(C(f"penalty-discard-rifki-{con}-{pen}", "rifki", con, "penalty-discard", (1, 1),
                   good=pen, bad="2C", fixed={0: "2S", 1: f"{pen} 2C"}, voids={1: "S"},
                   plays=lead1("2S")))
CASES.append(C("penalty-discard-rifki-kh-other-heart", "rifki", "rifki", "penalty-discard", (1, 1),
               good="KH", bad="2H", fixed={0: "2S", 1: "KH 2H 2C"}, voids={1: "S"},
               plays=lead1("2S")))
CASES.append(C("penalty-discard-rifki-void-heart-option", "rifki", "rifki", "penalty-discard", (1, 1),
               good="2H", bad="2C", fixed={0: "2S", 1: "KH 2H 2C"}, voids={1: "S"},
               plays=lead1("2S"), options={"rifki_void": "heart"}))
CASES.append(C("penalty-discard-rifki-void-heart-option-kh-ok", "rifki", "rifki", None, (1, 1),
               good="KH", fixed={0: "2S", 1: "KH 2H 2C"}, voids={1: "S"},
               plays=lead1("2S"), options={"rifki_void": "heart"}))
CASES.append(C("penalty-discard-rifki-void-heart-option-without-kh", "rifki", "rifki", None, (1, 1),
               good="2C", fixed={0: "2S", 1: "3H 2H 2C"}, voids={1: "S"},
               plays=lead1("2S"), options={"rifki_void": "heart"}))
for con in ["el-almaz", "son-iki"]:
    CASES.append(C(f"penalty-discard-not-in-rifki-{con}", "rifki", con, None, (1, 1),
                   good="2C", fixed={0: "2S", 1: "KH QD 2H 2C"}, voids={1: "S"}, plays=lead1("2S")))

# ------------------------------------------------------------ penalty-drop (rifki)
CASES.append(C("penalty-drop-rifki-kiz-almaz", "rifki", "kiz-almaz", "penalty-drop", (1, 2),
               good="QS", bad="3S", fixed={0: "2S", 1: "KS", 2: "QS 3S"},
               plays={(1, 0): "2S", (1, 1): "KS"}))
CASES.append(C("penalty-drop-rifki-erkek-almaz-king", "rifki", "erkek-almaz", "penalty-drop", (1, 1),
               good="KS", bad="3S", fixed={0: "AS", 1: "KS 3S"}, plays=lead1("AS")))
CASES.append(C("penalty-drop-rifki-erkek-almaz-jack", "rifki", "erkek-almaz", "penalty-drop", (1, 1),
               good="JS", bad="3S", fixed={0: "QS", 1: "JS 3S"}, plays=lead1("QS")))
CASES.append(C("penalty-drop-rifki-erkek-almaz-higher-penalty-is-no-drop", "rifki", "erkek-almaz",
               "penalty-drop", (1, 1), good="JS", bad="KS", fixed={0: "QS", 1: "KS JS 3S"},
               plays=lead1("QS")))
RIFKI_T2 = dict(fixed={0: "2S KH 4H", 1: "3H", 2: "3S", 3: "AS AH"}, voids={1: "S"},
                plays={(1, 0): "2S", (1, 1): "3H", (1, 2): "3S", (1, 3): "AS", (2, 3): "AH"})
CASES.append(C("penalty-drop-rifki-rifki", "rifki", "rifki", "penalty-drop", (2, 0),
               good="KH", bad="4H", **RIFKI_T2))
CASES.append(C("penalty-drop-not-in-rifki-kupa-almaz", "rifki", "kupa-almaz", None, (2, 0),
               good="4H", **RIFKI_T2))
CASES.append(C("penalty-drop-not-in-rifki-el-almaz", "rifki", "el-almaz", None, (1, 1),
               good="3S", fixed={0: "AS", 1: "KS 3S"}, plays=lead1("AS")))
CASES.append(C("penalty-drop-not-when-higher-than-table", "rifki", "kiz-almaz", None, (1, 1),
               good="3S", fixed={0: "JS", 1: "QS 3S"}, plays=lead1("JS")))

# ------------------------------------------------------------ must-overtake (rifki option)
for opt, con, tr in [("koz", "koz", "H"), ("all", "koz", "H"), ("all", "el-almaz", None),
                     ("all", "son-iki", None)]:
    CASES.append(C(f"must-overtake-{opt}-{con}", "rifki", con, "must-overtake", (1, 1), trump=tr,
                   good="9S", bad="3S", fixed={0: "5S", 1: "9S 3S"}, plays=lead1("5S"),
                   options={"must_overtake": opt}))
CASES.append(C("must-overtake-koz-trump-led", "rifki", "koz", "must-overtake", (1, 1), trump="H",
               good="9H", bad="3H", fixed={0: "5H", 1: "9H 3H"}, plays=lead1("5H"),
               options={"must_overtake": "koz"}))
for opt, con, tr in [("no", "koz", "H"), ("no", "el-almaz", None), ("koz", "el-almaz", None)]:
    CASES.append(C(f"must-overtake-not-with-{opt}-in-{con}", "rifki", con, None, (1, 1), trump=tr,
                   good="3S", fixed={0: "5S", 1: "9S 3S"}, plays=lead1("5S"),
                   options={"must_overtake": opt}))
CASES.append(C("must-overtake-not-when-trumped", "rifki", "koz", None, (1, 2), trump="H",
               good="3S", fixed={0: "5S", 1: "2H", 2: "9S 3S"}, voids={1: "S"},
               plays={(1, 0): "5S", (1, 1): "2H"}, options={"must_overtake": "koz"}))
CASES.append(C("must-overtake-after-penalty-drop", "rifki", "kiz-almaz", "penalty-drop", (1, 2),
               good="QS", bad="AS", fixed={0: "JS", 1: "KS", 2: "QS AS 3S"},
               plays={(1, 0): "JS", (1, 1): "KS"}, options={"must_overtake": "all"}))

# ------------------------------------------------------------ trump-lead (rifki koz option)
CASES.append(C("trump-lead-rifki-koz", "rifki", "koz", "trump-lead", (1, 0), trump="H",
               good="2S", bad="2H", fixed={0: "2H 2S 3S"}, options={"trump_lead_ban": "on"}))
CASES.append(C("trump-lead-off-by-default", "rifki", "koz", None, (1, 0), trump="H",
               good="2H", fixed={0: "2H 2S 3S"}))
CASES.append(C("trump-lead-only-trumps", "rifki", "koz", None, (1, 0), trump="H",
               good="2H", fixed={0: ALL_HEARTS}, options={"trump_lead_ban": "on"}))
CASES.append(C("trump-lead-broken", "rifki", "koz", None, (2, 1), trump="H",
               good="4H", fixed={0: "2S", 1: "3H 4H"}, voids={1: "S"},
               plays={(1, 0): "2S", (1, 1): "3H"}, options={"trump_lead_ban": "on"}))
