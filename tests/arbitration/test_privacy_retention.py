"""Retention: ``[storage] retention_days`` and ``referee maintenance expire`` remove old uploads, keeping verdicts."""

from __future__ import annotations

import json
from contextlib import closing

from validator import retention, store
from validator.arbitration import case_files
from validator.web import records


def made(connection, instance_dir, created_at: str | None = None) -> records.Record:
    record = records.create(connection, instance_dir, game="tito", source_name="kept.xml",
                            report={"legal": True, "violations": [], "findings": []},
                            save_data=b"<position/>", map_data=b"<map/>")
    if created_at is not None:
        with store.write_transaction(connection):
            connection.execute("UPDATE report SET created_at = ? WHERE id = ?", (created_at, record.id))
    return record


def test_expire_removes_the_uploads_of_reports_older_than_the_retention_period(database_target, instance_dir,
                                                                               run_cli):
    instance_dir.mkdir(parents=True, exist_ok=True)
    (instance_dir / "referee.toml").write_text("[storage]\nretention_days = 30\n", encoding="utf-8")
    with closing(store.connect(database_target)) as connection:
        old = made(connection, instance_dir, "2020-01-01T00:00:00+00:00")
        young = made(connection, instance_dir)
    uploads = records.uploads_folder(instance_dir)

    code, out, _ = run_cli("maintenance", "expire", "--dry-run", "--format", "json")
    assert code == 0 and json.loads(out) == {"dry_run": True, "reports": [old.id], "files": 2, "bytes": 17}
    assert (uploads / old.save_file).exists()

    code, out, _ = run_cli("maintenance", "expire")
    assert code == 0 and "Removed the uploads of 1 report older than 30 days (2 files, 17 bytes)" in out
    assert not (uploads / old.save_file).exists() and not (uploads / old.map_file).exists()
    assert (uploads / young.save_file).exists() and (uploads / young.map_file).exists()
    with closing(store.connect(database_target)) as connection:
        kept = records.load(connection, old.id)
        assert kept.report["legal"] is True and kept.save_file == "" and kept.map_file is None
        assert retention.removed_at(connection, old.id) is not None
        assert retention.removed_at(connection, young.id) is None

    code, out, _ = run_cli("maintenance", "expire")
    assert code == 0 and "No report older than 30 days still keeps its uploads." in out


def test_without_a_retention_period_nothing_expires(database_target, instance_dir, run_cli):
    with closing(store.connect(database_target)) as connection:
        old = made(connection, instance_dir, "2000-01-01T00:00:00+00:00")
    code, out, _ = run_cli("maintenance", "expire", "--format", "json")
    assert code == 0 and json.loads(out)["reports"] == []
    assert (records.uploads_folder(instance_dir) / old.save_file).exists()


def test_a_bad_retention_value_is_refused_with_the_file_and_key(instance_dir, run_cli):
    instance_dir.mkdir(parents=True, exist_ok=True)
    (instance_dir / "referee.toml").write_text('[storage]\nretention_days = "soon"\n', encoding="utf-8")
    code, _, err = run_cli("maintenance", "expire")
    assert code == 2 and "referee.toml" in err and "retention_days" in err


def test_a_case_files_uploads_are_removed_and_other_reports_keep_theirs(database_target, instance_dir):
    with closing(store.connect(database_target)) as connection:
        disputed, other = made(connection, instance_dir), made(connection, instance_dir)
        filed = case_files.open_case_file(connection, "Dispute", "save", [disputed.id])
        removal = retention.remove_uploads(connection, records.uploads_folder(instance_dir),
                                           retention.of_case_file(connection, filed.id))
        assert removal.report_ids == (disputed.id,) and removal.files == 2
        assert records.load(connection, disputed.id).save_file == ""
        assert records.load(connection, other.id).save_file == other.save_file
    assert not (records.uploads_folder(instance_dir) / disputed.save_file).exists()
