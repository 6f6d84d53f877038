"""Never a 500 for something a user typed: seeded junk in the query string and the form,
on every page of a few games (one per profile, complete and in progress)."""
from __future__ import annotations

import random

import pytest

from tests.conftest import base_record, load_record, make_app

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


# --- issue 23.6: huge numbers in every number field, and a 500 page that cannot fail -----

HUGE = "9" * 400          # past a float: WTForms' NumberRange failed on it (OverflowError)


def _number_fields(gid: int, version: int) -> list[tuple[str, dict[str, str], str, str]]:
    """(address, form, page key, words naming the field) of every form field that takes a
    number: the hand entry (its counts, the ruling's points, its version) saved and
    previewed, and the ruling form (points, version)."""
    kings = {"version": str(version), "kings_0": HUGE, "kings_1": "0", "kings_2": "0",
             "kings_3": "0"}
    edit = {"version": str(version), "tricks_0": "2", "tricks_1": "2", "tricks_2": "2",
            "tricks_3": "2", "ruling_kind": "adjusted", "ruling_reason": "x",
            "ruling_points_0": HUGE, "ruling_points_1": "-" + HUGE, "ruling_points_2": "0",
            "ruling_points_3": "-80"}
    points = "Adjusted points: type a whole number from -100000 to 100000."
    version_words = "Sheet version: type a whole number from 0 to 2147483647."
    return [
        (f"/games/{gid}/hands/new", kings, "kings", "Kings: type a whole number from 0 to 4."),
        (f"/games/{gid}/hands/new", {**kings, "kings_0": "-" + HUGE}, "kings",
         "Kings: type a whole number from 0 to 4."),
        (f"/games/{gid}/hands/new", {**kings, "kings_0": "4", "version": HUGE}, "__all__",
         version_words),
        (f"/games/{gid}/hands/1/edit", edit, "ruling", points),
        (f"/games/{gid}/hands/1/ruling", {"version": str(version), "kind": "adjusted",
                                          "reason": "x", "points_0": HUGE, "points_1": "0",
                                          "points_2": "0", "points_3": "0"}, "points", points),
        (f"/games/{gid}/hands/1/ruling", {"version": HUGE, "kind": "as-played"}, "version",
         version_words),
    ]


def test_huge_numbers_in_every_number_field_are_refused_by_name(client, make_game):
    gid = make_game("ru32", hands=[{"counts": {"tricks": [2, 2, 2, 2]}}])
    version = 1
    before = client.get(f"/games/{gid}/record.json").get_json()
    for url, form, key, words in _number_fields(gid, version):
        r = client.post(url, data=form)
        assert r.status_code == 400, (url, form, r.status_code)
        assert words in r.get_data(as_text=True), (url, key)
        if url.endswith(("/new", "/edit")):                 # the live preview names it too
            r = client.post(url, data={**form, "preview": "1"})
            assert r.status_code == 200, (url, r.status_code)
            assert words in r.get_json()["problems"][key], (url, r.get_json())
    assert client.get(f"/games/{gid}/record.json").get_json() == before


def test_a_huge_count_is_refused_in_the_page_language(app, make_game):
    gid = make_game("ru32", hands=[{"counts": {"tricks": [2, 2, 2, 2]}}])
    spanish = app.test_client()
    spanish.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    form = {"version": "1", "kings_0": HUGE, "kings_1": "0", "kings_2": "0", "kings_3": "0"}
    r = spanish.post(f"/games/{gid}/hands/new", data=form)
    assert r.status_code == 400
    assert "Reyes: escribe un número entero de 0 a 4." in r.get_data(as_text=True)


def test_blank_counts_in_the_preview_stay_one_line(client, make_game):
    gid = make_game("ru32", hands=[{"counts": {"tricks": [2, 2, 2, 2]}}])
    r = client.post(f"/games/{gid}/hands/new", data={"version": "1", "kings_0": "1",
                                                     "preview": "1"})
    assert r.get_json()["problems"] == {"__all__": ["Type a number for every player."]}


