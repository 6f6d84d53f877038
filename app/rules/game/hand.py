"""One hand played card by card: the state machine behind trick-by-trick entry.

``HandState`` answers what the table needs between taps -- whose turn, which cards are
legal and why not, who won each trick, what each seat has taken and scored so far, whether
the hand is over -- and records every card the table actually played, legal or not
(RULES.md §3: the referee reports, it does not refuse). The triad of STYLE.md:
:meth:`HandState.why_illegal` names the rule a card would break, :meth:`can_play` answers
yes or no, :meth:`play` applies it.
"""
from __future__ import annotations

from typing import Any

from app.rules.cards import BIT, CARD_BY_TEXT, SUIT_OF, Card, cards_of
from app.rules.errors import InputError
from app.rules.game.record import parse_suit
from app.rules.profiles import Contract, Options, Profile, get_profile
from app.rules.referee.judge import referee_for
from app.rules.referee.play import (
    PlayOutcome,
    Violation,
    describe,
    evidence_texts,
    hand_counts,
    judge_play,
    play_out,
    play_rules,
    turn_order,
)
from app.rules.scoring import hand_points


def _played_contract(profile: Profile, contract_id: str) -> Contract:
    contract = profile.contracts.get(contract_id)
    if contract is None or not contract.played:
        raise InputError.of("contract", "contract", "%(value)r is not a played contract of "
                            "%(profile)s", value=contract_id, profile=profile.id)
    return contract


def _deal_masks(deal: list[list[str]]) -> list[int]:
    """Each seat's dealt cards as a bit set."""
    return [sum(BIT[_card(c)] for c in cards) for cards in deal]


