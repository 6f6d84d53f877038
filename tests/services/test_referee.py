"""Referee mode (app.games.referee.referee, app.games.referee.view, app.web.words): live
violations as the engine finds them, the deal picker, rule texts in both languages, rulings and setups."""
from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from app.games.referee import referee as svc
from app.games.referee import view as rv
from app.rules import RecordError, load
from app.rules.cards import cards_of
from app.rules.game.hand import HandState
from app.rules.profiles import PROFILES
from app.rules.referee.play import RULE_IDS
from app.rules.simulate import random_deal
from app.web import referee_words
from tests.conftest import PLAYERS, base_record, make_app


@pytest.fixture(scope="module")
def flask_app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from app.db import get_db

    db = tmp_path_factory.mktemp("referee") / "k.sqlite"
    application = make_app(f"sqlite:///{db}")
    yield application
    get_db(application).dispose()


@pytest.fixture
def en(flask_app: Any) -> Iterator[None]:
    with flask_app.test_request_context(headers={"Accept-Language": "en"}):
        yield


@pytest.fixture
def es(flask_app: Any) -> Iterator[None]:
    with flask_app.test_request_context(headers={"Accept-Language": "es"}):
        yield


def _messy_hand(profile_id: str, contract: str, trump: str | None, leader: int,
                seed: int) -> tuple[list[list[str]], list[str]]:
    """A deal and its plays, about a third of them chosen without regard to the rules. The
    leader holds the 2♦ in rifki (the hand is hand 1, led by its chooser: RULES.md 1.4)."""
    profile = PROFILES[profile_id]
    rng = random.Random(seed)
    deal = [[str(c) for c in cards_of(m)] for m in random_deal(profile, rng, leader)]
    state = HandState(profile_id, {}, contract, trump, leader, deal=deal)
    while not state.over:
        seat = state.to_play
        assert seat is not None
        legal = state.legal_cards()
        held = [str(c) for c in cards_of(state.holding(seat) or 0)]
        state.play(rng.choice(held) if rng.random() < 0.35 or not legal else rng.choice(legal))
    return deal, state.tricks()


def _key(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(v["trick"], v["seat"], v["card"], v["rule"], v["raw_evidence"]) for v in rows]


RIFKI = ["el-almaz", "kupa-almaz", "erkek-almaz", "kiz-almaz", "rifki", "son-iki", "koz"]


@pytest.mark.parametrize("with_deal", [True, False], ids=["deal", "no-deal"])
@pytest.mark.parametrize("seed", range(12))
def test_live_violations_are_the_engines_on_a_finished_hand(en: None, seed: int,
                                                           with_deal: bool) -> None:
    contract = RIFKI[seed % len(RIFKI)]
    trump = "SHDC"[seed % 4] if contract == "koz" else None
    deal, tricks = _messy_hand("rifki", contract, trump, 0, seed)
    hand: dict[str, Any] = {"contract": contract, "tricks": tricks}
    if trump:
        hand["trump"] = trump
    if with_deal:
        hand["deal"] = deal
    engine = load(base_record("rifki", hands=[hand])).hands[0]
    state = HandState("rifki", {}, contract, trump, 0, deal=deal if with_deal else None,
                      names=PLAYERS)
    for card in (c for t in tricks for c in t):
        state.play(card)
    live = rv.live_violations(state, PLAYERS)
    assert _key(live) == _key([referee_words.violation_row(v, PLAYERS) for v in engine.violations])
    assert state.summary()["points"] == list(engine.played_points)


@pytest.mark.parametrize("seed", range(6))
def test_a_hand_in_progress_reports_what_the_replay_will(seed: int) -> None:
    # with the deal, a play is judged on the holding before it: after every card, the hand in
    # progress has exactly the finished hand's violations of the cards played so far
    contract = RIFKI[seed % len(RIFKI)]
    trump = "SHDC"[seed % 4] if contract == "koz" else None
    deal, tricks = _messy_hand("rifki", contract, trump, 0, seed + 100)
    hand: dict[str, Any] = {"contract": contract, "tricks": tricks, "deal": deal}
    if trump:
        hand["trump"] = trump
    replayed = load(base_record("rifki", hands=[hand])).hands[0]
    finished, leaders = replayed.violations, replayed.trick_leaders
    plays = [c for t in tricks for c in t]
    state = HandState("rifki", {}, contract, trump, 0, deal=deal, names=PLAYERS)
    for k, card in enumerate(plays, start=1):
        state.play(card)
        so_far = [(v.trick, v.seat, v.card, v.rule) for v in finished
                  if 4 * (v.trick - 1) + ((v.seat - leaders[v.trick - 1]) & 3) < k]
        assert [(v.trick, v.seat, v.card, v.rule) for v in state.violations()] == so_far
    assert finished, "the messy hand breaks some rule"


