"""A game's case index as last read from its ``cases.toml``, kept in the instance folder.

Every report states the game's coverage, which needs the case index; reading
``cases.toml`` costs a TOML parser's import and a parse in every process, for
a file that changes only with the game (issue 14's lean start-up).  An entry
holds the file's (number, title) pairs, named by the SHA-256 of the file's
bytes, this cache's format and the interpreter, so an edited file is read
anew and an entry is never trusted for other bytes.  An entry that is
missing, damaged or cannot be written is read from the TOML again, never an
error; the numbers are parsed and checked on every load as before.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
from collections.abc import Callable
from pathlib import Path

from validator.digests import sha256

FORMAT = 1  # raise it when the layout of an entry changes
FOLDER_NAME = "case-indexes"
SUFFIX = ".marshal"

Pairs = list[tuple[object, object]]


def pairs(data: bytes, parse: Callable[[bytes], Pairs]) -> Pairs:
    """The (number, title) pairs of a ``cases.toml``'s bytes: the instance's entry, or ``parse(data)``, then kept."""
    path = entry_path(data)
    kept = _load(path) if path is not None else None
    if kept is not None:
        return kept
    read = parse(data)
    if path is not None:
        _store(path, read)
    return read


def entry_path(data: bytes) -> Path | None:
    """Where the entry of these bytes is kept, or None without an instance folder (a check creates none)."""
    from validator import instance

    home = instance.resolved_folder()
    if not home.is_dir():
        return None
    entries = home / FOLDER_NAME
    digest = sha256(f"{FORMAT} {sys.implementation.cache_tag}\n".encode(), total_bytes=len(data) + 64)
    digest.update(data)
    return entries / (digest.hexdigest() + SUFFIX)


def _load(path: Path) -> Pairs | None:
    try:
        kept = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None  # absent or damaged: read the TOML again
    if not isinstance(kept, list) or not all(isinstance(pair, tuple) and len(pair) == 2 for pair in kept):
        return None
    return kept


def _store(path: Path, read: Pairs) -> None:
    """Written to a file of this process and renamed into place, so no reader sees half an entry."""
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(marshal.dumps([tuple(pair) for pair in read]))
        os.replace(partial, path)
    except (OSError, ValueError):  # a full disk, a read-only folder, a value marshal cannot keep: read again
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
