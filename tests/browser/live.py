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


class InFlight:
    """The requests being answered, so that a server is stopped only once they are done: a
    request still running when the test disposed of the app's engine returned its database
    connection to a pool nobody closes, and the garbage collector's ResourceWarning (an
    error here) fell in a later test (CI: a psycopg connection of the PostgreSQL live server)."""

    def __init__(self) -> None:
        self.count = 0
        self.done = threading.Condition()

    def __enter__(self) -> None:
        with self.done:
            self.count += 1

    def __exit__(self, *exc: object) -> None:
        with self.done:
            self.count -= 1
            self.done.notify_all()

    def wait(self, timeout: float) -> None:
        with self.done:
            self.done.wait_for(lambda: self.count == 0, timeout)


def closing(app: Any, inflight: InFlight | None = None) -> Any:
    """``app`` whose response bodies are closed when the server is done with them."""
    counter = inflight or InFlight()

    def serve(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        counter.__enter__()
        try:
            body = app(environ, start_response)
        except BaseException:
            counter.__exit__()
            raise
        return _closed_after(body, counter)
    return serve


def _closed_after(body: Iterable[bytes], counter: InFlight) -> Iterator[bytes]:
    try:
        yield from body
    finally:   # the last part sent, or the generator dropped half-way (garbage collected)
        try:
            close = getattr(body, "close", None)
            if close is not None:
                close()
        finally:
            counter.__exit__()


@contextmanager
def served(app: Any) -> Iterator[str]:
    """The address of ``app`` served in a thread (several requests at once), until the end
    of the block."""
    from werkzeug.serving import make_server

    inflight = InFlight()
    server = make_server("127.0.0.1", 0, closing(app, inflight), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(5)
        server.server_close()
        inflight.wait(10)       # the requests still being answered finish first
