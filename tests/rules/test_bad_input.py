"""Invalid records: each defect on its own, through the CLI (exit 1, one line naming the
field, no traceback), plus the CLI's several-files and stdin modes."""
import json
import re

import pytest

from app.rules import RecordError, score_record

from .helpers import RECORDS, deepcopy, filler, rec, run_cli, write_json

# ---------------------------------------------------------------- base records

RU32_NO_KING_TRICKS = [  # leader 1 (first_dealer 0, hand 5: dealer 0); K♥ falls in trick 2
    ["7S", "8S", "9S", "TS"],   # seat 1 7S, 2 8S, 3 9S, 0 TS -> seat 0
    ["7D", "8D", "KH", "9D"],   # seat 0 7D, 1 8D, 2 KH (void in diamonds), 3 9D -> seat 3 wins, hand over
]
RU32_NO_KING_DEAL = [
    ["TS", "7D", "AD", "KD", "QD", "JD", "TD", "AS"],
    ["7S", "8D", "AC", "KC", "QC", "JC", "TC", "9C"],
    ["8S", "KH", "AH", "QH", "JH", "TH", "9H", "8H"],
    ["9S", "9D", "7H", "KS", "QS", "JS", "8C", "7C"],
]


def ru32_base():
    return rec("ru32", [filler("ru32", n) for n in range(1, 15)], options={}, first=0)


def fiestas_base():
    hands = [filler("fiestas", n) for n in range(1, 7)]
    # hand 7: dealer and owner 3 (first_dealer 1); bidding starts at seat 0
    hands.append({"contract": "trump", "trump": "S",
                  "auction": ["0:+2", "1:pass", "2:pass", "owner:accept"],
                  "counts": {"tricks": [4, 3, 3, 3]}})
    return rec("fiestas", hands, first=1)


def subastas_base():
    hands = [filler("subastas", n) for n in range(1, 7)]
    hands.append({"contract": "trump", "trump": "H",
                  "auction": ["0:+2", "1:pass", "2:pass", "owner:accept"],
                  "counts": {"tricks": [4, 3, 3, 3]}})
    return rec("subastas", hands, first=1)


def rifki_base():
    return rec("rifki", [filler("rifki", 1, "el-almaz"), filler("rifki", 2, "koz")], first=1)


def ru32_tricks_base():
    record = rec("ru32", [filler("ru32", n) for n in range(1, 5)], first=0)
    record["hands"].append({"contract": "no-king", "tricks": deepcopy(RU32_NO_KING_TRICKS),
                            "deal": deepcopy(RU32_NO_KING_DEAL)})
    return record


BASES = {"ru32": ru32_base, "fiestas": fiestas_base, "subastas": subastas_base,
         "rifki": rifki_base, "ru32-tricks": ru32_tricks_base}


@pytest.mark.parametrize("base", sorted(BASES))
def test_base_records_are_valid(base):
    report = score_record(BASES[base]())
    assert report["zero_sum_ok"] is True
    assert all(h["violations"] == [] for h in report["hands"])


def test_base_no_king_hand_ends_with_the_kh_trick():
    hand = score_record(ru32_tricks_base())["hands"][4]
    assert hand["tricks_played"] == 2 and hand["ended_early"] is True
    assert hand["trick_winners"] == [0, 3]
    assert hand["points"] == [0, 0, 0, -16]


# ---------------------------------------------------------------- the defects

def setin(path, value):
    def mutate(r):
        obj = r
        for k in path[:-1]:
            obj = obj[k]
        obj[path[-1]] = value
    return mutate


def delete(path):
    def mutate(r):
        obj = r
        for k in path[:-1]:
            obj = obj[k]
        del obj[path[-1]]
    return mutate


def rifki_third_el_almaz(r):
    r["hands"] = [filler("rifki", 1, "el-almaz"), filler("rifki", 2, "el-almaz"),
                  filler("rifki", 3, "el-almaz")]


