"""Keeping the instance clean: files in its uploads folder that no database row names.

A check writes its files first and its database row second (see
``validator.web.records`` and ``validator.web.kept_modules``); a worker
killed between the two, or a refused upload whose removal failed, leaves a
file no row names.  Such an orphan is removed once it is older than the grace
period (``[storage] orphan_grace_seconds``): a younger file may belong to a
check still running in another process, whose row is about to be committed,
and is never taken.  Only files with the names Referee generates are
considered; anything else in the folder is left alone.

The same clean forgets the counters that only slow people down for a while
(:func:`forget_counters`): failed sign-ins a day after the last one, and the
per-client counters of comments and case files whose window began a day ago.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from validator import storage, store
from validator.errors import InputError
from validator.wording import plural, verb_for

# Every column that names a file in the uploads folder, by table.
FILE_COLUMNS = {"report": ("save_file", "map_file"), "vassal_module": ("file",)}


@dataclass(frozen=True)
class Orphan:
    """A generated file no database row names, old enough to remove."""

    name: str
    size: int
    age_seconds: float


@dataclass(frozen=True)
class Cleaning:
    """What a clean found and did: the orphans (removed unless ``dry_run``), and the young ones it left."""

    orphans: tuple[Orphan, ...]
    young: int
    dry_run: bool

    @property
    def freed_bytes(self) -> int:
        return sum(orphan.size for orphan in self.orphans)

    def as_json(self) -> dict:
        """The shape of ``referee maintenance clean --format json`` (docs/deploying.md)."""
        return {"dry_run": self.dry_run,
                "orphans": [{"name": orphan.name, "bytes": orphan.size, "age_seconds": round(orphan.age_seconds)}
                            for orphan in self.orphans],
                "bytes": self.freed_bytes, "too_young": self.young}


@dataclass(frozen=True)
class Forgotten:
    """How many sign-in failure counts and per-client counters a clean removed (or, dry, would remove)."""

    sign_in_failures: int
    client_counters: int

    def as_json(self) -> dict:
        return {"sign_in_failures": self.sign_in_failures, "client_counters": self.client_counters}

    def summary(self, dry_run: bool) -> str:
        """A sentence on what was forgotten; empty when nothing was."""
        if not self.sign_in_failures and not self.client_counters:
            return ""
        counted = (f"{plural(self.sign_in_failures, 'sign-in failure count')} and "
                   f"{plural(self.client_counters, 'client counter')} older than a day")
        return f"{counted} would be removed." if dry_run else f"Removed {counted}."


def forget_counters(connection: store.Connection, *, dry_run: bool = False) -> Forgotten:
    """Remove (or, with ``dry_run``, only count) the counters past keeping, so their tables never grow for good."""
    from validator.arbitration import arbiters, clock, counters

    counters_before = (clock.parsed(clock.now()) - timedelta(seconds=counters.KEPT_SECONDS)).isoformat(
        timespec="seconds")
    return Forgotten(arbiters.forget_failures(connection, dry_run=dry_run),
                     counters.forget_older(connection, counters_before, dry_run=dry_run))


def named_files(connection: store.Connection) -> set[str]:
    """Every file name a database row holds."""
    names: set[str] = set()
    for table, columns in FILE_COLUMNS.items():
        for column in columns:
            rows = connection.execute(f"SELECT {column} FROM {table} WHERE {column} IS NOT NULL")
            names.update(row[0] for row in rows)
    return names


class NothingToCleanAgainst(InputError):
    """The database holds no row at all while the uploads folder holds files: it is new or the wrong one."""


def has_rows(connection: store.Connection) -> bool:
    """Whether any report or kept module row exists (a row whose files expired still counts)."""
    return any(connection.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone() for table in FILE_COLUMNS)


def clean(connection: store.Connection, uploads_folder: Path, grace_seconds: int, *,
          dry_run: bool = False) -> Cleaning:
    """Remove (or, with ``dry_run``, only list) the orphans in ``uploads_folder`` older than ``grace_seconds``.

    The folder is listed before the rows are read: a file written after the
    listing is not seen, and a row committed before the read is seen, so a
    check finishing meanwhile never loses its file.
    """
    now = time.time()
    candidates = _generated_files(uploads_folder)
    if candidates and not has_rows(connection):
        raise NothingToCleanAgainst(uploads_folder, f"holds {plural(len(candidates), 'file')} Referee wrote, but "
                                    "the database has no report or kept module at all, so every one would look "
                                    "orphaned; nothing was removed: check that REFEREE_INSTANCE or "
                                    "REFEREE_DATABASE_URL names this instance's database.")
    kept = named_files(connection)
    orphans, young = [], 0
    for name, size, modified in candidates:
        if name in kept:
            continue
        age = now - modified
        if age < grace_seconds:
            young += 1
            continue
        if not dry_run:
            try:
                (uploads_folder / name).unlink()
            except FileNotFoundError:  # another cleaner took it
                continue
        orphans.append(Orphan(name, size, age))
    return Cleaning(tuple(orphans), young, dry_run)


def _generated_files(folder: Path) -> list[tuple[str, int, float]]:
    """Name, size and modification time of each file Referee generated in ``folder``."""
    found = []
    try:
        entries = list(os.scandir(folder))
    except FileNotFoundError:
        return found
    for entry in entries:
        if not storage.is_generated(entry.name):
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            status = entry.stat(follow_symlinks=False)
        except FileNotFoundError:
            continue
        found.append((entry.name, status.st_size, status.st_mtime))
    return found


def summary(cleaning: Cleaning, grace_seconds: int) -> str:
    """What a clean did, in a sentence or two (each removed file on its own line first)."""
    lines = [f"{'would remove' if cleaning.dry_run else 'removed'} {orphan.name} ({orphan.size:,} bytes)"
             for orphan in cleaning.orphans]
    count = plural(len(cleaning.orphans), "file")
    if not cleaning.orphans:
        lines.append("No file without a database row is old enough to remove.")
    elif cleaning.dry_run:
        lines.append(f"{count} without a database row would be removed ({cleaning.freed_bytes:,} bytes); "
                     "run the command without --dry-run to remove them.")
    else:
        lines.append(f"Removed {count} without a database row ({cleaning.freed_bytes:,} bytes).")
    if cleaning.young:
        lines.append(f"{plural(cleaning.young, 'file')} without a row {verb_for(cleaning.young, 'was', 'were')} "
                     f"left alone, being younger than the grace period of {grace_seconds:,} seconds: a check may "
                     "still be writing its row.")
    return "\n".join(lines)
