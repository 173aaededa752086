"""Arbiters on the store and the command line: hashed passwords, slowed failed sign-ins."""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import closing

import pytest

from validator import store
from validator.arbitration import arbiters


def test_an_arbiter_signs_in_with_their_password_and_the_hash_is_scrypt(database_target):
    with closing(store.connect(database_target)) as connection:
        arbiters.add(connection, "alice", "orchard-keeper")
        stored = connection.execute("SELECT password_hash FROM arbiter WHERE name = 'alice'").fetchone()[0]
        assert stored.startswith("scrypt:") and "orchard-keeper" not in stored
        assert arbiters.verify(connection, "alice", "orchard-keeper", "10.0.0.1").arbiter.name == "alice"
        assert arbiters.verify(connection, "alice", "wrong-password", "10.0.0.1").arbiter is None


def test_an_arbiter_added_twice_is_refused_with_a_sentence(database_target):
    with closing(store.connect(database_target)) as connection:
        arbiters.add(connection, "alice", "orchard-keeper")
        with pytest.raises(arbiters.ArbiterError, match="already an arbiter named 'alice'"):
            arbiters.add(connection, "alice", "another-password")


def test_failed_sign_ins_are_slowed_per_name_and_client_even_for_the_right_password(database_target):
    with closing(store.connect(database_target)) as connection:
        arbiters.add(connection, "alice", "orchard-keeper")
        waits = [arbiters.verify(connection, "alice", f"guess-{n}", "10.0.0.1").wait_seconds
                 for n in range(arbiters.FREE_FAILURES)]
        assert waits[:-1] == [0] * (arbiters.FREE_FAILURES - 1) and waits[-1] > 0
        slowed = arbiters.verify(connection, "alice", "orchard-keeper", "10.0.0.1")
        assert slowed.arbiter is None and slowed.wait_seconds > 0
        # Another client's attempts are counted apart.
        assert arbiters.verify(connection, "alice", "orchard-keeper", "10.0.0.2").arbiter.name == "alice"


def test_the_counters_are_in_the_database_so_a_new_connection_sees_them(database_target):
    with closing(store.connect(database_target)) as connection:
        arbiters.add(connection, "alice", "orchard-keeper")
        for n in range(arbiters.FREE_FAILURES):
            arbiters.verify(connection, "alice", f"guess-{n}", "10.0.0.1")
    with closing(store.connect(database_target)) as connection:
        assert arbiters.verify(connection, "alice", "orchard-keeper", "10.0.0.1").wait_seconds > 0


def test_the_wait_doubles_and_is_capped():
    waits = [arbiters.wait_after(failures) for failures in range(1, 30)]
    assert waits == sorted(waits) and waits[-1] == arbiters.LONGEST_WAIT_SECONDS
    assert arbiters.wait_after(arbiters.FREE_FAILURES + 1) == 2 * arbiters.wait_after(arbiters.FREE_FAILURES)


def _referee(*arguments: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "validator.cli", *arguments], input=stdin, capture_output=True,
                          text=True, env=os.environ.copy(), timeout=60)


def test_the_command_reads_the_password_as_one_line_of_standard_input(database_target):
    added = _referee("arbiter", "add", "alice", stdin="orchard-keeper\n")
    assert added.returncode == 0, added.stderr
    assert "alice was added" in added.stdout
    listed = _referee("arbiter", "list", "--format", "json")
    assert [entry["name"] for entry in __import__("json").loads(listed.stdout)] == ["alice"]
    assert _referee("arbiter", "passwd", "alice", stdin="new-password-1\n").returncode == 0
    with closing(store.connect(database_target)) as connection:
        assert arbiters.verify(connection, "alice", "new-password-1").arbiter is not None
        assert arbiters.verify(connection, "alice", "orchard-keeper").arbiter is None
    assert _referee("arbiter", "remove", "alice").returncode == 0
    assert "no arbiters yet" in _referee("arbiter", "list").stdout


def test_the_command_refuses_a_short_password_an_unknown_arbiter_and_a_bad_name(database_target):
    short = _referee("arbiter", "add", "alice", stdin="short\n")
    assert short.returncode == 2 and "give one of 8 to 200 characters" in short.stderr
    missing = _referee("arbiter", "remove", "nobody")
    assert missing.returncode == 2 and "no arbiter named 'nobody'" in missing.stderr
    bad = _referee("arbiter", "add", "<b>", stdin="orchard-keeper\n")
    assert bad.returncode == 2 and "cannot be used" in bad.stderr and "Traceback" not in bad.stderr
    nothing = _referee("arbiter", "add", "bob", stdin="")
    assert nothing.returncode == 2 and "No password was given" in nothing.stderr
