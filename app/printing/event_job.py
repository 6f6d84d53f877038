"""An event's PDF (issue 25), rendered by the bulk export runner (app/printing/runner.py) as
one bounded-memory job: the standings first, then every table's sheet, round by round. A
presentation helper, not a view: the runner and the event's pages both use it."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask_babel import gettext as _

from app.events import scoreboard
from app.models import Event
from app.printing.exports import Renderer
from app.printing.responses import export_event_standings_pdf
from app.web.messages import service_text

#: The id the job's list gives the standings pages (no game has id 0).
STANDINGS = 0


def is_event_job(params: dict[str, Any]) -> bool:
    return isinstance(params.get("event_id"), int)


def standings_pdf(session: Any, event_id: int) -> bytes | None:
    event = session.get(Event, event_id)
    if event is None:
        return None
    doc = scoreboard.standings_doc(session, event)
    doc["tie_break"] = service_text(doc["tie_break"])
    return export_event_standings_pdf(doc)


def event_renderer(params: dict[str, Any], render_game: Callable[[Any, int], bytes | None]) -> Renderer:
    """The runner's renderer of an event job: page 0 the standings, then each game."""
    event_id = int(params["event_id"])
    labels: dict[int, tuple[int, int]] = {}

    def find(session: Any, _params: dict[str, Any]) -> list[int]:
        labels.update(scoreboard.table_labels(session, event_id))
        if session.get(Event, event_id) is None:
            return []
        return [STANDINGS, *scoreboard.event_game_ids(session, event_id)]

    def render(session: Any, game_id: int) -> bytes | None:
        return standings_pdf(session, event_id) if game_id == STANDINGS else render_game(session, game_id)

    def label(game_id: int) -> str:
        if game_id == STANDINGS:
            return str(_("Standings"))
        number, table = labels.get(game_id, (0, 0))
        return str(_("Round %(n)s, table %(t)s", n=number, t=table))

    return Renderer(find_games=find, render_game=render, label=label)


def titled(params: dict[str, Any]) -> Callable[[int], str]:
    """The joined PDF's title: the event's name (kept in the job's params)."""
    def title(_n: int) -> str:
        return str(params.get("title") or _("Event"))
    return title
