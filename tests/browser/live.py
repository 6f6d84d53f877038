"""The app served by werkzeug's development server in a thread, for the browser tests.

werkzeug 3.1's server closes a response's body after reading what is left of the request
(``serving.py``, ``execute``'s ``finally``); when the browser has reset the connection that
read raises, the body is never closed, and a static file's open file is left to the garbage
collector: a ``ResourceWarning`` (an error in this suite) in whichever test runs then. CI
failed on exactly that (``static/js/offline.js``). :func:`closing` closes the body itself,
when the server has taken all of it or drops it half-way; gunicorn, the server the app is
deployed on, closes it as PEP 3333 says.
"""
from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any


def closing(app: Any) -> Any:
    """``app`` whose response bodies are closed when the server is done with them."""
    def serve(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        return _closed_after(app(environ, start_response))
    return serve


def _closed_after(body: Iterable[bytes]) -> Iterator[bytes]:
    try:
        yield from body
    finally:   # the last part sent, or the generator dropped half-way (garbage collected)
        close = getattr(body, "close", None)
        if close is not None:
            close()


@contextmanager
def served(app: Any) -> Iterator[str]:
    """The address of ``app`` served in a thread (several requests at once), until the end
    of the block."""
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, closing(app), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(5)
        server.server_close()
