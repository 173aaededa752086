"""The documented gunicorn settings for serving Referee (docs/deploying.md says why each is so).

Use it as::

    gunicorn -c python:validator.web.gunicorn_config "validator.web:create_app()"

A check is CPU-bound Python work (reading a zip, decoding commands,
running the rules), so requests are served by separate processes: ``sync``
workers, one request each, so a long check holds one process and never the
others; threads would share one interpreter lock and slow every page in the
process down with the check.  Options on the command line (``--bind``,
``--workers``) override these.
"""

from __future__ import annotations

import os

# Listen on the loopback only: a reverse proxy in front takes the public connections and buffers uploads.
bind = os.environ.get("REFEREE_BIND", "127.0.0.1:8000")

# Two processes per core, and one more: while every core runs a check, a process is free for pages.
# WEB_CONCURRENCY (gunicorn's own variable) sets another count.
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * (os.cpu_count() or 1) + 1))
worker_class = "sync"

# A check at the web limits takes seconds; a worker silent for a minute is stuck, so gunicorn replaces it.
# The files it was writing have no row and are removed later by `referee maintenance clean`.
timeout = 60
graceful_timeout = 30
keepalive = 2

# Recycle each worker after a thousand requests (with jitter, so they do not all restart at once),
# which returns to the system whatever memory a large check left behind.
max_requests = 1000
max_requests_jitter = 100

# The request line and headers are small; the body's cap is the app's own MAX_CONTENT_LENGTH (a 413).
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190
