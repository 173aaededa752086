"""What the instance may store: caps on the bytes kept in its uploads folder, and how long a new file is safe.

Every check made on the web keeps its save (and map) for good, and every
module a check brought is kept for later uploads, so a public site would
fill its disk.  The ``[storage]`` table of the settings file caps both, in
bytes counted on disk:

- ``max_upload_bytes_total``: saves and maps kept with reports (files
  ``report-...``);
- ``max_module_bytes_total``: kept modules (files ``module-...``);
- ``orphan_grace_seconds``: how old a file without a database row must be
  before ``referee maintenance clean`` removes it (a file is written before
  its row, so a younger one may be a check still running);
- ``clean_on_start``: whether the web app removes such files when it starts.

Sizes may be written as numbers or with a suffix (``"20GiB"``).  Past a cap
an upload is refused before anything is written, with a sentence saying
which cap and how to raise it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from validator import settings

GIB = 1024 * 1024 * 1024
TABLE = "storage"
UPLOAD_PREFIX = "report-"
MODULE_PREFIX = "module-"


@dataclass(frozen=True)
class StorageSettings:
    """The ``[storage]`` table, with its defaults (``validator.settings`` checks each value's kind)."""

    max_upload_bytes_total: int = 10 * GIB
    max_module_bytes_total: int = 5 * GIB
    orphan_grace_seconds: int = 3600
    clean_on_start: bool = False
    retention_days: int = 0  # uploads kept this long, 0 for good (validator.retention, docs/arbitration.md)


def settings_for(instance_folder: Path) -> StorageSettings:
    """The ``[storage]`` table of the instance's settings file over the defaults."""
    return StorageSettings(**settings.load(instance_folder).table(TABLE))


@dataclass(frozen=True)
class StoredBytes:
    """Bytes on disk in the uploads folder, by kind."""

    uploads: int
    modules: int


def stored_bytes(uploads_folder: Path) -> StoredBytes:
    """What the files Referee wrote in ``uploads_folder`` hold, by kind (other files are not counted)."""
    uploads = modules = 0
    try:
        entries = list(os.scandir(uploads_folder))
    except FileNotFoundError:
        return StoredBytes(0, 0)
    for entry in entries:
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            size = entry.stat(follow_symlinks=False).st_size
        except FileNotFoundError:  # removed meanwhile
            continue
        if entry.name.startswith(UPLOAD_PREFIX):
            uploads += size
        elif entry.name.startswith(MODULE_PREFIX):
            modules += size
    return StoredBytes(uploads, modules)


def is_generated(name: str) -> bool:
    """True for a file name Referee gives what it keeps (only those are ever counted or cleaned)."""
    return name.startswith((UPLOAD_PREFIX, MODULE_PREFIX))
