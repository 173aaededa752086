"""Shared fixtures: an instance folder per test, and the real rulebooks when present.

The real rulebooks are read from the folder named by REFEREE_RULEBOOKS
(``.ci/run`` points it at ../shared/rulebooks).  Outside CI, tests that need
them skip with the reason; in CI (CI set) their absence is a failure.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

# The whole session's instance folder is a temporary one, set before the code is imported: each test
# still gets its own (instance_dir below); this one receives what is read or written outside a test,
# at import and at the process's exit (validator.compiled_methods reads its table on import and writes
# it at exit), which would otherwise be the user's real instance folder.  xdist's workers inherit it.
SESSION_INSTANCE_VARIABLE = "REFEREE_TEST_SESSION_INSTANCE"
if SESSION_INSTANCE_VARIABLE not in os.environ:
    os.environ[SESSION_INSTANCE_VARIABLE] = tempfile.mkdtemp(prefix="referee-tests-")
    # removed at the exit of the process that made it, after what the code writes then (atexit runs the last
    # registered first), however the session ends
    atexit.register(shutil.rmtree, os.environ[SESSION_INSTANCE_VARIABLE], ignore_errors=True)
os.environ["REFEREE_INSTANCE"] = os.environ[SESSION_INSTANCE_VARIABLE]

from validator import cli  # noqa: E402 - after the session's instance folder is set

pytest_plugins = ["tests.databases"]  # the database_target fixture: SQLite and PostgreSQL

RULEBOOKS_VARIABLE = "REFEREE_RULEBOOKS"

GAME_FILES = {
    "tito": ["tito-rulebook.txt"],
    "awaw": ["a-world-at-war-11-partisans.txt", "a-world-at-war-44-intelligence.txt"],
    "tww": ["third-world-war-15-special-rules.txt"],
}


@pytest.fixture(autouse=True)
def instance_dir(tmp_path, monkeypatch) -> Path:
    """Every test gets its own instance folder, so no test touches a user's data."""
    folder = tmp_path / "instance"
    monkeypatch.setenv("REFEREE_INSTANCE", str(folder))
    return folder


@pytest.fixture(scope="session")
def rulebooks_dir() -> Path:
    chosen = os.environ.get(RULEBOOKS_VARIABLE)
    folder = Path(chosen) if chosen else None
    if folder is None or not all((folder / name).is_file() for names in GAME_FILES.values() for name in names):
        reason = (
            f"the real rulebooks are not available: set {RULEBOOKS_VARIABLE} to the folder holding "
            + ", ".join(name for names in GAME_FILES.values() for name in names)
        )
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return folder


@pytest.fixture
def run_cli(capsys):
    """Run ``referee ARGS...`` in-process; returns (exit code, stdout, stderr)."""

    def run(*arguments: str) -> tuple[int, str, str]:
        code = cli.main([str(argument) for argument in arguments])
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run


@pytest.fixture
def import_real(run_cli, rulebooks_dir):
    """Import one game's real rulebook into the test's instance folder."""

    def run(game: str) -> str:
        code, out, err = run_cli("rules", "import", game, *(rulebooks_dir / name for name in GAME_FILES[game]))
        assert code == 0, err
        return out

    return run
