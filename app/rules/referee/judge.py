"""The judge of each play (RULES.md §1, §3): a profile's play rules as bit masks, one
:class:`Referee` per rules and trump, which says what a seat may play and which rule a card
breaks."""
from __future__ import annotations

from app.rules.cards import HEARTS_MASK, KH_BIT, SUIT_MASK, SUIT_OF
from app.rules.referee.checks import RULE_IDS as RULE_IDS
from app.rules.referee.checks import TRUMP_FIESTA as TRUMP_FIESTA
from app.rules.referee.checks import TRUMP_KOZ as TRUMP_KOZ
from app.rules.referee.checks import TRUMP_NONE as TRUMP_NONE
from app.rules.referee.checks import PlayRules as PlayRules
from app.rules.referee.checks import judge_play as judge_play
from app.rules.referee.checks import play_rules as play_rules


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
        self.lead_rules = _lead_rules(rules)
        # a follower holding none of these cards of the led suit breaks no follow rule
        self.follow_mask = _follow_mask(rules)
        self.fiesta_trump = rules.trump_mode == TRUMP_FIESTA
        self.void_rules = _void_rules(rules)
        # The cards whose lead some rule concerns, and the cards that, held by a player
        # void in the led suit, bring a rule into play: plays touching neither are legal.
        trumps = SUIT_MASK[trump] if trump >= 0 else 0
        self.lead_mask = _lead_mask(rules, trumps)
        self.void_mask = _void_mask(rules, trumps)
        self.follow_by_suit = _follow_by_suit(self.follow_mask, self.fiesta_trump, trump)
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


def _lead_rules(rules: PlayRules) -> bool:
    """Some rule of ``rules`` concerns the lead of a trick."""
    return rules.hearts_lead or rules.kh_lead or rules.trump_lead


def _follow_mask(rules: PlayRules) -> int:
    """The cards of the led suit that, held by a follower, bring a follow rule into play."""
    if rules.must_overtake:
        return -1
    return rules.penalty_mask if rules.penalty_drop else 0


def _follow_by_suit(follow_mask: int, fiesta_trump: bool, trump: int) -> tuple[int, ...]:
    """Per led suit: the cards a follower must hold for a follow rule to concern him (every
    card of the trump suit in a fiesta, where trumps must head a trump lead)."""
    return tuple(SUIT_MASK[s] & (-1 if fiesta_trump and s == trump else follow_mask)
                 for s in range(4))


def _void_rules(rules: PlayRules) -> bool:
    """Some rule of ``rules`` concerns a player void in the led suit."""
    return bool(rules.kh_discard_from or rules.kh_first_trick or rules.hearts_first_trick
                or rules.trump_mode or rules.penalty_mask)


def _lead_mask(rules: PlayRules, trumps: int) -> int:
    """The cards whose lead some rule of ``rules`` concerns."""
    return ((HEARTS_MASK if rules.hearts_lead else 0) | (KH_BIT if rules.kh_lead else 0)
            | (trumps if rules.trump_lead else 0))


def _void_mask(rules: PlayRules, trumps: int) -> int:
    """The cards that, held by a player void in the led suit, bring a rule into play."""
    return ((KH_BIT if rules.kh_discard_from or rules.kh_first_trick else 0)
            | (HEARTS_MASK if rules.hearts_first_trick else 0)
            | (trumps if rules.trump_mode else 0) | rules.penalty_mask)


_REFEREES: dict[tuple[PlayRules, int], Referee] = {}


def referee_for(rules: PlayRules, trump: int) -> Referee:
    """The referee of these rules and trump: a table of constants, kept by value (the game
    builder asks once per contract and trump of a game)."""
    key = (rules, trump)
    referee = _REFEREES.get(key)
    if referee is None:
        referee = _REFEREES[key] = Referee(rules, trump)
    return referee
