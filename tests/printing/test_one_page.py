"""Printed sheets people sign (issue 27.10): a whole game on one page for every profile at its
longest, in both orientations, and its blank sheet too; type a cheap printer prints (no word
under 6 pt, hand points dark); a blank sheet ruled between players, with a payment column
for the auction games; the direction of play said in words."""
from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from tests.printing.test_pdf import PROFILES, client, games, pdf_app, read, text_of  # noqa: F401


def words_of(data: bytes, tmp_path: Any) -> list[tuple[str, float]]:
    """Each word of the PDF with its height in points (poppler's pdftotext -bbox)."""
    src = tmp_path / "doc.pdf"
    src.write_bytes(data)
    out = subprocess.run(["pdftotext", "-bbox", str(src), "-"], capture_output=True, check=True).stdout
    root = ET.fromstring(out)
    return [(w.text or "", float(w.get("yMax", 0)) - float(w.get("yMin", 0)))
            for w in root.iter("{http://www.w3.org/1999/xhtml}word")]


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_a_whole_game_prints_on_one_page(profile: str, orientation: str, client: Any,  # noqa: F811
                                         games: dict[str, Any], tmp_path: Any) -> None:  # noqa: F811
    gid = games[profile][0]
    response = client.get(f"/games/{gid}/sheet.pdf?orientation={orientation}")
    assert response.status_code == 200
    assert len(read(response.data).pages) == 1, (profile, orientation)
    small = [(w, h) for w, h in words_of(response.data, tmp_path) if h < 6.0]
    assert small == [], small[:10]


@pytest.mark.parametrize("profile", PROFILES)
def test_the_blank_sheet_is_one_ruled_page(profile: str, client: Any,  # noqa: F811
                                           games: dict[str, Any]) -> None:  # noqa: F811
    gid = games[profile][0]
    response = client.get(f"/games/{gid}/blank.pdf")
    assert len(read(response.data).pages) == 1, profile
    text = text_of(response.data)
    assert ("Payment" in text) == (profile in ("fiestas", "subastas"))
    assert "Check" in text.split()                       # the header whole, not "Chec/k"


def test_the_direction_of_play_is_said_in_words(client: Any, games: dict[str, Any]) -> None:  # noqa: F811
    text = " ".join(text_of(client.get(f"/games/{games['ru32'][0]}/sheet.pdf").data).split())
    assert "Dealing and play go to the left (clockwise)" in text
    text = " ".join(text_of(client.get(f"/games/{games['rifki'][0]}/sheet.pdf").data).split())
    assert "Dealing and play go to the right (counter-clockwise)" in text


def test_hand_points_print_dark() -> None:
    from pathlib import Path

    css = (Path(__file__).resolve().parents[2] / "static/css/pdf.css").read_text()
    rule = css.split("table.sheet td.p::first-line", 1)[1].split("}", 1)[0]
    color = rule.split("color:", 1)[1].strip().split(";")[0].strip()
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    assert max(r, g, b) <= 0x50, color                 # near black, not the old light grey


# --- at its longest: names of 12 letters, rulings noted, in every language ----------------

#: The issue's names at the table (27.2: up to 12 letters); "Mari Carmen" has two words.
LONG_NAMES = ["Maximilianos", "Mari Carmen", "José Luis", "Guadalupe"]
LANGS = ("es", "en", "tr", "ru")


@pytest.fixture(scope="module")
def long_games(pdf_app: Any) -> dict[str, int]:  # noqa: F811
    """profile -> the id of its complete game with LONG_NAMES and an adjusted ruling on hands
    2, 5 and 8 (three notes under the table)."""
    import copy

    from app.db import get_session
    from app.games.games import import_game
    from app.rules import score_record
    from tests.conftest import load_record

    out = {}
    with pdf_app.app_context():
        for profile in PROFILES:
            record = copy.deepcopy(load_record(f"{profile}_complete.json"))
            record["players"] = LONG_NAMES
            for i in (1, 4, 7):
                points = score_record(copy.deepcopy(record))["hands"][i]["points"]
                record["hands"][i]["ruling"] = {"kind": "adjusted", "points": points[1:] + points[:1],
                                                "reason": "cartas mostradas antes de tiempo", "by": "Árbitro"}
            out[profile] = import_game(get_session(), record, who="test").id
    return out


