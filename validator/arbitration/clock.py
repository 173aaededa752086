"""The one clock of the arbitration records: ISO-8601 UTC text, as every stored date is."""

from __future__ import annotations

from datetime import UTC, datetime


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def parsed(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp)
