"""Games pages: list, new game, sheet, import/export, CSRF, languages, 404s."""
from __future__ import annotations

import csv
import io
import json
import re

import pytest

from app.rules import PROFILES, normalize_record, score_record
from tests.conftest import PLAYERS, load_record
from tests.web.helpers import csrf_from, record_of, upload

NEW_GAME = {"profile": "fiestas", "player_0": "Ana", "player_1": "Beto", "player_2": "Carla",
            "player_3": "Dani", "first_seat": "draw"}


def test_index_lists_in_progress_first_with_new_game_button(client, make_game):
    done = make_game(record=load_record("ru32_complete.json"))
    open_game = make_game("fiestas")
    html = client.get("/").get_data(as_text=True)
    assert 'href="/games/new"' in html
    assert html.index(f'/games/{open_game}"') < html.index(f'/games/{done}"')


def test_new_game_page_has_profiles_options_and_datalist(client, make_game):
    make_game("fiestas")
    html = client.get("/games/new").get_data(as_text=True)
    for pid in ("ru32", "fiestas", "subastas", "rifki"):
        assert f'value="{pid}"' in html
    assert '<datalist id="roster"' in html and '<option value="Ana">' in html
    assert 'name="opt_choice_limit"' in html and 'name="opt_keep_kh"' in html
    assert 'data-direction="cw"' in html and 'data-direction="ccw"' in html


def test_new_game_draws_the_first_dealer(client):
    r = client.post("/games/new", data=NEW_GAME)
    assert r.status_code == 302
    gid = int(r.headers["Location"].rsplit("/", 1)[1])
    record = record_of(client, gid)
    assert record["first_dealer"] in range(4) and record["players"] == PLAYERS


@pytest.mark.parametrize("profile", ["fiestas", "rifki"])
def test_a_first_seat_drawn_by_lot_is_said_as_the_profile_starts(client, profile):
    """Rifki's first seat holds the 2♦ and chooses; the others' deals (the trait
    ``seat_key``, not the profile's id)."""
    r = client.post("/games/new", data=dict(NEW_GAME, profile=profile), headers={"Accept-Language": "en"})
    gid = int(r.headers["Location"].rsplit("/", 1)[1])
    record = record_of(client, gid)
    who = record["players"][record[PROFILES[profile].seat_key]]
    html = client.get(f"/games/{gid}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    said = (f"Drawn by lot: {who} holds the 2♦ and chooses first." if profile == "rifki"
            else f"Drawn by lot: {who} deals first.")
    assert said in html


def test_new_rifki_game_records_first_chooser_and_options(client):
    data = dict(NEW_GAME, profile="rifki", first_seat="2", opt_choice_limit="free", opt_must_overtake="koz")
    r = client.post("/games/new", data=data)
    gid = int(r.headers["Location"].rsplit("/", 1)[1])
    record = record_of(client, gid)
    assert record["first_chooser"] == 2
    assert record["options"]["choice_limit"] == "free" and record["options"]["must_overtake"] == "koz"


@pytest.mark.parametrize("change,field", [({"player_3": ""}, "player_3"), ({"player_3": "ana"}, "player_3"),
                                          ({"profile": "poker"}, "profile")])
def test_new_game_bad_input_names_the_field(client, change, field):
    r = client.post("/games/new", data=dict(NEW_GAME, **change))
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert 'class="error"' in html
    assert client.get("/api/v1/games/1").status_code == 404


def test_post_without_csrf_token_is_refused(csrf_app):
    client = csrf_app.test_client()
    r = client.post("/games/new", data=NEW_GAME)
    assert r.status_code == 400
    assert client.get("/api/v1/games/1").status_code == 404
    r = client.post("/games/import", data=upload(load_record("ru32_complete.json")),
                    content_type="multipart/form-data")
    assert r.status_code == 400