def rifki_fourth_penalty_of_one_chooser(r):
    # chooser seat 1 chooses hands 1, 5, 9, 13: kupa, erkek, kiz and then son-iki (a 4th)
    plan = ["kupa-almaz", "koz", "koz", "koz", "erkek-almaz", "koz", "koz", "koz",
            "kiz-almaz", "el-almaz", "el-almaz", "rifki", "son-iki"]
    r["hands"] = [filler("rifki", n, c) for n, c in enumerate(plan, 1)]


def too_many_hands(r):
    r["hands"].append(filler("ru32", 14))


def card_not_dealt(r):
    h = r["hands"][4]
    h["tricks"][0][3] = "AS"       # seat 0 plays A♠, which the deal gives to seat 3
    h["deal"][0] = ["KS" if c == "AS" else c for c in h["deal"][0]]
    h["deal"][3] = ["AS" if c == "KS" else c for c in h["deal"][3]]


def card_played_twice(r):
    h = r["hands"][0]
    h["tricks"][1] = ["AS", "8D", "KH", "9D"]


def card_played_twice_deal(r):
    h = r["hands"][4]
    h["tricks"][1][0] = "TS"       # seat 0 plays T♠ again


def tricks_after_end(r):
    r["hands"][4]["tricks"].append(["AS", "AC", "AH", "KS"])


def too_few_tricks(r):
    r["hands"][0] = {"contract": "no-tricks", "tricks": [
        ["7S", "8S", "9S", "TS"], ["7D", "8D", "9D", "TD"], ["7C", "8C", "9C", "TC"],
        ["7H", "8H", "9H", "TH"], ["JS", "QS", "KS", "AS"], ["JD", "QD", "KD", "AD"],
        ["JC", "QC", "KC", "AC"]]}


def three_card_trick(r):
    r["hands"][0] = {"contract": "no-tricks", "tricks": [
        ["7S", "8S", "9S", "TS"], ["7D", "8D", "9D"], ["7C", "8C", "9C", "TC"],
        ["7H", "8H", "9H", "TH"], ["JS", "QS", "KS", "AS"], ["JD", "QD", "KD", "AD"],
        ["JC", "QC", "KC", "AC"], ["JH", "QH", "KH", "AH", "TD"]]}


def tricks_mode_played_twice(r):
    r["hands"][0] = {"contract": "no-tricks", "tricks": [
        ["7S", "8S", "9S", "TS"], ["7D", "8D", "9D", "TD"], ["7C", "8C", "9C", "TC"],
        ["7H", "8H", "9H", "TH"], ["JS", "QS", "KS", "AS"], ["JD", "QD", "KD", "AD"],
        ["JC", "QC", "KC", "AC"], ["JH", "QH", "KH", "7S"]]}


def auction(calls, contract="trump", extra=None):
    def mutate(r):
        h = r["hands"][6]
        h["auction"] = calls
        h["contract"] = contract
        if contract != "trump":
            h.pop("trump", None)
        if contract == "433":
            h.pop("counts", None)
        if extra:
            h.update(extra)
    return mutate


def malformed_card(r):
    r["hands"][1] = {"contract": "no-hearts", "captures": {"cards": [
        ["2H", "3H", "4H", "1X"], ["5H", "6H", "7H"], ["8H", "9H", "TH"], ["JH", "QH", "KH", "AH"]]}}


def dup_capture(r):
    r["hands"][1] = {"contract": "no-hearts", "captures": {"cards": [
        ["2H", "3H", "4H", "5H"], ["5H", "6H", "7H"], ["8H", "9H", "TH"], ["JH", "QH", "KH", "AH"]]}}


def nonscoring_capture(r):
    r["hands"][1] = {"contract": "no-hearts", "captures": {"cards": [
        ["2H", "3H", "4H", "2C"], ["5H", "6H", "7H"], ["8H", "9H", "TH"], ["JH", "QH", "KH", "AH"]]}}


def missing_capture(r):
    r["hands"][1] = {"contract": "no-hearts", "captures": {"cards": [
        ["2H", "3H"], ["5H", "6H", "7H"], ["8H", "9H", "TH"], ["JH", "QH", "KH", "AH"]]}}


