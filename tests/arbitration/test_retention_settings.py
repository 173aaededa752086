"""[storage] retention_days: a whole number of days, 0 keeping uploads for good; any other value is one sentence."""

from __future__ import annotations

import json
from contextlib import closing

import pytest

from validator import retention, settings, store

from .test_privacy_retention import made


def written(instance_dir, value: str) -> None:
    instance_dir.mkdir(parents=True, exist_ok=True)
    (instance_dir / settings.FILE_NAME).write_text(f"[storage]\nretention_days = {value}\n", encoding="utf-8")


def test_zero_keeps_uploads_for_good_and_says_so(database_target, instance_dir, run_cli):
    written(instance_dir, "0")
    with closing(store.connect(database_target)) as connection:
        made(connection, instance_dir, "2000-01-01T00:00:00+00:00")
    code, out, err = run_cli("maintenance", "expire")
    assert code == 0 and err == ""
    assert "kept for good" in out and "retention_days is 0" in out
    code, out, _ = run_cli("maintenance", "expire", "--format", "json")
    assert code == 0 and json.loads(out)["reports"] == []


def test_the_longest_period_is_taken(database_target, instance_dir, run_cli):
    written(instance_dir, str(settings.LONGEST_RETENTION_DAYS))
    with closing(store.connect(database_target)) as connection:
        made(connection, instance_dir, "2000-01-01T00:00:00+00:00")
    code, out, _ = run_cli("maintenance", "expire")
    assert code == 0 and out.startswith(f"No report older than {settings.LONGEST_RETENTION_DAYS:,} days")


@pytest.mark.parametrize("value, problem", [
    ("-1", "out of range"),
    ("100000000", "out of range"),
    (str(settings.LONGEST_RETENTION_DAYS + 1), "out of range"),
    ('"1M"', "not a whole number of days"),
    ('"30"', "not a whole number of days"),
    ("1.5", "not a whole number of days"),
    ("true", "not a whole number of days"),
    ("[30]", "not a whole number of days"),
])
def test_any_other_value_is_one_sentence_and_exit_2(instance_dir, run_cli, value, problem):
    written(instance_dir, value)
    code, out, err = run_cli("maintenance", "expire")
    assert code == 2 and out == ""
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert settings.FILE_NAME in err and "line 2" in err and "[storage] retention_days" in err and problem in err
    assert "KiB" not in err and "k, M" not in err


def test_the_summary_counts_in_the_singular_when_there_is_one(database_target, instance_dir):
    with closing(store.connect(database_target)) as connection:
        record = made(connection, instance_dir, "2000-01-01T00:00:00+00:00")
        removal = retention.remove_uploads(connection, instance_dir / "uploads", [record.id], dry_run=True)
    assert removal.summary(1).startswith("Would remove the uploads of 1 report older than 1 day (2 files, ")
