"""A hand's entry (RECORD.md): its counts, captures or tricks (and deal), checked and read.

:class:`EntryChecks` is the part of the game builder that reads one entry: each element's
shape and sum, each seat's trick room, the heart faces, each captured card, the tricks as
the referee plays them out. While collecting every problem of an entry
(:func:`app.rules.game.replay.entry_problems`) each check notes its problem and goes on.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import reduce
from operator import or_
from typing import Any

from app.rules.cards import BIT, HEARTS_MASK, cards_of
from app.rules.errors import InputError, RecordError, SumError
from app.rules.errors import element as element_term
from app.rules.game.entry_fields import (
    chooser_deal_problem,
    contract_word,
    counts_of,
    full_counts_of,
    heart_faces,
    last_two_length,
    least_cards,
    missing_element,
    parse_tricks,
    sum_error,
)
from app.rules.game.record import (
    CANON,
    CARD_BITS,
    card_text,
    check_keys,
    need_dict,
    need_int,
    need_list,
    need_seat,
    parse_card,
    parse_cards,
    what_term,
)
from app.rules.profiles import Contract, Options, Profile
from app.rules.referee.judge import Referee, referee_for
from app.rules.referee.play import PlayOutcome, hand_counts, play_out, play_rules
from app.rules.schedule import Slot
from app.rules.scoring import card_counts


@dataclass(slots=True)
class Played:
    """What a hand entered as tricks gives the builder (internal, never shared)."""

    tricks: list[list[int]]
    outcome: PlayOutcome
    counts: dict[str, list[int]]
    captured_masks: list[int]
    deal_order: list[list[str]] | None


@dataclass(slots=True)
class HandFacts:
    """What the builder has read of a hand before its entry (its setup)."""

    index: int
    number: int
    slot: Slot
    contract: Contract
    trump: int
    declarer: int | None
    bid: str | None
    payments: list[int]
    leader: int | None
    calls: tuple[str, ...]
    mode: str
    leaders: tuple[int, ...]         # the seats that may lead


@dataclass(slots=True)
class Entered:
    """What a hand's counts, captures or tricks give."""

    entry: Any                       # the canonical counts / captures entry
    counts: dict[str, list[int]]
    captured_masks: list[int] | None
    played: Played | None           # a hand entered as tricks
    tricks_played: int


