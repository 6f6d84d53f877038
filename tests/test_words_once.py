"""Words once (issue 37 item 5): the vocabulary of contracts, elements and profiles lives in
the engine (app/rules) and the word catalog; no literal list of five or more words is
written in two modules of app/, and no template branches on a profile's id (templates ask
the profile's traits: ``p.owner_may_reject``, ``g.seat_key``...)."""
from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

from app.rules import PROFILES
from app.rules.profiles import COUNT_ELEMENTS, ELEMENTS

ROOT = Path(__file__).resolve().parents[1]


def word_lists(tree: ast.AST) -> set[tuple[str, ...]]:
    """The literal tuples, lists and sets of five or more strings in a module (sorted)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Tuple | ast.List | ast.Set) and len(node.elts) >= 5 and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
            found.add(tuple(sorted(e.value for e in node.elts)))  # type: ignore[attr-defined]
    return found


def test_no_list_of_five_words_is_written_in_two_modules():
    where = defaultdict(list)
    for path in sorted((ROOT / "app").rglob("*.py")):
        for words in word_lists(ast.parse(path.read_text())):
            where[words].append(path.relative_to(ROOT).as_posix())
    twice = {words: paths for words, paths in where.items() if len(paths) > 1}
    assert twice == {}


def test_the_engine_alone_lists_the_elements():
    for path in sorted((ROOT / "app").rglob("*.py")):
        if path.relative_to(ROOT).parts[1] == "rules":
            continue
        lists = word_lists(ast.parse(path.read_text()))
        assert tuple(sorted(ELEMENTS)) not in lists, path
        assert tuple(sorted(COUNT_ELEMENTS)) not in lists, path


def test_the_checks_see_a_repeated_list():
    tree = ast.parse('A = ("tricks", "hearts", "kings", "queens", "jacks")\n')
    assert tuple(sorted(COUNT_ELEMENTS)) in word_lists(tree)


IDS = "|".join(PROFILES)
PROFILE_ID = re.compile(rf"""(==|!=)\s*["']({IDS})["']|["']({IDS})["']\s*(==|!=)""")


def test_no_template_branches_on_a_profile_id():
    found = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        for k, line in enumerate(path.read_text().splitlines(), start=1):
            for block in re.findall(r"{%.*?%}|{{.*?}}", line):
                if PROFILE_ID.search(block):
                    found.append(f"{path.relative_to(ROOT)}:{k}: {block}")
    assert found == []
    assert PROFILE_ID.search('{% if p.id == "subastas" %}')      # the check sees one


def test_no_module_outside_the_engine_branches_on_a_profile_id():
    """The app asks a profile's traits (``seat_key``, ``chosen``, ``auction``...), never its id."""
    found = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        if path.relative_to(ROOT).parts[1] == "rules":
            continue
        for k, line in enumerate(path.read_text().splitlines(), start=1):
            if PROFILE_ID.search(line):
                found.append(f"{path.relative_to(ROOT)}:{k}: {line.strip()}")
    assert found == []
    assert PROFILE_ID.search('        if profile == "rifki" else')      # the check sees one
