"""Arbiters: the people who may write rulings, house rules and ruling requests.

An arbiter is a name and a password hash (``werkzeug.security``'s scrypt, the
key-derivation function Flask's own dependency keeps); the password itself is
never stored.  Failed sign-ins are counted in the database per name and client
address, so the slowing holds across workers and hosts: after
``FREE_FAILURES`` failures each further attempt waits twice as long as the
last, up to ``LONGEST_WAIT_SECONDS``, and a right password during the wait is
refused too (otherwise the wait would slow nothing).  A right password clears
its own count; failures are forgotten :data:`FAILURES_KEPT_SECONDS` after the
last one, when each sign-in attempt removes them (and so does ``referee
maintenance clean``), so the table holds no more than a day of failures.

A web session holds the arbiter's name and ``session_mark``, a digest of the
password hash at sign-in: a new password (``referee arbiter passwd``) or a
removal, even followed by adding the name again, gives a new salted hash, so
every session signed in before it no longer matches and ends.
"""

from __future__ import annotations

import functools
import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta

from werkzeug.security import check_password_hash, generate_password_hash

from validator import store
from validator.arbitration import clock
from validator.errors import InputError

NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$")
SHORTEST_PASSWORD = 8
LONGEST_PASSWORD = 200
FREE_FAILURES = 5
LONGEST_WAIT_SECONDS = 15 * 60
FAILURES_KEPT_SECONDS = 24 * 3600  # a day after the last failure, the count starts again from nothing
PASSWORD_METHOD = "scrypt"


class ArbiterError(InputError):
    """A name or password that cannot be used, or an arbiter that is not there."""

    def __init__(self, problem: str) -> None:
        super().__init__("", problem)


@dataclass(frozen=True)
class Arbiter:
    name: str
    added_at: str
    password_changed_at: str


@dataclass(frozen=True)
class SignIn:
    """The outcome of a sign-in attempt: the arbiter and its session mark, or why not and how long to wait."""

    arbiter: Arbiter | None
    wait_seconds: int = 0
    mark: str = ""


def _mark(password_hash: str) -> str:
    return hashlib.sha256(password_hash.encode()).hexdigest()[:32]


def signed_in(connection: store.Connection, name: str, mark: str) -> Arbiter | None:
    """The arbiter of a session, or None when the name is gone or its password changed since the sign-in."""
    row = connection.execute(
        "SELECT name, password_hash, added_at, password_changed_at FROM arbiter WHERE name = ?", (name,)
    ).fetchone()
    if row is None or not secrets.compare_digest(_mark(row["password_hash"]), mark):
        return None
    return Arbiter(row["name"], row["added_at"], row["password_changed_at"])


def checked_name(name: str) -> str:
    if not NAME_PATTERN.match(name):
        raise ArbiterError(
            f"The arbiter name {name!r} cannot be used; a name is 1 to 40 letters, digits, dots, dashes "
            "or underscores, starting with a letter or digit."
        )
    return name


def checked_password(password: str) -> str:
    if not SHORTEST_PASSWORD <= len(password) <= LONGEST_PASSWORD:
        raise ArbiterError(
            f"The password has {len(password)} characters; give one of {SHORTEST_PASSWORD} to "
            f"{LONGEST_PASSWORD} characters."
        )
    return password


def add(connection: store.Connection, name: str, password: str) -> Arbiter:
    checked_name(name)
    hashed = generate_password_hash(checked_password(password), method=PASSWORD_METHOD)
    stamp = clock.now()
    with store.write_transaction(connection):
        added = connection.execute(
            "INSERT INTO arbiter (name, password_hash, added_at, password_changed_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (name) DO NOTHING RETURNING name",
            (name, hashed, stamp, stamp),
        ).fetchone()
    if added is None:
        raise ArbiterError(
            f"There is already an arbiter named {name!r}; choose another name, or change that arbiter's "
            f"password with: referee arbiter passwd {name}."
        )
    return Arbiter(name, stamp, stamp)


def listed(connection: store.Connection) -> list[Arbiter]:
    rows = connection.execute("SELECT name, added_at, password_changed_at FROM arbiter ORDER BY name").fetchall()
    return [Arbiter(row["name"], row["added_at"], row["password_changed_at"]) for row in rows]


def find(connection: store.Connection, name: str) -> Arbiter | None:
    row = connection.execute(
        "SELECT name, added_at, password_changed_at FROM arbiter WHERE name = ?", (name,)
    ).fetchone()
    return Arbiter(row["name"], row["added_at"], row["password_changed_at"]) if row is not None else None