class EntryChecks:
    """The entry checks of :class:`app.rules.game.builder.GameBuilder` (which sets these)."""

    profile: Profile
    options: Options
    players: list[str]
    problems: list[RecordError] | None
    referees: dict[tuple[str, int], Referee]

    def _fail(self, error: RecordError) -> None:
        """Raises ``error``; while collecting every problem of an entry, notes it instead."""
        if self.problems is None:
            raise error
        self.problems.append(error)

    def _counts(self, value: object, contract: Contract, fld: str) -> dict[str, Any]:
        counts = need_dict(value, fld)
        scored = [e for e, v in contract.values.items() if v]
        check_keys(counts, tuple(scored), fld + ".")
        n_tricks = self.profile.n_tricks
        full = full_counts_of(self.profile)
        out: dict[str, Any] = {}
        for element in scored:
            f = f"{fld}.{element}"
            try:
                if element not in counts:
                    raise missing_element(f, contract, element)
                out[element] = self._count_of(element, counts[element], f, full, n_tricks)
            except RecordError as e:
                self._fail(e)
        if len(out) == len(scored):
            out = {k: out[k] for k in counts}      # reorder as given, for a faithful round trip
        # collecting every problem, the checks below read the elements that read
        per_seat = counts_of(out, contract)
        self._check_trick_room(per_seat, contract, fld)
        self._check_heart_faces(per_seat, fld)
        return out

    def _check_heart_faces(self, counts: dict[str, list[int]], fld: str) -> None:
        """One card counts in every element it belongs to (RULES.md §2; decisions.md).

        Where the contract counts the K♥ with hearts or kings, the seat credited with it has
        at least one heart and one king. Where it counts hearts with kings, queens or jacks,
        each seat's hearts fit its faces: all four of a face include its heart, and hearts
        beyond the plain ones are heart faces the seat's counts allow.
        """
        hearts = counts.get("hearts")
        kh = counts.get("kh")
        faces = [e for e in ("kings", "queens", "jacks")
                 if e in counts or (e == "kings" and kh is not None)]
        # the hearts that are no counted face
        plain = (HEARTS_MASK & self.profile.deck).bit_count() - len(faces)
        for s in range(4):
            if kh is not None and kh[s] and self._kh_without(counts, s, fld):
                continue
            if hearts is not None:
                must, may = heart_faces(counts, kh, faces, s)
                self._check_seat_hearts(hearts[s], must, plain + len(may), s, fld)

    def _check_seat_hearts(self, n: int, must: list[str], most: int, s: int, fld: str) -> None:
        """A seat's hearts hold the heart faces it must have taken, and at most ``most``."""
        if n < len(must):
            self._fail(SumError.of(
                f"{fld}.hearts[{s}]", "heart-faces", "seat %(seat)s (%(name)s) is credited "
                "with %(n)s %(hearts)s, fewer than the hearts among its cards (%(cards)s)",
                seat=s, name=self.players[s], n=n, hearts=element_term("hearts"),
                cards=" ".join(must)))
        elif n > most:
            self._fail(SumError.of(
                f"{fld}.hearts[{s}]", "heart-faces", "seat %(seat)s (%(name)s) is credited "
                "with %(n)s %(hearts)s, more than its other counts allow (at most %(max)s)",
                seat=s, name=self.players[s], n=n, hearts=element_term("hearts"), max=most))

    def _kh_without(self, counts: dict[str, list[int]], seat: int, fld: str) -> bool:
        """The seat credited with the K♥ has 0 hearts or 0 kings: says so (True)."""
        found = False
        for e in ("hearts", "kings"):
            if e in counts and counts[e][seat] == 0:
                found = True
                self._fail(SumError.of(
                    f"{fld}.{e}[{seat}]", "heart-faces", "seat %(seat)s (%(name)s) is credited "
                    "with the K♥ but with 0 %(element)s: the K♥ is one of the %(element)s too",
                    seat=seat, name=self.players[seat], element=element_term(e)))
        return found

    def _check_trick_room(self, counts: dict[str, list[int]], contract: Contract,
                          fld: str) -> None:
        """A seat credited with cards or last tricks must have taken enough tricks."""
        if "tricks" not in counts or contract.base:
            return
        tricks = counts["tricks"]
        faces = [e for e in ("kings", "queens", "jacks") if e in counts]
        for s in range(4):
            cards = least_cards(counts, faces, s)
            if cards > 4 * tricks[s]:
                self._fail(SumError.of(
                    f"{fld}.tricks[{s}]", "trick-room", "seat %(seat)s (%(name)s) took at least "
                    "%(cards)s scoring cards in %(tricks)s tricks (4 cards a trick)",
                    seat=s, name=self.players[s], cards=cards, tricks=tricks[s]))
            if "last_two" in counts and counts["last_two"][s] > tricks[s]:
                self._fail(SumError.of(
                    f"{fld}.tricks[{s}]", "trick-room", "seat %(seat)s (%(name)s) took %(last)s "
                    "of the last two tricks but %(tricks)s tricks in all",
                    seat=s, name=self.players[s], last=counts["last_two"][s], tricks=tricks[s]))

    def _count_of(self, element: str, value: object, f: str, full: Mapping[str, int],
                  n_tricks: int) -> Any:
        """One element of a counts entry: the K♥ seat, the last two tricks' seats, or a count
        per seat adding up to the element's full count."""
        if element == "kh":
            return need_seat(value, f)
        if element == "last_two":
            if not isinstance(value, list):
                need_list(value, f, what_term("last-two", before=n_tricks - 1, last=n_tricks))
            assert isinstance(value, list)
            if len(value) != 2:
                raise last_two_length(f, n_tricks, len(value))
            return [need_seat(s, f"{f}[{k}]") for k, s in enumerate(value)]
        items = need_list(value, f, "counts")
        if len(items) != 4:
            raise InputError.of(f, "length", "has one count per seat: 4, not %(n)s",
                                n=len(items))
        nums = [need_int(x, f"{f}[{k}]", 0, full[element]) for k, x in enumerate(items)]
        total = sum(nums)
        if total != full[element]:
            raise sum_error(f, element, total, self.profile)
        return nums

    def _captures(self, value: object, contract: Contract, fld: str
                  ) -> tuple[dict[str, Any], dict[str, list[int]], list[int]]:
        """The canonical captures entry, the counts it gives and each seat's scoring cards."""
        caps = need_dict(value, fld)
        allowed = ["cards"] + [e for e in ("tricks", "last_two") if contract.values.get(e)]
        check_keys(caps, tuple(allowed), fld + ".")
        out: dict[str, Any] = {}
        masks = [0, 0, 0, 0]
        if "cards" in caps:
            out["cards"], masks = self._captured_cards(caps["cards"], contract, f"{fld}.cards")
        elif contract.scoring_mask:
            raise InputError.of(f"{fld}.cards", "missing-key",
                                "missing: the scoring cards each seat took")
        counts = card_counts(contract, masks)
        for element in allowed[1:]:
            f = f"{fld}.{element}"
            try:
                if element not in caps:
                    raise missing_element(f, contract, element)
                out[element], counts[element] = self._captured_count(element, caps[element], f)
            except RecordError as e:
                self._fail(e)
        out = {k: out[k] for k in caps if k in out}
        self._check_trick_room(counts, contract, fld)
        return out, counts, masks

    def _captured_count(self, element: str, value: object, f: str) -> tuple[Any, list[int]]:
        """A captures entry's tricks (per seat) or last two tricks (two seats): the entry
        and the count per seat."""
        if element == "tricks":
            won = self._tricks_won(value, f)
            return won, won
        pair = self._last_two_seats(value, f)
        return pair, [pair.count(s) for s in range(4)]

    def _captured_cards(self, value: object, contract: Contract, fld: str
                        ) -> tuple[list[list[str]], list[int]]:
        """The scoring cards each seat took (canonical texts and bit sets); each card that
        does not score, is listed twice or is not assigned is a problem of its own."""
        deck, size = self.profile.deck, self.profile.deck_size
        scoring = contract.scoring_mask
        lists = need_list(value, fld, "card-lists")
        if len(lists) != 4:
            raise InputError.of(fld, "length", "has one list per seat: 4, not %(n)s",
                                n=len(lists))
        masks = [0, 0, 0, 0]
        seen = 0
        texts: list[list[str]] = []
        for s, items in enumerate(lists):
            f = f"{fld}[{s}]"
            row = []
            for k, text in enumerate(need_list(items, f, "cards")):
                c = parse_card(text, f"{f}[{k}]", deck, size)
                b = BIT[c]
                if not scoring & b:
                    self._fail(InputError.of(f"{f}[{k}]", "not-scoring",
                                             "%(card)s does not score in %(contract)s",
                                             card=card_text(c),
                                             contract=contract_word(contract)))
                elif seen & b:
                    self._fail(InputError.of(f"{f}[{k}]", "card-twice",
                                             "%(card)s is listed twice", card=card_text(c)))
                else:
                    seen |= b
                    masks[s] |= b
                    row.append(card_text(c))
            texts.append(row)
        missing = scoring & ~seen
        if missing:
            names = " ".join(card_text(c) for c in cards_of(missing))
            if missing.bit_count() == 1:
                self._fail(SumError.of(fld, "sum", "every scoring card is taken "
                                       "by someone: %(cards)s is not assigned", cards=names))
            else:
                self._fail(SumError.of(fld, "sum", "every scoring card is taken "
                                       "by someone: %(cards)s are not assigned", cards=names))
        return texts, masks

    def _tricks_won(self, value: object, f: str) -> list[int]:
        n_tricks = self.profile.n_tricks
        items = need_list(value, f, "counts")
        if len(items) != 4:
            raise InputError.of(f, "length", "has one count per seat: 4, not %(n)s",
                                n=len(items))
        nums = [need_int(x, f"{f}[{k}]", 0, n_tricks) for k, x in enumerate(items)]
        if sum(nums) != n_tricks:
            raise sum_error(f, "tricks", sum(nums), self.profile)
        return nums

    def _last_two_seats(self, value: object, f: str) -> list[int]:
        seats = need_list(value, f, "seats")
        if len(seats) != 2:
            raise last_two_length(f, self.profile.n_tricks, len(seats))
        return [need_seat(s, f"{f}[{k}]") for k, s in enumerate(seats)]

    def _tricks(self, hand: dict[str, Any], contract: Contract, trump: int, leader: int | None,
                slot: Slot, fld: str) -> Played:
        profile = self.profile
        tricks_fld = f"{fld}.tricks"
        raw = need_list(hand["tricks"], tricks_fld, "tricks")
        tricks = parse_tricks(raw, tricks_fld, profile.deck, profile.deck_size)
        deal: list[int] | None = None
        deal_order: list[list[str]] | None = None
        if "deal" in hand:
            deal_order = need_list(hand["deal"], f"{fld}.deal", "card-lists")
            deal = self._deal(deal_order, f"{fld}.deal")
            problem = chooser_deal_problem(profile, slot.number, slot.chooser, deal,
                                           self.players, f"{fld}.deal")
            if problem is not None:
                self._fail(problem)
        assert leader is not None
        referee = self.referees.get((contract.id, trump))
        if referee is None:
            referee = self.referees[contract.id, trump] = referee_for(
                play_rules(profile, self.options, contract), trump)
        outcome = play_out(profile, referee, contract, leader, tricks, deal, tricks_fld, self.players)
        scoring = contract.scoring_mask
        return Played(tricks, outcome, hand_counts(contract, outcome),
                      [mask & scoring for mask in outcome.captured], deal_order)

    def _deal(self, lists: list[Any], deal_fld: str) -> list[int]:
        """The cards dealt to each seat (bit sets): one pass when the deal reads, the slow
        path names its defect."""
        if len(lists) != 4:
            raise InputError.of(deal_fld, "length", "has one list per seat: 4, not %(n)s",
                                n=len(lists))
        profile = self.profile
        deck, size, n_tricks = profile.deck, profile.deck_size, profile.n_tricks
        deal = []
        seen = 0
        bits = CARD_BITS
        for seat, items in enumerate(lists):
            try:
                mask = reduce(or_, map(bits.__getitem__, items), 0)
                ok = type(items) is list and len(items) == n_tricks \
                    and mask.bit_count() == n_tricks and not seen & mask \
                    and (size == 52 or not mask & ~deck)
            except (KeyError, TypeError):
                ok = False
            if not ok:
                self._deal_defect(items, f"{deal_fld}[{seat}]", seat, seen)
            seen |= mask
            deal.append(mask)
        return deal

    def _deal_defect(self, items: object, fld: str, seat: int, seen: int) -> None:
        """Names what is wrong with one seat's dealt cards (the slow path)."""
        profile = self.profile
        cards = parse_cards(items, fld, profile.deck, profile.deck_size)
        if len(cards) != profile.n_tricks:
            raise InputError.of(fld, "length", "seat %(seat)s (%(name)s) was dealt %(n)s cards, "
                                "not %(got)s", seat=seat, name=self.players[seat],
                                n=profile.n_tricks, got=len(cards))
        for k, c in enumerate(cards):
            if seen & BIT[c]:
                raise InputError.of(f"{fld}[{k}]", "card-twice", "%(card)s is dealt twice",
                                    card=CANON[c])
            seen |= BIT[c]
        raise AssertionError("unreachable: the deal reads")  # pragma: no cover