def last_two_without_tricks(r):
    r["hands"][6]["counts"] = {"tricks": [0, 4, 2, 2], "hearts": [0, 4, 2, 2], "kings": [0, 2, 1, 1],
                               "queens": [0, 2, 1, 1], "kh": 1, "last_two": [0, 0]}


def write_garbage(r):
    return "{not json"


# (id, base, mutation, regex the stderr line must match after "PATH: ")
DEFECTS = [
    ("tricks-sum-off", "fiestas", setin(["hands", 0, "counts", "tricks"], [4, 3, 3, 4]), r"hands\[0\]\.counts\.tricks"),
    ("hearts-sum-off", "fiestas", setin(["hands", 1, "counts", "hearts"], [4, 3, 3, 2]), r"hands\[1\]\.counts\.hearts"),
    ("kings-sum-off", "ru32", setin(["hands", 1, "counts", "kings"], [1, 1, 1, 2]), r"hands\[1\]\.counts\.kings"),
    ("duplicate-card-in-captures", "fiestas", dup_capture, r"hands\[1\]\.captures"),
    ("non-scoring-card-in-captures", "fiestas", nonscoring_capture, r"hands\[1\]\.captures"),
    ("scoring-card-missing-in-captures", "fiestas", missing_capture, r"hands\[1\]\.captures"),
    ("wrong-leader", "fiestas", setin(["hands", 0, "leader"], 3), r"hands\[0\]\.leader"),
    ("tricks-after-the-end", "ru32-tricks", tricks_after_end, r"hands\[4\]\.tricks"),
    ("too-few-tricks", "ru32", too_few_tricks, r"hands\[0\]\.tricks"),
    ("trick-with-3-cards", "ru32", three_card_trick, r"hands\[0\]\.tricks\[1\]"),
    ("card-played-twice", "ru32", tricks_mode_played_twice, r"hands\[0\]\.tricks"),
    ("card-played-twice-with-deal", "ru32-tricks", card_played_twice_deal, r"hands\[4\]\.tricks"),
    ("card-not-in-dealt-hand", "ru32-tricks", card_not_dealt, r"hands\[4\]\.(tricks|deal)"),
    ("call-out-of-turn", "fiestas", auction(["1:+2", "2:pass", "0:pass", "owner:accept"]), r"hands\[6\]\.auction\[0\]"),
    ("bid-below-best", "fiestas", auction(["0:+4", "1:+2", "2:pass", "0:pass", "owner:accept"]), r"hands\[6\]\.auction\[1\]"),
    ("bid-after-pass", "fiestas", auction(["0:pass", "1:+1", "2:+2", "0:+3", "owner:accept"]), r"hands\[6\]\.auction\[3\]"),
    ("owner-answer-before-bidding-stops", "fiestas", auction(["0:+2", "owner:accept"]), r"hands\[6\]\.auction\[1\]"),
    ("eight-or-nulos-at-plus-4-fiestas", "fiestas",
     auction(["0:+4", "1:pass", "2:pass", "owner:eight-or-nulos", "0:+8"]), r"hands\[6\]\.auction\[3\]"),
    ("reject-in-fiestas", "fiestas", auction(["0:+4", "1:pass", "2:pass", "owner:reject"]), r"hands\[6\]\.auction\[3\]"),
    ("minus-3-in-subastas", "subastas", auction(["0:-3", "1:pass", "2:pass", "owner:accept"], "nulos"), r"hands\[6\]\.auction\[0\]"),
    ("433-after-three-bids-subastas", "subastas",
     auction(["0:+1", "1:+2", "2:+3", "0:pass", "1:pass", "owner:reject"], "433"), r"hands\[6\]\.contract"),
    ("rifki-penalty-third-time", "rifki", rifki_third_el_almaz, r"hands\[2\]\.contract"),
    ("rifki-fourth-penalty-under-3+2", "rifki", rifki_fourth_penalty_of_one_chooser, r"hands\[12\]\.contract"),
    ("koz-without-trump", "rifki", delete(["hands", 1, "trump"]), r"hands\[1\]\.trump"),
    ("trump-on-non-trump-hand", "ru32", setin(["hands", 0, "trump"], "S"), r"hands\[0\]\.trump"),
    ("auction-outside-fiesta", "fiestas", setin(["hands", 0, "auction"], ["2:pass"]), r"hands\[0\]\.auction"),
    ("unknown-option-name", "ru32", setin(["options"], {"keep_king": "on"}), r"options"),
    ("bad-option-value", "ru32", setin(["options"], {"keep_kh": "yes"}), r"options\.keep_kh"),
    ("option-in-profile-without-options", "fiestas", setin(["options"], {"keep_kh": "on"}), r"options"),
    ("malformed-card-1X", "fiestas", malformed_card, r'hands\[1\]\.captures.*"1X" is not a card'),
    ("seat-as-string-first-dealer", "ru32", setin(["first_dealer"], "2"), r"first_dealer"),
    ("seat-as-string-kh", "ru32", setin(["hands", 4, "counts", "kh"], "2"), r"hands\[4\]\.counts\.kh"),
    ("seat-out-of-range", "ru32", setin(["hands", 4, "counts", "kh"], 4), r"hands\[4\]\.counts\.kh"),
    ("three-players", "ru32", setin(["players"], ["Ana", "Beto", "Carla"]), r"players"),
    ("unknown-top-level-key", "ru32", setin(["colour"], "red"), r"colour"),
    ("unknown-hand-key", "ru32", setin(["hands", 2, "note"], "x"), r"hands\[2\]\.note"),
    ("wrong-format-string", "ru32", setin(["format"], "kingsheet/2"), r"format"),
    ("unknown-profile", "ru32", setin(["profile"], "ru36"), r"profile"),
    ("counts-element-not-scored", "ru32", setin(["hands", 1, "counts", "jacks"], [1, 1, 1, 1]), r"hands\[1\]\.counts\.jacks"),
    ("counts-wrong-type", "fiestas", setin(["hands", 1, "counts", "hearts"], "4,3,3,3"), r"hands\[1\]\.counts\.hearts"),
    ("counts-and-tricks-together", "ru32-tricks", setin(["hands", 4, "counts"], {"kh": 3}), r"hands\[4\]"),
    ("last-two-seat-without-tricks", "ru32", last_two_without_tricks, r"hands\[6\]\.counts"),
    ("contract-against-schedule", "ru32", setin(["hands", 0, "contract"], "no-boys"), r"hands\[0\]\.contract"),
    ("fiesta-contract-in-negative-slot", "fiestas", setin(["hands", 0, "contract"], "nulos"), r"hands\[0\]\.contract"),
    ("adjusted-points-do-not-add-up", "ru32",
     setin(["hands", 0, "ruling"], {"kind": "adjusted", "points": [-4, -4, -4, -2], "reason": "misdeal"}),
     r"hands\[0\]\.ruling"),
    ("adjusted-without-reason", "ru32",
     setin(["hands", 0, "ruling"], {"kind": "adjusted", "points": [-4, -4, -4, -4]}), r"hands\[0\]\.ruling"),
    ("charge-offender-on-positive-hand", "ru32",
     setin(["hands", 7, "ruling"], {"kind": "charge-offender", "seat": 1}), r"hands\[7\]\.ruling"),
    ("unknown-ruling-kind", "ru32", setin(["hands", 0, "ruling"], {"kind": "forfeit"}), r"hands\[0\]\.ruling"),
    ("more-hands-than-the-profile-has", "ru32", too_many_hands, r"hands\[14\]"),
    ("deal-with-wrong-size", "ru32-tricks", lambda r: r["hands"][4]["deal"][1].pop(), r"hands\[4\]\.deal"),
    ("hands-not-a-list", "ru32", setin(["hands"], {"0": {}}), r"hands"),
]


