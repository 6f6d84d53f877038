"""A switch between the phone and the server: the club's wifi, which a test can drop.

A TCP forwarder on 127.0.0.1 in a thread. While it is off, every open connection is cut
and new ones are closed at once, for the page and its service worker alike (Chromium's
offline emulation leaves a service worker's own requests online)."""
from __future__ import annotations

import contextlib
import socket
import threading
from typing import Any


class NetSwitch:
    def __init__(self, target_port: int) -> None:
        self.target = ("127.0.0.1", target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.online = True
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._stop = False
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while not self._stop:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.online:
                client.close()
                continue
            try:
                server = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._open.update((client, server))
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data or not self.online:
                    break
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                self._close(s)

    def _close(self, s: socket.socket) -> None:
        with self._lock:
            self._open.discard(s)
        with contextlib.suppress(OSError):
            s.shutdown(socket.SHUT_RDWR)
        s.close()

    def set(self, online: bool) -> None:
        self.online = online
        if not online:
            with self._lock:
                live = list(self._open)
            for s in live:
                self._close(s)

    def close(self) -> None:
        self._stop = True
        self.set(False)
        self.listener.close()


def go_offline(context: Any, switch: NetSwitch) -> None:
    """The wifi drops: the browser says so (navigator.onLine, the "offline" event) and
    nothing reaches the server."""
    switch.set(False)
    context.set_offline(True)


def go_online(context: Any, switch: NetSwitch) -> None:
    switch.set(True)
    context.set_offline(False)
