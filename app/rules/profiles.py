"""The four profiles of RULES.md as data: contracts, element values, schedules, options.

Variants are data (python-chess's variant registry): a :class:`Profile` is looked up by
its id, its contracts by theirs, and the table options are a frozen :class:`Options`
whose fields are documented where they are declared.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from app.rules.cards import DECK_32, DECK_52, HEARTS_MASK, JACKS_MASK, KH_BIT, KINGS_MASK, QUEENS_MASK
from app.rules.errors import InputError
from app.rules.names import named

#: The scoring elements of RULES.md §0, in the order the record lists them.
ELEMENTS = ("tricks", "hearts", "kings", "queens", "jacks", "kh", "last_two")
#: The elements entered per seat as a list of four counts (kh and last_two name seats).
COUNT_ELEMENTS = ("tricks", "hearts", "kings", "queens", "jacks")
#: The scoring cards behind each card element.
ELEMENT_CARDS = {"hearts": HEARTS_MASK, "kings": KINGS_MASK, "queens": QUEENS_MASK,
                 "jacks": JACKS_MASK, "kh": KH_BIT}


@dataclass(frozen=True, slots=True)
class Contract:
    """What is played in one hand and how it scores."""

    id: str
    name_es: str
    name_en: str
    values: dict[str, int]          # element -> points per unit captured
    ends_early: bool = False
    trump_game: bool = False        # a trump suit is named (fiesta `trump`, rifki `koz`)
    base: int = 0                   # points every seat starts from (nulos: 325)
    fiesta: bool = False            # one of the fiesta contracts (trump, nulos, 433)
    played: bool = True             # False for 433: no tricks at all
    total: int = 0                  # the fixed hand total
    scoring_mask: int = 0           # the cards that score (the early end waits for them)
    #: the card elements this contract scores and their cards, in RULES.md order
    card_elements: tuple[tuple[str, int], ...] = ()

    @property
    def negative(self) -> bool:
        return self.total < 0

    def ends_after(self, taken: int) -> bool:
        """The early end, the one place it is written: a contract that ends early is over
        once every scoring card is among the cards ``taken`` (RULES.md §0)."""
        return self.ends_early and taken & self.scoring_mask == self.scoring_mask

    def name(self, lang: str = "es") -> str:
        return named(lang, self.name_es, self.name_en)


def _full_counts(deck_size: int) -> Mapping[str, int]:
    deck_mask = DECK_32 if deck_size == 32 else DECK_52
    return MappingProxyType({
        "tricks": 8 if deck_size == 32 else 13, "last_two": 2, "kh": 1,
        "hearts": (HEARTS_MASK & deck_mask).bit_count(), "kings": 4, "queens": 4, "jacks": 4})


_FULL_COUNTS = {32: _full_counts(32), 52: _full_counts(52)}


def full_counts(deck_size: int) -> Mapping[str, int]:
    """How many of each element one hand holds (RULES.md §0): 8 or 13 tricks and hearts, four
    of each face, one K♥, the last two tricks (read-only)."""
    return _FULL_COUNTS[deck_size]


def _contract(cid: str, es: str, en: str, deck: int, values: dict[str, int], *,
              ends_early: bool = False, trump_game: bool = False, base: int = 0,
              fiesta: bool = False, played: bool = True, total: int | None = None) -> Contract:
    deck_mask = DECK_32 if deck == 32 else DECK_52
    full = full_counts(deck)
    scoring = 0
    for element, value in values.items():
        if value and element in ELEMENT_CARDS:
            scoring |= ELEMENT_CARDS[element] & deck_mask
    if total is None:
        total = 4 * base + sum(v * full[e] for e, v in values.items())
    card_elements = tuple((e, m) for e, m in ELEMENT_CARDS.items() if values.get(e))
    return Contract(cid, es, en, dict(values), ends_early, trump_game, base, fiesta, played,
                    total, scoring, card_elements)


@dataclass(frozen=True, slots=True)
class OptionSpec:
    name: str
    values: tuple[str, ...]         # the first is the default
    doc: str


@dataclass(frozen=True, slots=True)
class Options:
    """Table options (RULES.md §4). Only the profile's own options may be set."""

    keep_kh: str = "off"            # ru32: "on" drops the forced K♥ discard (kh-discard)
    choice_limit: str = "3+2"       # rifki: "3+2" quotas per seat, or "free"
    must_overtake: str = "no"       # rifki: "no" | "koz" | "all" (must-overtake)
    trump_lead_ban: str = "off"     # rifki: "on" bans leading koz trumps until broken
    hearts_lead_ban: str = "kupa-rifki"  # rifki: or "all-penalties"
    rifki_void: str = "kh"          # rifki: "kh" (discard the K♥) or "heart" (any heart)
    settlement: str = "tricks"      # subastas: "tricks" (seed 003) or "bid" (the full bid)

    def as_dict(self, profile: Profile) -> dict[str, str]:
        return {spec.name: getattr(self, spec.name) for spec in profile.options}


