"""The engine is pure: importing every app.rules module loads no web or database code."""
import pkgutil
import subprocess
import sys
from pathlib import Path

import app.rules

REPO = Path(__file__).resolve().parents[2]


def test_rules_modules_import_no_flask_sqlalchemy_or_wtforms():
    names = [f"app.rules.{m.name}" for m in pkgutil.iter_modules(app.rules.__path__)]
    assert "app.rules.play" in names and len(names) >= 10
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
