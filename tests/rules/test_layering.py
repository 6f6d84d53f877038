"""The engine is pure: importing every app.rules module loads no web or database code."""
import pkgutil
import subprocess
import sys
from pathlib import Path

import app.rules

REPO = Path(__file__).resolve().parents[2]


def test_rules_modules_import_no_flask_sqlalchemy_or_wtforms():
    names = [m.name for m in pkgutil.walk_packages(app.rules.__path__, "app.rules.")]
    assert "app.rules.referee.play" in names and len(names) >= 10
    code = ("import sys\n" + "".join(f"import {n}\n" for n in names)
            + "bad = [m for m in sys.modules if m.split('.')[0] in "
              "('flask', 'sqlalchemy', 'wtforms', 'flask_wtf', 'flask_babel', 'alembic')]\n"
              "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == ""


def test_rules_pass_mypy_strict():
    out = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
                          "--no-incremental", "app/rules", "app/cli.py"],
                         capture_output=True, text=True, cwd=REPO)
    assert out.returncode == 0, out.stdout + out.stderr


RULES_DIR = REPO / "app" / "rules"
MAX_LINES = 500


def test_every_engine_module_is_at_most_500_lines():
    long = {p.name: n for p in sorted(RULES_DIR.rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def _engine_imports(path: Path) -> set[str]:
    """The app.rules modules a module imports, anywhere in it (inside functions too)."""
    import ast

    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[:2] == ["app", "rules"] and len(parts) > 2 \
                    and RULES_DIR.joinpath(*parts[2:]).with_suffix(".py").exists():
                out.add(".".join(parts[2:]))
    return out - {_module(path)}


def _module(path: Path) -> str:
    """A module of the engine by its dotted name inside app.rules ("referee.play")."""
    return ".".join(path.relative_to(RULES_DIR).with_suffix("").parts)


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the graph as a path of module names, or None."""
    state: dict[str, int] = {}          # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        state[node] = 2
        path.pop()
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_engine_import_graph_has_no_cycle():
    # the package's __init__ re-exports the public names: it sits above every module
    graph = {_module(p): _engine_imports(p) for p in RULES_DIR.rglob("*.py") if p.stem != "__init__"}
    graph = {m: deps - {"__init__"} for m, deps in graph.items()}
    assert "game.replay" in graph and "game.builder" in graph and "referee.play" in graph
    assert "referee.judge" in graph["game.builder"]
    assert _cycle(graph) is None, _cycle(graph)


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_auction_and_play_rules_read_profile_traits_not_ids():
    import re

    for name in ("referee/auction.py", "referee/checks.py", "referee/play.py", "game/builder.py"):
        text = (RULES_DIR / name).read_text(encoding="utf-8")
        assert not re.search(r"""profile(_id|\.id)\s*[!=]=|[!=]=\s*["'](ru32|fiestas|subastas|rifki)["']""",
                             text), name
