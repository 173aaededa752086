"""A shared map file is read again only when it may have changed."""

from __future__ import annotations

import os

import pytest

from validator.saves import unchanged_files
from validator.saves.unchanged_files import read_unless_unchanged
from validator.saves.xml_reader import SaveInputError, read_capped


class CountingReader:
    """The real reader, counting how often the file is actually read."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self, path):
        self.reads += 1
        return read_capped(path)


@pytest.fixture(autouse=True)
def empty_cache():
    unchanged_files._CACHE.clear()
    yield
    unchanged_files._CACHE.clear()


@pytest.fixture
def settled(monkeypatch):
    """Files count as settled as soon as they are read (instead of two seconds after their last change)."""
    monkeypatch.setattr(unchanged_files, "RACY_NANOSECONDS", 0)


def test_a_settled_file_is_read_once(tmp_path, settled):
    path = tmp_path / "map.xml"
    path.write_bytes(b"<map/>")
    reader = CountingReader()
    first = read_unless_unchanged(path, reader)
    second = read_unless_unchanged(path, reader)
    assert (first, second, reader.reads) == (b"<map/>", b"<map/>", 1)
    assert second is first


def test_a_file_written_again_is_read_again(tmp_path, settled):
    path = tmp_path / "map.xml"
    path.write_bytes(b"<map/>")
    reader = CountingReader()
    read_unless_unchanged(path, reader)
    path.write_bytes(b"<map id='b'/>")
    assert read_unless_unchanged(path, reader) == b"<map id='b'/>"
    assert reader.reads == 2


def test_a_rewrite_that_keeps_size_and_modification_time_is_still_noticed(tmp_path, settled):
    """Tools that restore modification times cannot restore the change time the kernel sets."""
    path = tmp_path / "map.xml"
    path.write_bytes(b"<map id='a'/>")
    reader = CountingReader()
    read_unless_unchanged(path, reader)
    before = path.stat()
    path.write_bytes(b"<map id='b'/>")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert read_unless_unchanged(path, reader) == b"<map id='b'/>"
    assert reader.reads == 2


def test_a_file_changed_just_before_it_was_read_is_read_every_time(tmp_path):
    """Within the timestamp granularity a change might not show in the fingerprint, so nothing is trusted."""
    path = tmp_path / "map.xml"
    path.write_bytes(b"<map/>")
    reader = CountingReader()
    read_unless_unchanged(path, reader)
    read_unless_unchanged(path, reader)
    assert reader.reads == 2


def test_a_missing_file_is_the_readers_clear_error(tmp_path):
    with pytest.raises(SaveInputError, match="no such file"):
        read_unless_unchanged(tmp_path / "gone.xml", read_capped)
