"""The referee's checks (RULES.md §1, §3): the rules in force in a hand, one check per rule.

Which rule applies where is decided in one place, :func:`play_rules`, from the profile's
play traits; how a single play is judged in another, :func:`judge_play`, which reads as the
ordered chain of §4 ("one rule per play"). Every rule is of the same shape: *the player
held a card of a required set R and played a card outside it*; see :mod:`app.rules.referee.play`.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from app.rules.cards import ABOVE, BELOW, BIT, HEARTS, HEARTS_MASK, KH, KH_BIT, SUIT_MASK, SUIT_OF
from app.rules.profiles import Contract, Options, PlayTraits, Profile

#: Every rule id of RULES.md §3, in the order of §4.
RULE_IDS = ("follow-suit", "hearts-lead", "hearts-first-trick", "kh-lead", "kh-discard",
            "kh-first-trick", "must-trump", "must-overtrump", "must-head-trump",
            "penalty-discard", "penalty-drop", "must-overtake", "trump-lead")

TRUMP_NONE, TRUMP_FIESTA, TRUMP_KOZ = 0, 1, 2


@dataclass(frozen=True, slots=True)
class PlayRules:
    """The rules in force in one hand (profile + options + contract)."""

    hearts_lead: bool = False        # hearts-lead
    hearts_breakable: bool = False   # ... lifted once a heart has been played (rifki)
    kh_lead: bool = False            # kh-lead (subastas no-kh)
    trump_lead: bool = False         # trump-lead (rifki koz, trump_lead_ban on)
    kh_discard_from: int = 0         # kh-discard from this trick on (0: off)
    kh_first_trick: bool = False     # kh-first-trick (fiestas no-kh)
    hearts_first_trick: bool = False  # hearts-first-trick (fiestas no-hearts)
    trump_mode: int = TRUMP_NONE     # must-trump / must-overtrump / must-head-trump
    penalty_mask: int = 0            # penalty-discard (and penalty-drop) cards (rifki)
    penalty_heart: bool = False      # rifki_void "heart": a void K♥ holder must play a heart (any heart)
    penalty_drop: bool = False       # penalty-drop (Erkek, Kız, Rıfkı)
    must_overtake: bool = False      # must-overtake (rifki option)
    # the checks of the rules above, as judge_play asks them (set by play_rules)
    lead_checks: tuple[Check, ...] = field(default=(), compare=False, repr=False)
    follow_checks: tuple[Check, ...] = field(default=(), compare=False, repr=False)
    void_checks: tuple[Check, ...] = field(default=(), compare=False, repr=False)


_RULES_CACHE: dict[tuple[str, Options, str], PlayRules] = {}


def play_rules(profile: Profile, options: Options, contract: Contract) -> PlayRules:
    """Which rules of §1 apply to this contract under these options: the one table, read
    from the profile's play traits (:class:`app.rules.profiles.PlayTraits`)."""
    key = (profile.id, options, contract.id)
    cached = _RULES_CACHE.get(key)
    if cached is None:
        cached = _RULES_CACHE[key] = _checks(_rules_of(profile.play, options, contract))
    return cached


def _rules_of(traits: PlayTraits, options: Options, contract: Contract) -> PlayRules:
    cid, trumps = contract.id, contract.trump_game
    return PlayRules(
        hearts_lead=cid in traits.hearts_lead or _all_penalties_ban(traits, options, trumps),
        hearts_breakable=traits.hearts_breakable,
        kh_lead=cid in traits.kh_lead,
        trump_lead=trumps and options.trump_lead_ban == "on",
        kh_discard_from=traits.kh_discard_from
        if cid in traits.kh_discard and options.keep_kh == "off" else 0,
        kh_first_trick=cid in traits.kh_first_trick,
        hearts_first_trick=cid in traits.hearts_first_trick,
        trump_mode=_TRUMP_MODES[traits.trump_duties if trumps else ""],
        penalty_mask=traits.penalty_cards.get(cid, 0),
        penalty_heart=cid in traits.heart_void and options.rifki_void == "heart",
        penalty_drop=cid in traits.penalty_drop,
        must_overtake=_must_overtake(options, trumps))


