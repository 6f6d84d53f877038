"""The browser tests' server closes every response body (tests/browser/live.py)."""
from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

from tests.browser.live import closing


class Body:
    """A response body that records whether it was closed (a static file's, say)."""

    def __init__(self) -> None:
        self.closed = False

    def __iter__(self) -> Iterator[bytes]:
        yield b"first part"
        yield b"second part"

    def close(self) -> None:
        self.closed = True


def _app(body: Body) -> Any:
    def app(environ: dict[str, Any], start_response: Any) -> Body:
        start_response("200 OK", [])
        return body
    return app


def test_a_body_sent_whole_is_closed_though_the_server_never_calls_close() -> None:
    body = Body()
    sent = list(closing(_app(body))({}, lambda *_: None))
    assert sent == [b"first part", b"second part"]
    assert body.closed


def test_a_body_dropped_half_way_is_closed_when_it_is_collected() -> None:
    """What werkzeug's server does when the browser resets the connection mid-answer."""
    body = Body()
    answer = closing(_app(body))({}, lambda *_: None)
    assert next(iter(answer)) == b"first part"
    assert not body.closed
    del answer
    gc.collect()
    assert body.closed


def test_a_body_closed_by_the_server_is_closed_once() -> None:
    calls: list[int] = []

    class Counted(Body):
        def close(self) -> None:
            calls.append(1)

    answer = closing(_app(Counted()))({}, lambda *_: None)
    for _ in answer:
        pass
    answer.close()
    assert calls == [1]
