"""The score-progression chart, and a player's rating and points over their games: small
SVGs drawn on the server (no JS, no network)."""
from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup, escape

from app.web.words import points

COLORS = ("#1d5f8a", "#c0262d", "#1f7a3a", "#7a3d9a")
DASHES = ("", "6 3", "2 3", "8 3 2 3")  # never colour alone


@dataclass(frozen=True)
class _Frame:
    """The chart's box, its margins and the range of totals it shows."""

    width: int
    height: int
    font: int
    left: int
    right: int
    top: int
    bottom: int
    n: int          # hands drawn
    lo: int
    hi: int

    @classmethod
    def of(cls, series: list[list[int]], lean: bool, zero: bool = True) -> _Frame:
        # the page's chart is drawn in a 400-unit box so that its 14-unit labels stay readable
        # (about 12 px) on a 375 px phone; the printed sheet keeps its wider box, 25 mm high
        # on paper (static/css/pdf.css): 21-unit labels print at 6.5 pt (issue 27.10)
        box = (600, 240, 21, 66, 12, 14, 30) if lean else (400, 220, 14, 46, 10, 12, 26)
        values = [v for line in series for v in line] + ([0] if zero else [])
        lo, hi = min(values), max(values)
        if lo == hi:
            lo, hi = lo - 1, hi + 1
        return cls(*box, n=len(series[0]) - 1, lo=lo, hi=hi)

    def x(self, i: int) -> float:
        return self.left + (self.width - self.left - self.right) * i / max(self.n, 1)

    def y(self, v: int) -> float:
        return self.top + (self.height - self.top - self.bottom) * (self.hi - v) / (self.hi - self.lo)


def _value_marks(f: _Frame, lean: bool) -> list[str]:
    """The top, zero and bottom totals: their labels, and their lines (only zero's on paper)."""
    parts = []
    for v in (f.hi, 0, f.lo) if f.lo <= 0 <= f.hi else (f.hi, f.lo):
        if not lean or v == 0:
            parts.append(f'<line x1="{f.left}" x2="{f.width - f.right}" y1="{f.y(v):.1f}" '
                         f'y2="{f.y(v):.1f}" stroke="{"#888" if v == 0 else "#ddd"}" '
                         f'stroke-width="1"/>')
        parts.append(f'<text x="{f.left - 4}" y="{f.y(v) + 4:.1f}" text-anchor="end" font-size="{f.font}" '
                     f'fill="#5b6570">{points(v)}</text>')
    return parts


def _hand_labels(f: _Frame, lean: bool) -> list[str]:
    """Hand numbers along the bottom: about eight on the page, the first and last on paper."""
    step = max(1, -(-f.n // 8)) if not lean else max(1, f.n)
    return [f'<text x="{f.x(i):.1f}" y="{f.height - 6}" text-anchor="middle" font-size="{f.font}" '
            f'fill="#5b6570">{i}</text>' for i in range(0, f.n + 1, step)]


def _seat_line(f: _Frame, s: int, line: list[int], player: str, lean: bool) -> list[str]:
    """Seat ``s``'s running total; on the page with its player's name and a dot at the end."""
    points = " ".join(f"{f.x(i):.1f},{f.y(v):.1f}" for i, v in enumerate(line))
    dash = f' stroke-dasharray="{DASHES[s]}"' if DASHES[s] else ""
    if lean:
        return [f'<polyline fill="none" stroke="{COLORS[s]}" stroke-width="2.5"{dash} '
                f'points="{points}"/>']
    return [f'<polyline fill="none" stroke="{COLORS[s]}" stroke-width="2.5"{dash} '
            f'points="{points}"><title>{escape(player)}</title></polyline>',
            f'<circle cx="{f.x(f.n):.1f}" cy="{f.y(line[-1]):.1f}" r="3.5" fill="{COLORS[s]}"/>']


def progression_svg(players: list[str], running: list[list[int]], title: str,
                    lean: bool = False) -> Markup:
    """Lines of each seat's running total, hand by hand (hand 0 = start at 0).

    ``lean`` (the printed sheet) draws only what paper needs -- the lines, the zero line,
    the extremes and the first and last hand -- since every SVG node costs a PDF render."""
    series = [[0] + [r[s] for r in running] for s in range(4)]
    f = _Frame.of(series, lean)
    parts = [f'<svg class="chart" viewBox="0 0 {f.width} {f.height}" role="img" '
             f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
             f"<title>{escape(title)}</title>"]
    parts.extend(_value_marks(f, lean))
    parts.extend(_hand_labels(f, lean))
    for s, line in enumerate(series):
        parts.extend(_seat_line(f, s, line, players[s] if not lean else "", lean))
    parts.append("</svg>")
    return Markup("".join(parts))


def legend(players: list[str]) -> Markup:
    items = []
    for s, name in enumerate(players):
        items.append(f'<span><i class="key{s}"></i>{escape(name)}</span>')
    return Markup('<div class="legend">' + "".join(items) + "</div>")


def series_svg(values: list[int], labels: list[int], title: str) -> Markup:
    """One line over a player's games (``labels``: the game numbers of the ``values``), with
    about six of the numbers along the bottom: the rating or the points over time."""
    f = _Frame.of([values], lean=False, zero=False)
    step = max(1, -(-f.n // 6))
    points = " ".join(f"{f.x(i):.1f},{f.y(v):.1f}" for i, v in enumerate(values))
    parts = [f'<svg class="chart" viewBox="0 0 {f.width} {f.height}" role="img" '
             f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
             f"<title>{escape(title)}</title>", *_value_marks(f, False)]
    parts.extend(f'<text x="{f.x(i):.1f}" y="{f.height - 6}" text-anchor="middle" font-size="{f.font}" '
                 f'fill="#5b6570">{labels[i]}</text>' for i in [*range(0, f.n - step // 2, step), f.n])
    parts.append(f'<polyline fill="none" stroke="{COLORS[0]}" stroke-width="2.5" points="{points}"/>')
    parts.append(f'<circle cx="{f.x(f.n):.1f}" cy="{f.y(values[-1]):.1f}" r="3.5" fill="{COLORS[0]}"/>')
    parts.append("</svg>")
    return Markup("".join(parts))
