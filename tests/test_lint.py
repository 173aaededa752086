"""The lint and dead-code commands of .ci/run pass on the tree, run here as CI runs them."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CI_SCRIPT = ROOT / ".ci" / "run"
VENV_PREFIX = ".venv/bin/"


def _ci_command(tool: str) -> list[str]:
    """The tool's command line from .ci/run, pointed at the tools beside this Python."""
    script = CI_SCRIPT.read_text(encoding="utf-8").splitlines()
    lines = [line for line in script if line.startswith(VENV_PREFIX + tool + " ")]
    assert len(lines) == 1, f".ci/run should run {tool} once, on a line of its own"
    command = shlex.split(lines[0])
    executable = Path(sys.executable).parent / tool
    if not executable.exists():
        pytest.skip(f"{tool} is not installed beside {sys.executable}; install the test extras to run it")
    return [str(executable), *command[1:]]


@pytest.mark.parametrize("tool", ["ruff", "vulture"])
def test_the_ci_lint_passes(tool):
    finished = subprocess.run(_ci_command(tool), cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert finished.returncode == 0, finished.stdout + finished.stderr