def test_revoke_without_the_deal_is_proven_by_a_later_play(en: None) -> None:
    # ru32 hand 1 (no-tricks), Beto leads: Carla discards 7♣ on a spade lead at trick 1,
    # then plays 9♠ at trick 2 -- the 9♠ proves she could follow.
    state = HandState("ru32", {}, "no-tricks", None, 1, names=PLAYERS)
    for card in ["AS", "7C", "8S", "KS", "7S", "9S"]:
        state.play(card)
    rows = rv.live_violations(state, PLAYERS)
    assert [(v["trick"], v["player"], v["card"], v["rule"]) for v in rows] == [
        (1, "Carla", "7C", "follow-suit")]
    assert rows[0]["raw_evidence"] == ["9S@2"]
    assert rows[0]["evidence"] == ["9♠ played at trick 2"]
    assert rows[0]["rule_name"] == "Follow suit"
    assert rows[0]["sentence"] \
        == "Carla did not follow suit at trick 1: played 7♣, holding 9♠ played at trick 2."


def test_every_rule_has_a_name_a_demand_and_a_sentence_in_both_languages(flask_app: Any) -> None:
    texts: dict[str, dict[str, tuple[str, str, str]]] = {}
    for lang in ("en", "es"):
        with flask_app.test_request_context(headers={"Accept-Language": lang}):
            texts[lang] = {r: (str(referee_words.RULE_NAMES[r]), str(referee_words.RULE_DEMANDS[r]),
                               referee_words.rule_broken(r)) for r in RULE_IDS}
    for rule in RULE_IDS:
        for k in range(3):
            assert texts["en"][rule][k], (rule, k)
            assert texts["es"][rule][k] != texts["en"][rule][k], (rule, k, "not translated")
    assert len({t[0] for t in texts["es"].values()}) == len(RULE_IDS)  # names tell rules apart


def test_evidence_and_early_end_in_spanish(es: None) -> None:
    assert referee_words.evidence_text("9S@6") == "9♠ jugado en la baza 6"
    assert referee_words.evidence_text("TH@deal") == "10♥ en el reparto"
    queens = PROFILES["fiestas"].contracts["no-queens"]
    assert referee_words.early_end_text(queens, 9) == \
        "Mano terminada tras la baza 9: se ha llevado la última dama."
    assert referee_words.rule_name("kh-discard") == "Descarte obligado del rey de corazones"


def test_early_end_says_what_was_taken(en: None) -> None:
    c = PROFILES["ru32"].contracts
    assert "the last queen is taken" in referee_words.early_end_text(c["no-girls"], 5)
    assert "the K♥ is taken" in referee_words.early_end_text(c["no-king"], 2)
    assert "the last heart is taken" in referee_words.early_end_text(c["no-hearts"], 6)
    assert "the last king is taken" in referee_words.early_end_text(c["no-boys"], 6)
    men = PROFILES["fiestas"].contracts["no-men"]
    assert "king and the last jack" in referee_words.early_end_text(men, 10)