@dataclass(frozen=True, slots=True)
class PlayTraits:
    """Which rules of RULES.md §1 each contract of a profile brings (contract ids), read by
    :func:`app.rules.referee.checks.play_rules`. The options behind some rules (keep_kh,
    hearts_lead_ban, trump_lead_ban, must_overtake, rifki_void) belong to the profiles that
    have them; elsewhere their defaults leave the rules below as they are."""

    hearts_lead: frozenset[str] = frozenset()         # hearts-lead
    hearts_breakable: bool = False                    # ... lifted once a heart is played
    #: hearts_lead_ban "all-penalties": every contract without trumps bans leading hearts
    hearts_lead_option: bool = False
    hearts_first_trick: frozenset[str] = frozenset()  # hearts-first-trick
    kh_lead: frozenset[str] = frozenset()             # kh-lead
    kh_discard: frozenset[str] = frozenset()          # kh-discard (off with keep_kh "on")
    kh_discard_from: int = 1                          # ... from this trick on
    kh_first_trick: frozenset[str] = frozenset()      # kh-first-trick
    #: the trump duties of a trump game: "" none, "fiesta" (must-trump, must-overtrump,
    #: must-head-trump) or "koz" (must-trump)
    trump_duties: str = ""
    penalty_cards: Mapping[str, int] = field(default_factory=dict)  # penalty-discard cards
    penalty_drop: frozenset[str] = frozenset()        # penalty-drop
    heart_void: frozenset[str] = frozenset()          # rifki_void "heart" applies here