def test_at_least_25_defects():
    assert len({d[0] for d in DEFECTS}) == len(DEFECTS) >= 25


@pytest.mark.parametrize("case_id,base,mutate,pattern", DEFECTS, ids=[d[0] for d in DEFECTS])
def test_bad_record_rejected_by_cli_naming_the_field(tmp_path, case_id, base, mutate, pattern):
    record = BASES[base]()
    mutate(record)
    path = write_json(tmp_path / f"{case_id}.json", record)
    proc = run_cli(str(path))
    assert proc.returncode == 1, proc.stdout
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    line = lines[0]
    assert line.startswith(f"{path}: "), line
    assert re.search(pattern, line[len(str(path)) + 2:]), line
    assert proc.stdout.strip() == ""


@pytest.mark.parametrize("case_id,base,mutate,pattern", DEFECTS, ids=[d[0] for d in DEFECTS])
def test_bad_record_raises_record_error(case_id, base, mutate, pattern):
    record = BASES[base]()
    mutate(record)
    with pytest.raises(RecordError) as info:
        score_record(record)
    err = info.value
    assert str(err) == f"{err.field}: {err.message}"
    assert re.search(pattern, str(err)), str(err)
    assert err.code


def test_tricks_after_the_end_has_code_hand_over():
    record = ru32_tricks_base()
    tricks_after_end(record)
    with pytest.raises(RecordError) as info:
        score_record(record)
    assert info.value.code == "hand-over"
    assert info.value.field.startswith("hands[4].tricks")