def test_deal_picker_fills_the_last_seat(en: None) -> None:
    profile = PROFILES["ru32"]
    cards = [str(c) for c in sorted(cards_of(profile.deck), reverse=True)]
    assigned: dict[str, int | None] = {c: k // 8 for k, c in enumerate(cards[:24])}
    deal, problems = rv.deal_from_assignment(profile, assigned, PLAYERS)
    assert problems == {}
    assert [len(d) for d in deal] == [8, 8, 8, 8]
    assert set(deal[3]) == set(cards[24:])
    # any seat can be the one left: here Ana's
    assigned = {c: 1 + k // 8 for k, c in enumerate(cards[:24])}
    deal, problems = rv.deal_from_assignment(profile, assigned, PLAYERS)
    assert problems == {} and set(deal[0]) == set(cards[24:])


def test_deal_picker_names_the_seat_with_the_wrong_count(en: None) -> None:
    profile = PROFILES["ru32"]
    cards = [str(c) for c in sorted(cards_of(profile.deck), reverse=True)]
    assigned: dict[str, int | None] = {c: k // 8 for k, c in enumerate(cards[:23])}
    _deal, problems = rv.deal_from_assignment(profile, assigned, PLAYERS)
    assert problems[2] == "Carla has 7 cards; each player is dealt 8."


def test_check_deal_from_the_address(en: None) -> None:
    profile = PROFILES["ru32"]
    deal = [[str(c) for c in cards_of(m)] for m in random_deal(profile, random.Random(1))]
    assert rv.check_deal(profile, deal, PLAYERS) is None
    bad = [list(d) for d in deal]
    bad[1][0] = bad[0][0]
    assert "dealt twice" in (rv.check_deal(profile, bad, PLAYERS) or "")
    bad = [list(d) for d in deal]
    bad[0][0] = "2C"
    assert "not in the 32-card deck" in (rv.check_deal(profile, bad, PLAYERS) or "")
    assert "has 7 cards" in (rv.check_deal(profile, [d[:7] for d in deal], PLAYERS) or "")


def test_parse_typed_cards(en: None) -> None:
    assert [svc.parse_card(t) for t in ("KH", "10s", "qd", "K♥", " tc ")] == \
        ["KH", "TS", "QD", "KH", "TC"]
    assert svc.parse_card_list("as, 10h,qd") == ["AS", "TH", "QD"]
    from app.rules.errors import InputError

    with pytest.raises(InputError):
        svc.parse_card_list("AS,ZZ")


def test_tricks_view_marks_what_the_player_may_not_play(en: None) -> None:
    profile = PROFILES["ru32"]
    deal = [["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"],
            ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H"],
            ["AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D"],
            ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C"]]
    setup = svc.Setup("no-king", None, 0, None, None)
    view = rv.tricks_view(profile, {}, PLAYERS, setup, deal, [])
    cells = {c["code"]: c for s in view["grid"] for c in s["cards"]}
    assert cells["AS"]["status"] == "legal" and cells["AH"]["status"] == "other"
    # Ana leads a spade; Beto holds the K♥ and no spade: he must discard it
    view = rv.tricks_view(profile, {}, PLAYERS, setup, deal, ["AS"])
    cells = {c["code"]: c for s in view["grid"] for c in s["cards"]}
    assert cells["KH"]["status"] == "legal"
    assert cells["AH"]["status"] == "illegal" and cells["AH"]["why"]["rule"] == "kh-discard"
    assert cells["AS"]["status"] == "played"
    assert view["forbidden"][0]["rule"] == "kh-discard"
    # played anyway: recorded and flagged
    view = rv.tricks_view(profile, {}, PLAYERS, setup, deal, ["AS", "AH"])
    assert view["plays"] == ["AS", "AH"]
    assert view["last_play"]["violation"]["rule"] == "kh-discard"
    assert view["last_play"]["violation"]["evidence"] == ["K♥ in the deal"]


def test_tricks_view_stops_at_a_card_it_cannot_take(en: None) -> None:
    setup = svc.Setup("no-tricks", None, 1, None, None)
    view = rv.tricks_view(PROFILES["ru32"], {}, PLAYERS, setup, None, ["AS", "KS", "AS", "QS"])
    assert view["plays"] == ["AS", "KS"] and view["n_valid"] == 2
    assert view["problem"] == "A♠ has already been played."


def test_tricks_view_closes_the_hand_at_the_early_end(en: None) -> None:
    # no-king, without the deal: the K♥ falls in trick 1 and the hand is over
    setup = svc.Setup("no-king", None, 1, None, None)
    view = rv.tricks_view(PROFILES["ru32"], {}, PLAYERS, setup, None, ["AH", "KH", "7H", "8H"])
    assert view["over"] and view["to_play"] is None
    assert view["early_end"] == "Hand over after trick 1: the K♥ is taken."
    assert view["points"] == [0, -16, 0, 0]
    assert view["captured"][1][0]["text"] == "K♥"
    assert view["tricks"][0]["winner"] == 1 and view["tricks"][0]["leader"] == 1


def test_a_played_draft_is_a_record_hand(en: None) -> None:
    from app.games.entry.draft import HandDraft

    setup = svc.Setup("trump", "S", 2, 2, ["1:+2", "2:pass", "3:pass", "owner:accept"], "x")
    hand = HandDraft.of_plays(6, setup, ["AS", "KS", "QS", "JS", "TS"], None, None).hand()
    assert hand == {"contract": "trump", "trump": "S", "leader": 2,
                    "auction": ["1:+2", "2:pass", "3:pass", "owner:accept"],
                    "tricks": [["AS", "KS", "QS", "JS"], ["TS"]]}


def test_build_ruling(en: None) -> None:
    r = svc.build_ruling("adjusted", seat=None, points=[-4, -4, -4, -4], reason=" ok ",
                         who="Eva", at="2026-11-29T12:00:00+00:00")
    assert r == {"kind": "adjusted", "points": [-4, -4, -4, -4], "reason": "ok", "by": "Eva",
                 "at": "2026-11-29T12:00:00+00:00"}
    r = svc.build_ruling("charge-offender", seat=2, points=None, reason="", who="Eva", at="t")
    assert r == {"kind": "charge-offender", "seat": 2, "by": "Eva", "at": "t"}
    with pytest.raises(RecordError):
        svc.build_ruling("adjusted", seat=None, points=[1, None, 2, 3], reason="x", who="E",
                         at="t")
    with pytest.raises(RecordError):
        svc.build_ruling("nonsense", seat=None, points=None, reason="", who="E", at="t")
