"""Eight processes writing at once lose and duplicate nothing they were told was written, on both databases.

Each writer (tests/store/concurrent_writer.py) stores 250 reports and keeps
25 modules, whose numbers are a read-then-write (the highest number plus
one) in the writer's transaction: a transaction that let two writers read
the same highest number would fail one of them on the key or give a number
twice.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from contextlib import closing
from pathlib import Path

from validator import instance, store

WRITERS = 8
ROWS = 250
WRITER = Path(__file__).with_name("concurrent_writer.py")


def test_eight_writers_at_once_lose_and_duplicate_nothing_acknowledged(database_target, instance_dir):
    instance.make_private_folders(instance_dir)
    with closing(store.connect(database_target)):
        pass  # the schema is made once here, so the writers race on rows, not on migrations
    processes = [
        subprocess.Popen([sys.executable, str(WRITER), str(database_target), str(instance_dir), str(worker), str(ROWS)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for worker in range(WRITERS)
    ]
    acknowledged: list[tuple[str, ...]] = []
    for process in processes:
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, err
        acknowledged.extend(tuple(line.split()) for line in out.splitlines())
    reports = [line[1] for line in acknowledged if line[0] == "report"]
    modules = [(int(line[1]), line[2]) for line in acknowledged if line[0] == "module"]
    assert len(reports) == WRITERS * ROWS
    assert len(modules) == WRITERS * ROWS // 10
    with closing(store.connect(database_target)) as connection:
        stored = [row[0] for row in connection.execute("SELECT id FROM report")]
        kept = sorted((row[0], row[1]) for row in connection.execute("SELECT id, sha256 FROM vassal_module"))
        by_worker = Counter(row[0] for row in connection.execute("SELECT source_name FROM report"))
    assert sorted(stored) == sorted(reports)  # nothing acknowledged is lost, nothing is there twice
    assert sorted(modules) == kept
    assert [number for number, _hash in kept] == list(range(1, len(modules) + 1))  # each number given once
    assert set(by_worker.values()) == {1}
