"""Printed sheets people sign (issue 27.10): a whole game on one page for every profile at its
longest, in both orientations, and its blank sheet too; type a cheap printer prints (no word
under 6 pt, hand points dark); a blank sheet ruled between players, with a payment column
for the auction games; the direction of play said in words."""
from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from tests.pdf.test_pdf import PROFILES, client, games, pdf_app, read, text_of  # noqa: F401


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
