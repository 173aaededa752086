"""One of the writers of tests/store/test_concurrent_writers.py, run as its own process.

``python concurrent_writer.py TARGET INSTANCE WORKER ROWS`` stores ROWS
reports and keeps a module every tenth one, each in its own write
transaction, and prints one line per write only after its commit returned:
``report <id>`` or ``module <id> <sha256>``.  What it printed is what was
acknowledged.
"""

from __future__ import annotations

import hashlib
import sys
from contextlib import closing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from validator import store  # noqa: E402
from validator.web import kept_modules, records  # noqa: E402


def main(target: str, instance: str, worker: str, rows: int) -> None:
    uploads = records.uploads_folder(instance)
    with closing(store.connect(target)) as connection:
        for row in range(rows):
            record = records.create(connection, instance, game="alpha", source_name=f"w{worker}-{row}.xml",
                                    report={"worker": worker, "row": row}, save_data=b"<save/>")
            print("report", record.id, flush=True)
            if row % 10 == 0:
                data = f"module of writer {worker}, number {row}".encode()
                digest = hashlib.sha256(data).hexdigest()
                path = uploads / f"module-{digest[:16]}.vmod"
                path.write_bytes(data)
                facts = kept_modules.ModuleFacts(f"Writer {worker}", str(row), ())
                with store.write_transaction(connection):
                    module = kept_modules.keep(connection, facts, kept_modules.ModuleFile(path, digest, len(data)),
                                               path.name)
                print("module", module.id, module.sha256, flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]))
