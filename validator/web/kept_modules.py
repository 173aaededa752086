"""VASSAL modules kept in the instance, each identified by the SHA-256 of its bytes, for later uploads.

A module (``.vmod``) is large and changes rarely, so a club uploads it once:
later checks pick the kept module instead of sending it again.  A kept module
is identified by the SHA-256 of the bytes that were read (the ``.vmod``, or a
bare ``buildFile``/``buildFile.xml`` uploaded on its own, as the command
line's ``--module`` takes it), never by the name and version it gives
itself: anyone can upload a file that claims the sample module's name, and
a later honest upload must still be checked against its own bytes.  Two
modules with the same name and version but other bytes are two kept
modules, listed side by side with their hashes so that a user can tell them
apart; a check picks one by its hash.  Beside the hash a module shows its
name and version (from its ``buildFile``, else its ``moduledata``: the pair
a game's mapping is checked against) and its build file's own hash.

The uploaded part is copied in chunks, counted against
:data:`MAX_MODULE_BYTES`, into the instance's ``uploads`` folder under a
generated name (``module-<random>.vmod``, or ``module-<random>.buildFile.xml``
for a bare build file; written exclusively, readable by the owner only); it
is never extracted.  A .vmod is then read through the VASSAL reader's capped
zip :class:`Archive` (every entry streamed under its cap), a bare build file
under the same cap as a module's entry, and both by :func:`parse_build_file`:
name, version and roster sides.

The row is written only together with a successful check's record (see
:mod:`validator.web.vassal_checks`): a refused upload keeps nothing.  When a
module with the same bytes is already kept, the kept copy is used and the new
file removed, and the report page says so.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO

from validator import store
from validator.errors import InputError
from validator.limits import DEFAULT_LIMITS, Limits
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
ZIP_SIGNATURE = b"PK"
SHORT_HASH = 12  # hex digits shown where a list must tell modules apart
# A kept module as the form and GET /api/modules pick it: its SHA-256, 64 hex digits (ASCII only).
SHA256_TEXT = re.compile(r"[0-9a-f]{64}")


class ModuleTooLarge(InputError):
    """The module part is larger than :data:`MAX_MODULE_BYTES`."""


@dataclass(frozen=True)
class ModuleFacts:
    """What a module says about itself (name, version, roster), and the hash of its build file."""

    name: str
    version: str
    sides: tuple[str, ...]
    build_file_sha256: str | None = None


@dataclass(frozen=True)
class KeptModule:
    id: int
    sha256: str
    name: str
    version: str
    build_file_sha256: str | None  # None: kept before Referee recorded it
    file: str
    source_name: str
    size: int
    sides: tuple[str, ...]
    kept_at: str

    @property
    def label(self) -> str:
        """``Tito (sample), version 1.0`` as pages and messages name it."""
        return f"{self.name}, version {self.version}" if self.version else f"{self.name} (no version given)"

    @property
    def short_hash(self) -> str:
        return self.sha256[:SHORT_HASH]

    @property
    def is_bare_build_file(self) -> bool:
        """True when the upload was a build file on its own, not a .vmod (the two hashes are then one)."""
        return self.build_file_sha256 == self.sha256

    @property
    def listed_label(self) -> str:
        """The label with what tells it from a module of the same name: ``..., version 1.0, SHA-256 3f2a...``."""
        if self.is_bare_build_file:
            kind = ", a bare build file"
        elif self.build_file_sha256:
            kind = f", build file SHA-256 {self.build_file_sha256[:SHORT_HASH]}…"
        else:
            kind = ""
        return (f"{self.label}, SHA-256 {self.short_hash}…{kind}, uploaded as “{self.source_name}” "
                f"on {self.kept_at}")


@dataclass
class ModuleFile:
    """A module part copied to the uploads folder, not yet kept."""

    path: Path
    sha256: str
    size: int


def copy_upload(stream: BinaryIO, folder: Path) -> ModuleFile:
    """Copy the part in chunks to a new generated file; :class:`ModuleTooLarge` past the cap (nothing left).

    The file is named for what its first bytes show: a zip (``.vmod``), or
    anything else, which can only be a bare build file.
    """
    first = stream.read(COPY_CHUNK_BYTES)
    suffix = ".vmod" if first.startswith(ZIP_SIGNATURE) or not first else ".buildFile.xml"
    path = folder / f"module-{secrets.token_urlsafe(16)}{suffix}"
    digest, size = hashlib.sha256(), 0
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            chunk = first
            while chunk:
                size += len(chunk)
                if size > MAX_MODULE_BYTES:
                    raise ModuleTooLarge("the module", f"larger than {MAX_MODULE_BYTES:,} bytes")
                digest.update(chunk)
                handle.write(chunk)
                chunk = stream.read(COPY_CHUNK_BYTES)
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    return ModuleFile(path, digest.hexdigest(), size)


def read_facts(path: Path, display_name: str, limits: Limits = DEFAULT_LIMITS) -> ModuleFacts:
    """Name, version, roster sides and build file hash of the module at ``path``; errors name ``display_name``.

    ``path`` is a .vmod or a bare build file, as ``referee check --module``
    takes either.  Raises :class:`VassalFormatError` for anything that is not
    a readable module, and for a module that names itself nowhere (no game's
    mapping could be matched to it).
    """
    with path.open("rb") as handle:
        is_zip = handle.read(len(ZIP_SIGNATURE)) == ZIP_SIGNATURE
    if not is_zip:
        data = _bare_build_file(path, display_name, limits)
        module = parse_build_file(data, source=display_name, limits=limits)
        if not module.name:
            raise VassalFormatError(display_name, "the build file gives the module no name, so it cannot be matched "
                                                  "to a game's mapping")
        return ModuleFacts(module.name, module.version or "", roster_sides(data, display_name, None),
                           hashlib.sha256(data).hexdigest())
    with Archive(path, name=display_name, limits=limits) as archive:
        entry = next((name for name in BUILD_FILES if archive.has(name)), None)
        if entry is None:
            raise VassalFormatError(display_name,
                                    "has no buildFile.xml or buildFile entry, so it is not a VASSAL module")
        data = archive.read(entry)
        module = parse_build_file(data, source=display_name, entry=entry, archive=archive, limits=limits)
        metadata = None
        if not (module.name and module.version) and archive.has("moduledata"):
            metadata = parse_metadata(archive.read("moduledata", cap=METADATA_CAP), source=display_name,
                                      entry="moduledata")
    name = module.name or (metadata.name if metadata else None)
    version = module.version or (metadata.version if metadata else None)
    if not name:
        raise VassalFormatError(display_name, "the module gives no name in its buildFile or moduledata, so it cannot "
                                              "be matched to a game's mapping", entry=entry)
    return ModuleFacts(name, version or "", roster_sides(data, display_name, entry), hashlib.sha256(data).hexdigest())


def _bare_build_file(path: Path, display_name: str, limits: Limits) -> bytes:
    """A bare build file's bytes, read whole under the cap of one XML entry; refusals name ``display_name``."""
    cap = limits.xml_bytes
    with path.open("rb") as handle:
        data = handle.read(cap + 1)
    if len(data) > cap:
        raise VassalFormatError(display_name, f"the build file holds {len(data):,} bytes or more, "
                                              f"{limits.beyond('xml_bytes')}")
    return data


