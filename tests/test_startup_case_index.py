"""The case index is kept parsed in the instance folder: a later check reads no TOML, and never a stale entry."""

from __future__ import annotations

import pytest

from validator import case_index_cache
from validator.games import entries_of, load_case_rows

from tests.test_startup import TITO_EXAMPLE, imported_by

CASES = '# a game\'s index\n[cases]\n"2" = "Components"\n"1" = "Introduction"\n"1.1" = "Scale"\n'


@pytest.fixture
def instance_dir(instance_dir):
    """The test's instance folder, made as a first web start or a stored report makes it."""
    instance_dir.mkdir(parents=True)
    return instance_dir


def load_case_index(path):
    return entries_of(load_case_rows(path))


def _index(path):
    return [(str(entry.number), entry.title) for entry in load_case_index(path)]


def _entries(instance_dir):
    return sorted((instance_dir / case_index_cache.FOLDER_NAME).glob("*" + case_index_cache.SUFFIX))


def test_an_index_read_again_comes_from_its_entry_the_same(tmp_path, instance_dir):
    cases = tmp_path / "cases.toml"
    cases.write_text(CASES, encoding="utf-8")
    first = _index(cases)
    assert first == [("1", "Introduction"), ("1.1", "Scale"), ("2", "Components")]
    [entry] = _entries(instance_dir)
    stamp = entry.stat().st_mtime_ns
    assert _index(cases) == first
    assert entry.stat().st_mtime_ns == stamp  # read, not written again


def test_an_edited_index_is_read_anew_and_never_from_the_old_entry(tmp_path, instance_dir):
    cases = tmp_path / "cases.toml"
    cases.write_text(CASES, encoding="utf-8")
    _index(cases)
    cases.write_text(CASES.replace("Scale", "Time scale"), encoding="utf-8")
    assert ("1.1", "Time scale") in _index(cases)
    assert len(_entries(instance_dir)) == 2


@pytest.mark.parametrize("damage", [b"", b"\x00garbage", b"\xe9" * 40], ids=["empty", "garbage", "truncated"])
def test_a_damaged_entry_is_read_from_the_toml_again_and_replaced(tmp_path, instance_dir, damage):
    cases = tmp_path / "cases.toml"
    cases.write_text(CASES, encoding="utf-8")
    first = _index(cases)
    [entry] = _entries(instance_dir)
    entry.write_bytes(damage)
    assert _index(cases) == first
    assert case_index_cache._load(entry, lambda row: True) is not None  # rewritten whole


def test_an_entry_of_another_shape_is_not_trusted(tmp_path, instance_dir):
    import marshal

    cases = tmp_path / "cases.toml"
    cases.write_text(CASES, encoding="utf-8")
    first = _index(cases)
    [entry] = _entries(instance_dir)
    entry.write_bytes(marshal.dumps({"1": "Introduction"}))
    assert _index(cases) == first


def test_a_faulty_index_is_refused_every_time_and_kept_nowhere(tmp_path, instance_dir):
    cases = tmp_path / "cases.toml"
    cases.write_text('[cases]\n"1" = \n', encoding="utf-8")
    for _ in range(2):
        with pytest.raises(ValueError):
            load_case_index(cases)
    assert _entries(instance_dir) == []


def test_an_entry_that_cannot_be_written_still_gives_the_index(tmp_path, instance_dir):
    cases = tmp_path / "cases.toml"
    cases.write_text(CASES, encoding="utf-8")
    (instance_dir / case_index_cache.FOLDER_NAME).write_text("a file where the folder should be", encoding="utf-8")
    for _ in range(2):
        assert _index(cases) == [("1", "Introduction"), ("1.1", "Scale"), ("2", "Components")]
    assert list(instance_dir.glob("**/*.partial")) == []


def test_without_an_instance_folder_the_index_is_read_and_no_folder_made(tmp_path, monkeypatch):
    absent = tmp_path / "no-instance"
    monkeypatch.setenv("REFEREE_INSTANCE", str(absent))
    cases = tmp_path / "cases.toml"
    cases.write_text(CASES, encoding="utf-8")
    assert _index(cases) == [("1", "Introduction"), ("1.1", "Scale"), ("2", "Components")]
    assert not absent.exists()


def test_a_second_text_check_of_a_tito_save_imports_no_toml_parser(tmp_path, instance_dir):
    first = imported_by("check", str(TITO_EXAMPLE), folder=tmp_path)
    second = imported_by("check", str(TITO_EXAMPLE), folder=tmp_path)
    assert "tomllib" in first and "validator.case_index_cache" in second
    assert "tomllib" not in second


def test_an_entry_of_rows_of_another_shape_is_not_trusted(tmp_path, instance_dir):
    import marshal

    cases = tmp_path / "cases.toml"
    cases.write_text(CASES, encoding="utf-8")
    first = _index(cases)
    [entry] = _entries(instance_dir)
    entry.write_bytes(marshal.dumps([("1", "Introduction")]))  # the pairs of the previous format
    assert _index(cases) == first


def test_an_entry_of_other_case_number_code_is_never_read(tmp_path, instance_dir):
    cases = tmp_path / "cases.toml"
    cases.write_text(CASES, encoding="utf-8")
    data = cases.read_bytes()
    assert case_index_cache.entry_path(data, b"one reading") != case_index_cache.entry_path(data, b"another")