def _all_penalties_ban(traits: PlayTraits, options: Options, trumps: bool) -> bool:
    """hearts_lead_ban "all-penalties": no hearts led in a contract without trumps."""
    return traits.hearts_lead_option and options.hearts_lead_ban == "all-penalties" and not trumps


def _must_overtake(options: Options, trumps: bool) -> bool:
    return options.must_overtake == "all" or (options.must_overtake == "koz" and trumps)


_TRUMP_MODES = {"": TRUMP_NONE, "fiesta": TRUMP_FIESTA, "koz": TRUMP_KOZ}


#: What a rule's check answers: the rule broken and the held cards that prove it, or None
#: (this rule has nothing against the play; the next rule is asked).
Found = tuple[str, int] | None
Check = Callable[[PlayRules, int, int, list[int], int, int, int], Found]
#: A check's answer that settles the play as legal: the rules after it are not asked.
LEGAL: tuple[str, int] = ("", 0)


# --- one check per rule id (arguments as judge_play's) -----------------------------------
# leading

def hearts_lead(rules: PlayRules, trump: int, trick_no: int, trick: list[int], card: int,
                holding: int, broken: int) -> Found:
    if SUIT_OF[card] == HEARTS and not (rules.hearts_breakable and broken & HEARTS_MASK):
        other = holding & ~HEARTS_MASK
        if other:
            return "hearts-lead", other
    return None


def kh_lead(rules: PlayRules, trump: int, trick_no: int, trick: list[int], card: int,
            holding: int, broken: int) -> Found:
    if card == KH:
        other = holding & ~KH_BIT
        if other:
            return "kh-lead", other
    return None


def trump_lead(rules: PlayRules, trump: int, trick_no: int, trick: list[int], card: int,
               holding: int, broken: int) -> Found:
    if SUIT_OF[card] == trump and not broken & SUIT_MASK[trump]:
        other = holding & ~SUIT_MASK[trump]
        if other:
            return "trump-lead", other
    return None


# following the led suit (the card is of that suit)

def must_head_trump(rules: PlayRules, trump: int, trick_no: int, trick: list[int], card: int,
                    holding: int, broken: int) -> Found:
    """On a trump lead (fiestas' trump): a higher trump when able; then nothing else applies."""
    if SUIT_OF[trick[0]] != trump:
        return None
    above = holding & SUIT_MASK[trump] & ABOVE[max(c for c in trick if SUIT_OF[c] == trump)]
    if above and not BIT[card] & above:
        return "must-head-trump", above
    return LEGAL


def penalty_drop(rules: PlayRules, trump: int, trick_no: int, trick: list[int], card: int,
                 holding: int, broken: int) -> Found:
    """A penalty card below the highest card of the led suit must go; dropping one settles
    the play."""
    led = SUIT_OF[trick[0]]
    top = max(c for c in trick if SUIT_OF[c] == led)
    below = holding & SUIT_MASK[led] & rules.penalty_mask & BELOW[top]
    if below:
        return LEGAL if BIT[card] & below else ("penalty-drop", below)
    return None


def must_overtake(rules: PlayRules, trump: int, trick_no: int, trick: list[int], card: int,
                  holding: int, broken: int) -> Found:
    led = SUIT_OF[trick[0]]
    if trump >= 0 and led != trump and any(SUIT_OF[c] == trump for c in trick):
        return None                     # trumped already: no card of the led suit wins
    above = holding & SUIT_MASK[led] & ABOVE[max(c for c in trick if SUIT_OF[c] == led)]
    if above and not BIT[card] & above:
        return "must-overtake", above
    return None


# void in the led suit

def kh_discard(rules: PlayRules, trump: int, trick_no: int, trick: list[int], card: int,
               holding: int, broken: int) -> Found:
    if trick_no >= rules.kh_discard_from and holding & KH_BIT and card != KH:
        return "kh-discard", KH_BIT
    return None


