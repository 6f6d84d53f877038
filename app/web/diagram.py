"""The small table drawing of the new-game page: four seats and the direction of play."""
from __future__ import annotations

import math

from markupsafe import Markup, escape

_CX = _CY = 130
_SEAT_R, _ARC_R = 92, 58


def _direction(clockwise: bool) -> str:
    return "cw" if clockwise else "ccw"


def _head(label: str, clockwise: bool) -> list[str]:
    """The drawing's opening, its title, the arrow's marker and the table."""
    d = _direction(clockwise)
    return [f'<svg class="table-diagram" data-direction="{d}" '
            f'viewBox="0 0 260 260" role="img" aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">',
            f"<title>{escape(label)}</title>",
            f'<defs><marker id="arrow-{d}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" '
            'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#1d5f8a"/>'
            '</marker></defs>',
            f'<circle cx="{_CX}" cy="{_CY}" r="48" fill="#2e7d4f" stroke="#1b4d31" stroke-width="3"/>']


def _arrow(s: int, clockwise: bool) -> str:
    """The arc from seat ``s`` to the next seat to play."""
    step = 90 if clockwise else -90
    gap = 18 if clockwise else -18
    a0 = math.radians(90 + step * s + gap)
    a1 = math.radians(90 + step * (s + 1) - gap)
    x0, y0 = _CX + _ARC_R * math.cos(a0), _CY + _ARC_R * math.sin(a0)
    x1, y1 = _CX + _ARC_R * math.cos(a1), _CY + _ARC_R * math.sin(a1)
    sweep = 1 if clockwise else 0
    return (f'<path d="M{x0:.1f},{y0:.1f} A{_ARC_R},{_ARC_R} 0 0 {sweep} {x1:.1f},{y1:.1f}" '
            f'fill="none" stroke="#1d5f8a" stroke-width="2.5" '
            f'marker-end="url(#arrow-{_direction(clockwise)})"/>')


def _name_y(y: float) -> float:
    """Where a seat's name goes: below the seats at the bottom and the sides, above the top one."""
    return y + (-20 if y < _CY - 10 else 30)


def _seat(s: int, clockwise: bool, names: list[str], first_seat: int | None) -> list[str]:
    """Seat ``s``: its numbered circle, and its player's name (★ for the first seat)."""
    a = math.radians(90 + (90 if clockwise else -90) * s)
    x, y = _CX + _SEAT_R * math.cos(a), _CY + _SEAT_R * math.sin(a)
    name = names[s] if s < len(names) and names[s] else ""
    mark = " ★" if first_seat == s else ""
    return [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="13" fill="#fff" stroke="#1b1f24"/>'
            f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle" '
            f'font-weight="700">{s + 1}</text>',
            f'<text x="{x:.1f}" y="{_name_y(y):.1f}" text-anchor="middle" data-seat-name="{s}">'
            f'{escape(name)}{mark}</text>']


def table_svg(names: list[str], clockwise: bool, label: str, first_seat: int | None = None) -> Markup:
    """Seat 0 at the bottom; seat s+1 is the next to play (to the left clockwise, to the right
    counter-clockwise, as seen from above the table)."""
    parts = _head(label, clockwise)
    parts.extend(_arrow(s, clockwise) for s in range(4))
    for s in range(4):
        parts.extend(_seat(s, clockwise, names, first_seat))
    parts.append("</svg>")
    return Markup("".join(parts))
