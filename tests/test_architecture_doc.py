"""docs/architecture.md is true (issue 37 item 7): every module of app/ is named on it,
every path it names exists, and the chain of layers it shows is the one enforced here --
no module imports a module of a later layer, imports inside functions included."""
from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DOC = (REPO / "docs" / "architecture.md").read_text()

#: The chain, first to last: a module may import its own link and the ones before it. Each
#: feature package (app/stats, app/accounts, app/games and its four parts, app/players,
#: app/rulebook, app/events, app/printing, app/api) has two links: its operations on the first
#: half (no Flask, Babel, Jinja or forms: tests/test_architecture.py), its pages, forms and
#: responses on the second. A file named on a link belongs to it even inside a folder named
#: on another (the most specific entry wins).
CHAIN: list[tuple[str, list[str]]] = [
    ("rules", ["app/rules"]),
    ("core", ["app/config.py", "app/db.py", "app/files.py", "app/i18n.py", "app/security.py", "app/errors.py",
              "app/collation.py"]),
    ("models", ["app/models"]),
    ("stats", ["app/stats"]),
    ("accounts", ["app/accounts"]),
    ("games table", ["app/games/table"]),
    ("games", ["app/games"]),
    ("games entry", ["app/games/entry"]),
    ("games referee", ["app/games/referee"]),
    ("players", ["app/players"]),
    ("rulebook", ["app/rulebook"]),
    ("events", ["app/events"]),
    ("printing", ["app/printing"]),
    ("api operations", ["app/api/views.py"]),
    ("site pages", ["app/web"]),
    ("accounts pages", ["app/accounts/forms.py", "app/accounts/auth.py", "app/accounts/login_pages.py",
                        "app/accounts/account_pages.py", "app/accounts/user_pages.py",
                        "app/accounts/prefs.py"]),
    ("games table pages", ["app/games/table/forms.py", "app/games/table/pages.py",
                           "app/games/table/call_pages.py"]),
    ("games pages", ["app/games/forms.py", "app/games/idempotent.py"]),
    ("games entry pages", ["app/games/entry/forms.py", "app/games/entry/ahead.py",
                           "app/games/entry/hand_pages.py", "app/games/entry/offline_pages.py"]),
    ("games referee pages", ["app/games/referee/forms.py", "app/games/referee/deal_viewer.py",
                             "app/games/referee/deal_step.py",
                             "app/games/referee/view.py", "app/games/referee/trick_pages.py",
                             "app/games/referee/hand_pages.py"]),
    ("printing pages", ["app/printing/__init__.py", "app/printing/responses.py", "app/printing/event_job.py",
                        "app/printing/runner.py", "app/printing/pool.py", "app/printing/views.py"]),
    ("games sheet pages", ["app/games/sheet"]),
    ("players pages", ["app/players/forms.py", "app/players/pages.py"]),
    ("rulebook pages", ["app/rulebook/pages.py"]),
    ("events pages", ["app/events/forms.py", "app/events/pages.py"]),
    ("stats pages", ["app/stats/season_pages.py"]),
    ("api", ["app/api"]),
    ("shell", ["app/__init__.py", "app/factory.py", "app/commands.py", "app/user_commands.py", "app/cli.py"]),
]
#: The last link of the operations' half.
LAST_OPERATION = "api operations"


def module_of(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_of(p): p.relative_to(REPO).as_posix() for p in (REPO / "app").rglob("*.py")}


def layer_of(rel: str) -> int:
    """The index in CHAIN of a module's file (the most specific entry wins)."""
    best, length = -1, -1
    for k, (_name, entries) in enumerate(CHAIN):
        for entry in entries:
            if (rel == entry or rel.startswith(entry + "/")) and len(entry) > length:
                best, length = k, len(entry)
    assert best >= 0, f"{rel} is on no layer of CHAIN"
    return best


def imported(path: Path, source: str | None = None) -> set[str]:
    """The modules of app/ a file imports (``from app import x`` names app.x, not app)."""
    me = module_of(path)
    out = set()
    for node in ast.walk(ast.parse(path.read_text() if source is None else source)):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in MODULES}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = me.split(".") if path.name == "__init__.py" else me.split(".")[:-1]
                named = [node.module] if node.module else []
                base = ".".join(package[:len(package) - node.level + 1] + named)
            subs = {f"{base}.{a.name}" for a in node.names} & MODULES.keys()
            out |= subs or ({base} & MODULES.keys())
    return out - {me}


