"""A game's case index as last read from its ``cases.toml``, kept in the instance folder.

Every report states the game's coverage, which needs the case index; reading
``cases.toml`` costs a TOML parser's import, a parse and a case number's
parse per case in every process, for a file that changes only with the game
(issue 14's lean start-up).  An entry holds the rows the caller made of the
file (for validator.games: each case's number as fields, and its title, in
case order), named by the SHA-256 of the file's bytes, of the code that
reads case numbers, this cache's format and the interpreter: an edited file
or a changed reading is read anew, and an entry is never trusted for other
bytes.  An entry that is missing, damaged, of another shape or cannot be
written is read from the TOML again, never an error.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
from collections.abc import Callable
from pathlib import Path

from validator.digests import sha256

FORMAT = 2  # raise it when the layout of an entry changes
FOLDER_NAME = "case-indexes"
SUFFIX = ".marshal"

Rows = list[tuple]


def rows(data: bytes, parse: Callable[[bytes], Rows], valid: Callable[[object], bool], code: bytes) -> Rows:
    """The rows of a ``cases.toml``'s bytes: the instance's entry, or ``parse(data)``, then kept.

    ``valid`` tells a row of the caller's shape; ``code`` is the source that
    ``parse`` runs, so an entry written by other code is never read.
    """
    path = entry_path(data, code)
    kept = _load(path, valid) if path is not None else None
    if kept is not None:
        return kept
    read = parse(data)
    if path is not None:
        _store(path, read)
    return read


def entry_path(data: bytes, code: bytes) -> Path | None:
    """Where the entry of these bytes is kept, or None without an instance folder (a check creates none)."""
    from validator import instance

    home = instance.resolved_folder()
    if not home.is_dir():
        return None
    entries = home / FOLDER_NAME
    digest = sha256(f"{FORMAT} {sys.implementation.cache_tag}\n".encode(), total_bytes=len(data) + len(code) + 64)
    digest.update(len(code).to_bytes(8, "big") + code)
    digest.update(data)
    return entries / (digest.hexdigest() + SUFFIX)


def _load(path: Path, valid: Callable[[object], bool]) -> Rows | None:
    try:
        kept = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None  # absent or damaged: read the TOML again
    if not isinstance(kept, list) or not all(map(valid, kept)):
        return None
    return kept


def _store(path: Path, read: Rows) -> None:
    """Written to a file of this process and renamed into place, so no reader sees half an entry."""
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(marshal.dumps(list(read)))
        os.replace(partial, path)
    except (OSError, ValueError):  # a full disk, a read-only folder, a value marshal cannot keep: read again
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
