"""Removing orphan upload files: only generated files no row names, only past the grace period.

The files and rows here are made the way the web app makes them
(``validator.web.records.create``: file first, row second), in a real
SQLite database; the race test runs the writer in another process and
cleans while its row is not yet committed.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

from validator import instance, maintenance, settings, store
from validator.web import create_app, records

PROJECT = Path(__file__).resolve().parents[1]
HOUR = 3600

# Writes a record as the web app does, but waits inside the transaction (files written, row not yet
# committed) until the test says go.
SLOW_WRITER = """
import sys, time
from pathlib import Path
from validator import store
from validator.web import records
folder, ready, go = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])

def wait(connection):
    ready.touch()
    while not go.exists():
        time.sleep(0.01)
    return records.VassalFacts()

connection = store.connect(folder / "referee.sqlite3")
record = records.create(connection, folder, game="tito", source_name="slow.xml", report={}, save_data=b"<x/>",
                        before_insert=wait)
print(record.save_file)
"""


def aged(path: Path, seconds: float) -> Path:
    """Make the file look ``seconds`` old."""
    then = time.time() - seconds
    os.utime(path, (then, then))
    return path


def recorded(folder: Path, connection) -> tuple[str, str]:
    """A report made as the web app makes it; its save and map files' names."""
    record = records.create(connection, folder, game="tito", source_name="kept.xml", report={},
                            save_data=b"<position/>", map_data=b"<map/>")
    return record.save_file, record.map_file


def earlier_report(folder: Path) -> None:
    """A report row whose files are gone (expired): the database is this instance's, not a new one."""
    with closing(store.connect(instance.database_path(folder))) as connection:
        for name in recorded(folder, connection):
            (folder / instance.UPLOADS_NAME / name).unlink()


def test_only_old_generated_files_without_a_row_are_removed(instance_dir):
    folder = instance.folder()
    uploads = folder / instance.UPLOADS_NAME
    with closing(store.connect(instance.database_path(folder))) as connection:
        named = recorded(folder, connection)
        for name in named:
            aged(uploads / name, 2 * HOUR)
        old_save = uploads / "report-killed.save.vsav"
        old_save.write_bytes(b"x" * 300)
        aged(old_save, 2 * HOUR)
        old_module = uploads / "module-abandoned.vmod"
        old_module.write_bytes(b"m" * 700)
        aged(old_module, 2 * HOUR)
        young = uploads / "module-still-checking.vmod"
        young.write_bytes(b"y")
        keeper_note = uploads / "README.txt"  # not a name Referee generates: never touched
        keeper_note.write_text("mine", encoding="utf-8")
        aged(keeper_note, 2 * HOUR)
        cleaning = maintenance.clean(connection, uploads, HOUR)
    assert sorted(orphan.name for orphan in cleaning.orphans) == ["module-abandoned.vmod", "report-killed.save.vsav"]
    assert cleaning.freed_bytes == 1000 and cleaning.young == 1
    assert sorted(os.listdir(uploads)) == sorted(["README.txt", "module-still-checking.vmod", *named])
    assert keeper_note.read_text(encoding="utf-8") == "mine"


def test_a_dry_run_lists_and_removes_nothing(instance_dir):
    folder = instance.folder()
    uploads = folder / instance.UPLOADS_NAME
    (uploads / "report-gone.save.xml").write_bytes(b"abc")
    aged(uploads / "report-gone.save.xml", 2 * HOUR)
    earlier_report(folder)
    with closing(store.connect(instance.database_path(folder))) as connection:
        cleaning = maintenance.clean(connection, uploads, HOUR, dry_run=True)
    assert [orphan.name for orphan in cleaning.orphans] == ["report-gone.save.xml"]
    assert (uploads / "report-gone.save.xml").exists()


