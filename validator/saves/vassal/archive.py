"""Reading entries of a VASSAL zip (.vsav, .vlog, .vmod) without trusting it.

Nothing is extracted to disk and ``ZipFile.read`` is never used: each entry is
streamed in chunks and the bytes actually produced are counted against a cap,
so a lying header or a deflate bomb stops at the cap: ``entry_bytes`` for an
entry read as a stream (the ``savedGame``), ``xml_bytes`` for one read whole
to be parsed (a buildFile), or a caller's own fixed cap for small entries.  The archive is refused
outright when it holds duplicate names, path-like names or encrypted entries:
such files are not what VASSAL writes, and a name that means different things
to different tools is how extraction bugs start.
"""

from __future__ import annotations

import lzma
import os
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from validator.limits import DEFAULT_LIMITS, Limits

from .errors import VassalFormatError

_READ_ERRORS = (zipfile.BadZipFile, zlib.error, lzma.LZMAError, EOFError, NotImplementedError, OSError, ValueError)


def _name_problem(name: str) -> str | None:
    if not name:
        return "has an entry with an empty name"
    if "\\" in name:
        return f"has an entry name with a backslash ({name!r})"
    if "\x00" in name:
        return f"has an entry name with a NUL character ({name!r})"
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        return f"has an absolute entry name ({name!r})"
    if ".." in name.split("/"):
        return f"has an entry name that climbs out of the archive ({name!r})"
    return None


class Archive:
    """An open, checked VASSAL zip; use as a context manager."""

    def __init__(self, source: str | os.PathLike[str] | BinaryIO, *, limits: Limits = DEFAULT_LIMITS,
                 name: str | None = None) -> None:
        self.limits = limits
        self.source = name or (
            str(source) if isinstance(source, (str, os.PathLike)) else getattr(source, "name", "<upload>")
        )
        try:
            self._zip = zipfile.ZipFile(source)
        except FileNotFoundError:
            raise VassalFormatError(self.source, "the file does not exist") from None
        except IsADirectoryError:
            raise VassalFormatError(self.source, "is a directory, not a VASSAL file") from None
        except (zipfile.BadZipFile, EOFError, ValueError, OSError) as error:
            raise VassalFormatError(
                self.source, f"is not a readable zip archive (truncated or corrupt: {error})"
            ) from None
        except NotImplementedError as error:  # e.g. a "version needed to extract" no zip tool writes
            raise VassalFormatError(
                self.source, f"is a zip archive that uses a feature VASSAL never writes ({error})"
            ) from None
        try:
            self._entries = self._check_entries()
        except VassalFormatError:
            self._zip.close()
            raise

    def _check_entries(self) -> dict[str, zipfile.ZipInfo]:
        entries: dict[str, zipfile.ZipInfo] = {}
        for info in self._zip.infolist():
            name = info.filename
            problem = _name_problem(name)
            if problem:
                raise VassalFormatError(self.source, problem)
            if name in entries:
                raise VassalFormatError(self.source, f"has two entries named {name!r}", entry=name)
            if info.flag_bits & 0x1:
                raise VassalFormatError(self.source, "the entry is encrypted, which VASSAL never does", entry=name)
            entries[name] = info
        return entries

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *_exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self._zip.close()

    @property
    def names(self) -> list[str]:
        return list(self._entries)

    def has(self, name: str) -> bool:
        return name in self._entries

    def iter_chunks(self, name: str, *, cap: int | None = None) -> Iterator[bytes]:
        """The entry's bytes in chunks, failing as soon as more than the cap were produced.

        The cap is ``cap`` when given (a fixed cap for a small entry), else
        the ``entry_bytes`` limit, which the refusal then names.
        """
        if cap is not None:
            return self._chunks(name, cap, None)
        return self._chunks(name, self.limits.entry_bytes, "entry_bytes")

    def read(self, name: str, *, cap: int | None = None) -> bytes:
        """The whole entry, for entries parsed whole (XML, metadata): under ``cap``, else the ``xml_bytes`` limit."""
        if cap is not None:
            return b"".join(self._chunks(name, cap, None))
        return b"".join(self._chunks(name, self.limits.xml_bytes, "xml_bytes"))

    def _chunks(self, name: str, cap: int, limit: str | None) -> Iterator[bytes]:
        info = self._entries.get(name)
        if info is None:
            raise VassalFormatError(self.source, "the archive has no such entry", entry=name)
        beyond = self.limits.beyond(limit) if limit else f"more than the {cap:,} bytes such an entry may hold"
        if info.file_size > cap:
            raise VassalFormatError(self.source, f"the entry declares {info.file_size:,} bytes, {beyond}", entry=name)
        produced = 0
        try:
            with self._zip.open(info) as stream:
                while True:
                    chunk = stream.read(self.limits.chunk_bytes)
                    if not chunk:
                        return
                    produced += len(chunk)
                    if produced > cap:
                        raise VassalFormatError(self.source, f"the entry expands to {produced:,} bytes or more, "
                                                             f"{beyond}", entry=name)
                    yield chunk
        except VassalFormatError:
            raise
        except _READ_ERRORS as error:
            raise VassalFormatError(
                self.source, f"the entry is truncated or corrupt ({error or type(error).__name__})", entry=name
            ) from None

    def read_head(self, name: str, size: int) -> bytes:
        """At most ``size`` leading bytes of an entry (image headers), never inflating more."""
        out = bytearray()
        try:
            with self._zip.open(self._entries[name]) as stream:
                while len(out) < size:
                    chunk = stream.read(min(self.limits.chunk_bytes, size - len(out)))
                    if not chunk:
                        break
                    out += chunk
        except _READ_ERRORS as error:
            raise VassalFormatError(self.source, f"the entry is truncated or corrupt ({error})", entry=name) from None
        return bytes(out)


def read_file_capped(path: str | os.PathLike[str], limits: Limits) -> bytes:
    """A plain file on disk (a bare buildFile, parsed whole), refused when larger than ``xml_bytes``."""
    source = str(path)
    cap = limits.xml_bytes
    try:
        with Path(path).open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size  # read what is there and one byte more, not the cap
            data = handle.read(min(size, cap) + 1)
    except FileNotFoundError:
        raise VassalFormatError(source, "the file does not exist") from None
    except OSError as error:
        raise VassalFormatError(source, f"cannot be read ({error.strerror or error})") from None
    if len(data) > cap:
        raise VassalFormatError(source, f"the file holds {len(data):,} bytes or more, {limits.beyond('xml_bytes')}")
    return data
