"""Every report records what it was checked with (issue 16.6), and the mapping's coverage of a VASSAL save (13.5).

The hashes are compared with SHA-256 taken here of the real files: the map
and mapping the Tito plugin ships, the module the test uploads.  The
migration test builds a database with the schema as it was before kept
modules were identified by hash (the first four migrations), with a kept
module and a report in it, and opens it with the current app.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import validator
from validator import store
from validator.provenance import FIELDS
from validator.web import create_app

from .conftest import html, report_id_of, text_of
from .test_check_vassal import ROOT, error_of, post, rows

sys.path.insert(0, str(ROOT / "tests" / "vassal"))

from modules import tito_game, tito_module, tito_save_from_position  # noqa: E402
from submitting import check_file  # noqa: E402

from .test_check_vassal import STATE  # noqa: E402
from .test_modules_by_hash import fake_module  # noqa: E402

EXAMPLES = ROOT / "examples" / "tito"
TITO_MAP = ROOT / "plugin" / "tito" / "maps" / "tito-map.xml"
TITO_MAPPING = ROOT / "plugin" / "tito" / "mappings" / "vassal-mapping.xml"
SCHEMA_BEFORE_HASHES = 4  # migrations up to the one that keeps modules by name and version
OLD_REPORT_ID = "A" * 22


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def instance(tmp_path) -> Path:
    return tmp_path / "instance"


@pytest.fixture
def client(instance):
    return create_app({"TESTING": True, "INSTANCE": str(instance), "SECRET_KEY": "test-only"}).test_client()


@pytest.fixture
def files(tmp_path):
    folder = tmp_path / "files"
    folder.mkdir()
    return tito_module(folder), tito_save_from_position(EXAMPLES / "overstacked.xml", folder / "overstacked.vsav")


def checked_with_block(page) -> dict[str, str]:
    block = page.xpath("//section[@id='checked-with']//dl")[0]
    return {text_of(item.xpath("dt")[0]): text_of(item.xpath("dd")[0]) for item in block.xpath("div")}


def test_a_referee_save_records_the_versions_and_its_map_and_no_mapping_or_module(client, instance):
    save = EXAMPLES / "overstacked.xml"
    response = post(client, save, game="")
    assert response.status_code == 303, error_of(response)
    report_id = report_id_of(response)

    expected = {"referee_version": validator.__version__, "plugin_version": validator.__version__,
                "map_sha256": sha256(TITO_MAP), "mapping_sha256": None, "module_sha256": None}
    assert client.get(f"/reports/{report_id}.json").get_json()["checked_with"] == expected
    [row] = rows(instance, "report")
    assert {name: row[name] for name in FIELDS} == expected
    assert json.loads(row["report"])["checked_with"] == expected

    shown = checked_with_block(html(client.get(f"/reports/{report_id}")))
    assert shown == {"Referee": validator.__version__, "Game plugin": f"tito {validator.__version__}",
                     "Map SHA-256": sha256(TITO_MAP), "Mapping SHA-256": "none read", "Module SHA-256": "none read"}


def test_a_vassal_save_records_the_hashes_of_the_map_mapping_and_module_it_was_read_with(client, instance, files):
    module, save = files
    response = post(client, save, module=module)
    assert response.status_code == 303, error_of(response)
    report_id = report_id_of(response)

    stored = client.get(f"/reports/{report_id}.json").get_json()
    expected = {"referee_version": validator.__version__, "plugin_version": validator.__version__,
                "map_sha256": sha256(TITO_MAP), "mapping_sha256": sha256(TITO_MAPPING), "module_sha256": sha256(module)}
    assert stored["checked_with"] == expected
    [row] = rows(instance, "report")
    assert {name: row[name] for name in FIELDS} == expected

    with zipfile.ZipFile(module) as archive:
        build_hash = hashlib.sha256(archive.read("buildFile.xml")).hexdigest()
    shown = checked_with_block(html(client.get(f"/reports/{report_id}")))
    assert shown["Mapping SHA-256"] == sha256(TITO_MAPPING) and shown["Module SHA-256"] == sha256(module)
    assert shown["Build file SHA-256"] == build_hash


def test_a_vassal_report_shows_what_the_mapping_resolved(client, files):
    module, save = files
    read = check_file(save, module, "tito").position
    response = post(client, save, module=module)
    assert response.status_code == 303, error_of(response)
    report_id = report_id_of(response)

    coverage = client.get(f"/reports/{report_id}.json").get_json()["mapping_coverage"]
    locations = {piece.location for piece in read.pieces}
    assert coverage == {"mapping": "plugin/tito/mappings/vassal-mapping.xml", "pieces": len(read.pieces),
                        "resolved": len(read.pieces), "locations_resolved": len(locations), "unresolved": 0,
                        "skipped": {}, "unresolved_pieces": [], "unresolved_locations": []}
    sentence = text_of(html(client.get(f"/reports/{report_id}")).xpath("//p[@class='mapping-coverage']")[0])
    assert sentence == (f"The module mapping plugin/tito/mappings/vassal-mapping.xml resolved {len(read.pieces)} "
                        f"of the {len(read.pieces)} pieces it read, at {len(locations)} locations. None was left "
                        "unresolved.")


def test_the_mapping_coverage_counts_what_the_viewer_skipped(client, files, tmp_path):
    module, _ = files
    from .test_check_vassal import _masked_german

    save = tito_game(tmp_path / "fog.vsav", [_masked_german(8, "Axis")], STATE)
    response = post(client, save, module=module)
    assert response.status_code == 303, error_of(response)
    report_id = report_id_of(response)
    coverage = client.get(f"/reports/{report_id}.json").get_json()["mapping_coverage"]
    assert (coverage["pieces"], coverage["resolved"], coverage["locations_resolved"]) == (1, 0, 0)
    assert coverage["skipped"] == {"masked from this viewer": 1}
    sentence = text_of(html(client.get(f"/reports/{report_id}")).xpath("//p[@class='mapping-coverage']")[0])
    assert "resolved 0 of the 1 piece it read, at 0 locations, and skipped 1 masked from this viewer." in sentence


def test_the_command_line_json_report_records_the_same_fields(files, tmp_path):
    module, save = files
    environment = dict(os.environ, REFEREE_INSTANCE=str(tmp_path / "cli-instance"))
    completed = subprocess.run(
        [sys.executable, "-m", "validator.cli", "check", str(save), "--module", str(module), "--game", "tito",
         "--format", "json"],
        capture_output=True, env=environment, cwd=ROOT, timeout=120,
    )
    assert completed.returncode == 1, completed.stderr  # the example is overstacked
    assert json.loads(completed.stdout)["checked_with"] == {
        "referee_version": validator.__version__, "plugin_version": validator.__version__,
        "map_sha256": sha256(TITO_MAP), "mapping_sha256": sha256(TITO_MAPPING), "module_sha256": sha256(module)}


def _old_database(instance: Path, module: Path) -> str:
    """An instance as the previous schema left it: one module kept by name and version, one report on it."""
    uploads = instance / "uploads"
    uploads.mkdir(parents=True)
    (uploads / "module-old.vmod").write_bytes(module.read_bytes())
    (uploads / f"report-{OLD_REPORT_ID}.save.vsav").write_bytes(b"kept as it was uploaded")
    connection = sqlite3.connect(instance / "referee.sqlite3", isolation_level=None)
    try:
        connection.execute("PRAGMA foreign_keys = ON")
        for script in store.MIGRATIONS[:SCHEMA_BEFORE_HASHES]:
            for statement in store._statements(store.script_for(script, store.SQLITE)):
                connection.execute(statement)
        connection.execute(f"PRAGMA user_version = {SCHEMA_BEFORE_HASHES}")
        connection.execute(
            "INSERT INTO vassal_module (name, version, file, source_name, sha256, size, sides, kept_at)"
            " VALUES (?, ?, 'module-old.vmod', 'tito-sample.vmod', ?, ?, '[]', '2026-01-02T03:04:05+00:00')",
            ("Tito (Referee sample module)", "1.0", sha256(module), module.stat().st_size),
        )
        report = {"game": "tito", "source": "old.vsav", "scenario": None, "turn": None, "phase": None,
                  "phasing": None, "legal": True, "violations": [], "findings": []}
        connection.execute(
            "INSERT INTO report (id, game, created_at, source_name, report, save_file, module_id, module_name,"
            " module_version, viewer, export_note) VALUES (?, 'tito', '2026-01-02T03:04:06+00:00', 'old.vsav', ?, ?,"
            " 1, 'Tito (Referee sample module)', '1.0', NULL, '23 pieces exported; none skipped.')",
            (OLD_REPORT_ID, json.dumps(report), f"report-{OLD_REPORT_ID}.save.vsav"),
        )
    finally:
        connection.close()
    return sha256(module)


def test_an_old_database_is_migrated_and_its_module_and_report_keep_working(instance, files, tmp_path):
    module, save = files
    kept_hash = _old_database(instance, module)
    client = create_app({"TESTING": True, "INSTANCE": str(instance), "SECRET_KEY": "test-only"}).test_client()

    old = client.get(f"/reports/{OLD_REPORT_ID}.json").get_json()
    assert old["checked_with"] == {"referee_version": None, "plugin_version": None, "map_sha256": None,
                                   "mapping_sha256": None, "module_sha256": kept_hash}
    assert old["vassal"]["module"]["sha256"] == kept_hash and old["vassal"]["module"]["build_file_sha256"] is None
    page = html(client.get(f"/reports/{OLD_REPORT_ID}"))
    assert "stored before Referee recorded" in text_of(page.xpath("//section[@id='checked-with']")[0])
    shown = checked_with_block(page)
    assert shown["Referee"] == "not recorded" and shown["Module SHA-256"] == kept_hash
    assert shown["Map SHA-256"] == "not recorded" and shown["Build file SHA-256"] == "not recorded"

    [listed] = client.get("/api/modules").get_json()["modules"]
    assert (listed["id"], listed["sha256"], listed["build_file_sha256"]) == (1, kept_hash, None)
    picked = post(client, save, kept_module=kept_hash)
    assert picked.status_code == 303, error_of(picked)
    assert client.get(f"/reports/{report_id_of(picked)}.json").get_json()["checked_with"]["module_sha256"] == kept_hash

    assert post(client, save, module=module).status_code == 303  # the same bytes: kept once
    other = fake_module(tmp_path)  # the same name and version, other bytes: the old UNIQUE no longer holds
    assert post(client, save, module=other).status_code == 303
    assert sorted(row["sha256"] for row in rows(instance, "vassal_module")) == sorted([kept_hash, sha256(other)])

    connection = store.connect(instance / "referee.sqlite3")
    try:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == len(store.MIGRATIONS)
        assert connection.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
        with pytest.raises(sqlite3.IntegrityError):  # references are still enforced on the rebuilt table
            connection.execute("UPDATE report SET module_id = 99 WHERE id = ?", (OLD_REPORT_ID,))
    finally:
        connection.close()
