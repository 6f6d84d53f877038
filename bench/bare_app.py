"""The baseline of bench/web.py: a bare Flask page rendering a 20x6 table template."""
from __future__ import annotations

import random

from flask import Flask, render_template_string

app = Flask(__name__)
_rng = random.Random(1)
ROWS = [[_rng.randint(-400, 400) for _ in range(6)] for _ in range(20)]
TEMPLATE = """<!doctype html><html lang="es"><head><meta charset="utf-8"><title>bare</title></head>
<body><table>{% for row in rows %}<tr>{% for v in row %}<td>{{ v }}</td>{% endfor %}</tr>
{% endfor %}</table></body></html>"""


@app.get("/")
def table() -> str:
    return render_template_string(TEMPLATE, rows=ROWS)
