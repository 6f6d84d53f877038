"""Production gunicorn settings for kingsheet (see docs/deploy.md).

    gunicorn -c deploy/gunicorn.conf.py

Run it behind a buffering reverse proxy (nginx); the proxy is required, not optional: it
reads each request whole, however slowly a phone sends it, and hands gunicorn complete
requests, so a slow or idle client never holds a worker (alone, 16 slow clients hold
every thread: tests/test_deploy.py). Everything here can be overridden on the command
line or with GUNICORN_CMD_ARGS (e.g. ``--bind 0.0.0.0:8000 --workers 4``).
"""
import os

wsgi_app = "app:create_app()"
bind = os.environ.get("KINGSHEET_BIND", "127.0.0.1:8000")

# Threads: a request waiting on the database or a slow client ties up one thread, not a
# whole process. Two processes per core (4 on a 2-core machine): a process runs one thread
# at a time, so with one per core a club night's version checks waited for the saves in
# their process (bench/evening.py, 2 cores: poll p99 73 ms with 2 processes, 29 ms with 4).
# The app keeps no per-request state in memory that another worker needs (games, versions
# and export jobs live in the database).
worker_class = "gthread"
workers = int(os.environ.get("KINGSHEET_WORKERS", str(2 * (os.cpu_count() or 1))))
threads = int(os.environ.get("KINGSHEET_THREADS", "8"))

# A worker silent for 30 s is restarted; a request never needs that long (bulk PDF exports
# run as background jobs, not inside a request).
timeout = 30
graceful_timeout = 30
# Idle keep-alive connections are closed after 5 s (the proxy keeps its own to clients).
keepalive = 5

# Request limits (gunicorn's defaults, stated): an oversized request line or header is
# refused before the app sees it. Bodies are limited by the app (MAX_CONTENT_LENGTH).
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190

# Trust X-Forwarded-* only from the proxy on this machine (HTTPS detection for the Secure
# session cookie).
forwarded_allow_ips = "127.0.0.1,::1"

# No control socket (a file in $HOME) on a server.
control_socket_disable = True

# How often a thread holding the interpreter lets another one run (Python's default: every
# 5 ms). A save works 20-50 ms in one thread; the version checks that arrive meanwhile in
# the same process (400 a second at a club night) waited for each 5 ms turn in line.
# Every 0.5 ms: a club night's poll p99 70 ms instead of 91-98, a save's 106-115 instead
# of 153-208 (bench/evening.py, 100 tables, docs/scale.md), for the same CPU.
SWITCH_INTERVAL = 0.0005


def post_fork(_server, _worker):
    import sys

    sys.setswitchinterval(SWITCH_INTERVAL)


# No access log of gunicorn's own: the proxy in front (nginx, docs/deploy.md) logs every
# request already, and at a club night formatting 400 lines a second for the version
# checks alone cost about a fifth of a core (bench/evening.py). Errors go to stderr.
accesslog = None
errorlog = "-"


def post_worker_init(_worker):
    """Once the worker has loaded the app: its objects (modules, routes, templates, the
    engine's tables, some 200,000) are frozen out of the garbage collector's reach. Each
    full collection otherwise walked all of them with every thread of the process stopped:
    in a 100-table evening (bench/evening.py, 2 cores) each worker ran 2-6 of them, 170-285
    ms each, and a poll or a save arriving meanwhile waited; frozen, they took 5-41 ms."""
    import gc

    gc.freeze()