def test_a_file_whose_row_another_process_is_committing_is_never_taken(instance_dir, tmp_path):
    folder = instance.folder()
    earlier_report(folder)
    ready, go = tmp_path / "ready", tmp_path / "go"
    writer = subprocess.Popen([sys.executable, "-c", SLOW_WRITER, str(folder), str(ready), str(go)], cwd=PROJECT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while not ready.exists() and writer.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert ready.exists(), writer.stderr.read() if writer.poll() is not None else "the writer never got ready"
        uploads = folder / instance.UPLOADS_NAME
        (written,) = os.listdir(uploads)  # the file is there, its row is not
        with closing(store.connect(instance.database_path(folder))) as connection:
            assert written not in maintenance.named_files(connection)
            cleaning = maintenance.clean(connection, uploads, HOUR)
        assert cleaning.orphans == () and cleaning.young == 1
        assert (uploads / written).exists()
    finally:
        go.touch()
        out, err = writer.communicate(timeout=30)
    assert writer.returncode == 0, err
    assert out.strip() == written
    with closing(store.connect(instance.database_path(folder))) as connection:
        assert written in maintenance.named_files(connection)


def test_a_worker_killed_between_file_and_row_leaves_an_orphan_that_is_cleaned_later(instance_dir, tmp_path):
    folder = instance.folder()
    earlier_report(folder)
    ready = tmp_path / "ready"
    writer = subprocess.Popen([sys.executable, "-c", SLOW_WRITER, str(folder), str(ready), str(tmp_path / "never")],
                              cwd=PROJECT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while not ready.exists() and writer.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    writer.kill()  # as gunicorn kills a worker past its timeout: no cleanup runs
    writer.communicate(timeout=30)
    uploads = folder / instance.UPLOADS_NAME
    (left,) = os.listdir(uploads)
    with closing(store.connect(instance.database_path(folder))) as connection:
        assert left not in maintenance.named_files(connection)  # the transaction was never committed
        assert maintenance.clean(connection, uploads, HOUR).young == 1  # still within the grace period
        aged(uploads / left, 2 * HOUR)
        cleaning = maintenance.clean(connection, uploads, HOUR)
    assert [orphan.name for orphan in cleaning.orphans] == [left]
    assert os.listdir(uploads) == []


def test_the_command_cleans_with_the_settings_grace(instance_dir, run_cli):
    folder = instance.folder()
    (folder / settings.FILE_NAME).write_text("[storage]\norphan_grace_seconds = 60\n", encoding="utf-8")
    uploads = folder / instance.UPLOADS_NAME
    earlier_report(folder)
    (uploads / "report-lost.save.xml").write_bytes(b"12345")
    aged(uploads / "report-lost.save.xml", 120)
    (uploads / "report-new.save.xml").write_bytes(b"1")
    code, out, err = run_cli("maintenance", "clean", "--dry-run", "--format", "json")
    assert (code, err) == (0, "")
    assert json.loads(out)["orphans"][0]["name"] == "report-lost.save.xml"
    assert json.loads(out)["too_young"] == 1 and (uploads / "report-lost.save.xml").exists()
    code, out, err = run_cli("maintenance", "clean")
    assert code == 0
    assert out.splitlines() == [
        "removed report-lost.save.xml (5 bytes)",
        "Removed 1 file without a database row (5 bytes).",
        "1 file without a row was left alone, being younger than the grace period of 60 seconds: a check may "
        "still be writing its row.",
    ]
    assert sorted(os.listdir(uploads)) == ["report-new.save.xml"]


def test_the_web_app_cleans_at_start_when_told(tmp_path, caplog):
    folder = tmp_path / "site"
    uploads = folder / instance.UPLOADS_NAME
    uploads.mkdir(parents=True)
    (uploads / "module-orphan.vmod").write_bytes(b"m" * 10)
    aged(uploads / "module-orphan.vmod", 2 * HOUR)
    create_app({"INSTANCE": str(folder)})
    with closing(store.connect(instance.database_path(folder))) as connection:
        recorded(folder, connection)  # a row, so the database is this instance's
    assert (uploads / "module-orphan.vmod").exists()  # not told: nothing is removed
    (folder / settings.FILE_NAME).write_text("[storage]\nclean_on_start = true\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        create_app({"INSTANCE": str(folder)})
    assert not (uploads / "module-orphan.vmod").exists()
    assert any("1 file no database row names was removed" in record.getMessage() for record in caplog.records)


def test_a_missing_database_is_refused_and_not_created(instance_dir, run_cli):
    folder = instance.folder()
    uploads = folder / instance.UPLOADS_NAME
    (uploads / "report-kept.save.xml").write_bytes(b"12345")
    aged(uploads / "report-kept.save.xml", 2 * HOUR)
    instance.database_path(folder).unlink(missing_ok=True)
    code, out, err = run_cli("maintenance", "clean", "--dry-run")
    assert code == 2 and out == ""
    assert "there is no database there yet" in err and "nothing was removed" in err
    assert not instance.database_path(folder).exists() and (uploads / "report-kept.save.xml").exists()


def test_a_database_with_no_rows_beside_stored_files_is_refused(instance_dir, run_cli):
    folder = instance.folder()
    uploads = folder / instance.UPLOADS_NAME
    with closing(store.connect(instance.database_path(folder))) as connection:
        named = recorded(folder, connection)
    for name in named:
        aged(uploads / name, 2 * HOUR)
    instance.database_path(folder).unlink()
    store.connect(instance.database_path(folder)).close()  # a fresh, empty database: a stale or wrong one
    code, out, err = run_cli("maintenance", "clean")
    assert code == 2 and out == ""
    assert "the database has no report or kept module at all" in err
    assert sorted(os.listdir(uploads)) == sorted(named)


def test_clean_uses_the_database_the_url_names(instance_dir, run_cli, tmp_path, monkeypatch):
    folder = instance.folder()
    uploads = folder / instance.UPLOADS_NAME
    other = tmp_path / "other.sqlite3"
    with closing(store.connect(other)) as connection:
        named = recorded(folder, connection)
    for name in named:
        aged(uploads / name, 2 * HOUR)
    (uploads / "report-lost.save.xml").write_bytes(b"12345")
    aged(uploads / "report-lost.save.xml", 2 * HOUR)
    monkeypatch.setenv(instance.DATABASE_URL_VARIABLE, str(other))
    code, out, err = run_cli("maintenance", "clean", "--dry-run", "--format", "json")
    assert (code, err) == (0, "")
    assert [orphan["name"] for orphan in json.loads(out)["orphans"]] == ["report-lost.save.xml"]