@dataclass(frozen=True, slots=True)
class Profile:
    id: str
    name_es: str
    name_en: str
    description_es: str
    description_en: str
    deck_size: int
    n_hands: int
    clockwise: bool
    contracts: dict[str, Contract]
    schedule: tuple[str | None, ...]    # fixed contract per hand number (None: chosen)
    options: tuple[OptionSpec, ...] = ()
    seat_key: str = "first_dealer"      # or "first_chooser" (rifki)
    auction: bool = False               # fiestas and subastas
    fiesta_from: int = 0                # first fiesta hand number (7), 0 if none
    ladder: tuple[str, ...] = ()        # auction bids, low to high
    #: the auction's traits (RULES.md 1.2, 1.3): the owner may offer "8 o nulos" to any bid
    #: (else only to +6 and +7); the owner may reject a bid; the top bid (+8) is a sale at
    #: once and cannot be equalled; this many bids bar the 433 (0: never)
    ultimatum_any_bid: bool = False
    owner_may_reject: bool = False
    top_bid_sells: bool = False
    bids_bar_433: int = 0
    #: the fiesta contracts a +N sale (or the owner) may play: ("trump",), and in subastas
    #: also "notrump" (RULES.md 1.3)
    positive_fiestas: tuple[str, ...] = ()
    #: every hand's contract is chosen by a rotating chooser, who leads (no dealer), within
    #: the per-contract and per-seat limits of RULES.md 1.4 (rifki)
    chosen: bool = False
    #: a trump hand in which one seat takes every trick makes a King (rifki's koz)
    kings: bool = False
    #: the play rules (RULES.md §1) this profile's contracts bring; see :class:`PlayTraits`
    play: PlayTraits = field(default_factory=lambda: PlayTraits())

    @property
    def n_tricks(self) -> int:
        return 8 if self.deck_size == 32 else 13

    @property
    def deck(self) -> int:
        return DECK_32 if self.deck_size == 32 else DECK_52

    def name(self, lang: str = "es") -> str:
        return named(lang, self.name_es, self.name_en)

    def description(self, lang: str = "es") -> str:
        return named(lang, self.description_es, self.description_en)

    def is_fiesta(self, number: int) -> bool:
        return bool(self.fiesta_from) and number >= self.fiesta_from

    def fixed_contract(self, number: int) -> str | None:
        if 1 <= number <= len(self.schedule):
            return self.schedule[number - 1]
        return None

    def parse_options(self, data: object, field_name: str = "options") -> Options:
        """Table options by name; missing ones take defaults; unknown names/values refused."""
        if data is None:
            return Options()
        if not isinstance(data, dict):
            raise InputError.of(field_name, "type", "must be an object of option names and values")
        known = {spec.name: spec for spec in self.options}
        values: dict[str, Any] = {}
        for name, value in data.items():
            spec = known.get(name)
            if spec is None:
                allowed = ", ".join(known) or "none"
                raise InputError.of(f"{field_name}.{name}", "unknown-option",
                                    "unknown option for %(profile)s (its options: %(allowed)s)",
                                    profile=self.id, allowed=allowed)
            if value not in spec.values:
                raise InputError.of(f"{field_name}.{name}", "option-value",
                                    "%(value)r is not a value of %(option)s (one of: %(allowed)s)",
                                    value=value, option=name, allowed=", ".join(spec.values))
            values[name] = value
        return Options(**values)


# --- ru32: Russian King, 32 cards, 14 fixed rounds (seed 000) -----------------------------
_RU32_ROUNDS = (
    ("tricks", "Bazas", "Tricks", {"tricks": 2}, False),
    ("boys", "Chicos", "Boys", {"kings": 4}, True),
    ("girls", "Chicas", "Girls", {"queens": 4}, True),
    ("hearts", "Corazones", "Hearts", {"hearts": 2}, True),
    ("king", "King", "King", {"kh": 16}, True),
    ("last-two", "las Dos Últimas", "Last Two", {"last_two": 8}, False),
)


def _ru32_half(sign: int, prefix: str) -> list[Contract]:
    """The seven negative rounds of ru32 (``sign`` -1) or their positive twins (+1)."""
    out = []
    for key, es, en, values, early in _RU32_ROUNDS:
        name_es = f"Sin {es}" if sign < 0 else f"{es[:1].upper()}{es[1:]} (positivo)"
        name_en = f"No {en}" if sign < 0 else f"{en} (positive)"
        out.append(_contract(prefix + key, name_es, name_en, 32,
                             {e: sign * v for e, v in values.items()}, ends_early=early))
    all_values: dict[str, int] = {}
    for _key, _es, _en, values, _early in _RU32_ROUNDS:
        all_values.update({e: sign * v for e, v in values.items()})
    if sign < 0:
        out.append(_contract("eralash", "Eralash Negativo", "Eralash (negative)", 32, all_values))
    else:
        out.append(_contract("plus-eralash", "Eralash Positivo", "Eralash (positive)", 32,
                             all_values))
    return out


def _ru32() -> Profile:
    contracts = {c.id: c for sign, prefix in ((-1, "no-"), (1, "plus-"))
                 for c in _ru32_half(sign, prefix)}
    order = list(contracts)
    return Profile(
        "ru32", "King ruso", "Russian King",
        "32 cartas, 14 rondas fijas: siete negativas y sus siete gemelas positivas.",
        "32 cards, 14 fixed rounds: seven negative ones and their seven positive twins.",
        32, 14, True, contracts, tuple(order),
        options=(OptionSpec("keep_kh", ("off", "on"),
                            "on: drop the forced K♥ discard (kh-discard) in rounds 5, 7, 12, 14"),),
        play=PlayTraits(
            hearts_lead=frozenset(("no-hearts", "no-king", "eralash", "plus-hearts", "plus-king",
                                   "plus-eralash")),
            kh_discard=frozenset(("no-king", "eralash", "plus-king", "plus-eralash"))),
    )


