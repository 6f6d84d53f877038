"""The small table drawing of the new-game page: four seats and the direction of play."""
from __future__ import annotations

import math

from markupsafe import Markup, escape


def table_svg(names: list[str], clockwise: bool, label: str, first_seat: int | None = None) -> Markup:
    """Seat 0 at the bottom; seat s+1 is the next to play (to the left clockwise, to the right
    counter-clockwise, as seen from above the table)."""
    cx = cy = 130
    seat_r, arc_r = 92, 58
    step = 90 if clockwise else -90
    parts = [f'<svg class="table-diagram" data-direction="{"cw" if clockwise else "ccw"}" '
             f'viewBox="0 0 260 260" role="img" aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">',
             f"<title>{escape(label)}</title>",
             '<defs><marker id="arrow-{d}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" '
             'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#1d5f8a"/>'
             '</marker></defs>'.format(d="cw" if clockwise else "ccw"),
             f'<circle cx="{cx}" cy="{cy}" r="48" fill="#2e7d4f" stroke="#1b4d31" stroke-width="3"/>']
    for s in range(4):
        a0 = math.radians(90 + step * s + (18 if clockwise else -18))
        a1 = math.radians(90 + step * (s + 1) - (18 if clockwise else -18))
        x0, y0 = cx + arc_r * math.cos(a0), cy + arc_r * math.sin(a0)
        x1, y1 = cx + arc_r * math.cos(a1), cy + arc_r * math.sin(a1)
        sweep = 1 if clockwise else 0
        parts.append(f'<path d="M{x0:.1f},{y0:.1f} A{arc_r},{arc_r} 0 0 {sweep} {x1:.1f},{y1:.1f}" '
                     f'fill="none" stroke="#1d5f8a" stroke-width="2.5" '
                     f'marker-end="url(#arrow-{"cw" if clockwise else "ccw"})"/>')
    for s in range(4):
        a = math.radians(90 + step * s)
        x, y = cx + seat_r * math.cos(a), cy + seat_r * math.sin(a)
        name = names[s] if s < len(names) and names[s] else ""
        mark = " ★" if first_seat == s else ""
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="13" fill="#fff" stroke="#1b1f24"/>'
                     f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle" '
                     f'font-weight="700">{s + 1}</text>')
        ty = y + (30 if y > cy + 10 else -20 if y < cy - 10 else 30)
        parts.append(f'<text x="{x:.1f}" y="{ty:.1f}" text-anchor="middle" data-seat-name="{s}">'
                     f'{escape(name)}{mark}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))