def link_of(rel: str) -> str:
    """The name of the chain's link a file of app/ is on."""
    return CHAIN[layer_of(rel)][0]


def is_operation(rel: str) -> bool:
    """Whether a file of app/ is on the operations' half of the chain."""
    return layer_of(rel) <= [name for name, _ in CHAIN].index(LAST_OPERATION)


def later_imports(rel: str, source: str | None = None) -> list[str]:
    mine = layer_of(rel)
    return [f"{rel} ({CHAIN[mine][0]}) imports {other} ({CHAIN[layer_of(MODULES[other])][0]})"
            for other in sorted(imported(REPO / rel, source)) if layer_of(MODULES[other]) > mine]


def test_no_module_imports_a_later_layer():
    assert [line for rel in sorted(MODULES.values()) for line in later_imports(rel)] == []


def test_the_check_sees_an_import_of_a_later_layer():
    inside = "def f():\n    from app.web import common\n"
    assert later_imports("app/stats/results.py", inside) == [
        "app/stats/results.py (stats) imports app.web.common (site pages)"]
    assert later_imports("app/accounts/accounts.py", "from app.games import records\n")
    assert later_imports("app/printing/join.py", "from app.printing import views\n")
    assert later_imports("app/web/common.py", "from app.stats import results\n") == []


def test_the_doc_shows_the_chain_the_test_enforces():
    block = re.search(r"```chain\n(.*?)```", DOC, re.S)
    assert block, "docs/architecture.md has no ```chain block"
    shown = []
    for line in block.group(1).strip().splitlines():
        name, _, entries = line.partition(":")
        shown.append((name.strip(), entries.split()))
    assert shown == CHAIN


def test_every_module_is_named_on_the_page():
    unnamed = sorted(rel for rel in MODULES.values() if f"`{rel}`" not in DOC)
    assert unnamed == []


TOP = "app|tests|templates|static|bench|docs|scripts|migrations|deploy|translations"
PATH = re.compile(rf"(?<![\w/.-])((?:{TOP})/[\w./-]*\w)")
SHORT = re.compile(r"(?<![\w/.-])((?:services|web|rules|models|forms|printing|api)/\w+\.py)")


def _exists(path: str) -> bool:
    if "/xx/" in path:                       # a placeholder: a language's catalog
        return True
    found = REPO / path
    if found.exists() or found.with_suffix(".py").exists():
        return True
    module, _, name = path.rpartition(".")        # app/x/y.name: a module and its attribute
    source = REPO / f"{module}.py"
    defined = re.compile(rf"^(def|class) {name}\b|^{name}\b", re.M)
    return source.exists() and defined.search(source.read_text()) is not None


def test_every_path_the_page_names_exists():
    named = set(PATH.findall(DOC)) | {f"app/{p}" for p in SHORT.findall(DOC)}
    assert named, "the check reads no path"
    assert sorted(p for p in named if not _exists(p)) == []


# -- the package's shape (issue 37 item 3) --------------------------------------------------

MOST_MODULES = 12
MOST_LINES = 400
MOST_FUNCTION_IMPORTS = 10


def packages() -> dict[str, list[str]]:
    """Each folder of app/ holding Python files -> its modules (``__init__.py`` included)."""
    found: dict[str, list[str]] = {}
    for path in (REPO / "app").rglob("*.py"):
        found.setdefault(path.parent.relative_to(REPO).as_posix(), []).append(path.name)
    return found


def test_no_package_holds_more_than_12_modules():
    assert {name: len(mods) for name, mods in packages().items() if len(mods) > MOST_MODULES} == {}


def test_no_file_is_longer_than_400_lines():
    long = {rel: n for rel in MODULES.values()
            if (n := len((REPO / rel).read_text().splitlines())) > MOST_LINES}
    assert long == {}


def function_imports(source: str) -> list[int]:
    """The lines of the imports made inside a function of ``source``."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines |= {inner.lineno for inner in ast.walk(node)
                      if isinstance(inner, ast.Import | ast.ImportFrom)}
    return sorted(lines)


def test_at_most_10_imports_inside_functions():
    found = [f"{rel}:{line}" for rel in sorted(MODULES.values())
             for line in function_imports((REPO / rel).read_text())]
    assert len(found) <= MOST_FUNCTION_IMPORTS, found
    nested = "import a\ndef f():\n    import b\n    def g():\n        from c import d\n"
    assert function_imports(nested) == [3, 5]
