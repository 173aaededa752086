"""Per-client counters in the database, so a limit holds across workers and hosts.

A counter counts one action (``comment``, ``case-file``) of one client
address in a fixed window; when the window has passed it starts again.  The
count is taken inside the caller's write transaction, so two workers never
both take the last place.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from validator import store
from validator.arbitration import clock


@dataclass(frozen=True)
class Limit:
    """At most ``count`` actions in ``seconds`` from one client address."""

    count: int
    seconds: int


class LimitReached(Exception):
    """The client has used up its actions for this window; ``wait_seconds`` until the next one."""

    def __init__(self, action: str, wait_seconds: int) -> None:
        super().__init__(action, wait_seconds)
        self.action, self.wait_seconds = action, wait_seconds


def take(connection: store.Connection, action: str, client: str, limit: Limit) -> None:
    """Count one action, or raise :class:`LimitReached`; call inside a write transaction."""
    now = clock.parsed(clock.now())
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
