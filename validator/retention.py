"""Removing what players uploaded: after the retention period, or when an arbiter deletes a case file's uploads.

A report keeps its verdict for good (its page, its JSON, its picture), but
the files a player sent (the save, the map) are personal property kept only
as long as the club needs them.  ``[storage] retention_days`` (0, the
default: for good) says how long; ``referee maintenance expire`` removes the
files of every report older than that, and an arbiter removes those of one
case file's reports from its page (:func:`remove_uploads`).

The row is changed first (``save_file`` emptied, ``map_file`` cleared,
``uploads_removed_at`` stamped) and the files are unlinked after the commit,
so a file whose removal fails is an orphan that ``referee maintenance
clean`` takes later, and no row ever names a missing file.  A report whose
uploads are gone cannot be re-checked; its page says when they were removed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from validator import store
from validator.wording import noun_for


@dataclass(frozen=True)
class Removal:
    """What a removal did: the reports whose uploads went, and how many files and bytes."""

    report_ids: tuple[str, ...]
    files: int
    freed_bytes: int
    dry_run: bool = False

    def as_json(self) -> dict:
        return {"dry_run": self.dry_run, "reports": list(self.report_ids), "files": self.files,
                "bytes": self.freed_bytes}

    def summary(self, days: int) -> str:
        if not days:
            return ("Uploads are kept for good ([storage] retention_days is 0), so none was removed; set it to a "
                    "number of days to remove older ones.")
        if not self.report_ids:
            return f"No report older than {_counted(days, 'day')} still keeps its uploads."
        done = "would remove" if self.dry_run else "removed"
        return (f"{done.capitalize()} the uploads of {_counted(len(self.report_ids), 'report')} older than "
                f"{_counted(days, 'day')} ({_counted(self.files, 'file')}, {_counted(self.freed_bytes, 'byte')}); "
                f"their verdicts and pages are kept.")


def _counted(count: int, noun: str) -> str:
    return f"{count:,} {noun_for(count, noun)}"


def _now() -> datetime:
    return datetime.now(UTC)


def expired(connection: store.Connection, days: int, now: datetime | None = None) -> list[str]:
    """The reports made more than ``days`` days ago that still keep their uploads (none when ``days`` is 0)."""
    if days <= 0:
        return []
    cutoff = ((now or _now()) - timedelta(days=days)).isoformat(timespec="seconds")
    rows = connection.execute("SELECT id FROM report WHERE created_at < ? AND uploads_removed_at IS NULL "
                              "ORDER BY created_at", (cutoff,)).fetchall()
    return [row[0] for row in rows]


def of_case_file(connection: store.Connection, case_file_id: str) -> list[str]:
    """The reports filed in one case file, in order."""
    rows = connection.execute("SELECT report_id FROM case_file_report WHERE case_file = ? ORDER BY position",
                              (case_file_id,)).fetchall()
    return [row[0] for row in rows]


def remove_uploads(connection: store.Connection, uploads_folder: Path, report_ids: Iterable[str], *,
                   dry_run: bool = False) -> Removal:
    """Remove the saved and map files of ``report_ids`` and record when; reports already emptied are skipped."""
    names: list[str] = []
    removed: list[str] = []
    stamp = _now().isoformat(timespec="seconds")
    with store.write_transaction(connection):
        for report_id in report_ids:
            row = connection.execute("SELECT save_file, map_file FROM report WHERE id = ? "
                                     "AND uploads_removed_at IS NULL", (report_id,)).fetchone()
            if row is None:
                continue
            removed.append(report_id)
            names += [name for name in (row[0], row[1]) if name]
            if not dry_run:
                connection.execute("UPDATE report SET save_file = '', map_file = NULL, uploads_removed_at = ? "
                                   "WHERE id = ?", (stamp, report_id))
    freed = files = 0
    for name in names:
        path = uploads_folder / name
        try:
            size = path.stat().st_size
            if not dry_run:
                path.unlink()
        except FileNotFoundError:
            continue
        files += 1
        freed += size
    return Removal(tuple(removed), files, freed, dry_run)


def removed_at(connection: store.Connection, report_id: str) -> str | None:
    """When the report's uploads were removed, or None while it keeps them."""
    row = connection.execute("SELECT uploads_removed_at FROM report WHERE id = ?", (report_id,)).fetchone()
    return row[0] if row is not None else None
