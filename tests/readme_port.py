"""The README's port, 5000: taken in turn by README tests, and known to be ours before we read from it.

Several checkouts on one machine may run the README test at once (each
developer's suite); they take the port in turn through a lock file in the
temporary folder.  Something else listening there makes the README's
``referee serve`` impossible to run as written: that is said, a failure
under CI and a skip elsewhere.
"""

from __future__ import annotations

import fcntl
import os
import socket
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

PORT = 5000
LOCK_FILE = Path(tempfile.gettempdir()) / f"referee-readme-test-port-{PORT}.lock"
_LISTENING = "0A"


@contextmanager
def port_in_turn(timeout: float):
    """Hold the README tests' lock on the port, once it is free."""
    with open(LOCK_FILE, "a") as lock:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    _cannot_serve(f"another README test held port {PORT} for more than {timeout:.0f} s")
                time.sleep(1)
        try:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", PORT)) == 0:
                    _cannot_serve(f"something already listens on 127.0.0.1:{PORT}")
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def listens_on_port(pid: int) -> bool:
    """Whether process ``pid`` holds the socket listening on the port (read from /proc, Linux)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except FileNotFoundError:
            continue
        for row in rows:
            fields = row.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == PORT and fields[3] == _LISTENING:
                inodes.add(f"socket:[{fields[9]}]")
    try:
        descriptors = list(Path(f"/proc/{pid}/fd").iterdir())
    except FileNotFoundError:
        return False
    for descriptor in descriptors:
        try:
            if os.readlink(descriptor) in inodes:
                return True
        except FileNotFoundError:
            continue
    return False


def _cannot_serve(problem: str) -> None:
    reason = f"{problem}, so the README's `referee serve` cannot run as written; free the port and run the test again"
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)
