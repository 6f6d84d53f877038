"""The score-progression chart: a small SVG drawn on the server (no JS, no network)."""
from __future__ import annotations

from markupsafe import Markup, escape

COLORS = ("#1d5f8a", "#c0262d", "#1f7a3a", "#7a3d9a")
DASHES = ("", "6 3", "2 3", "8 3 2 3")  # never colour alone


def progression_svg(players: list[str], running: list[list[int]], title: str,
                    lean: bool = False) -> Markup:
    """Lines of each seat's running total, hand by hand (hand 0 = start at 0).

    ``lean`` (the printed sheet) draws only what paper needs -- the lines, the zero line,
    the extremes and the first and last hand -- since every SVG node costs a PDF render."""
    # the page's chart is drawn in a 400-unit box so that its 14-unit labels stay readable
    # (about 12 px) on a 375 px phone; the printed sheet keeps its wider box
    width, height, font = (600, 240, 11) if lean else (400, 220, 14)
    left, right, top, bottom = (48, 12, 12, 24) if lean else (46, 10, 12, 26)
    series = [[0] + [r[s] for r in running] for s in range(4)]
    n = len(series[0]) - 1
    values = [v for line in series for v in line]
    lo, hi = min(values + [0]), max(values + [0])
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    span_x = max(n, 1)

    def x(i: int) -> float:
        return left + (width - left - right) * i / span_x

    def y(v: int) -> float:
        return top + (height - top - bottom) * (hi - v) / (hi - lo)

    parts = [f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
             f"<title>{escape(title)}</title>"]
    for v in (hi, 0, lo):
        if not lean or v == 0:
            parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y(v):.1f}" '
                         f'y2="{y(v):.1f}" stroke="{"#888" if v == 0 else "#ddd"}" '
                         f'stroke-width="1"/>')
        parts.append(f'<text x="{left - 4}" y="{y(v) + 4:.1f}" text-anchor="end" font-size="{font}" '
                     f'fill="#5b6570">{v}</text>')
    step = max(1, -(-n // 8)) if not lean else max(1, n)
    for i in range(0, n + 1, step):
        parts.append(f'<text x="{x(i):.1f}" y="{height - 6}" text-anchor="middle" font-size="{font}" '
                     f'fill="#5b6570">{i}</text>')
    for s, line in enumerate(series):
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(line))
        dash = f' stroke-dasharray="{DASHES[s]}"' if DASHES[s] else ""
        if lean:
            parts.append(f'<polyline fill="none" stroke="{COLORS[s]}" stroke-width="2.5"{dash} '
                         f'points="{points}"/>')
            continue
        parts.append(f'<polyline fill="none" stroke="{COLORS[s]}" stroke-width="2.5"{dash} '
                     f'points="{points}"><title>{escape(players[s])}</title></polyline>')
        parts.append(f'<circle cx="{x(n):.1f}" cy="{y(line[-1]):.1f}" r="3.5" fill="{COLORS[s]}"/>')
    parts.append("</svg>")
    return Markup("".join(parts))


def legend(players: list[str]) -> Markup:
    items = []
    for s, name in enumerate(players):
        items.append(f'<span><i class="key{s}"></i>{escape(name)}</span>')
    return Markup('<div class="legend">' + "".join(items) + "</div>")