def require(connection: store.Connection, name: str) -> Arbiter:
    """The arbiter of this name, or the sentence saying there is none."""
    found = find(connection, name)
    if found is None:
        raise _no_such(name)
    return found


def remove(connection: store.Connection, name: str) -> None:
    with store.write_transaction(connection):
        removed = connection.execute("DELETE FROM arbiter WHERE name = ? RETURNING name", (name,)).fetchone()
    if removed is None:
        raise _no_such(name)


def change_password(connection: store.Connection, name: str, password: str) -> None:
    hashed = generate_password_hash(checked_password(password), method=PASSWORD_METHOD)
    with store.write_transaction(connection):
        changed = connection.execute(
            "UPDATE arbiter SET password_hash = ?, password_changed_at = ? WHERE name = ? RETURNING name",
            (hashed, clock.now(), name),
        ).fetchone()
    if changed is None:
        raise _no_such(name)


def verify(connection: store.Connection, name: str, password: str, client: str = "") -> SignIn:
    """Check a name and password, counting failures per name and client; a wait refuses even the right one."""
    with store.write_transaction(connection):
        connection.execute("DELETE FROM sign_in_failure WHERE last_failed_at < ?", (failures_forgotten_before(),))
        failure = connection.execute(
            "SELECT failures, last_failed_at FROM sign_in_failure WHERE name = ? AND client = ?", (name, client)
        ).fetchone()
        if failure is not None:
            wait = _remaining_wait(failure["failures"], failure["last_failed_at"])
            if wait > 0:
                return SignIn(None, wait)
        row = connection.execute(
            "SELECT name, password_hash, added_at, password_changed_at FROM arbiter WHERE name = ?", (name,)
        ).fetchone()
        # An unknown name is checked against a hash too, so the answer takes as long as for a known one.
        stored = row["password_hash"] if row is not None else _unknown_name_hash()
        if check_password_hash(stored, password[:LONGEST_PASSWORD + 1]) and row is not None:
            connection.execute("DELETE FROM sign_in_failure WHERE name = ? AND client = ?", (name, client))
            return SignIn(Arbiter(row["name"], row["added_at"], row["password_changed_at"]),
                          mark=_mark(row["password_hash"]))
        connection.execute(
            "INSERT INTO sign_in_failure (name, client, failures, last_failed_at) VALUES (?, ?, 1, ?) "
            "ON CONFLICT (name, client) DO UPDATE SET failures = sign_in_failure.failures + 1, "
            "last_failed_at = excluded.last_failed_at",
            (name, client, clock.now()),
        )
        failures = (failure["failures"] if failure is not None else 0) + 1
    return SignIn(None, wait_after(failures))


def failures_forgotten_before() -> str:
    """The ISO stamp before which a last failure is forgotten: :data:`FAILURES_KEPT_SECONDS` ago."""
    return (clock.parsed(clock.now()) - timedelta(seconds=FAILURES_KEPT_SECONDS)).isoformat(timespec="seconds")


def forget_failures(connection: store.Connection, *, dry_run: bool = False) -> int:
    """Remove (or only count) the failure counts whose last failure is past keeping; how many."""
    before = failures_forgotten_before()
    if dry_run:
        return connection.execute("SELECT COUNT(*) FROM sign_in_failure WHERE last_failed_at < ?",
                                  (before,)).fetchone()[0]
    with store.write_transaction(connection):
        return len(connection.execute("DELETE FROM sign_in_failure WHERE last_failed_at < ? RETURNING name",
                                      (before,)).fetchall())


@functools.cache
def _unknown_name_hash() -> str:
    return generate_password_hash(secrets.token_urlsafe(16), method=PASSWORD_METHOD)


def wait_after(failures: int) -> int:
    """Seconds to wait after this many failures: none for the first few, then doubling, capped."""
    if failures < FREE_FAILURES:
        return 0
    return min(2 ** (failures - FREE_FAILURES + 1), LONGEST_WAIT_SECONDS)


def _remaining_wait(failures: int, last_failed_at: str) -> int:
    allowed_at = clock.parsed(last_failed_at) + timedelta(seconds=wait_after(failures))
    remaining = (allowed_at - clock.parsed(clock.now())).total_seconds()
    return max(0, int(remaining) + (1 if remaining % 1 else 0))


def _no_such(name: str) -> ArbiterError:
    return ArbiterError(f"There is no arbiter named {name!r}; referee arbiter list lists them.")