def test_import_with_csrf_token_then_export_is_identical(csrf_app):
    client = csrf_app.test_client()
    token = csrf_from(client.get("/").get_data(as_text=True))
    for name in ("ru32", "fiestas", "subastas", "rifki"):
        data = load_record(f"{name}_complete.json")
        r = client.post("/games/import", data={**upload(data), "csrf_token": token},
                        content_type="multipart/form-data")
        assert r.status_code == 302, r.get_data(as_text=True)
        gid = int(re.search(r"/games/(\d+)$", r.headers["Location"]).group(1))
        exported = record_of(client, gid)
        # canonical cards (the file has "qh", "Q♦"), every option named (RULES.md §4)
        every_option = PROFILES[name].parse_options(data.get("options")).as_dict(PROFILES[name])
        assert exported == {**normalize_record(data), "options": every_option}
        assert client.get(f"/games/{gid}/report.json").get_json() == score_record(data)
        r = client.post("/games/import", data={**upload(exported), "csrf_token": token},
                        content_type="multipart/form-data")
        again = int(re.search(r"/games/(\d+)$", r.headers["Location"]).group(1))
        assert client.get(f"/games/{again}/record.json").data == client.get(f"/games/{gid}/record.json").data


def test_import_bad_record_names_the_field(client):
    data = load_record("fiestas_complete.json")
    data["hands"][0]["counts"]["tricks"] = [1, 1, 1, 2]
    r = client.post("/games/import", data=upload(data), content_type="multipart/form-data")
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    assert "hands[0].counts.tricks" in html
    r = client.post("/games/import", data=upload(b"{not json"), content_type="multipart/form-data")
    assert r.status_code == 400 and "JSON" in r.get_data(as_text=True)
    r = client.post("/games/import", data={}, content_type="multipart/form-data")
    assert r.status_code == 400


def test_sheet_shows_rows_checks_totals_and_winners(client, make_game):
    data = load_record("subastas_complete.json")
    gid = make_game(record=data)
    report = score_record(data)
    html = client.get(f"/games/{gid}").get_data(as_text=True)
    assert html.count('<tr id="hand-') == len(report["hands"])
    for s, total in enumerate(report["totals"]):
        cell = re.search(rf'data-total="{s}">([^<]+)<', html).group(1)
        assert int(cell.replace("−", "-").replace("+", "")) == total
    assert 'id="winners"' in html
    assert "<svg" in html and 'class="chart"' in html
    assert "data-wakelock" in html


def test_sheet_next_hand_panel(client, make_game):
    gid = make_game("fiestas", hands=[{"contract": "no-tricks", "counts": {"tricks": [1, 5, 3, 4]}}])
    html = client.get(f"/games/{gid}").get_data(as_text=True)
    panel = html[html.index('id="next-hand"'):]
    assert "Hand 2" in panel and "No hearts" in panel and "Beto" in panel


def test_next_hand_panel_fiesta_and_rifki(client, make_game):
    data = load_record("fiestas_complete.json")
    data["hands"] = data["hands"][:6]
    gid = make_game(record=data)
    html = client.get(f"/games/{gid}").get_data(as_text=True)
    assert "auction" in html[html.index('id="next-hand"'):].split("</section>")[0]
    rid = make_game("rifki")
    html = client.get(f"/games/{rid}").get_data(as_text=True)
    assert "Ana chooses" in html


def test_csv_export(client, make_game):
    data = load_record("fiestas_complete.json")
    gid = make_game(record=data)
    r = client.get(f"/games/{gid}/sheet.csv")
    assert r.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(r.get_data(as_text=True))))
    assert len(rows) == 1 + len(data["hands"]) + 1
    assert [int(x) for x in rows[-1][9:13]] == score_record(data)["totals"]


@pytest.mark.parametrize("path", ["/games/999", "/games/999/record.json", "/games/999/report.json",
                                  "/games/999/sheet.csv", "/games/999/hands/new", "/games/999/audit",
                                  "/players/999", "/games/1/hands/5/edit", "/nowhere"])
