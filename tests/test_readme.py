"""The README is a tested contract: every command it shows runs, in order, and does what it says.

``test_the_readme_runs_as_written`` copies the checkout's files (tracked and
new, as ``git ls-files`` lists them) into a temporary folder with the real
rulebooks at ``../shared/rulebooks`` beside it, gives the shell a fresh home
folder (so the instance folder is the fresh default the README names, and no
``REFEREE_INSTANCE`` is set) and a PATH without any virtual environment, and
runs the README's commands one after another in one bash session: the
set-up command installs into a new ``.venv`` exactly as written.  The
conventions the README is read with (``...``, ``exit code N``) are in
tests/readme_tour.py.

The set-up command ends in ``referee serve``, which runs until Ctrl-C: the
test waits until that server listens, fetches the pages the README names,
then sends the server SIGINT as Ctrl-C does and expects a clean exit.  It
runs on the README's port, 5000, taken in turn with other README tests on
the machine (tests/readme_port.py); when something else listens there the
command cannot run as written, so the test fails under CI and skips
elsewhere, saying so.

The test command (marked ``<!-- test-command -->``) is not run here: it is
what runs this test; tests/test_project.py checks it is word for word the
one ``.ci/run`` runs.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from .readme_port import PORT, listens_on_port, port_in_turn
from .readme_shell import Shell
from .readme_tour import Command, TourError, first_difference, output_matches, read_tour, split_comment

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SERVED = f"http://127.0.0.1:{PORT}/"
SERVED_PAGES = ["/", "/tito/rules/", "/tito/rules/6.21", "/tito/search?q=hide-away", "/tito/rules/unresolved",
                "/check"]
DEFAULT_INSTANCE = Path(".local") / "share" / "referee"
COMMAND_TIMEOUT = 600
SERVE_COMMAND = re.compile(r"(?:^|[\s/;&|])referee serve\b")


# -- the conventions ------------------------------------------------------------------


def test_shown_output_is_the_whole_output_and_dots_stand_for_any_lines():
    output = ["first", "second", "third", "last"]
    assert output_matches(("first", "second", "third", "last"), output)
    assert output_matches(("first", "...", "last"), output)
    assert output_matches(("...", "third", "last"), output)
    assert output_matches(("first", "second", "third", "last", "..."), output)
    assert output_matches(("first", "...", "second", "...", "last"), output)
    assert output_matches(("...",), [])
    assert not output_matches(("first", "last"), output)
    assert not output_matches(("first", "...", "second"), output)
    assert not output_matches(("first", "...", "missing", "..."), output)
    assert output_matches(("first  ",), ["first"])


def test_dots_inside_a_line_stand_for_any_text_there():
    assert output_matches(("Instance folder: .../share/referee (the default)",),
                          ["Instance folder: /home/ann/.local/share/referee (the default)"])
    assert output_matches(("import with: referee rules import GAME FILE...",),
                          ["import with: referee rules import GAME FILE..."])
    assert not output_matches(("Instance folder: .../share/referee",), ["Instance folder: /srv/referee"])
    assert not output_matches(("a...b",), ["a", "b"])


def test_a_mismatch_says_which_shown_line_is_not_there():
    assert "'missing'" in first_difference(("first", "missing"), ["first", "second"])
    assert "not shown" in first_difference(("first",), ["first", "second"])


def test_comments_are_cut_at_a_word_starting_with_a_hash_outside_quotes():
    assert split_comment("referee check x.xml   # exit code 1: violations") == ("referee check x.xml",
                                                                              "exit code 1: violations")
    assert split_comment("echo 'a # b' \"c # d\"") == ("echo 'a # b' \"c # d\"", "")
    assert split_comment("echo a#b") == ("echo a#b", "")
    assert split_comment("echo \\# sharp") == ("echo \\# sharp", "")


SAMPLE = """\
Intro.

```console
$ first --flag        # exit code 2: refused
refused: a sentence
$ second \\
    --more            # goes on
...
last line

$ third
```

