"""Eight processes writing at once lose and duplicate nothing they were told was written, on both databases.

Each writer (tests/store/concurrent_writer.py) writes 100 rulings and 100
comments and keeps 10 modules (a write the database refuses is said and
tried again, so each is acknowledged once in the end); the eight write at
once from their first row to their last.  Two of those writes are a
read-then-write in the writer's transaction: a module's number (the highest
plus one), and the comment counter of the one client address all writers
share (read, then raised by one).  A transaction that let two writers read the same
value would fail one on the key, give a number twice, or lose a count.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from contextlib import closing
from pathlib import Path

from validator import instance, store
from validator.arbitration import case_files, comments
from validator.rulebook import storage
from validator.web import records

from tests.store.concurrent_writer import CLIENT
from tests.web.conftest import orchard_rulebook

WRITERS = 8
ROWS = 250  # issue 16: "250 each"
WRITER = Path(__file__).with_name("concurrent_writer.py")


def test_eight_writers_at_once_lose_and_duplicate_nothing_acknowledged(database_target, instance_dir):
    instance.make_private_folders(instance_dir)
    with closing(store.connect(database_target)) as connection:  # the schema is made once, before the race
        storage.save(connection, orchard_rulebook())
        report = records.create(connection, instance_dir, game="alpha", source_name="disputed.xml",
                                report={"legal": False}, save_data=b"<save/>")
        case_file = case_files.open_case_file(connection, "Disputed crossing", "save", [report.id])
    processes = [
        subprocess.Popen([sys.executable, str(WRITER), str(database_target), case_file.id, str(worker), str(ROWS)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for worker in range(WRITERS)
    ]
    acknowledged: list[list[str]] = []
    for process in processes:
        out, err = process.communicate(timeout=900)
        assert process.returncode == 0, err
        acknowledged.extend(line.split() for line in out.splitlines())
    said = Counter(line[0] for line in acknowledged if line[0] != "refused")
    assert said == {"ruling": WRITERS * ROWS, "comment": WRITERS * ROWS, "module": WRITERS * ROWS // 10}
    with closing(store.connect(database_target)) as connection:
        stored_rulings = [row[0] for row in connection.execute("SELECT id FROM ruling")]
        revisions = connection.execute("SELECT COUNT(*) FROM ruling_revision").fetchone()[0]
        stored_comments = [comment.id for comment in comments.listed(connection, case_file.id)]
        count = connection.execute("SELECT count FROM client_counter WHERE client = ?", (CLIENT,)).fetchone()[0]
        kept = sorted((row[0], row[1]) for row in connection.execute("SELECT id, sha256 FROM vassal_module"))
    # Nothing acknowledged is lost, nothing is there twice, and a refused write left nothing behind.
    assert sorted(stored_rulings) == sorted(line[1] for line in acknowledged if line[0] == "ruling")
    assert revisions == len(stored_rulings)
    assert sorted(stored_comments) == sorted(line[1] for line in acknowledged if line[0] == "comment")
    assert count == WRITERS * ROWS  # every comment counted once against the shared address
    assert kept == sorted((int(line[1]), line[2]) for line in acknowledged if line[0] == "module")
    assert [number for number, _hash in kept] == list(range(1, len(kept) + 1))  # each number given once