def test_unknown_ids_are_404(client, make_game, path):
    make_game("fiestas")
    assert client.get(path).status_code == 404


def test_json_404_for_json_paths(client):
    r = client.get("/games/999/report.json")
    assert r.status_code == 404 and r.get_json()["error"]["code"]


def test_spanish_by_default_and_switch_on_every_page(app, make_game):
    gid = make_game("fiestas")
    client = app.test_client()
    html = client.get("/", headers={"Accept-Language": "es-ES,es;q=0.9"}).get_data(as_text=True)
    assert '<html lang="es">' in html and "Partidas" in html and "Nueva partida" in html
    html = client.get("/", headers={"Accept-Language": "en-GB,en;q=0.9"}).get_data(as_text=True)
    assert '<html lang="en">' in html and "New game" in html
    html = client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert '<html lang="es">' in html
    for path in ("/", f"/games/{gid}", "/games/new", "/players", f"/games/{gid}/hands/new"):
        assert 'href="/lang/en?next=' in client.get(path).get_data(as_text=True)
    r = client.get(f"/lang/en?next=/games/{gid}")
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/games/{gid}")
    assert '<html lang="en">' in client.get("/").get_data(as_text=True)
    assert client.get("/lang/en?next=https://evil.example/").headers["Location"] == "/"


def test_report_json_equals_engine_report(client, make_game):
    data = load_record("rifki_complete.json")
    gid = make_game(record=data)
    assert client.get(f"/games/{gid}/report.json").get_json() == score_record(data)
    stored = json.loads(client.get(f"/games/{gid}/record.json").data)
    assert stored == {**normalize_record(data), "options": {
        "choice_limit": "3+2", "must_overtake": "no", "trump_lead_ban": "off",
        "hearts_lead_ban": "kupa-rifki", "rifki_void": "kh"}}    # every option named


def test_audit_log_page(client, make_game):
    gid = make_game("fiestas")
    client.post(f"/games/{gid}/hands/new", data={"version": "1", "tricks_0": "1", "tricks_1": "5",
                                                 "tricks_2": "3", "tricks_3": "4"})
    html = client.get(f"/games/{gid}/audit").get_data(as_text=True)
    assert 'data-action="add_hand"' in html and "directora" in html and 'data-action="import"' in html


def test_the_log_names_the_logged_in_user_never_a_typed_name(client, make_game):
    gid = make_game("fiestas")
    html = client.get(f"/games/{gid}/hands/new").get_data(as_text=True)
    assert 'name="scorer"' not in html
    client.post(f"/games/{gid}/hands/new", data={"version": "1", "tricks_0": "1", "tricks_1": "5",
                                                 "tricks_2": "3", "tricks_3": "4", "scorer": "Fede"})
    with client.session_transaction() as s:
        s["scorer"] = "Gala"
    html = client.get(f"/games/{gid}/audit").get_data(as_text=True)
    assert "Fede" not in html and "Gala" not in html and "directora" in html
    assert client.get("/scorer").status_code == 404


def test_import_names_too_long_or_not_json_object(client):
    data = load_record("ru32_complete.json")
    data["players"][1] = "x" * 80
    r = client.post("/games/import", data=upload(data), content_type="multipart/form-data")
    assert r.status_code == 422 and "players[1]" in r.get_data(as_text=True)
    for bad in ([1, 2], 3, "x", None):
        r = client.post("/games/import", data=upload(bad), content_type="multipart/form-data")
        assert r.status_code == 422


def test_api_score_and_errors(client):
    data = load_record("subastas_complete.json")
    assert client.post("/api/v1/score", json=data).get_json() == score_record(data)
    data["hands"][0]["counts"]["tricks"] = [1, 1, 1, 1]
    r = client.post("/api/v1/score", json=data)
    assert r.status_code == 422
    assert r.get_json()["error"]["field"] == "hands[0].counts.tricks"
