"""The baselines of bench/web.py and bench/pdf.py: a bare Flask page rendering a 20x6 table
template, and the bare WeasyPrint render of a 20x6 table as a PDF response."""
from __future__ import annotations

import random

from flask import Flask, Response, render_template_string

app = Flask(__name__)
_rng = random.Random(1)
ROWS = [[_rng.randint(-400, 400) for _ in range(6)] for _ in range(20)]
TEMPLATE = """<!doctype html><html lang="es"><head><meta charset="utf-8"><title>bare</title></head>
<body><table>{% for row in rows %}<tr>{% for v in row %}<td>{{ v }}</td>{% endfor %}</tr>
{% endfor %}</table></body></html>"""


@app.get("/")
def table() -> str:
    return render_template_string(TEMPLATE, rows=ROWS)


@app.get("/bare.pdf")
def bare_pdf() -> Response:
    """The bare 20x6 table render of bench/pdf.py (a), served as kingsheet serves a sheet."""
    import weasyprint

    from bench.pdf import BARE_CSS, bare_html

    data = weasyprint.HTML(string=bare_html(random.Random(5))).write_pdf(
        stylesheets=[weasyprint.CSS(string=BARE_CSS)])
    return Response(data, mimetype="application/pdf")
