"""Trick play and the referee (RULES.md §0, §1 and §3).

Which rule applies where is decided in one place, :func:`play_rules`; how a single play
is judged in another, :func:`judge_play`, which reads as the ordered chain of §4 ("one rule
per play"). Every rule is of the same shape: *the player held a card of a required set R
and played a card outside it*. So a play breaks a rule exactly when ``holding & R`` is not
empty, and those held cards are the evidence. That shape is monotone in the holding,
which is why refereeing without the deal is the same computation on the holding the
later plays prove (RULES.md §3): whatever it finds is proven, and it never guesses.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import NoReturn

from app.rules.cards import (
    ABOVE,
    BELOW,
    BIT,
    HEARTS,
    HEARTS_MASK,
    JACKS_MASK,
    KH,
    KH_BIT,
    KINGS_MASK,
    QUEENS_MASK,
    SUIT_MASK,
    SUIT_OF,
    Card,
    cards_of,
)
from app.rules.errors import InputError
from app.rules.profiles import Contract, Options, Profile
from app.rules.scoring import card_counts

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
    penalty_heart: bool = False      # rifki_void "heart": a K♥ holder may discard any heart
    penalty_drop: bool = False       # penalty-drop (Erkek, Kız, Rıfkı)
    must_overtake: bool = False      # must-overtake (rifki option)
    # the checks of the rules above, as judge_play asks them (set by play_rules)
    lead_checks: tuple[Check, ...] = field(default=(), compare=False, repr=False)
    follow_checks: tuple[Check, ...] = field(default=(), compare=False, repr=False)
    void_checks: tuple[Check, ...] = field(default=(), compare=False, repr=False)


_RIFKI_PENALTY_CARDS = {"kupa-almaz": HEARTS_MASK, "erkek-almaz": KINGS_MASK | JACKS_MASK,
                        "kiz-almaz": QUEENS_MASK, "rifki": KH_BIT}
_RU32_HEARTS_LEAD = {"no-hearts", "no-king", "eralash", "plus-hearts", "plus-king",
                     "plus-eralash"}
_RU32_KH_DISCARD = {"no-king", "eralash", "plus-king", "plus-eralash"}

_RULES_CACHE: dict[tuple[str, Options, str], PlayRules] = {}


def play_rules(profile: Profile, options: Options, contract: Contract) -> PlayRules:
    """Which rules of §1 apply to this contract under these options: the one table."""
    key = (profile.id, options, contract.id)
    cached = _RULES_CACHE.get(key)
    if cached is not None:
        return cached
    cid = contract.id
    rules = PlayRules()
    if profile.id == "ru32":
        rules = PlayRules(
            hearts_lead=cid in _RU32_HEARTS_LEAD,
            kh_discard_from=1 if cid in _RU32_KH_DISCARD and options.keep_kh == "off" else 0)
    elif profile.id == "fiestas":
        rules = PlayRules(
            hearts_lead=cid in ("no-hearts", "no-kh"),
            hearts_first_trick=cid == "no-hearts",
            kh_discard_from=2 if cid == "no-kh" else 0,
            kh_first_trick=cid == "no-kh",
            trump_mode=TRUMP_FIESTA if cid == "trump" else TRUMP_NONE)
    elif profile.id == "subastas":
        # a subastas trump hand has no trump duties: only follow-suit (RULES.md 1.3)
        rules = PlayRules(
            hearts_lead=cid == "no-hearts",
            kh_lead=cid == "no-kh")
    elif profile.id == "rifki":
        penalties = options.hearts_lead_ban == "all-penalties" and cid != "koz"
        overtake = options.must_overtake == "all" or (
            options.must_overtake == "koz" and cid == "koz")
        rules = PlayRules(
            hearts_lead=cid in ("kupa-almaz", "rifki") or penalties,
            hearts_breakable=True,
            trump_lead=cid == "koz" and options.trump_lead_ban == "on",
            trump_mode=TRUMP_KOZ if cid == "koz" else TRUMP_NONE,
            penalty_mask=_RIFKI_PENALTY_CARDS.get(cid, 0),
            penalty_heart=cid == "rifki" and options.rifki_void == "heart",
            penalty_drop=cid in ("erkek-almaz", "kiz-almaz", "rifki"),
            must_overtake=overtake)
    rules = _RULES_CACHE[key] = _checks(rules)
    return rules


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


def trick_winner(trick: list[int], trump: int) -> int:
    """The position (0-3) of the card that wins the trick."""
    card0, card1, card2, card3 = trick
    return _winner(card0, card1, card2, card3, SUIT_OF[card0], SUIT_OF[card1], SUIT_OF[card2],
                   SUIT_OF[card3], trump)


def _winner(card0: int, card1: int, card2: int, card3: int, suit0: int, suit1: int, suit2: int,
            suit3: int, trump: int) -> int:
    """The rule of the trick, the one place it is written: the highest trump wins, else the
    highest card of the suit led (the position, 0-3; the suits given, as play_out has them)."""
    best, pos, best_suit = card0, 0, suit0
    if suit1 == best_suit:
        if card1 > best:
            best, pos = card1, 1
    elif suit1 == trump:
        best, pos, best_suit = card1, 1, suit1
    if suit2 == best_suit:
        if card2 > best:
            best, pos = card2, 2
    elif suit2 == trump:
        best, pos, best_suit = card2, 2, suit2
    if suit3 == best_suit:
        if card3 > best:
            pos = 3
    elif suit3 == trump:
        pos = 3
    return pos


@dataclass(frozen=True, slots=True)
class Violation:
    trick: int          # 1-based
    seat: int
    card: str
    rule: str
    message: str
    evidence: tuple[str, ...]

    def as_dict(self) -> dict[str, object]:
        return {"trick": self.trick, "seat": self.seat, "card": self.card, "rule": self.rule,
                "message": self.message, "evidence": list(self.evidence)}


_RULE_SENTENCES = {
    "follow-suit": "did not follow suit",
    "hearts-lead": "led a heart while holding other suits",
    "hearts-first-trick": "discarded a heart in the first trick while holding other suits",
    "kh-lead": "led the K♥ while holding other cards",
    "kh-discard": "did not discard the K♥ when void in the led suit",
    "kh-first-trick": "played the K♥ in the first trick without following hearts",
    "must-trump": "did not trump when void in the led suit",
    "must-overtrump": "did not overtrump when able",
    "must-head-trump": "did not play a higher trump on a trump lead when able",
    "penalty-discard": "did not discard a penalty card when void in the led suit",
    "penalty-drop": "did not drop a penalty card under a higher card of its suit",
    "must-overtake": "did not play a card that wins the trick when able",
    "trump-lead": "led a trump before trumps were broken while holding other suits",
}


def rule_sentence(rule: str) -> str:
    return _RULE_SENTENCES[rule]


def evidence_texts(mask: int, played_at: dict[int, int]) -> list[str]:
    """``CARD@TRICK`` for proving cards the seat played later, ``CARD@deal`` for the rest."""
    out = []
    for card in cards_of(mask):
        trick = played_at.get(card)
        out.append(f"{card}@{trick}" if trick is not None else f"{card}@deal")
    return out


def describe(rule: str, seat_name: str, card: int, trick_no: int, evidence: list[str]) -> str:
    proof = ", ".join(e.replace("@deal", " in the deal").replace("@", " played at trick ")
                      for e in evidence)
    return (f"{seat_name} {rule_sentence(rule)} at trick {trick_no}: played "
            f"{Card(card).symbol}, holding {proof}")


@dataclass(slots=True)
class PlayOutcome:
    winners: list[int]
    leaders: list[int]
    captured: list[int]          # per seat: the cards of the tricks won (bit sets)
    tricks_won: list[int]
    last_two: list[int]          # per seat: how many of the two final tricks
    ended_early: bool
    violations: list[Violation] = field(default_factory=list)


# C901: one loop over every trick of every hand, unrolled over the four plays (the judging
# and the winner) because it is the engine's hot path; what runs once per hand is split out.
def play_out(profile: Profile, referee: Referee, contract: Contract, leader: int,  # noqa: C901
             tricks: list[list[int]], deal: list[int] | None, fld: str,
             names: list[str] | None = None, current: list[int] | None = None) -> PlayOutcome:
    """Plays a hand from its tricks: winners, captures, early end, every violation.

    Input errors (a card played twice, a card not dealt to its player, a trick after the
    end, too few tricks) raise :class:`InputError` naming ``fld`` and the position. With
    the deal, the referee judges each play as the trick is read; without it, a second pass
    judges each play on the cards the seat is proven to hold (those it plays so far).

    ``current`` (a hand in progress, :class:`app.rules.hand.HandState`): the cards of the
    trick being played after the complete ``tricks``, judged too; the hand need not be over,
    the last-two count holds the final tricks won so far.
    """
    n_tricks = profile.n_tricks
    early = contract.ends_early
    winners: list[int] = []
    leaders: list[int] = []
    captured = [0, 0, 0, 0]
    seen = [0, 0, 0, 0]              # cards each seat played
    found: list[tuple[int, int, int, str, int]] = []
    rules, trump = referee.rules, referee.trump
    holding = deal
    lead_mask = referee.lead_mask
    played = 0
    over = False
    seat = leader
    if len(tricks) > n_tricks:
        _too_many_tricks(tricks, contract, n_tricks, fld)
    # module tables as locals: this loop runs for every trick of every hand
    bit_of, suit_of, judge, winning = BIT, SUIT_OF, judge_play, _winner
    ends_after = contract.ends_after
    # per led suit: the cards a follower / a void player must hold for a rule to concern him
    follow_by_suit = referee.follow_by_suit
    void_by_suit = referee.void_by_suit
    for index, trick in enumerate(tricks):
        if over:
            if played.bit_count() != 4 * index:      # a card played twice comes first
                _first_card_problem(tricks, leaders, deal, fld, names)
            raise InputError.of(f"{fld}[{index}]", "hand-over", "trick %(n)s comes after the end of "
                                "the hand (the hand ended early)", n=index + 1)
        leaders.append(seat)
        card0, card1, card2, card3 = trick
        seat1, seat2, seat3 = (seat + 1) & 3, (seat + 2) & 3, (seat + 3) & 3
        bit0, bit1, bit2, bit3 = bit_of[card0], bit_of[card1], bit_of[card2], bit_of[card3]
        suit0, suit1, suit2, suit3 = suit_of[card0], suit_of[card1], suit_of[card2], suit_of[card3]
        mask = bit0 | bit1 | bit2 | bit3
        if holding is not None:
            # Each card must be in its player's deal (a card played twice is caught by a
            # count after the loop); a seat's cards before this trick: its deal less what
            # has been played.
            if not (holding[seat] & bit0 and holding[seat1] & bit1 and holding[seat2] & bit2
                    and holding[seat3] & bit3):
                _first_card_problem(tricks[:index + 1], leaders, deal, fld, names)
            # Only plays that some rule of this contract could concern are judged: a lead
            # of a card the lead rules name, a follower holding cards the follow rules name,
            # a void follower holding cards the void rules name (or revoking).
            unplayed = ~played
            follow_held = follow_by_suit[suit0] & unplayed
            void_held = void_by_suit[suit0] & unplayed
            if bit0 & lead_mask:
                held = holding[seat] & unplayed
                broken_rule = judge(rules, trump, index + 1, [], card0, held, played)
                if broken_rule is not None:
                    found.append((index, seat, card0, broken_rule[0], broken_rule[1] & held))
            if holding[seat1] & (follow_held if suit1 == suit0 else void_held):
                held = holding[seat1] & unplayed
                broken_rule = judge(rules, trump, index + 1, [card0], card1, held, played)
                if broken_rule is not None:
                    found.append((index, seat1, card1, broken_rule[0], broken_rule[1] & held))
            if holding[seat2] & (follow_held if suit2 == suit0 else void_held):
                held = holding[seat2] & unplayed
                broken_rule = judge(rules, trump, index + 1, [card0, card1], card2, held, played)
                if broken_rule is not None:
                    found.append((index, seat2, card2, broken_rule[0], broken_rule[1] & held))
            if holding[seat3] & (follow_held if suit3 == suit0 else void_held):
                held = holding[seat3] & unplayed
                broken_rule = judge(rules, trump, index + 1, [card0, card1, card2], card3, held, played)
                if broken_rule is not None:
                    found.append((index, seat3, card3, broken_rule[0], broken_rule[1] & held))
        else:
            seen[seat] |= bit0
            seen[seat1] |= bit1
            seen[seat2] |= bit2
            seen[seat3] |= bit3
        played |= mask
        seat = (seat + winning(card0, card1, card2, card3, suit0, suit1, suit2, suit3, trump)) & 3
        winners.append(seat)
        captured[seat] |= mask
        if ends_after(played):
            over = True
    if played.bit_count() != 4 * len(tricks):
        _first_card_problem(tricks, leaders, deal, fld, names)
    tricks_won = [winners.count(0), winners.count(1), winners.count(2), winners.count(3)]
    last_two = [0, 0, 0, 0]
    for winner in winners[n_tricks - 2:]:    # the last two tricks (those played so far)
        last_two[winner] += 1
    if current:
        leaders.append(seat)
        _judge_current(referee, len(tricks), current, seat, holding, played, seen, found)
        tricks = [*tricks, current]
    elif len(tricks) < n_tricks and not over and current is None:
        _unfinished(len(tricks), n_tricks, early, fld)
    if holding is None:                 # without the deal: what later plays prove
        before = 0
        for index, trick in enumerate(tricks):
            referee.trick(index, trick, leaders[index], seen, before, found)
            for card in trick:
                before |= BIT[card]
    outcome = PlayOutcome(winners, leaders, captured, tricks_won, last_two,
                          over and len(winners) < n_tricks)
    if found:
        outcome.violations = _violations(found, tricks, leaders, names)
    return outcome


def _too_many_tricks(tricks: list[list[int]], contract: Contract, n_tricks: int,
                     fld: str) -> NoReturn:
    # an early end before the last trick is reported where it happens
    early_end = _early_end(tricks, contract)
    if early_end is not None:
        raise InputError.of(f"{fld}[{early_end}]", "hand-over", "trick %(n)s comes after the end "
                            "of the hand (the hand ended early)", n=early_end + 1)
    raise InputError.of(f"{fld}[{n_tricks}]", "hand-over", "trick %(n)s comes after the end of "
                        "the hand (the hand has no more tricks)", n=n_tricks + 1)


def _unfinished(n: int, n_tricks: int, early: bool, fld: str) -> NoReturn:
    if early:
        raise InputError.of(fld, "hand-unfinished", "%(n)s tricks entered; the hand is not "
                            "over until trick %(last)s or the last scoring card",
                            n=n, last=n_tricks)
    raise InputError.of(fld, "hand-unfinished", "%(n)s tricks entered; the hand is not over "
                        "until trick %(last)s", n=n, last=n_tricks)


def _judge_current(referee: Referee, index: int, current: list[int], seat: int,
                   holding: list[int] | None, played: int, seen: list[int],
                   found: list[tuple[int, int, int, str, int]]) -> None:
    """The trick being played (a hand in progress): with the deal each play is judged now;
    without it, its cards join what each seat is seen to play."""
    for pos, card in enumerate(current):
        who = (seat + pos) & 3
        if holding is None:
            seen[who] |= BIT[card]
            continue
        held = holding[who] & ~played
        broken_rule = judge_play(referee.rules, referee.trump, index + 1, current[:pos], card,
                                 held, played)
        if broken_rule is not None:
            found.append((index, who, card, broken_rule[0], broken_rule[1] & held))


def _violations(found: list[tuple[int, int, int, str, int]], tricks: list[list[int]],
                leaders: list[int], names: list[str] | None) -> list[Violation]:
    out = []
    for index, who, card, rule, proof in found:
        evidence = evidence_texts(proof, _played_at(tricks, leaders, who))
        name = names[who] if names else f"seat {who}"
        out.append(Violation(index + 1, who, str(Card(card)), rule,
                             describe(rule, name, card, index + 1, evidence), tuple(evidence)))
    return out


def hand_counts(contract: Contract, outcome: PlayOutcome) -> dict[str, list[int]]:
    """The counts a hand played card by card gives: the card elements of what each seat
    captured, and the tricks and last two tricks each seat won."""
    counts = card_counts(contract, outcome.captured)
    if contract.values.get("tricks"):
        counts["tricks"] = outcome.tricks_won
    if contract.values.get("last_two"):
        counts["last_two"] = outcome.last_two
    return counts


class Referee:
    """Judges the plays of one trick after another, keeping the holdings and what is broken.

    Only plays that some rule of this contract could concern reach :func:`judge_play`;
    the cheap cases (a card of the led suit with no follow rule, a revoke) are decided here.
    """

    __slots__ = ("rules", "trump", "lead_rules", "follow_mask",
                 "fiesta_trump", "void_rules", "lead_mask", "void_mask", "follow_by_suit",
                 "void_by_suit")

    def __init__(self, rules: PlayRules, trump: int) -> None:
        self.rules = rules
        self.trump = trump
        self.lead_rules = rules.hearts_lead or rules.kh_lead or rules.trump_lead
        # a follower holding none of these cards of the led suit breaks no follow rule
        self.follow_mask = -1 if rules.must_overtake else (
            rules.penalty_mask if rules.penalty_drop else 0)
        self.fiesta_trump = rules.trump_mode == TRUMP_FIESTA
        self.void_rules = bool(rules.kh_discard_from or rules.kh_first_trick
                               or rules.hearts_first_trick or rules.trump_mode
                               or rules.penalty_mask)
        # The cards whose lead some rule concerns, and the cards that, held by a player
        # void in the led suit, bring a rule into play: plays touching neither are legal.
        trumps = SUIT_MASK[trump] if trump >= 0 else 0
        self.lead_mask = ((HEARTS_MASK if rules.hearts_lead else 0)
                          | (KH_BIT if rules.kh_lead else 0)
                          | (trumps if rules.trump_lead else 0))
        self.void_mask = ((KH_BIT if rules.kh_discard_from or rules.kh_first_trick else 0)
                          | (HEARTS_MASK if rules.hearts_first_trick else 0)
                          | (trumps if rules.trump_mode else 0)
                          | rules.penalty_mask)
        self.follow_by_suit = tuple(
            SUIT_MASK[s] & (-1 if self.fiesta_trump and s == trump else self.follow_mask)
            for s in range(4))
        self.void_by_suit = tuple(SUIT_MASK[s] | self.void_mask for s in range(4))

    def trick(self, index: int, trick: list[int], lead: int, cards: list[int], before: int,
              found: list[tuple[int, int, int, str, int]]) -> None:
        """Judges one trick; ``cards[s] & ~before`` is what seat s holds as it begins.

        Without the deal ``cards`` are the cards each seat is seen to play, and the rules are
        applied to that known holding (RULES.md §4): a seat that never shows a card of the
        led suit is judged as void in it. Its play is then proven illegal either way; when
        a revoke stays hidden the rule reported is the void rule the known cards prove.
        """
        rules, trump = self.rules, self.trump
        led = SUIT_OF[trick[0]]
        led_mask = SUIT_MASK[led]
        follow = self.follow_by_suit[led]
        for pos in range(len(trick)):      # a trick being played has fewer than four cards
            card = trick[pos]
            seat = (lead + pos) & 3
            held = cards[seat] & ~before
            broken_rule = None
            if pos == 0:
                if self.lead_rules:
                    broken_rule = judge_play(rules, trump, index + 1, [], card, held, before)
            elif SUIT_OF[card] == led:
                if held & follow:
                    broken_rule = judge_play(rules, trump, index + 1, trick[:pos], card, held, before)
            elif held & led_mask:
                broken_rule = ("follow-suit", held & led_mask)
            elif self.void_rules:
                broken_rule = judge_play(rules, trump, index + 1, trick[:pos], card, held, before)
            if broken_rule is not None:
                found.append((index, seat, card, broken_rule[0], broken_rule[1] & held))


_REFEREES: dict[tuple[PlayRules, int], Referee] = {}


def referee_for(rules: PlayRules, trump: int) -> Referee:
    """The referee of these rules and trump: a table of constants, kept by value (the game
    builder asks once per contract and trump of a game)."""
    key = (rules, trump)
    referee = _REFEREES.get(key)
    if referee is None:
        referee = _REFEREES[key] = Referee(rules, trump)
    return referee


def _first_card_problem(tricks: list[list[int]], leaders: list[int], deal: list[int] | None,
                        fld: str, names: list[str] | None) -> None:
    """The slow path: names the first card, in play order, that is played twice or was not
    dealt to its player (``leaders`` covers the tricks given)."""
    played = 0
    for index, trick in enumerate(tricks):
        played = _check_cards(trick, leaders[index], played, deal, fld, index, names)
    raise AssertionError("unreachable: no card problem")  # pragma: no cover


def _check_cards(trick: list[int], seat: int, played: int, deal: list[int] | None, fld: str,
                 index: int, names: list[str] | None) -> int:
    """Says which card of the trick is played twice or was not dealt; returns the cards
    played so far."""
    for pos in range(4):
        card = trick[pos]
        card_bit = BIT[card]
        who = (seat + pos) & 3
        if played & card_bit:
            raise InputError.of(f"{fld}[{index}][{pos}]", "card-twice", "%(card)s is played twice",
                                card=str(Card(card)))
        if deal is not None and not deal[who] & card_bit:
            if names:
                raise InputError.of(f"{fld}[{index}][{pos}]", "card-not-held", "%(card)s is not in "
                                    "the hand dealt to seat %(seat)s (%(name)s)",
                                    card=str(Card(card)), seat=who, name=names[who])
            raise InputError.of(f"{fld}[{index}][{pos}]", "card-not-held",
                                "%(card)s is not in the hand dealt to seat %(seat)s",
                                card=str(Card(card)), seat=who)
        played |= card_bit
    return played


def _early_end(tricks: list[list[int]], contract: Contract) -> int | None:
    """The index of the trick after which every scoring card is taken, if before the last."""
    taken = 0
    for index, trick in enumerate(tricks[:-1]):
        for card in trick:
            taken |= BIT[card]
        if contract.ends_after(taken):
            return index + 1
    return None


def _played_at(tricks: list[list[int]], leaders: list[int], seat: int) -> dict[int, int]:
    """Card -> the trick (1-based) where ``seat`` played it."""
    out = {}
    for index, trick in enumerate(tricks):
        pos = (seat - leaders[index]) & 3
        if pos < len(trick):
            out[trick[pos]] = index + 1
    return out
