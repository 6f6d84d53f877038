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
        "9" * 5000]
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