def test_huge_numbers_in_the_json_endpoints_are_refused_by_name(client, make_game):
    gid = make_game("ru32", hands=[{"counts": {"tricks": [2, 2, 2, 2]}}])
    huge = int(HUGE)
    match = {"If-Match": '"v1"'}
    cases = [
        ("GET", f"/api/v1/games?player={HUGE}", {}, 422, "player"),
        ("GET", f"/api/v1/games?season={HUGE}", {}, 422, "season"),
        ("GET", "/api/v1/games?player=2147483648", {}, 422, "player"),
        ("GET", f"/api/v1/games?limit={HUGE}", {}, 422, "limit"),
        ("POST", "/api/v1/games", {"json": {"profile": "ru32", "players": ["a", "b", "c", "d"],
                                            "first_dealer": huge}}, 422, "first_dealer"),
        ("POST", f"/api/v1/games/{gid}/confirmations", {"json": {"seat": huge}}, 422, "seat"),
        ("POST", f"/api/v1/games/{gid}/hands", {"json": {"counts": {"kings": [huge, 0, 0, 0]}},
                                                "headers": match}, 422,
         "hands[1].counts.kings[0]"),
        ("POST", f"/api/v1/games/{gid}/hands", {"json": {"leader": huge}, "headers": match},
         422, "hands[1].leader"),
        ("PUT", f"/api/v1/games/{gid}/hands/1", {"json": {"ruling": {
            "kind": "adjusted", "points": [huge, 0, 0, 0], "reason": "x"},
            "counts": {"tricks": [2, 2, 2, 2]}}, "headers": match}, 422,
         "hands[0].ruling.points[0]"),
        ("POST", f"/api/v1/games/{gid}/hands", {"json": {"counts": {"kings": [1, 1, 1, 1]}},
                                                "headers": {"If-Match": f'"v{"9" * 5000}"'}},
         412, "If-Match"),
        ("POST", "/api/v1/score", {"json": base_record("ru32", first_dealer=huge)}, 422,
         "first_dealer"),
    ]
    for method, url, kwargs, status, field in cases:
        r = client.open(url, method=method, **kwargs)
        assert r.status_code == status, (method, url[:80], r.status_code, r.get_data()[:300])
        assert r.get_json()["error"]["field"] == field, (url[:80], r.get_json())
    assert len(client.get(f"/games/{gid}/record.json").get_json()["hands"]) == 1


def _failing_app(tmp_path):
    """The app with two views that fail: one after loading the logged-in user, one in the
    database (its session must be rolled back); exceptions answered, not raised."""
    from sqlalchemy import text

    from app.db import get_session

    application = make_app(f"sqlite:///{tmp_path / 'k.sqlite'}", PROPAGATE_EXCEPTIONS=False)

    def fails() -> str:
        from flask_login import current_user

        assert current_user.is_authenticated
        raise RuntimeError("a bug")

    def fails_in_the_database() -> str:
        get_session().execute(text("SELECT * FROM no_such_table"))
        return "never"

    application.add_url_rule("/test-fails", "test_fails", fails)
    application.add_url_rule("/test-fails-db", "test_fails_db", fails_in_the_database)
    return application


@pytest.mark.parametrize("path", ["/test-fails", "/test-fails-db"])
def test_a_server_error_for_a_logged_in_user_is_a_page_with_the_headers(tmp_path, path):
    from app.security import CSP_PAGE

    client = _failing_app(tmp_path).test_client()          # the director, logged in
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    assert client.get("/").status_code == 200
    r = client.get(path)
    assert r.status_code == 500
    assert r.mimetype == "text/html"
    assert "Algo ha fallado por nuestra parte." in r.get_data(as_text=True)
    assert r.headers["Content-Security-Policy"] == CSP_PAGE
    assert r.headers["X-Frame-Options"] == "DENY"
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    r = client.get(path, headers={"Accept": "application/json"})
    assert r.status_code == 500 and r.get_json()["error"]["code"] == "server-error"
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert client.get("/").status_code == 200               # the next request is fine


def test_the_server_error_page_has_a_fallback(tmp_path, monkeypatch):
    """Even a template that cannot be read leaves a 500 page with the headers."""
    application = _failing_app(tmp_path)
    client = application.test_client()

    def broken(*args, **kwargs):
        raise OSError("templates gone")

    monkeypatch.setattr(application.jinja_env, "get_template", broken)
    r = client.get("/test-fails")
    assert r.status_code == 500 and "Something went wrong" in r.get_data(as_text=True)
    assert r.headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]
