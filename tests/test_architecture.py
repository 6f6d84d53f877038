"""docs/architecture.md, kept true (issue 20 item 8): read from the source with ``ast``, no
import of the app. Layers point one way (the engine and every feature's operations -- the
first half of the chain in tests/test_architecture_doc.py -- import no Flask, Babel, Jinja or
templates), views do not import one another,
no import circle in the engine nor through app/printing, and each formatter of numbers and
dates has one definition (app/web/words.py)."""
from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from tests.test_architecture_doc import is_operation, link_of

REPO = Path(__file__).resolve().parent.parent
APP = REPO / "app"
WEB = APP / "web"
PRINTING = APP / "printing"
#: app/printing's operations (held to the services' rule: no Flask, Babel, Jinja, forms or
#: web, nor printing's presentation) and its presentation (Flask: responses, views, the
#: export runner and its pool of processes). Every module of the package is one or the other.
PRINTING_OPERATIONS = {"docs", "render", "cache", "exports", "join"}
PRINTING_PRESENTATION = {"responses", "event_job", "runner", "pool", "views"}

#: What the engine and the services never import: the web and its words.
PRESENTATION = ("flask", "flask_babel", "flask_wtf", "flask_login", "jinja2", "markupsafe",
                "wtforms", "app.web", "app.web.forms")
#: Presentation helpers every view may use; a module defining a Blueprint is a view.
HELPERS_NOT_VIEWS: set[str] = set()
#: A view importing another view, pending (to remove when the owner of the entry path moves
#: them): hands.py and referee.py still take lang and load_game_or_404 from games.py (a
#: temporary re-export: they belong to app.web.common); share.py serves a hand page through
#: app.games.referee.trick_pages.hand_page (which belongs in app/games/referee/view.py).
MINUS = "\u2212"


