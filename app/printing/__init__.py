"""Printing: every PDF and every export job, one package (issue 37). Its table of export
jobs stays in app/models (``ExportJob``).

Operations (no Flask, Babel, Jinja, forms or web: tests/test_architecture.py checks it):

- :mod:`~app.printing.docs`      a game's plain docs (sheet, hand, blank), its stamp, the games of an export
- :mod:`~app.printing.render`    HTML into PDF bytes (WeasyPrint, fetching only static/)
- :mod:`~app.printing.cache`     finished renders kept on disk, keyed by content
- :mod:`~app.printing.exports`   export jobs: queue, turns, limits, progress, parts, clean-up
- :mod:`~app.printing.join`      a job's part files joined into one PDF, one part in memory

Presentation (Flask):

- :mod:`~app.printing.responses` a game's PDFs as responses, kept renders, templates into PDF
- :mod:`~app.printing.event_job` an event's PDF as an export job (standings, then its tables)
- :mod:`~app.printing.runner`    the thread that renders the queued jobs
- :mod:`~app.printing.pool`      a job's games rendered by a pool of processes
- :mod:`~app.printing.views`     the ``pdf`` blueprint: PDF routes, the export form and pages

The factory calls :func:`app.printing.views.init_app` with its own ``build_app``, which the
render processes use: nothing here imports the factory.
"""