def roster_sides(build_file: bytes, display_name: str, entry: str | None) -> tuple[str, ...]:
    """The sides the module's player roster lists, in its order (none when it has no roster)."""
    root = parse_xml(build_file, source=display_name, entry=entry)
    sides: list[str] = []
    for roster in root.iter(ROSTER):
        for element in roster.iter("entry"):
            side = (element.text or "").strip()
            if side and side not in sides and len(side) <= LONGEST_SIDE:
                sides.append(side)
    return tuple(sides)


def _kept(row: store.Row) -> KeptModule:
    return KeptModule(row["id"], row["sha256"], row["name"], row["version"], row["build_file_sha256"], row["file"],
                      row["source_name"], row["size"], tuple(json.loads(row["sides"])), row["kept_at"])


def find(connection: store.Connection, module_id: int) -> KeptModule | None:
    row = connection.execute("SELECT * FROM vassal_module WHERE id = ?", (module_id,)).fetchone()
    return _kept(row) if row is not None else None


def find_by_hash(connection: store.Connection, sha256: str) -> KeptModule | None:
    """The module kept with exactly these bytes, or None."""
    row = connection.execute("SELECT * FROM vassal_module WHERE sha256 = ?", (sha256,)).fetchone()
    return _kept(row) if row is not None else None


def namesakes(connection: store.Connection, facts: ModuleFacts, sha256: str) -> list[KeptModule]:
    """Kept modules that give the same name and version as ``facts`` but hold other bytes, oldest first."""
    rows = connection.execute(
        "SELECT * FROM vassal_module WHERE name = ? AND version = ? AND sha256 != ? ORDER BY id",
        (facts.name, facts.version, sha256),
    ).fetchall()
    return [_kept(row) for row in rows]


def listing(connection: store.Connection) -> list[KeptModule]:
    """Every kept module, by name, then version, then the order they were kept in."""
    rows = connection.execute("SELECT * FROM vassal_module ORDER BY name, version, id").fetchall()
    return [_kept(row) for row in rows]


def keep(connection: store.Connection, facts: ModuleFacts, upload: ModuleFile, source_name: str) -> KeptModule:
    """Insert the row for a new module file (inside the caller's transaction); the kept module.

    When another upload kept the same bytes in the meantime, that one is
    returned and the caller removes its own file.
    """
    existing = find_by_hash(connection, upload.sha256)
    if existing is not None:
        return existing
    kept_at = datetime.now(UTC).isoformat(timespec="seconds")
    # The next number, computed inside the caller's write transaction (no lastrowid on PostgreSQL).
    module_id = connection.execute(
        "INSERT INTO vassal_module (id, sha256, name, version, build_file_sha256, file, source_name, size, sides,"
        " kept_at) SELECT COALESCE(MAX(id), 0) + 1, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM vassal_module RETURNING id",
        (upload.sha256, facts.name, facts.version, facts.build_file_sha256, upload.path.name, source_name,
         upload.size, json.dumps(list(facts.sides), ensure_ascii=False), kept_at),
    ).fetchone()[0]
    return KeptModule(module_id, upload.sha256, facts.name, facts.version, facts.build_file_sha256,
                      upload.path.name, source_name, upload.size, facts.sides, kept_at)


def public_json(module: KeptModule) -> dict:
    """A kept module as the API lists it (never its file name on the server); ``sha256`` picks it."""
    return {"sha256": module.sha256, "id": module.id, "name": module.name, "version": module.version,
            "build_file_sha256": module.build_file_sha256, "bare_build_file": module.is_bare_build_file,
            "sides": list(module.sides), "size": module.size, "kept_at": module.kept_at,
            "uploaded_as": module.source_name}