def test_malformed_card_message():
    record = fiestas_base()
    malformed_card(record)
    with pytest.raises(RecordError) as info:
        score_record(record)
    assert '"1X" is not a card' in info.value.message


def test_first_error_in_record_order_is_reported():
    # RECORD.md: "Each record is checked in order (format, profile, options, players,
    # first seat, then each hand) and the first error is reported."
    record = ru32_base()
    record["players"] = ["A", "B", "C"]
    record["hands"][0]["counts"]["tricks"] = [9, 9, 9, 9]
    record["options"] = {"keep_kh": "maybe"}
    with pytest.raises(RecordError) as info:
        score_record(record)
    assert info.value.field.startswith("options")


def test_invalid_json_file_is_one_line_no_traceback(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    proc = run_cli(str(path))
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert proc.stderr.startswith(f"{path}: ")


# ---------------------------------------------------------------- CLI modes

def test_cli_single_valid_file_prints_report(tmp_path):
    path = write_json(tmp_path / "ok.json", ru32_base())
    proc = run_cli(str(path))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report == score_record(ru32_base())


def test_cli_several_files_one_line_each(tmp_path):
    good1 = write_json(tmp_path / "a.json", ru32_base())
    bad = ru32_base()
    bad["hands"][0]["counts"]["tricks"] = [2, 2, 2, 3]
    badp = write_json(tmp_path / "b.json", bad)
    good2 = write_json(tmp_path / "c.json", fiestas_base())
    proc = run_cli(str(good1), str(badp), str(good2))
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    lines = proc.stdout.strip().split("\n")
    assert len(lines) == 3
    first, second, third = (json.loads(x) for x in lines)
    assert first == score_record(ru32_base())
    assert third == score_record(fiestas_base())
    assert list(second) == ["error"]
    assert second["error"].startswith(f"{badp}: ")
    assert "hands[0].counts.tricks" in second["error"]
    for line in lines:  # compact: one line each, no indentation
        assert "\n" not in line


def test_cli_several_valid_files_exit_0(tmp_path):
    a = write_json(tmp_path / "a.json", ru32_base())
    b = write_json(tmp_path / "b.json", rifki_base())
    proc = run_cli(str(a), str(b))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().split("\n")
    assert [json.loads(x)["profile"] for x in lines] == ["ru32", "rifki"]


def test_cli_reads_stdin_with_dash():
    proc = run_cli("-", stdin=json.dumps(fiestas_base()))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == score_record(fiestas_base())


def test_cli_stdin_invalid_record():
    bad = fiestas_base()
    bad["hands"][1]["counts"]["hearts"] = [4, 3, 3, 2]
    proc = run_cli("-", stdin=json.dumps(bad))
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    line = proc.stderr.strip()
    assert "\n" not in line
    assert "hands[1].counts.hearts" in line


def test_cli_complete_record_file_in_repo():
    proc = run_cli(str(RECORDS / "ru32_complete.json"), "-", stdin=json.dumps(ru32_base()))
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout.strip().split("\n")) == 2