class HandState:
    def __init__(self, profile_id: str, options: dict[str, str] | Options | None,
                 contract_id: str, trump: str | None, leader: int,
                 deal: list[list[str]] | None = None,
                 names: list[str] | None = None) -> None:
        self.profile = get_profile(profile_id)
        self.options = options if isinstance(options, Options) else \
            self.profile.parse_options(options or {})
        self.contract = contract = _played_contract(self.profile, contract_id)
        self.trump = parse_suit(trump, "trump") if contract.trump_game else -1
        self.rules = play_rules(self.profile, self.options, contract)
        self.referee = referee_for(self.rules, self.trump)
        self.leader = leader
        self.names = names or [f"seat {s}" for s in range(4)]
        self.deal: list[int] | None = None if deal is None else _deal_masks(deal)
        self.plays: list[int] = []
        self._outcome: tuple[tuple[int, ...], PlayOutcome] | None = None

    # --- derived state (replayed from the plays; a hand has at most 52) --------------------
    def outcome(self) -> PlayOutcome:
        """The plays so far through :func:`app.rules.referee.play.play_out`, the function that plays
        a whole hand of a record: trick winners and leaders, captures, the early end, the
        last-two count and every violation come from one place."""
        plays = tuple(self.plays)
        if self._outcome is not None and self._outcome[0] == plays:
            return self._outcome[1]
        complete = len(plays) - len(plays) % 4
        tricks = [list(plays[k:k + 4]) for k in range(0, complete, 4)]
        outcome = play_out(self.profile, self.referee, self.contract, self.leader, tricks,
                           self.deal, "tricks", self.names, current=list(plays[complete:]))
        self._outcome = (plays, outcome)
        return outcome

    def _walk(self) -> dict[str, Any]:
        outcome = self.outcome()
        plays = self.plays
        complete = len(plays) - len(plays) % 4
        winners = outcome.winners
        over = len(winners) == self.profile.n_tricks or outcome.ended_early
        cur = plays[complete:]
        played = 0
        for card in plays:
            played |= BIT[card]
        if over:
            to_play = None
        elif cur:
            to_play = (outcome.leaders[-1] + len(cur)) & 3
        else:
            to_play = winners[-1] if winners else self.leader
        return {"tricks": [plays[k:k + 4] for k in range(0, complete, 4)],
                "leaders": outcome.leaders, "winners": winners, "current": cur,
                "captured": outcome.captured, "played": played, "over": over,
                "to_play": to_play}

    def violations(self) -> list[Violation]:
        """Every violation the plays so far prove (RULES.md §3), as the record's replay
        reports them: with the deal, each play judged on the holding before it; without it,
        on the cards the seat is seen to play so far."""
        return list(self.outcome().violations)

    @property
    def over(self) -> bool:
        return bool(self._walk()["over"])

    @property
    def to_play(self) -> int | None:
        return self._walk()["to_play"]  # type: ignore[no-any-return]

    @property
    def trick_no(self) -> int:
        return len(self.plays) // 4 + 1

    def holding(self, seat: int) -> int | None:
        """The seat's cards now (with the deal), as a bit set; None without the deal."""
        if self.deal is None:
            return None
        played: int = self._walk()["played"]
        return self.deal[seat] & ~played

    def why_illegal(self, card: str | int) -> Violation | None:
        """The rule this card would break if the seat to play played it (deal known)."""
        c = _card(card)
        w = self._walk()
        seat = w["to_play"]
        if seat is None or self.deal is None:
            return None
        h = self.deal[seat] & ~w["played"]
        if not h & BIT[c]:
            return None
        before = w["played"] & ~sum(BIT[x] for x in w["current"])
        found = judge_play(self.rules, self.trump, len(w["tricks"]) + 1, w["current"], c, h,
                           before)
        if found is None:
            return None
        rule, proof = found
        evidence = evidence_texts(proof & h, {})
        return Violation(len(w["tricks"]) + 1, seat, str(Card(c)), rule,
                         describe(rule, self.names[seat], c, len(w["tricks"]) + 1, evidence),
                         tuple(evidence))

    def can_play(self, card: str | int) -> bool:
        return self.why_illegal(card) is None

    def legal_cards(self) -> list[str]:
        seat = self.to_play
        if seat is None or self.deal is None:
            return []
        h = self.holding(seat) or 0
        return [str(c) for c in cards_of(h) if self.why_illegal(int(c)) is None]

    def play(self, card: str | int) -> Violation | None:
        """Records the card (even an illegal one) and returns the rule it broke, if any."""
        c = _card(card)
        w = self._walk()
        seat = w["to_play"]
        if seat is None:
            raise InputError.of("card", "hand-over", "the hand is over")
        if w["played"] & BIT[c]:
            raise InputError.of("card", "card-twice", "%(card)s has already been played",
                                card=str(Card(c)))
        if self.deal is not None and not self.deal[seat] & BIT[c]:
            raise InputError.of("card", "card-not-held", "%(card)s is not in %(name)s's hand",
                                card=str(Card(c)), name=self.names[seat])
        if not self.profile.deck & BIT[c]:
            raise InputError.of("card", "card", "%(card)s is not in the %(deck)s-card deck",
                                card=str(Card(c)), deck=self.profile.deck_size)
        violation = self.why_illegal(c)
        self.plays.append(c)
        return violation

    def undo(self) -> None:
        if self.plays:
            self.plays.pop()

    def undo_trick(self) -> None:
        """Takes back the cards of the current trick, or the whole last trick."""
        if not self.plays:
            return
        k = len(self.plays) % 4 or 4
        del self.plays[-k:]

    def tricks(self) -> list[list[str]]:
        """The tricks as entered so far, the incomplete one last (for the record)."""
        out = [[str(Card(c)) for c in t] for t in self._walk()["tricks"]]
        cur = self._walk()["current"]
        return out + ([[str(Card(c)) for c in cur]] if cur else [])

    def summary(self) -> dict[str, Any]:
        """What the page shows: turn, trick winners, captures and running points."""
        w = self._walk()
        outcome = self.outcome()
        contract = self.contract
        caps = w["captured"]
        points = hand_points(contract, hand_counts(contract, outcome))
        return {
            "to_play": w["to_play"], "over": w["over"], "trick_no": len(w["tricks"]) + 1,
            "current": [str(Card(c)) for c in w["current"]],
            "leaders": w["leaders"], "winners": w["winners"],
            "captured": [[str(c) for c in cards_of(m & contract.scoring_mask)] for m in caps],
            "points": points,
            "ended_early": w["over"] and len(w["tricks"]) < self.profile.n_tricks,
            # who played each card so far, trick by trick (the one being played last), and
            # who leads the trick being played (or the next one)
            "seats": self.seats(), "leading": self.leading(),
        }

    def seats(self) -> list[list[int]]:
        """For each trick so far (the one being played last), the seat of each card."""
        plays = self.plays
        return [list(turn_order(lead)[:len(plays[4 * t:4 * t + 4])])
                for t, lead in enumerate(self._walk()["leaders"])]

    def leading(self) -> int:
        """Who leads the trick being played: its leader, or the last winner (the first
        leader before any card), also when the hand is over."""
        w = self._walk()
        if w["current"]:
            return int(w["leaders"][-1])
        return int(w["winners"][-1]) if w["winners"] else self.leader


def _card(card: str | int) -> int:
    if isinstance(card, int):
        return int(card)
    c = CARD_BY_TEXT.get(card.strip().upper())
    if c is None:
        raise InputError.of("card", "card", '"%(text)s" is not a card', text=card)
    return int(c)


__all__ = ["HandState", "SUIT_OF", "turn_order"]
