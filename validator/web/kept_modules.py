"""VASSAL modules kept in the instance, one per name and version, for later uploads.

A module (``.vmod``) is large and changes rarely, so a club uploads it once:
later checks name the kept module instead of sending it again.  A module is
kept by the name and version its ``buildFile`` gives (else its
``moduledata``), exactly the pair a game's mapping is checked against.

The uploaded part is copied in chunks, counted against
:data:`MAX_MODULE_BYTES`, into the instance's ``uploads`` folder under a
generated name (``module-<random>.vmod``, written exclusively, readable by the
owner only); it is never extracted.  It is then read through the VASSAL
reader's capped zip :class:`Archive` (every entry streamed under its cap) and
:func:`parse_build_file`: its name, version and roster sides.

The row is written only together with a successful check's record (see
:mod:`validator.web.vassal_checks`): a refused upload keeps nothing.  When a
module of the same name and version is already kept, the kept copy is used
and the new file removed, and the report page says so.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO

from validator.errors import InputError
from validator.saves.vassal import VassalFormatError
from validator.saves.vassal.archive import Archive
from validator.saves.vassal.metadata import parse_metadata
from validator.saves.vassal.module import parse_build_file
from validator.saves.vassal.xmlparser import parse_xml

MAX_MODULE_BYTES = 64 * 1024 * 1024
COPY_CHUNK_BYTES = 1024 * 1024
ROSTER = "VASSAL.build.module.PlayerRoster"
LONGEST_SIDE = 100
BUILD_FILES = ("buildFile.xml", "buildFile")
METADATA_CAP = 1024 * 1024


class ModuleTooLarge(InputError):
    """The module part is larger than :data:`MAX_MODULE_BYTES`."""


@dataclass(frozen=True)
class ModuleFacts:
    """What a module says about itself: what it is kept by, and its roster."""

    name: str
    version: str
    sides: tuple[str, ...]


@dataclass(frozen=True)
class KeptModule:
    id: int
    name: str
    version: str
    file: str
    source_name: str
    sha256: str
    size: int
    sides: tuple[str, ...]
    kept_at: str

    @property
    def label(self) -> str:
        """``Tito (sample), version 1.0`` as pages and messages name it."""
        return f"{self.name}, version {self.version}" if self.version else f"{self.name} (no version given)"


@dataclass
class ModuleFile:
    """A module part copied to the uploads folder, not yet kept."""

    path: Path
    sha256: str
    size: int


def copy_upload(stream: BinaryIO, folder: Path) -> ModuleFile:
    """Copy the part in chunks to a new generated file; :class:`ModuleTooLarge` past the cap (nothing left)."""
    path = folder / f"module-{secrets.token_urlsafe(16)}.vmod"
    digest, size = hashlib.sha256(), 0
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            while chunk := stream.read(COPY_CHUNK_BYTES):
                size += len(chunk)
                if size > MAX_MODULE_BYTES:
                    raise ModuleTooLarge("the module", f"larger than {MAX_MODULE_BYTES:,} bytes")
                digest.update(chunk)
                handle.write(chunk)
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    return ModuleFile(path, digest.hexdigest(), size)


def read_facts(path: Path, display_name: str) -> ModuleFacts:
    """Name, version and roster sides of the module at ``path``; errors name ``display_name``.

    Raises :class:`VassalFormatError` for anything that is not a readable
    module, and for a module that names itself nowhere (it could not be kept).
    """
    with Archive(path, name=display_name) as archive:
        entry = next((name for name in BUILD_FILES if archive.has(name)), None)
        if entry is None:
            raise VassalFormatError(display_name,
                                    "has no buildFile.xml or buildFile entry, so it is not a VASSAL module")
        data = archive.read(entry)
        module = parse_build_file(data, source=display_name, entry=entry, archive=archive)
        metadata = None
        if not (module.name and module.version) and archive.has("moduledata"):
            metadata = parse_metadata(archive.read("moduledata", cap=METADATA_CAP), source=display_name,
                                      entry="moduledata")
    name = module.name or (metadata.name if metadata else None)
    version = module.version or (metadata.version if metadata else None)
    if not name:
        raise VassalFormatError(display_name, "the module gives no name in its buildFile or moduledata, so it cannot "
                                              "be matched to a game's mapping", entry=entry)
    return ModuleFacts(name, version or "", roster_sides(data, display_name, entry))


def roster_sides(build_file: bytes, display_name: str, entry: str) -> tuple[str, ...]:
    """The sides the module's player roster lists, in its order (none when it has no roster)."""
    root = parse_xml(build_file, source=display_name, entry=entry)
    sides: list[str] = []
    for roster in root.iter(ROSTER):
        for element in roster.iter("entry"):
            side = (element.text or "").strip()
            if side and side not in sides and len(side) <= LONGEST_SIDE:
                sides.append(side)
    return tuple(sides)


def _kept(row: sqlite3.Row) -> KeptModule:
    return KeptModule(row["id"], row["name"], row["version"], row["file"], row["source_name"], row["sha256"],
                      row["size"], tuple(json.loads(row["sides"])), row["kept_at"])


def find(connection: sqlite3.Connection, module_id: int) -> KeptModule | None:
    row = connection.execute("SELECT * FROM vassal_module WHERE id = ?", (module_id,)).fetchone()
    return _kept(row) if row is not None else None


def find_by_name(connection: sqlite3.Connection, name: str, version: str) -> KeptModule | None:
    row = connection.execute("SELECT * FROM vassal_module WHERE name = ? AND version = ?", (name, version)).fetchone()
    return _kept(row) if row is not None else None


def listing(connection: sqlite3.Connection) -> list[KeptModule]:
    """Every kept module, by name then version."""
    rows = connection.execute("SELECT * FROM vassal_module ORDER BY name, version, id").fetchall()
    return [_kept(row) for row in rows]


def keep(connection: sqlite3.Connection, facts: ModuleFacts, upload: ModuleFile, source_name: str) -> KeptModule:
    """Insert the row for a new module file (inside the caller's transaction); the kept module.

    When another upload kept the same name and version in the meantime, that
    one is returned and the caller removes its own file.
    """
    existing = find_by_name(connection, facts.name, facts.version)
    if existing is not None:
        return existing
    kept_at = datetime.now(UTC).isoformat(timespec="seconds")
    cursor = connection.execute(
        "INSERT INTO vassal_module (name, version, file, source_name, sha256, size, sides, kept_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (facts.name, facts.version, upload.path.name, source_name, upload.sha256, upload.size,
         json.dumps(list(facts.sides), ensure_ascii=False), kept_at),
    )
    return KeptModule(cursor.lastrowid, facts.name, facts.version, upload.path.name, source_name, upload.sha256,
                      upload.size, facts.sides, kept_at)


def public_json(module: KeptModule) -> dict:
    """A kept module as the API lists it (never its file name on the server)."""
    return {"id": module.id, "name": module.name, "version": module.version, "sides": list(module.sides),
            "sha256": module.sha256, "size": module.size, "kept_at": module.kept_at,
            "uploaded_as": module.source_name}
