"""Long checks show progress on a terminal only, never in JSON or a pipe, and Ctrl-C ends them in one sentence."""

from __future__ import annotations

import io
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from validator.moves import progress

from sample_modules import tito_log_from_position, tito_module, tito_move
from tests.moves.saves import partisan, tito_save

ROOT = Path(__file__).resolve().parents[2]
PLACES = ("Serbia Partisan Mountain", "Serbia Partisan Hide-away")


def log_of(folder: Path, count: int) -> tuple[Path, Path]:
    """A log of ``count`` legal steps on the sample module: a Partisan group going back and forth inside Serbia."""
    start = tito_save(folder / "start.xml", [partisan("serbia/mountain/partisan", "p2")])
    steps = [tito_move("p2", PLACES[index % 2], PLACES[(index + 1) % 2], "again") for index in range(count)]
    return tito_log_from_position(start, folder / "long.vlog", steps), tito_module(folder)


@pytest.fixture
def long_log(tmp_path) -> tuple[Path, Path]:
    return log_of(tmp_path, 300)


def referee(*arguments: object, stderr) -> subprocess.Popen:
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "validator.cli", *map(str, arguments)], cwd=ROOT, env=environment,
                            stdout=subprocess.PIPE, stderr=stderr)


def read_until(descriptor: int, words: bytes, seconds: float = 60) -> bytes:
    """What the terminal shows until ``words`` appear (or the time runs out, or the other end closes)."""
    seen, deadline = b"", time.monotonic() + seconds
    while words not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([descriptor], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(descriptor, 4096)
            except OSError:  # the process ended and closed the terminal
                break
            if not chunk:
                break
            seen += chunk
    return seen


def test_progress_is_drawn_on_a_terminal_and_ctrl_c_ends_with_one_sentence(long_log):
    log, module = long_log
    main, terminal = pty.openpty()
    process = referee("check", log, "--game", "tito", "--module", module, stderr=terminal)
    os.close(terminal)
    try:
        shown = read_until(main, b"step ")
        assert b"of 300" in shown, shown
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=60)
        shown += read_until(main, b"--first", seconds=10)
    finally:
        os.close(main)
    assert process.returncode == 130
    assert out == b""
    text = shown.decode("utf-8")
    assert "referee: interrupted after " in text and " of 300 steps were checked, so nothing is reported" in text
    assert "Traceback" not in text


def test_no_progress_reaches_a_pipe_or_json(tmp_path):
    log, module = log_of(tmp_path, 20)
    process = referee("check", log, "--game", "tito", "--module", module, stderr=subprocess.PIPE)
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    assert err == b"" and b"20 steps; 20 moves judged: legal." in out
    main, terminal = pty.openpty()
    process = referee("check", log, "--game", "tito", "--module", module, "--format", "json", stderr=terminal)
    os.close(terminal)
    out, _ = process.communicate(timeout=300)
    shown = read_until(main, b"never", seconds=1)
    os.close(main)
    assert process.returncode == 0 and shown == b"" and out.startswith(b"{")


def test_progress_counts_in_place_and_clears_its_line():
    stream = io.StringIO()
    seconds = iter((0.0, 1.0, 2.0))
    counter = progress.Progress("save", 3, stream, interval=0.5, clock=lambda: next(seconds))
    for done in (1, 2, 3):
        counter(done)
    counter.close()
    assert stream.getvalue() == (f"{progress.CLEAR}save 1 of 3{progress.CLEAR}save 2 of 3{progress.CLEAR}save 3 of 3"
                                 f"{progress.CLEAR}")


def test_progress_is_redrawn_at_most_once_an_interval_and_at_the_end():
    stream = io.StringIO()
    seconds = iter((0.0, 0.1, 0.2, 0.6, 0.7))
    counter = progress.Progress("step", 5, stream, interval=0.5, clock=lambda: next(seconds))
    for done in range(1, 6):
        counter(done)
    assert stream.getvalue() == f"{progress.CLEAR}step 1 of 5{progress.CLEAR}step 4 of 5{progress.CLEAR}step 5 of 5"
    assert not progress.shown(False, stream)  # not a terminal