<!-- test-command -->
```sh
make test
```
"""


def test_reading_a_readme_into_commands():
    tour = read_tour(SAMPLE)
    assert tour.test_command == "make test"
    assert tour.commands == (
        Command(line=4, shown="first --flag        # exit code 2: refused", script="first --flag", exit_code=2,
                output=("refused: a sentence",)),
        Command(line=6, shown="second \\\n    --more            # goes on", script="second \\\n    --more",
                exit_code=0, output=("...", "last line")),
        Command(line=11, shown="third", script="third", exit_code=0, output=None),
    )


@pytest.mark.parametrize("text, problem", [
    ("```sh\nreferee serve\n```\n", "line 2: a ```sh block"),
    ("```console\noutput first\n$ referee\n```\n", "line 2: output before any '$ ' command"),
    ("```console\n$ referee \\\n```\n", "goes on past the end of its block"),
    ("```console\n$ referee\n", "never closed"),
    ("```console\n$ referee   # exit code 1, or exit code 2\n```\n", "more than one exit code"),
])
def test_a_readme_off_the_conventions_is_refused_with_its_line(text, problem):
    with pytest.raises(TourError, match=re.escape(problem)):
        read_tour(text)


def test_the_readme_follows_the_conventions():
    tour = read_tour(README.read_text(encoding="utf-8"))
    assert tour.test_command, "the README marks its test command with <!-- test-command -->"
    assert sum(bool(SERVE_COMMAND.search(command.script)) for command in tour.commands) == 1
    assert SERVED in README.read_text(encoding="utf-8")
    for page in SERVED_PAGES:
        assert f"`{page}`" in README.read_text(encoding="utf-8"), f"the README no longer names {page}"


# -- the run ------------------------------------------------------------------------


@pytest.mark.rulebooks
def test_the_readme_runs_as_written(tmp_path, rulebooks_dir):
    tour = read_tour(README.read_text(encoding="utf-8"))
    checkout = copy_checkout(tmp_path / "referee")
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "rulebooks").symlink_to(rulebooks_dir.resolve())
    home = tmp_path / "home"
    home.mkdir()
    shell = Shell(checkout, fresh_environment(home))
    try:
        for command in tour.commands:
            if SERVE_COMMAND.search(command.script):
                with port_in_turn(timeout=2 * COMMAND_TIMEOUT):
                    shell.start(command.script)
                    status, output = serve_then_stop(shell, command)
            else:
                shell.start(command.script)
                status, output = shell.finish(COMMAND_TIMEOUT)
            assert_as_shown(command, status, output)
    finally:
        shell.close()
    database = home / DEFAULT_INSTANCE / "referee.sqlite3"
    assert database.is_file(), f"the README says the data lives in ~/{DEFAULT_INSTANCE}; nothing is at {database}"


def assert_as_shown(command: Command, status: int, output: list[str]) -> None:
    where = f"README line {command.line}: $ {command.shown}"
    shown_output = "\n".join(output)
    assert status == command.exit_code, (
        f"{where}\nexited {status}; the README says {command.exit_code}. Output:\n{shown_output}"
    )
    if command.output is not None and not output_matches(command.output, output):
        expected = "\n".join(command.output)
        raise AssertionError(f"{where}\nprints other lines than the README shows: "
                             f"{first_difference(command.output, output)}.\nShown:\n{expected}\n"
                             f"Printed:\n{shown_output}")


def serve_then_stop(shell: Shell, command: Command) -> tuple[int, list[str]]:
    """Wait until our server listens, read the README's pages from it, then stop it with Ctrl-C's signal."""
    deadline = time.monotonic() + COMMAND_TIMEOUT
    while (server := serving_process(shell)) is None or not listens_on_port(server):
        ended = shell.poll_finished()
        if ended is not None:
            status, output = ended
            joined = "\n".join(output)
            raise AssertionError(f"README line {command.line}: $ {command.shown}\nended (status {status}) "
                                 f"before serving {SERVED}. Output:\n{joined}")
        assert time.monotonic() < deadline, f"{SERVED} was not served; output so far:\n{shell.output_so_far()}"
        time.sleep(0.5)
    for page in SERVED_PAGES:
        with urllib.request.urlopen(SERVED.rstrip("/") + page, timeout=30) as response:
            assert response.status == 200, page
            body = response.read().decode("utf-8")
        assert "Traceback" not in body, page
        if page == "/tito/rules/6.21":
            assert "6.21" in body, "the case page of the rulebook imported by the set-up command"
    shell.interrupt(server)
    return shell.finish(60)


def serving_process(shell: Shell) -> int | None:
    """The ``referee serve`` process the shell is running, once it runs."""
    for pid in shell.children():
        try:
            arguments = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except FileNotFoundError:
            continue
        if b"serve" in arguments and any(argument.endswith(b"referee") for argument in arguments):
            return pid
    return None


def copy_checkout(target: Path) -> Path:
    """The checkout's tracked and new files (not ignored ones such as .venv), as a newcomer's clone has them."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if not source.is_file():  # deleted in the work tree, not yet in a commit
            continue
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, destination)
    return target


def fresh_environment(home: Path) -> dict[str, str]:
    """This machine's environment as a newcomer's terminal has it: no virtual environment, no Referee settings."""
    dropped = {"REFEREE_INSTANCE", "REFEREE_RULEBOOKS", "VIRTUAL_ENV", "PYTHONHOME", "PYTHONPATH", "XDG_DATA_HOME"}
    environment = {name: value for name, value in os.environ.items()
                   if name not in dropped and not name.startswith("PYTEST_")}
    environment["PATH"] = os.pathsep.join(
        entry for entry in os.environ.get("PATH", "").split(os.pathsep)
        if entry and not (Path(entry).parent / "pyvenv.cfg").is_file()
    )
    environment["HOME"] = str(home)
    # Standard output reaches the pipe in the order it was written, as it reaches a terminal.
    environment["PYTHONUNBUFFERED"] = "1"
    return environment
