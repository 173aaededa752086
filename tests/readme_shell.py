"""One bash session that runs commands one after another, as a person at a terminal does.

Variables, the working folder and an activated virtual environment carry
from one command to the next.  Standard error goes to the same pipe as
standard output, so the output reads as a terminal shows it.  Each command
reads from /dev/null, so none can swallow the commands after it.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import time
from pathlib import Path

END_MARK = "@@readme-command-ended@@"


class ShellTimeout(AssertionError):
    """A command did not finish in time; the message holds its output so far."""


class Shell:
    def __init__(self, folder: Path, environment: dict[str, str]):
        self.process = subprocess.Popen(
            ["bash", "--noprofile", "--norc"], cwd=folder, env=environment, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
            preexec_fn=_interrupt_as_a_terminal_does,
        )
        self._pending = b""

    def start(self, script: str) -> None:
        """Send one command; its status is printed after it, and kept as ``$?`` for the next command."""
        wrapped = (f"{{ {script}\n}} </dev/null\n__readme_status=$?\n"
                   f"printf '\\n%s %d\\n' '{END_MARK}' \"$__readme_status\"\n(exit \"$__readme_status\")\n")
        self.process.stdin.write(wrapped.encode())
        self.process.stdin.flush()

    def finish(self, timeout: float) -> tuple[int, list[str]]:
        """Wait for the command sent last: (its exit status, its output lines)."""
        deadline = time.monotonic() + timeout
        while True:
            result = self.poll_finished()
            if result is not None:
                return result
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ShellTimeout(
                    f"no end after {timeout:.0f} s; output so far:\n{self._pending.decode(errors='replace')}"
                )
            self._read(min(remaining, 1.0))

    def poll_finished(self) -> tuple[int, list[str]] | None:
        """The result of the command sent last if it has ended, else None (reads what is waiting)."""
        self._read(0)
        marker = f"\n{END_MARK} ".encode()
        if marker not in self._pending:
            return None
        head, _, tail = self._pending.partition(marker)
        status, _, self._pending = tail.partition(b"\n")
        text = head.decode(errors="replace")
        if text.endswith("\n"):  # the output's own last newline, before the one the end mark starts with
            text = text[:-1]
        return int(status), text.split("\n") if text else []

    def output_so_far(self) -> str:
        return self._pending.decode(errors="replace")

    def children(self) -> list[int]:
        """The processes the shell started for the running command."""
        path = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in path.read_text().split()]

    def interrupt(self, pid: int) -> None:
        """What Ctrl-C does to a foreground program: SIGINT."""
        os.kill(pid, signal.SIGINT)

    def close(self) -> None:
        """End the shell and everything it started (they share its session's process group)."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            stream.close()

    def _read(self, timeout: float) -> None:
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        if ready:
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                raise AssertionError(
                    f"the shell ended (status {self.process.wait(timeout=10)}); output:\n"
                    + self._pending.decode(errors="replace")
                )
            self._pending += chunk


def _interrupt_as_a_terminal_does() -> None:
    """SIGINT at its default in the shell, as in a terminal's: a test run started in the background ignores it,
    and a program started with SIGINT ignored never sees Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
