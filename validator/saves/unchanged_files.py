"""Reading a file again only when it may have changed: for map files many saves share.

A club checks save after save against one map of megabytes; reading it for
every save, only to find the same bytes, costs more than the checks on a
small save.  So the bytes are kept with the file's stat fingerprint (device,
inode, size, modification and change times) and given back while the
fingerprint holds.

Like git's index, a fingerprint is trusted only for a file whose last change
came well before we read it.  A file rewritten within its file system's
timestamp granularity of our read could keep the same times and size while
its bytes differ; such a "racy" file is read again every time until it has
aged past :data:`RACY_NANOSECONDS`.  The change time is set by the kernel on
every write and cannot be set back by tools that preserve modification times.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from validator.recently_used import RecentlyUsed

RACY_NANOSECONDS = 2_000_000_000  # FAT's two seconds: the coarsest timestamps in common use
CACHE_SIZE = 8

_CACHE: RecentlyUsed[Path, tuple[tuple[int, ...], int, bytes]] = RecentlyUsed(CACHE_SIZE)


def read_unless_unchanged(path: Path, read: Callable[[Path], bytes]) -> bytes:
    """``read(path)``, or the bytes it gave last time when the file cannot have changed since."""
    try:
        status = path.stat()
    except OSError:
        return read(path)  # the reader names the problem
    fingerprint = (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)
    cached = _CACHE.get(path)
    if cached is not None:
        known, read_at, data = cached
        if known == fingerprint and max(status.st_mtime_ns, status.st_ctime_ns) < read_at - RACY_NANOSECONDS:
            return data
    read_at = time.time_ns()
    data = read(path)
    _CACHE.put(path, (fingerprint, read_at, data))
    return data