def split_names(words: list[str]) -> list[str]:
    """The words that are the start of a name's word cut at a line's end ("Maximiliano" for
    "Maximilianos", "Carme" for "Carmen")."""
    whole = {w for name in LONG_NAMES for w in name.split()}
    cut = [w.strip(",.:;()·") for w in words]
    return [w for w in cut if w not in whole and len(w) >= 3 and any(n.startswith(w) for n in whole)]


@pytest.mark.parametrize("lang", LANGS)
def test_a_game_at_its_longest_prints_on_one_page_with_names_whole(
        lang: str, pdf_app: Any, long_games: dict[str, int], tmp_path: Any) -> None:  # noqa: F811
    """Every profile's whole game with 12-letter names and three rulings noted, in portrait
    and landscape, and its blank sheet: one page each, in each language, and no name cut in
    two across lines (a seat's column header printed "Maximiliano/s"; rifki's portrait sheet
    with a ruling noted, and its English and Russian blank sheets, put the signatures alone
    on page 2)."""
    c = pdf_app.test_client()
    c.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    problems = []
    for profile, gid in long_games.items():
        for url in (f"/games/{gid}/sheet.pdf?orientation=portrait",
                    f"/games/{gid}/sheet.pdf?orientation=landscape", f"/games/{gid}/blank.pdf"):
            response = c.get(url)
            assert response.status_code == 200, url
            pages = len(read(response.data).pages)
            if pages != 1:
                problems.append(f"{profile} {url}: {pages} pages")
            cut = split_names([w for w, _h in words_of(response.data, tmp_path)])
            if cut:
                problems.append(f"{profile} {url}: {cut}")
    assert problems == []


def vertical_rules(data: bytes, tmp_path: Any, top_word: str, bottom_word: str) -> int:
    """How many vertical lines cross the table's body: the pixel row with the least ink
    between the header word ``top_word`` and the totals' ``bottom_word`` (between two
    horizontal rules), its runs of ink counted (pdftoppm, 100 dpi, grey)."""
    from PIL import Image

    src = tmp_path / "blank.pdf"
    src.write_bytes(data)
    out = subprocess.run(["pdftotext", "-bbox", str(src), "-"], capture_output=True, check=True).stdout
    words = {w.text: w for w in ET.fromstring(out).iter("{http://www.w3.org/1999/xhtml}word")}
    top, bottom = (float(words[top_word].get("yMax", 0)), float(words[bottom_word].get("yMin", 0)))
    subprocess.run(["pdftoppm", "-r", "100", "-gray", "-png", "-singlefile", str(src),
                    str(tmp_path / "blank")], check=True)
    image = Image.open(tmp_path / "blank.png").convert("L")
    pixels = image.load()

    def inked(y: int) -> list[bool]:
        return [pixels[x, y] < 235 for x in range(image.size[0])]

    row = min(range(round(top * 100 / 72) + 4, round(bottom * 100 / 72) - 4), key=lambda y: sum(inked(y)))
    marks = inked(row)
    return sum(1 for x in range(1, len(marks)) if marks[x] and not marks[x - 1])


@pytest.mark.parametrize("profile", PROFILES)
def test_a_blank_sheet_is_ruled_between_the_players_and_says_control_whole(
        profile: str, pdf_app: Any, games: dict[str, Any], tmp_path: Any) -> None:  # noqa: F811
    """Issue 27.10: a blank sheet had no lines between the player columns and split its
    last header "Contr/ol" (Spanish)."""
    c = pdf_app.test_client()
    c.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    data = c.get(f"/games/{games[profile][0]}/blank.pdf").data
    assert "Control" in [w for w, _h in words_of(data, tmp_path)]
    # a line before each of the four players' columns and before the check column
    assert vertical_rules(data, tmp_path, "Contrato", "Totales") >= 5
