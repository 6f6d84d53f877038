"""Never a 500 for something a user typed: seeded junk in the query string and the form,
on every page of a few games (one per profile, complete and in progress)."""
from __future__ import annotations

import random

from tests.conftest import load_record

JUNK = ["", "x", "-1", "999999999999999999999", "%00", "<script>", "1:+9", "owner:accept",
        "AS,AS", "ZZ", "0", "4", "1.5", "[]", "{}", "' OR 1=1", "é", "trump", "433", "koz",
        "none", "10s,qd", "3:pass,0:pass", "landscape",
        # numbers no column, float or int conversion holds (issue 8, item 7)
        "9" * 40, "-" + "9" * 40, "2147483648", "4294967296", "1e308", "1e309", "nan", "inf",
        "9" * 5000, "\x00", "a\x00b", "%ED%A0%80", "%FF%FE"]
KEYS = ["contract", "trump", "leader", "auction", "mode", "plays", "deal0", "deal1", "dealt",
        "step", "add", "undo", "orientation", "row", "preview", "version", "tricks_0",
        "kings_1", "kh", "last_two_0", "card_QS", "ruling_kind", "ruling_seat", "player",
        "date_from", "scorer"]


def test_junk_input_never_gives_a_server_error(client, make_game):
    games = []
    for profile in ("ru32", "fiestas", "rifki"):
        record = load_record(f"{profile}_complete.json")
        games.append(make_game(record=record))
        record["hands"] = record["hands"][:6]
        games.append(make_game(record=record))
    rng = random.Random(2026)
    paths = ["/", "/players", "/players/1", "/exports", "/games/new", "/games/import",
             "/scorer"]
    for gid in games:
        paths += [f"/games/{gid}{p}" for p in (
            "", "/hands/new", "/hands/tricks", "/hands/1", "/hands/1/edit", "/hands/1/tricks",
            "/audit", "/record.json", "/report.json", "/sheet.csv", "/hands/99")]
    paths += ["/games/2147483648", "/games/99999999999999999999/hands/new", "/players/4294967296",
              "/seasons/2147483648", f"/games/{games[0]}/hands/2147483648"]
    seen = 0
    for path in paths:
        for k in range(4):
            query = "&".join(f"{rng.choice(KEYS)}={rng.choice(JUNK)}"
                             for _ in range(rng.randint(0, 4)))
            url = path + ("?" + query if query else "")
            method = "POST" if k == 3 else "GET"
            form = {rng.choice(KEYS): rng.choice(JUNK) for _ in range(4)}
            r = client.open(url, method=method, data=form if method == "POST" else None)
            seen += 1
            assert r.status_code < 500, (method, url, form, r.status_code)
    assert seen > 250


def _nested(rng: random.Random) -> object:
    value: object = []
    for _ in range(rng.randrange(5, 60)):
        value = [value]
    return value


#: Makers of JSON values a record should never hold (or holds elsewhere).
JUNK_VALUES = [
    lambda rng: rng.choice(JUNK),
    lambda rng: 10 ** rng.randrange(5, 400) * rng.choice((1, -1)),
    lambda rng: rng.choice([None, True, False, 1.5, -0.0, 1e300]),
    _nested,
    lambda rng: "".join(chr(rng.randrange(0, 0x3000)) for _ in range(rng.randrange(1, 40))),
    lambda rng: {"kind": rng.choice(["replay", "adjusted", "x"]),
                 "points": [rng.randrange(-10**6, 10**6)] * 4, "reason": "r" * rng.randrange(0, 700)},
    lambda rng: [rng.choice(JUNK) for _ in range(rng.randrange(0, 6))],
    lambda rng: {rng.choice(JUNK): rng.choice(JUNK)},
    lambda rng: rng.randrange(-5, 60),
    lambda rng: ["AS", "KS", "QS", "JS"][: rng.randrange(0, 5)],
    lambda rng: "x" * rng.randrange(50, 5000),
    lambda rng: {},
]


def _junk_value(rng: random.Random) -> object:
    return rng.choice(JUNK_VALUES)(rng)


def _mutate(value: object, rng: random.Random, depth: int = 0) -> object:
    """``value`` with a few of its nodes replaced by junk (seeded)."""
    if depth > 0 and rng.random() < 0.08:
        return _junk_value(rng)
    if isinstance(value, dict):
        out = {k: _mutate(v, rng, depth + 1) for k, v in value.items()}
        if rng.random() < 0.05:
            out[rng.choice(["extra", "ruling", "deal", "leader", "trump"])] = _junk_value(rng)
        return out
    if isinstance(value, list):
        return [_mutate(v, rng, depth + 1) for v in value]
    return value


def test_mutated_records_never_give_a_server_error(client):
    """The API and the import with seeded, mutated records of every profile."""
    import io
    import json

    rng = random.Random(8)
    records = [load_record(f"{p}_complete.json") for p in ("ru32", "fiestas", "subastas", "rifki")]
    for k in range(160):
        data = _mutate(rng.choice(records), rng)
        r = client.post("/api/v1/score", json=data)
        assert r.status_code < 500, (k, r.status_code)
        if k % 4 == 0:
            raw = json.dumps(data).encode()
            r = client.post("/games/import", data={"record": (io.BytesIO(raw), "g.json")},
                            content_type="multipart/form-data")
            assert r.status_code < 500, (k, r.status_code)


def test_every_route_with_junk_never_gives_a_server_error(app, client, make_game):
    """Every rule of the app (ids good, missing and huge; junk strings), GET and POST."""
    record = load_record("fiestas_complete.json")
    done = make_game(record=record)
    record["hands"] = record["hands"][:7]
    part = make_game(record=record)
    rng = random.Random(2027)
    ints = [done, part, 1, 7, 0, 99, 2**31, 10**20]
    words = ["fiestas", "ru32", "es", "en", "x", "..", "a" * 300, "%00", "css/app.css", "%FF"]
    seen = 0
    for rule in app.url_map.iter_rules():
        methods = sorted((rule.methods or set()) & {"GET", "POST"})
        for _ in range(6):
            url = rule.rule
            for name, conv in rule._converters.items():
                is_int = type(conv).__name__ in ("BoundedInt", "IntegerConverter")
                token = str(rng.choice(ints)) if is_int else rng.choice(words)
                url = _fill(url, name, token)
            query = "&".join(f"{rng.choice(KEYS)}={rng.choice(JUNK)}" for _ in range(rng.randint(0, 3)))
            for method in methods:
                form = {rng.choice(KEYS): rng.choice(JUNK) for _ in range(rng.randint(0, 5))}
                if method == "POST" and rng.random() < 0.5:
                    form["version"] = str(rng.choice([1, 2, 7, 8, 10**30]))
                r = client.open(url + ("?" + query if query else ""), method=method,
                                data=form if method == "POST" else None)
                r.close()
                seen += 1
                assert r.status_code < 500, (method, url, query, form, r.status_code)
    assert seen > 300


def _fill(url: str, name: str, token: str) -> str:
    """The rule's ``<conv:name>`` or ``<name>`` placeholder replaced by ``token``."""
    import re

    return re.sub(r"<(?:[a-z]+(?:\([^)]*\))?:)?" + name + ">", token, url)