def kh_first_trick(rules: PlayRules, trump: int, trick_no: int, trick: list[int], card: int,
                   holding: int, broken: int) -> Found:
    if trick_no == 1 and card == KH:
        # Illegal whatever else the player held (RULES.md §4): trick 1 always leaves other
        # cards. Without the deal they may stay unseen (the K♥ ends the hand), and then
        # the K♥ itself is the evidence.
        return "kh-first-trick", (holding & ~KH_BIT) or KH_BIT
    return None


def hearts_first_trick(rules: PlayRules, trump: int, trick_no: int, trick: list[int],
                       card: int, holding: int, broken: int) -> Found:
    if trick_no == 1 and SUIT_OF[card] == HEARTS:
        other = holding & ~HEARTS_MASK
        if other:
            return "hearts-first-trick", other
    return None


def must_overtrump(rules: PlayRules, trump: int, trick_no: int, trick: list[int], card: int,
                   holding: int, broken: int) -> Found:
    """Fiestas' trump: over a trump on the table, a higher trump when able."""
    trumps = holding & SUIT_MASK[trump]
    on_table = [c for c in trick if SUIT_OF[c] == trump]
    if trumps and on_table:
        above = trumps & ABOVE[max(on_table)]
        if above and not BIT[card] & above:
            return "must-overtrump", above
    return None


def must_trump(rules: PlayRules, trump: int, trick_no: int, trick: list[int], card: int,
               holding: int, broken: int) -> Found:
    """A trump when able (in fiestas, only while no trump is on the table)."""
    trumps = holding & SUIT_MASK[trump]
    if trumps and SUIT_OF[card] != trump and not (
            rules.trump_mode == TRUMP_FIESTA and any(SUIT_OF[c] == trump for c in trick)):
        return "must-trump", trumps
    return None


def penalty_discard(rules: PlayRules, trump: int, trick_no: int, trick: list[int], card: int,
                    holding: int, broken: int) -> Found:
    if rules.penalty_heart:
        if holding & KH_BIT and SUIT_OF[card] != HEARTS:
            return "penalty-discard", holding & HEARTS_MASK
        return None
    penalty = holding & rules.penalty_mask
    if penalty and not BIT[card] & penalty:
        return "penalty-discard", penalty
    return None


def _checks(rules: PlayRules) -> PlayRules:
    """The rules with their chains of checks: only the rules in force, in the order the
    judge asks them (leading; following the led suit; void in it)."""
    lead = [check for on, check in ((rules.hearts_lead, hearts_lead), (rules.kh_lead, kh_lead),
                                    (rules.trump_lead, trump_lead)) if on]
    follow = [check for on, check in (
        (rules.trump_mode == TRUMP_FIESTA, must_head_trump),
        (rules.penalty_drop, penalty_drop), (rules.must_overtake, must_overtake)) if on]
    void = [check for on, check in (
        (rules.kh_discard_from, kh_discard), (rules.kh_first_trick, kh_first_trick),
        (rules.hearts_first_trick, hearts_first_trick),
        (rules.trump_mode == TRUMP_FIESTA, must_overtrump), (rules.trump_mode, must_trump),
        (rules.penalty_mask, penalty_discard)) if on]
    return replace(rules, lead_checks=tuple(lead), follow_checks=tuple(follow),
                   void_checks=tuple(void))


def judge_play(rules: PlayRules, trump: int, trick_no: int, trick: list[int], card: int,
               holding: int, broken: int) -> Found:
    """The rule a play breaks and the held cards that prove it, or None.

    ``trick`` holds the cards already played to this trick (leader first), ``holding`` the
    player's cards before this play (the card included), ``broken`` the cards played in
    earlier tricks of the hand, ``trump`` the trump suit or -1. Follow-suit comes first; then
    the checks of the rules in force (:func:`_checks`), one function per rule id.
    """
    if not trick:
        checks = rules.lead_checks
    else:
        led = SUIT_OF[trick[0]]
        same = holding & SUIT_MASK[led]
        if same:
            if SUIT_OF[card] != led:
                return "follow-suit", same
            checks = rules.follow_checks
        else:
            checks = rules.void_checks
    for check in checks:
        found = check(rules, trump, trick_no, trick, card, holding, broken)
        if found is not None:
            return None if found is LEGAL else found
    return None
