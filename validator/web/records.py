"""Arbitration records: every check made through the web, kept for good.

A record is a row of the ``report`` table and the uploaded files in the
instance's ``uploads`` folder.  The files get generated names
(``report-<id>.save.xml``, ``report-<id>.map.xml``); the user's file name is
kept only as text to show.  The row holds the report JSON and the picture
drawn at check time, so a report page shows exactly what was judged and
never runs a check, or any plugin code, again.  The save and map bytes are
kept so that an arbiter can download or re-check them by hand.

A record of a VASSAL save (``report-<id>.save.vsav`` or ``.vlog``) also
names the kept module it was read with (its id, name and version, and in
``module_sha256`` the hash of the bytes read: see ``validator.web.kept_modules``),
the viewer side whose view was checked (``None``: a spectator's) and the
export's note on what was skipped.  The
module row, when the check brought a new module, is written in the same
transaction as the report row (``before_insert``).

Every record also keeps what it was checked with (the report JSON's
``checked_with``, see :mod:`validator.provenance`) in columns of its own: the
Referee and plugin versions and the SHA-256 of the map, mapping and module.
A record stored before Referee recorded them has no versions (and, for a
VASSAL save, only its kept module's hash).

Files are written first (exclusively, readable by the owner only) and the
row second, in a ``BEGIN IMMEDIATE`` transaction; if the row cannot be
written the files are removed again, so no half record is left.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import secrets
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from validator import privacy, store
from validator.provenance import FIELDS as PROVENANCE_FIELDS
from validator.provenance import Provenance

UPLOADS_FOLDER = "uploads"
ID_BYTES = 16  # 22 URL-safe characters
_ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{22}$")


@dataclass(frozen=True)
class VassalFacts:
    """What a VASSAL check used: the kept module, the viewer, and the export's note."""

    module_id: int | None = None
    module_name: str | None = None
    module_version: str | None = None
    viewer: str | None = None
    export_note: str | None = None


@dataclass(frozen=True)
class Record:
    id: str
    game: str
    created_at: str
    source_name: str
    map_name: str | None
    map_origin: str | None
    report: dict
    save_file: str
    map_file: str | None
    picture: str | None
    picture_note: str | None
    module_id: int | None = None
    module_name: str | None = None  # set for VASSAL saves only
    module_version: str | None = None
    viewer: str | None = None  # the roster side whose view was checked; None for a spectator
    export_note: str | None = None
    provenance: Provenance = Provenance(None, None)  # all None: stored before Referee recorded it
    uploads_removed_at: str | None = None  # when its uploads were removed (validator.retention); None while kept

    @property
    def is_vassal(self) -> bool:
        return self.module_name is not None

    @property
    def provenance_recorded(self) -> bool:
        """False for a record stored before Referee recorded what each check was made with."""
        return self.provenance.referee_version is not None


def is_report_id(text: str) -> bool:
    """True for text shaped like an id this module generates (checked before any query)."""
    return bool(_ID_PATTERN.match(text))


def uploads_folder(instance_path: str | Path) -> Path:
    folder = Path(instance_path) / UPLOADS_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def create(
    connection: sqlite3.Connection,
    instance_path: str | Path,
    *,
    game: str,
    source_name: str,
    report: dict,
    save_data: bytes,
    map_name: str | None = None,
    map_origin: str | None = None,
    map_data: bytes | None = None,
    picture: str | None = None,
    picture_note: str | None = None,
    save_suffix: str = "xml",
    before_insert: Callable[[sqlite3.Connection], VassalFacts] | None = None,
) -> Record:
    """Store the uploaded bytes under generated names and the report row; the new record.

    ``before_insert`` runs inside the transaction, before the report row is
    written, and gives the VASSAL facts to record (it keeps a new module).
    """
    folder = uploads_folder(instance_path)
    report = privacy.scrubbed(report)  # no e-mail address from the upload is shown on a page or in JSON
    report_id = secrets.token_urlsafe(ID_BYTES)
    written: list[Path] = []
    try:
        save_file = _write_new(folder, f"report-{report_id}.save.{save_suffix}", save_data, written)
        map_file = (
            _write_new(folder, f"report-{report_id}.map.xml", map_data, written)
            if map_data is not None
            else None
        )
        facts = VassalFacts()
        record = Record(
            id=report_id,
            game=game,
            created_at=datetime.now(UTC).isoformat(timespec="seconds"),
            source_name=source_name,
            map_name=map_name,
            map_origin=map_origin,
            report=report,
            save_file=save_file,
            map_file=map_file,
            picture=picture,
            picture_note=picture_note,
        )
        with store.write_transaction(connection):
            taken = connection.execute("SELECT 1 FROM report WHERE id = ?", (report_id,)).fetchone()
            if taken:  # 2**-128: never in practice, but never overwrite a record either
                raise FileExistsError(f"report id {report_id} is taken")
            if before_insert is not None:
                facts = before_insert(connection)
            record = dataclasses.replace(
                record, module_id=facts.module_id, module_name=facts.module_name,
                module_version=facts.module_version, viewer=facts.viewer, export_note=facts.export_note,
                provenance=_provenance_of(report),
            )
            connection.execute(
                "INSERT INTO report (id, game, created_at, source_name, map_name, map_origin, report,"
                " save_file, map_file, picture, picture_note, module_id, module_name, module_version, viewer,"
                f" export_note, {', '.join(PROVENANCE_FIELDS)})"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    record.id,
                    record.game,
                    record.created_at,
                    record.source_name,
                    record.map_name,
                    record.map_origin,
                    json.dumps(report, ensure_ascii=False),
                    record.save_file,
                    record.map_file,
                    record.picture,
                    record.picture_note,
                    record.module_id,
                    record.module_name,
                    record.module_version,
                    record.viewer,
                    record.export_note,
                    *(getattr(record.provenance, name) for name in PROVENANCE_FIELDS),
                ),
            )
    except BaseException as error:
        for path in written:
            path.unlink(missing_ok=True)
        if isinstance(error, store.UnusableDatabase):  # a 503 saying the report was not stored, not a 400
            from validator.web.errors import NotStored

            raise NotStored("the report of this check") from error
        raise
    return record


def load(connection: sqlite3.Connection, report_id: str) -> Record | None:
    """The record with this id, or None (also for text that cannot be an id)."""
    if not is_report_id(report_id):
        return None
    row = connection.execute("SELECT * FROM report WHERE id = ?", (report_id,)).fetchone()
    if row is None:
        return None
    return Record(
        id=row["id"],
        game=row["game"],
        created_at=row["created_at"],
        source_name=row["source_name"],
        map_name=row["map_name"],
        map_origin=row["map_origin"],
        report=json.loads(row["report"]),
        save_file=row["save_file"],
        map_file=row["map_file"],
        picture=row["picture"],
        picture_note=row["picture_note"],
        module_id=row["module_id"],
        module_name=row["module_name"],
        module_version=row["module_version"],
        viewer=row["viewer"],
        export_note=row["export_note"],
        provenance=Provenance(**{name: row[name] for name in PROVENANCE_FIELDS}),
        uploads_removed_at=row["uploads_removed_at"],
    )


def _provenance_of(report: dict) -> Provenance:
    """What the report JSON says it was checked with (``checked_with``); all None when it does not say."""
    checked = report.get("checked_with")
    if not isinstance(checked, dict):
        return Provenance(None, None)
    return Provenance(**{name: checked.get(name) for name in PROVENANCE_FIELDS})


def _write_new(folder: Path, name: str, data: bytes, written: list[Path]) -> str:
    path = folder / name
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    written.append(path)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(data)
    return name
