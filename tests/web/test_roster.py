"""One roster on the pages (issue 38): a director renames a player or merges two from the
player's page; the sheets, the change log, the roster and the player's page show it at once."""
from __future__ import annotations

import re
from typing import Any

from sqlalchemy import func, select

from tests.conftest import load_record


def seated(name: str, players: list[str]) -> dict[str, Any]:
    record = load_record(f"{name}_complete.json")
    record["players"] = players
    return record


def player_id(app: Any, name: str) -> int:
    from app.db import get_session
    from app.models import Player

    with app.app_context():
        return int(get_session().scalars(select(Player.id).where(Player.name == name)).one())


def players_named(app: Any, name: str) -> int:
    from app.db import get_session
    from app.models import Player

    with app.app_context():
        return int(get_session().scalar(select(func.count()).select_from(Player).where(Player.name == name)))


def test_a_director_renames_and_every_page_shows_the_new_name(app, client, make_game):
    game = make_game(record=seated("ru32", ["koldo", "Ana", "Beto", "Carla"]))
    pid = player_id(app, "koldo")
    sheet = client.get(f"/games/{game}")
    etag = sheet.headers.get("ETag")
    page = client.get(f"/players/{pid}").get_data(as_text=True)
    assert f'href="/players/{pid}/edit"' in page
    assert client.get(f"/players/{pid}/edit").status_code == 200

    r = client.post(f"/players/{pid}/rename", data={"name": "Koldo Etxeberria"})

    assert r.status_code == 303 and r.headers["Location"].endswith(f"/players/{pid}")
    assert "Koldo Etxeberria" in client.get(f"/players/{pid}").get_data(as_text=True)
    after = client.get(f"/games/{game}")
    assert "Koldo Etxeberria" in after.get_data(as_text=True)
    assert after.headers.get("ETag") != etag or etag is None
    assert "Koldo Etxeberria" in client.get("/players").get_data(as_text=True)
    assert "Koldo Etxeberria" in client.get("/players/ratings?profile=ru32&min=1").get_data(as_text=True)
    log = client.get(f"/games/{game}/audit").get_data(as_text=True)
    assert 'data-action="rename_player"' in log and "koldo → Koldo Etxeberria" in log
    assert players_named(app, "koldo") == 0


def test_a_refused_name_names_the_field_and_is_no_server_error(app, client, make_game):
    make_game(record=seated("ru32", ["koldo", "Ana", "Beto", "Carla"]))
    pid = player_id(app, "koldo")
    for name, says in (("", "New name: "), ("ANA", "merge"), ("\u0410na", "looks like")):
        r = client.post(f"/players/{pid}/rename", data={"name": name})
        assert r.status_code == 422, name
        html = r.get_data(as_text=True)
        assert 'id="rename-error"' in html and "New name: " in html and says in html, name
    assert client.post(f"/players/{pid}/rename", data={"name": "x" * 500}).status_code == 400
    assert client.post("/players/999999/rename", data={"name": "Zoe"}).status_code == 404
    assert players_named(app, "koldo") == 1


def test_a_merge_asks_first_then_merges(app, client, make_game):
    make_game(record=seated("ru32", ["koldo", "Ana", "Beto", "Carla"]))
    game = make_game(record=seated("ru32", ["Koldo", "Dani", "Eva", "Fede"]))
    gone, kept = player_id(app, "koldo"), player_id(app, "Koldo")
    form = client.get(f"/players/{gone}/edit").get_data(as_text=True)
    # the namesake is the choice offered first (the roster's first name, Ana, otherwise)
    assert re.search(rf'<option selected value="{kept}">Koldo</option>', form), form

    asked = client.post(f"/players/{gone}/merge", data={"into": str(kept)})

    html = asked.get_data(as_text=True)
    assert asked.status_code == 200 and 'id="merge-confirm"' in html and "cannot be undone" in html
    assert players_named(app, "koldo") == 1            # nothing merged yet
    r = client.post(f"/players/{gone}/merge", data={"into": str(kept), "confirmed": "yes"})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/players/{kept}")
    assert players_named(app, "koldo") == 0
    assert client.get(f"/players/{gone}").status_code == 404
    page = client.get(f"/players/{kept}").get_data(as_text=True)
    assert 'data-finished="2"' in page
    assert client.get(f"/games/{game}").status_code == 200


def test_a_merge_of_two_who_shared_a_game_is_refused_naming_it(app, client, make_game):
    game = make_game(record=seated("ru32", ["koldo", "Koldo", "Beto", "Carla"]))
    gone, kept = player_id(app, "koldo"), player_id(app, "Koldo")
    r = client.post(f"/players/{gone}/merge", data={"into": str(kept), "confirmed": "yes"})
    html = r.get_data(as_text=True)
    assert r.status_code == 422 and "Merge into: " in html and f"#{game}" in html
    assert client.post(f"/players/{gone}/merge", data={"into": "nobody"}).status_code == 400
    assert players_named(app, "koldo") == 1


def test_only_a_director_renames_or_merges(app, make_game):
    make_game(record=seated("ru32", ["koldo", "Ana", "Beto", "Carla"]))
    pid = player_id(app, "koldo")
    scorer = app.test_client(user="sergio", role="scorer")
    assert f'href="/players/{pid}/edit"' not in scorer.get(f"/players/{pid}").get_data(as_text=True)
    assert scorer.get(f"/players/{pid}/edit").status_code == 403
    assert scorer.post(f"/players/{pid}/rename", data={"name": "Koldo"}).status_code == 403
    assert scorer.post(f"/players/{pid}/merge", data={"into": "1", "confirmed": "yes"}).status_code == 403
    assert players_named(app, "koldo") == 1


def test_the_forms_are_spanish_first(app, make_game):
    make_game(record=seated("ru32", ["koldo", "Ana", "Beto", "Carla"]))
    pid = player_id(app, "koldo")
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    html = client.get(f"/players/{pid}/edit").get_data(as_text=True)
    assert "Cambiar el nombre" in html and "Fusionar con…" in html
    r = client.post(f"/players/{pid}/rename", data={"name": "ana"})
    assert r.status_code == 422 and "fusiona" in r.get_data(as_text=True)
