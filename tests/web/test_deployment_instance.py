"""The instance folder is its owner's only, and its secret key is never seen half written.

The key tests start real processes at once (a start file releases them
together), since the failure they guard against is a race between workers of
one server starting side by side.
"""

from __future__ import annotations

import logging
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from validator import instance, store
from validator.web import create_app

PROJECT = Path(__file__).resolve().parents[2]

# Waits for the start file, then asks for the key and prints it.
CREATOR = """
import sys, time
from pathlib import Path
from validator import instance
start = Path(sys.argv[2])
while not start.exists():
    time.sleep(0.001)
print(instance.secret_key(Path(sys.argv[1])))
"""

# Waits for the start file, then reads the key file as fast as it can; prints how often it was found empty.
READER = """
import sys, time
from pathlib import Path
key, start = Path(sys.argv[1]) / "secret_key", Path(sys.argv[2])
while not start.exists():
    time.sleep(0.001)
empty = reads = 0
deadline = time.monotonic() + 3
while reads < 2000 and time.monotonic() < deadline:
    try:
        data = key.read_bytes()
    except FileNotFoundError:
        continue
    reads += 1
    empty += not data.strip()
print(reads, empty)
"""


def mode_of(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def started(script: str, *arguments: object) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", script, *map(str, arguments)], cwd=PROJECT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_the_instance_folder_database_and_key_are_the_owners_only(tmp_path):
    folder = tmp_path / "club"
    app = create_app({"INSTANCE": str(folder)})
    assert app.test_client().get("/").status_code == 200  # the page opens the database, creating it
    assert mode_of(folder) == 0o700 and mode_of(folder / instance.UPLOADS_NAME) == 0o700
    assert mode_of(folder / instance.DATABASE_NAME) == 0o600
    assert mode_of(folder / instance.SECRET_KEY_NAME) == 0o600


def test_the_cli_folder_and_its_uploads_folder_are_created_private(tmp_path, monkeypatch):
    monkeypatch.setenv(instance.ENVIRONMENT_VARIABLE, str(tmp_path / "fresh"))
    folder = instance.folder()
    assert mode_of(folder) == 0o700 and mode_of(folder / instance.UPLOADS_NAME) == 0o700


def test_looser_rights_found_are_tightened_with_a_note(tmp_path, caplog, monkeypatch):
    folder = tmp_path / "club"
    (folder / instance.UPLOADS_NAME).mkdir(parents=True)
    folder.chmod(0o755)
    database = folder / instance.DATABASE_NAME
    store.connect(database).close()
    database.chmod(0o644)
    key = folder / instance.SECRET_KEY_NAME
    key.write_text("k" * 64, encoding="ascii")
    key.chmod(0o640)
    monkeypatch.setenv(instance.ENVIRONMENT_VARIABLE, str(folder))
    with caplog.at_level(logging.WARNING, logger="validator.instance"):
        instance.folder()
        store.connect(database).close()
        assert instance.secret_key(folder) == "k" * 64
    assert (mode_of(folder), mode_of(database), mode_of(key)) == (0o700, 0o600, 0o600)
    noted = [record.getMessage() for record in caplog.records]
    assert sum("readable by its owner only" in message for message in noted) == 4, noted  # uploads too
    assert any(f"{database} could be read by other users" in message for message in noted)


def test_a_read_only_file_stays_read_only_when_tightened(tmp_path):
    database = tmp_path / "kept.sqlite3"
    database.write_bytes(b"")
    database.chmod(0o444)
    instance.create_private_file(database)
    assert mode_of(database) == 0o400


def test_processes_starting_at_once_agree_on_one_key_and_never_read_it_empty(tmp_path):
    folder, start = tmp_path / "club", tmp_path / "start"
    folder.mkdir()
    readers = [started(READER, folder, start) for _ in range(2)]
    creators = [started(CREATOR, folder, start) for _ in range(8)]
    time.sleep(1.5)  # let every interpreter start and wait at the line
    start.touch()
    keys = set()
    for process in creators:
        out, err = process.communicate(timeout=60)
        assert process.returncode == 0, err
        keys.add(out.strip())
    counts = []
    for process in readers:
        out, err = process.communicate(timeout=60)
        assert process.returncode == 0, err
        counts.append(tuple(int(word) for word in out.split()))
    assert len(keys) == 1
    key = keys.pop()
    assert len(key) == 64 and (folder / instance.SECRET_KEY_NAME).read_text(encoding="ascii") == key
    assert all(reads > 0 for reads, _ in counts), counts
    assert [empty for _, empty in counts] == [0, 0]


@pytest.mark.parametrize("damage", [b"", b"\n", b"short", b"\xff\xfe" * 40, b"two words " * 8])
def test_an_empty_or_damaged_key_is_replaced_with_a_note(tmp_path, caplog, damage):
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / instance.SECRET_KEY_NAME).write_bytes(damage)
    with caplog.at_level(logging.WARNING, logger="validator.instance"):
        app = create_app({"INSTANCE": str(folder)})
    response = app.test_client().get("/")
    assert response.status_code == 200
    written = (folder / instance.SECRET_KEY_NAME).read_text(encoding="ascii")
    assert app.config["SECRET_KEY"] == written and len(written) == 64
    assert mode_of(folder / instance.SECRET_KEY_NAME) == 0o600
    assert any("is empty or damaged; Referee wrote a new key" in record.getMessage() for record in caplog.records)
    assert not [name for name in os.listdir(folder) if name.endswith(".tmp")]


def test_a_key_that_cannot_be_read_is_a_sentence(tmp_path):
    folder = tmp_path / "club"
    (folder / instance.SECRET_KEY_NAME).mkdir(parents=True)  # a folder where the key file belongs
    with pytest.raises(instance.UnusableInstanceFolder) as raised:
        instance.secret_key(folder)
    assert "cannot hold the web app's secret key" in str(raised.value)
    assert instance.SECRET_KEY_VARIABLE in str(raised.value)


def test_the_databases_journal_is_the_owners_only_too(tmp_path):
    database = tmp_path / "club.sqlite3"
    connection = store.connect(database)
    try:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("CREATE TABLE scratch (value)")
        connection.execute("INSERT INTO scratch VALUES (1)")
        journal = database.with_name(database.name + "-journal")  # SQLite gives it the database file's rights
        assert journal.exists() and mode_of(journal) == 0o600
        connection.execute("ROLLBACK")
    finally:
        connection.close()
