"""Per-client counters in the database, so a limit holds across workers and hosts.

A counter counts one action (``comment``, ``case-file``) of one client
address in a fixed window; when the window has passed it starts again.  The
count is taken inside the caller's write transaction, so two workers never
both take the last place.

Counters do not pile up: each count first removes the rows of its action
whose window has passed, and ``referee maintenance clean`` removes every row
whose window began more than :data:`KEPT_SECONDS` ago (a quiet site counts
nothing, so only the clean reaches its rows).  No window may be longer.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from validator import store
from validator.arbitration import clock

KEPT_SECONDS = 24 * 3600  # the longest window, and how long ``referee maintenance clean`` keeps a counter


@dataclass(frozen=True)
class Limit:
    """At most ``count`` actions in ``seconds`` (a day at most) from one client address."""

    count: int
    seconds: int

    def __post_init__(self) -> None:
        if not 0 < self.seconds <= KEPT_SECONDS:
            raise ValueError(f"a counter's window is 1 to {KEPT_SECONDS} seconds, not {self.seconds}")


class LimitReached(Exception):
    """The client has used up its actions for this window; ``wait_seconds`` until the next one."""

    def __init__(self, action: str, wait_seconds: int) -> None:
        super().__init__(action, wait_seconds)
        self.action, self.wait_seconds = action, wait_seconds


def take(connection: store.Connection, action: str, client: str, limit: Limit) -> None:
    """Count one action, or raise :class:`LimitReached`; call inside a write transaction."""
    now = clock.parsed(clock.now())
    passed = (now - timedelta(seconds=limit.seconds)).isoformat(timespec="seconds")
    connection.execute("DELETE FROM client_counter WHERE action = ? AND window_started_at < ?", (action, passed))
    row = connection.execute(
        "SELECT window_started_at, count FROM client_counter WHERE action = ? AND client = ?", (action, client)
    ).fetchone()
    if row is not None:
        ends = clock.parsed(row["window_started_at"]) + timedelta(seconds=limit.seconds)
        if ends > now:
            if row["count"] >= limit.count:
                raise LimitReached(action, max(1, int((ends - now).total_seconds())))
            connection.execute("UPDATE client_counter SET count = count + 1 WHERE action = ? AND client = ?",
                               (action, client))
            return
    connection.execute(
        "INSERT INTO client_counter (action, client, window_started_at, count) VALUES (?, ?, ?, 1) "
        "ON CONFLICT (action, client) DO UPDATE SET window_started_at = excluded.window_started_at, count = 1",
        (action, client, now.isoformat(timespec="seconds")),
    )


def forget_older(connection: store.Connection, before: str, *, dry_run: bool = False) -> int:
    """Remove (or only count) every counter whose window began before the ISO stamp ``before``; how many."""
    if dry_run:
        return connection.execute("SELECT COUNT(*) FROM client_counter WHERE window_started_at < ?",
                                  (before,)).fetchone()[0]
    with store.write_transaction(connection):
        return len(connection.execute("DELETE FROM client_counter WHERE window_started_at < ? RETURNING action",
                                      (before,)).fetchall())