# --- fiestas and subastas: 52 cards, 6 negatives and 4 fiestas (seeds 002, 003) -----------
_NEGATIVES_52 = (
    ("no-tricks", "Sin bazas", "No tricks", {"tricks": -20}, False),
    ("no-hearts", "Sin corazones", "No hearts", {"hearts": -20}, True),
    ("no-queens", "Sin damas", "No queens", {"queens": -50}, True),
    ("no-men", "Sin hombres", "No men", {"kings": -30, "jacks": -30}, True),
    ("no-kh", "Sin rey de corazones", "No king of hearts", {"kh": -160}, True),
    ("no-last-two", "Sin las dos últimas", "No last two", {"last_two": -90}, False),
)
#: The ladders of RULES.md 1.2 and 1.3, low to high.
LADDER_FIESTAS = ("+1", "+2", "+3", "-1", "+4", "+5", "+6", "-2", "+7", "+8", "-3")
LADDER_SUBASTAS = ("+1", "+2", "+3", "-1", "+4", "+5", "+6", "-2", "+7", "+8")


def _auction_profile(pid: str, es: str, en: str, desc_es: str, desc_en: str,
                     ladder: tuple[str, ...], notrump: bool = False, **traits: Any) -> Profile:
    contracts = {cid: _contract(cid, n_es, n_en, 52, values, ends_early=early)
                 for cid, n_es, n_en, values, early in _NEGATIVES_52}
    contracts["trump"] = _contract("trump", "Fiesta con triunfo", "Fiesta with trumps", 52,
                                   {"tricks": 25}, trump_game=True, fiesta=True)
    positive: tuple[str, ...] = ("trump",)
    if notrump:
        # subastas: "Se juega tanto con triunfos como sin ellos" (RULES.md 1.3)
        contracts["notrump"] = _contract("notrump", "Fiesta sin triunfo", "Fiesta without trumps",
                                         52, {"tricks": 25}, fiesta=True)
        positive += ("notrump",)
    contracts["nulos"] = _contract("nulos", "Fiesta de nulos", "Fiesta of nulos", 52,
                                   {"tricks": -75}, base=325, fiesta=True)
    contracts["433"] = _contract("433", "433", "433", 52, {}, fiesta=True, played=False,
                                 total=325)
    return Profile(pid, es, en, desc_es, desc_en, 52, 10, True, contracts,
                   tuple(c[0] for c in _NEGATIVES_52) + (None,) * 4,
                   auction=True, fiesta_from=7, ladder=ladder, positive_fiestas=positive,
                   **traits)


