"""One of the writers of tests/store/test_concurrent_writers.py, run as its own process.

``python concurrent_writer.py TARGET CASE_FILE WORKER ROWS`` writes ROWS
rulings (each citing case 1) and ROWS comments on the case file, and keeps
a module every tenth row, each in its own write transaction, and prints one
line per write only after its commit returned: ``ruling <id>``, ``comment
<id>`` or ``module <number> <sha256>``.  What it printed is what was
acknowledged.  A write the database refused (SQLite's busy timeout can
pass while seven others take their turns) prints ``refused <kind>`` and is
tried again, as a user would, so every row is acknowledged once in the
end.  Every writer counts its comments against one shared client address,
under a limit raised past what the test writes.
"""

from __future__ import annotations

import hashlib
import sys
import tempfile
from contextlib import closing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from validator import store  # noqa: E402
from validator.arbitration import comments, counters, rulings  # noqa: E402
from validator.web import kept_modules  # noqa: E402

CLIENT = "192.0.2.8"
RAISED_LIMIT = counters.Limit(count=1_000_000, seconds=3600)


def main(target: str, case_file: str, worker: str, rows: int) -> None:
    folder = Path(tempfile.mkdtemp())
    with closing(store.connect(target)) as connection:

        def ruling(row: int) -> str:
            return rulings.write(connection, arbiter="arbiter", game="alpha", cases=["1"],
                                 decision=f"Writer {worker}, ruling {row}.", case_file=case_file).id

        def comment(row: int) -> str:
            return comments.add(connection, case_file, f"Writer {worker}", f"Comment {row}.", CLIENT,
                                RAISED_LIMIT).id

        def module(row: int) -> str:
            data = f"module of writer {worker}, number {row}".encode()
            digest = hashlib.sha256(data).hexdigest()
            path = folder / f"module-{digest[:16]}.vmod"
            path.write_bytes(data)
            facts = kept_modules.ModuleFacts(f"Writer {worker}", str(row), ())
            with store.write_transaction(connection):
                kept = kept_modules.keep(connection, facts, kept_modules.ModuleFile(path, digest, len(data)), path.name)
            return f"{kept.id} {kept.sha256}"

        for row in range(rows):
            for kind, write in (("ruling", ruling), ("comment", comment), ("module", module)):
                if kind == "module" and row % 10:
                    continue
                while True:
                    try:
                        said = write(row)
                    except store.UnusableDatabase:
                        print("refused", kind, flush=True)
                        continue
                    print(kind, said, flush=True)
                    break


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]))