def module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def tree_of(path: Path) -> ast.Module:
    """A module's syntax tree, parsed once per test process (the checks read every module
    of app/ many times)."""
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def imports_of(path: Path) -> Iterator[tuple[str, int]]:
    """Every module ``path`` imports (at the top, in functions, under TYPE_CHECKING), each
    ``from a import b`` as both ``a`` and ``a.b``, relative imports resolved."""
    package = module_name(path).rsplit(".", 1)[0] if path.name != "__init__.py" else module_name(path)
    for node in ast.walk(tree_of(path)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            yield base, node.lineno
            for alias in node.names:
                yield f"{base}.{alias.name}", node.lineno


def is_under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def layer_files() -> list[Path]:
    """The operations: every module on the first half of docs/architecture.md's chain (the
    engine, the tables, each feature's operations), which no presentation may leak into."""
    return sorted(path for path in APP.rglob("*.py") if is_operation(path.relative_to(REPO).as_posix())
                  and link_of(path.relative_to(REPO).as_posix()) != "core")


def test_each_printing_module_is_an_operation_or_presentation() -> None:
    modules = {p.stem for p in PRINTING.glob("*.py")} - {"__init__"}
    assert modules == PRINTING_OPERATIONS | PRINTING_PRESENTATION
    assert not PRINTING_OPERATIONS & PRINTING_PRESENTATION
    assert len(modules) < 12


@pytest.mark.parametrize("path", layer_files(), ids=lambda p: str(p.relative_to(REPO)))
def test_services_and_engine_import_no_flask_babel_or_templates(path: Path) -> None:
    presentation = (*PRESENTATION, *(f"app.printing.{name}" for name in PRINTING_PRESENTATION))
    bad = [f"line {line}: {name}" for name, line in imports_of(path)
           if any(is_under(name, p) for p in presentation)]
    calls = [f"line {n.lineno}: {n.func.id if isinstance(n.func, ast.Name) else n.func.attr}()"
             for n in ast.walk(tree_of(path)) if isinstance(n, ast.Call)
             and (getattr(n.func, "id", None) or getattr(n.func, "attr", None))
             in ("render_template", "render_template_string", "gettext", "lazy_gettext",
                 "ngettext", "pgettext")]
    assert bad + calls == []


def views() -> set[str]:
    """The modules of app/web and app/printing that define a Blueprint (less the helpers
    every view may use), by name (``app.games.sheet.pages``)."""
    found = set()
    for path in APP.rglob("*.py"):
        if path.is_relative_to(APP / "api"):        # the API's blueprints share app.api.v1's helpers
            continue
        for node in ast.walk(tree_of(path)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Blueprint":
                found.add(module_name(path))
    return found - HELPERS_NOT_VIEWS


def test_the_views_are_found() -> None:
    assert {"app.games.sheet.pages", "app.games.entry.hand_pages", "app.games.referee.trick_pages",
            "app.games.sheet.share", "app.games.sheet.live", "app.accounts.user_pages",
            "app.stats.season_pages", "app.events.pages"} <= views()
    assert "app.printing.views" in views()
    assert not {"app.web.words", "app.web.messages", "app.web.common", "app.games.referee.view",
                "app.games.sheet.changelog", "app.printing.responses", "app.printing.event_job",
                "app.printing.runner"} & views()


def view_imports() -> set[tuple[str, str]]:
    found = set()
    names = views()
    for view in names:
        path = REPO / (view.replace(".", "/") + ".py")
        for name, _line in imports_of(path):
            for other in names:
                if other != view and is_under(name, other):
                    found.add((view, other))
    return found


def test_views_do_not_import_each_others_views() -> None:
    assert view_imports() == set()


def import_graph() -> dict[str, set[str]]:
    """app's modules -> the app modules they import (a package's own __init__ excluded:
    ``from app.rules import X`` is an edge to app.rules, which Python runs first)."""
    files = {module_name(p): p for p in APP.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        targets = set()
        for imported, _line in imports_of(path):
            while imported and imported not in files:
                imported = imported.rpartition(".")[0]
            if imported and imported != name and not is_under(name, imported):
                targets.add(imported)
        graph[name] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each import circle found by a depth-first walk (as the modules on it)."""
    found, state, stack = [], {}, []

    def visit(node: str) -> None:
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                found.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found


def test_the_engines_import_graph_has_no_circle() -> None:
    graph = import_graph()
    engine = {m: {t for t in ts if is_under(t, "app.rules")} for m, ts in graph.items()
              if is_under(m, "app.rules")}
    assert len(engine) >= 10
    assert cycles(engine) == []


def test_printing_is_on_no_import_circle() -> None:
    """Issue 37: no module of app/printing is on an import circle, and none imports the
    factory or ``create_app`` (the render processes' pool once did, and the factory imports
    printing's views: the factory hands its ``build_app`` in instead)."""
    graph = import_graph()
    assert len([m for m in graph if is_under(m, "app.printing")]) >= 10
    assert [c for c in cycles(graph) if any(is_under(m, "app.printing") for m in c)] == []
    factory = [f"{p.relative_to(REPO)}:{line}: {name}" for p in sorted(PRINTING.glob("*.py"))
               for name, line in imports_of(p)
               if name in ("app", "app.create_app") or is_under(name, "app.factory")]
    assert factory == []


def test_no_import_circle_in_app() -> None:
    """Issue 37 item 3: no circle anywhere in app/, imports inside functions and under
    ``TYPE_CHECKING`` counted (a package's own ``__init__`` aside: Python runs it first)."""
    graph = import_graph()
    assert len(graph) > 100
    assert cycles(graph) == []


def test_the_cycle_finder_finds_a_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


#: The formatters of app/web/words.py: signed numbers, decimals, dates (and times).
FORMATTERS = {"signed", "decimal", "payment_text", "local_date", "local_datetime", "local_time",
              "long_date"}
#: Calls that format a number or a date by hand (Babel's, strftime).
FORMAT_CALLS = {"format_decimal", "format_number", "format_date", "format_datetime",
                "format_time", "strftime"}


def app_files() -> list[Path]:
    return sorted(APP.rglob("*.py"))


def test_each_formatter_has_one_definition_in_words() -> None:
    defined: dict[str, list[str]] = {}
    for path in app_files():
        for node in ast.walk(tree_of(path)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and (
                    node.name in FORMATTERS or "signed" in node.name or "decimal" in node.name):
                defined.setdefault(node.name, []).append(f"{path.relative_to(REPO)}:{node.lineno}")
    where = {name: places for name, places in defined.items()
             if places != [f"app/web/words.py:{places[0].split(':')[1]}"]}
    assert where == {}
    assert {"signed", "decimal", "local_date"} <= set(defined)


def test_numbers_and_dates_are_formatted_only_in_words() -> None:
    """Outside app/web/words.py no module writes the minus sign or calls a formatter of
    Babel (the templates use the filters words defines)."""
    found = []
    for path in app_files():
        if path == WEB / "words.py":
            continue
        for node in ast.walk(tree_of(path)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and MINUS in node.value:
                found.append(f"{path.relative_to(REPO)}:{node.lineno}: {node.value!r}")
            if isinstance(node, ast.Call):
                called = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if called in FORMAT_CALLS:
                    found.append(f"{path.relative_to(REPO)}:{node.lineno}: {called}()")
    assert found == []


def test_templates_read_calls_through_the_engine_and_bids_as_they_are() -> None:
    """A hand's ``bid`` is the part of a call after its seat ("-2"): it goes to ``bid_words``;
    ``call_what`` takes whole calls ("3:-2"), which the engine's ``Call.parse`` reads, so no
    template splits a call's text (issue 37.4)."""
    found = [f"{p.relative_to(REPO)}" for p in sorted((REPO / "templates").rglob("*.html"))
             if re.search(r"call_what\([\w.]*bid\)|split\(.:.", p.read_text(encoding="utf-8"))]
    assert found == []


def test_templates_write_the_minus_sign_through_words() -> None:
    """A template turns no hyphen into a minus sign itself (``| signed``, ``call_what``)."""
    found = [f"{p.relative_to(REPO)}" for p in sorted((REPO / "templates").rglob("*.html"))
             if f'replace("-", "{MINUS}")' in p.read_text(encoding="utf-8")]
    assert found == []