PROFILES: dict[str, Profile] = {}
for _p in (
    _ru32(),
    _auction_profile("fiestas", "King con fiestas", "King with fiestas",
                     "52 cartas, 6 manos negativas y 4 fiestas subastadas por los demás.",
                     "52 cards, 6 negative hands and 4 fiestas auctioned by the others.",
                     LADDER_FIESTAS,
                     play=PlayTraits(hearts_lead=frozenset(("no-hearts", "no-kh")),
                                     hearts_first_trick=frozenset(("no-hearts",)),
                                     kh_discard=frozenset(("no-kh",)), kh_discard_from=2,
                                     kh_first_trick=frozenset(("no-kh",)), trump_duties="fiesta")),
    _auction_profile("subastas", "King con subastas", "King with auctions",
                     "52 cartas, 6 negativas y 4 fiestas; +8 no se rechaza y hay ultimátum.",
                     "52 cards, 6 negatives and 4 fiestas; +8 cannot be refused, ultimatum any time.",
                     LADDER_SUBASTAS, notrump=True,
                     ultimatum_any_bid=True, owner_may_reject=True, top_bid_sells=True,
                     bids_bar_433=3,
                     options=(OptionSpec(
                         "settlement", ("tricks", "bid"),
                         "after a -N sale the buyer pays 75 for each trick the owner took, "
                         "up to N (tricks), or the full bid whatever the owner took (bid)"),),
                     # a subastas trump hand has no trump duties: only follow-suit (RULES.md 1.3)
                     play=PlayTraits(hearts_lead=frozenset(("no-hearts",)),
                                     kh_lead=frozenset(("no-kh",)))),
    Profile(
        "rifki", "King turco (Rıfkı)", "Turkish King (Rıfkı)",
        "52 cartas, 20 manos elegidas: seis castigos dos veces y koz ocho veces.",
        "52 cards, 20 chosen hands: six penalties twice each and koz eight times.",
        52, 20, False,
        {c.id: c for c in (
            _contract("el-almaz", "El Almaz", "El Almaz (no tricks)", 52, {"tricks": -50}),
            _contract("kupa-almaz", "Kupa Almaz", "Kupa Almaz (no hearts)", 52, {"hearts": -30},
                      ends_early=True),
            _contract("erkek-almaz", "Erkek Almaz", "Erkek Almaz (no men)", 52,
                      {"kings": -60, "jacks": -60}, ends_early=True),
            _contract("kiz-almaz", "Kız Almaz", "Kız Almaz (no queens)", 52, {"queens": -100},
                      ends_early=True),
            _contract("rifki", "Rıfkı", "Rıfkı (king of hearts)", 52, {"kh": -320},
                      ends_early=True),
            _contract("son-iki", "Son İki", "Son İki (last two)", 52, {"last_two": -180}),
            _contract("koz", "Koz", "Koz (trumps)", 52, {"tricks": 50}, trump_game=True),
        )},
        (None,) * 20,
        options=(
            OptionSpec("choice_limit", ("3+2", "free"),
                       "3+2: every seat chooses at most 3 penalties and 2 koz; free: only "
                       "the per-contract limits"),
            OptionSpec("must_overtake", ("no", "koz", "all"),
                       "a player who can win the trick with a card of the led suit must"),
            OptionSpec("trump_lead_ban", ("off", "on"),
                       "on: koz trumps may not be led until a trump has been played"),
            OptionSpec("hearts_lead_ban", ("kupa-rifki", "all-penalties"),
                       "where hearts may not be led until broken"),
            OptionSpec("rifki_void", ("kh", "heart"),
                       "in Rıfkı a void K♥ holder must discard the K♥, or any heart"),
        ),
        seat_key="first_chooser", chosen=True, kings=True,
        play=PlayTraits(
            hearts_lead=frozenset(("kupa-almaz", "rifki")), hearts_breakable=True,
            hearts_lead_option=True, trump_duties="koz",
            penalty_cards=MappingProxyType({
                "kupa-almaz": HEARTS_MASK, "erkek-almaz": KINGS_MASK | JACKS_MASK,
                "kiz-almaz": QUEENS_MASK, "rifki": KH_BIT}),
            penalty_drop=frozenset(("erkek-almaz", "kiz-almaz", "rifki")),
            heart_void=frozenset(("rifki",))),
    ),
):
    PROFILES[_p.id] = _p

#: Rifki's penalty contracts (each at most twice) and its trump game.
RIFKI_PENALTIES = ("el-almaz", "kupa-almaz", "erkek-almaz", "kiz-almaz", "rifki", "son-iki")
RIFKI_LIMIT_PER_PENALTY = 2
RIFKI_KOZ_LIMIT = 8
RIFKI_QUOTA = {"penalty": 3, "koz": 2}      # choice_limit "3+2"


def get_profile(pid: object, field_name: str = "profile") -> Profile:
    profile = PROFILES.get(pid) if isinstance(pid, str) else None
    if profile is None:
        raise InputError.of(field_name, "unknown-profile",
                            "%(value)r is not a profile (one of: %(allowed)s)", value=pid,
                            allowed=", ".join(PROFILES))
    return profile
