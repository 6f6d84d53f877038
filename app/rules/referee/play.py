"""Trick play and the referee (RULES.md §0, §1 and §3).

Which rule applies where, and how one play is judged, live in :mod:`app.rules.referee.checks`
(:func:`play_rules`, :func:`judge_play`; re-exported here). Every rule is of the same
shape: *the player held a card of a required set R and played a card outside it*. So a
play breaks a rule exactly when ``holding & R`` is not empty, and those held cards are the
evidence. That shape is monotone in the holding, which is why refereeing without the deal
is the same computation on the holding the later plays prove (RULES.md §3): whatever it
finds is proven, and it never guesses. Here: the trick's winner, playing a hand out from
its tricks, and the :class:`Referee` that judges a hand without the deal.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NoReturn

from app.rules.cards import BIT, SUIT_OF, Card, cards_of
from app.rules.errors import InputError
from app.rules.profiles import Contract, Profile
from app.rules.referee.checks import RULE_IDS as RULE_IDS
from app.rules.referee.checks import TRUMP_FIESTA as TRUMP_FIESTA
from app.rules.referee.checks import TRUMP_KOZ as TRUMP_KOZ
from app.rules.referee.checks import TRUMP_NONE as TRUMP_NONE
from app.rules.referee.checks import PlayRules as PlayRules
from app.rules.referee.checks import judge_play as judge_play
from app.rules.referee.checks import play_rules as play_rules
from app.rules.referee.judge import Referee
from app.rules.scoring import card_counts


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


def turn_order(leader: int) -> tuple[int, int, int, int]:
    """The seats of a trick in the order they play, from its leader (play goes to the left:
    seat + 1; :func:`_read_tricks` unrolls the same order in its loop)."""
    return (leader, (leader + 1) & 3, (leader + 2) & 3, (leader + 3) & 3)

# The loop over every trick of every hand (_read_tricks) is the engine's hot path: the four
# plays are unrolled there, and a trick is judged against the deal inline (no call per trick).
def play_out(profile: Profile, referee: Referee, contract: Contract, leader: int,
             tricks: list[list[int]], deal: list[int] | None, fld: str,
             names: list[str] | None = None, current: list[int] | None = None) -> PlayOutcome:
    """Plays a hand from its tricks: winners, captures, early end, every violation.

    Input errors (a card played twice, a card not dealt to its player, a trick after the
    end, too few tricks) raise :class:`InputError` naming ``fld`` and the position. With
    the deal, the referee judges each play as the trick is read; without it, a second pass
    judges each play on the cards the seat is proven to hold (those it plays so far).

    ``current`` (a hand in progress, :class:`app.rules.game.hand.HandState`): the cards of the
    trick being played after the complete ``tricks``, judged too; the hand need not be over,
    the last-two count holds the final tricks won so far.
    """
    n_tricks = profile.n_tricks
    if len(tricks) > n_tricks:
        _too_many_tricks(tricks, contract, n_tricks, fld)
    winners: list[int] = []
    leaders: list[int] = []
    captured = [0, 0, 0, 0]
    seen = [0, 0, 0, 0]              # cards each seat played
    found: list[tuple[int, int, int, str, int]] = []
    played, seat, over = _read_tricks(referee, contract, leader, tricks, deal, fld, names,
                                      winners, leaders, captured, seen, found)
    if played.bit_count() != 4 * len(tricks):
        _first_card_problem(tricks, leaders, deal, fld, names)
    if current:
        leaders.append(seat)
        _judge_current(referee, len(tricks), current, seat, deal, played, seen, found)
        tricks = [*tricks, current]
    elif len(tricks) < n_tricks and not over and current is None:
        _unfinished(len(tricks), n_tricks, contract.ends_early, fld)
    if deal is None:                    # without the deal: what later plays prove
        _judge_seen(referee, tricks, leaders, seen, found)
    return _outcome(winners, leaders, captured, n_tricks, over, found, tricks, names)


def _read_tricks(referee: Referee, contract: Contract, leader: int, tricks: list[list[int]],
                 deal: list[int] | None, fld: str, names: list[str] | None, winners: list[int],
                 leaders: list[int], captured: list[int], seen: list[int],
                 found: list[tuple[int, int, int, str, int]]) -> tuple[int, int, bool]:
    """The loop of :func:`play_out`: appends each trick's leader and winner, adds its cards
    to the winner's ``captured`` and, without the deal, to what each seat is ``seen`` to
    play; with the deal, judges each play into ``found``. Returns the cards played, the
    seat to lead next and whether the hand ended early after the last trick read."""
    trump = referee.trump
    holding = deal
    played = 0
    over = False
    seat = leader
    # module tables as locals: this loop runs for every trick of every hand
    bit_of, suit_of, winning, judge = BIT, SUIT_OF, _winner, _judge_into
    ends_after = contract.ends_after
    for index, trick in enumerate(tricks):
        if over:
            _after_the_end(tricks, index, played, leaders, deal, fld, names)
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
            # judged inline (a call per trick costed 3.5% of a replay): only plays that some
            # rule of this contract could concern -- a lead of a card the lead rules name, a
            # follower holding cards the follow rules name, a void follower holding cards the
            # void rules name (or revoking)
            unplayed = ~played
            follow_held = referee.follow_by_suit[suit0] & unplayed
            void_held = referee.void_by_suit[suit0] & unplayed
            if bit0 & referee.lead_mask:
                judge(found, referee, index, [], card0, seat, holding[seat] & unplayed, played)
            if holding[seat1] & (follow_held if suit1 == suit0 else void_held):
                judge(found, referee, index, [card0], card1, seat1, holding[seat1] & unplayed, played)
            if holding[seat2] & (follow_held if suit2 == suit0 else void_held):
                judge(found, referee, index, [card0, card1], card2, seat2, holding[seat2] & unplayed, played)
            if holding[seat3] & (follow_held if suit3 == suit0 else void_held):
                judge(found, referee, index, [card0, card1, card2], card3, seat3,
                      holding[seat3] & unplayed, played)
        else:
            seen[seat] |= bit0
            seen[seat1] |= bit1
            seen[seat2] |= bit2
            seen[seat3] |= bit3
        played |= mask
        seat = (seat + winning(card0, card1, card2, card3, suit0, suit1, suit2, suit3, trump)) & 3
        winners.append(seat)
        captured[seat] |= mask
        # once true, a further trick is an error (_after_the_end)
        over = ends_after(played)
    return played, seat, over


def _judge_into(found: list[tuple[int, int, int, str, int]], referee: Referee, index: int,
                before: list[int], card: int, seat: int, held: int, played: int) -> None:
    """Judges one play (``before``: the cards of the trick ahead of it); a broken rule joins
    ``found`` with the held cards that prove it."""
    broken_rule = judge_play(referee.rules, referee.trump, index + 1, before, card, held, played)
    if broken_rule is not None:
        found.append((index, seat, card, broken_rule[0], broken_rule[1] & held))


def _after_the_end(tricks: list[list[int]], index: int, played: int, leaders: list[int],
                   deal: list[int] | None, fld: str, names: list[str] | None) -> NoReturn:
    """Trick ``index`` comes after the hand ended early (a card played twice is said first)."""
    if played.bit_count() != 4 * index:
        _first_card_problem(tricks, leaders, deal, fld, names)
    raise InputError.of(f"{fld}[{index}]", "hand-over", "trick %(n)s comes after the end of "
                        "the hand (the hand ended early)", n=index + 1)


def _judge_seen(referee: Referee, tricks: list[list[int]], leaders: list[int], seen: list[int],
                found: list[tuple[int, int, int, str, int]]) -> None:
    """Without the deal: each trick judged on what the later plays prove each seat held."""
    before = 0
    for index, trick in enumerate(tricks):
        referee.trick(index, trick, leaders[index], seen, before, found)
        for card in trick:
            before |= BIT[card]


def _outcome(winners: list[int], leaders: list[int], captured: list[int], n_tricks: int,
             over: bool, found: list[tuple[int, int, int, str, int]], tricks: list[list[int]],
             names: list[str] | None) -> PlayOutcome:
    """The outcome of the tricks played: tricks won and the last two tricks per seat."""
    tricks_won = [winners.count(0), winners.count(1), winners.count(2), winners.count(3)]
    last_two = [0, 0, 0, 0]
    for winner in winners[n_tricks - 2:]:    # the last two tricks (those played so far)
        last_two[winner] += 1
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
        _judge_into(found, referee, index, current[:pos], card, who, holding[who] & ~played,
                    played)


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
