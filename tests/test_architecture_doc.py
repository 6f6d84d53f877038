"""docs/architecture.md is true (issue 37 item 7): every module of app/ is named on it,
every path it names exists, and the chain of layers it shows is the one enforced here --
no module imports a module of a later layer, imports inside functions included."""
from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DOC = (REPO / "docs" / "architecture.md").read_text()

#: The layers, first to last: a module may import its own layer and the ones before it.
CHAIN: list[tuple[str, list[str]]] = [
    ("rules", ["app/rules"]),
    ("core", ["app/config.py", "app/db.py", "app/files.py", "app/i18n.py", "app/security.py"]),
    ("models", ["app/models"]),
    ("services", ["app/services"]),
    ("printing operations", ["app/printing/docs.py", "app/printing/render.py", "app/printing/cache.py",
                             "app/printing/exports.py", "app/printing/join.py"]),
    ("forms", ["app/forms"]),
    ("presentation", ["app/web", "app/printing/__init__.py", "app/printing/responses.py",
                      "app/printing/event_job.py", "app/printing/runner.py", "app/printing/pool.py",
                      "app/printing/views.py"]),
    ("api", ["app/api"]),
    ("shell", ["app/__init__.py", "app/factory.py", "app/commands.py", "app/user_commands.py", "app/cli.py"]),
]


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


def later_imports(rel: str, source: str | None = None) -> list[str]:
    mine = layer_of(rel)
    return [f"{rel} ({CHAIN[mine][0]}) imports {other} ({CHAIN[layer_of(MODULES[other])][0]})"
            for other in sorted(imported(REPO / rel, source)) if layer_of(MODULES[other]) > mine]


def test_no_module_imports_a_later_layer():
    assert [line for rel in sorted(MODULES.values()) for line in later_imports(rel)] == []


def test_the_check_sees_an_import_of_a_later_layer():
    inside = "def f():\n    from app.web import common\n"
    assert later_imports("app/services/results.py", inside) == [
        "app/services/results.py (services) imports app.web.common (presentation)"]
    assert later_imports("app/printing/join.py", "from app.printing import views\n")
    assert later_imports("app/web/common.py", "from app.services import results\n") == []


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
