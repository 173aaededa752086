"""Benchmark: importing the four rulebook texts, and searching them.

Usage: python bench/rulebook_import.py [RULEBOOK_FOLDER]   (default: $REFEREE_RULEBOOKS)

Reports, from one run: the time to import each game (read, parse, store in a
fresh SQLite file) as a ratio to the time it takes only to read and split the
same files into lines, and the median time of a set of searches.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from validator import store
from validator.games import get
from validator.rulebook import fixups, storage
from validator.rulebook.importer import import_texts, read_file

GAMES = {
    "tito": ["tito-rulebook.txt"],
    "awaw": ["a-world-at-war-11-partisans.txt", "a-world-at-war-44-intelligence.txt"],
    "tww": ["third-world-war-15-special-rules.txt"],
}
QUERIES = ["stacking", "hide-away", "partisan", "brigade strength", "italian pullback", "force pool",
           "victory points", "communications", "rival", "garrison"]
REPEATS = 20


def best_of(action, repeats=REPEATS) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("REFEREE_RULEBOOKS", ""))
    if not folder.is_dir():
        sys.exit("Give the rulebook folder as an argument or in REFEREE_RULEBOOKS.")
    with tempfile.TemporaryDirectory() as scratch:
        connection = store.connect(Path(scratch) / "bench.sqlite3")
        total_import = total_read = 0.0
        for game_id, names in GAMES.items():
            paths = [folder / name for name in names]
            game = get(game_id)
            loaded_fixups = fixups.load(game.fixups_path) if game.fixups_path else None

            # The loop's values are bound as defaults: each pass times its own game.
            def import_game(game_id=game_id, paths=paths, loaded_fixups=loaded_fixups):
                book = import_texts(game_id, [read_file(path) for path in paths], loaded_fixups)
                storage.save(connection, book)

            def read_only(paths=paths):
                for path in paths:
                    path.read_text(encoding="utf-8").split("\n")

            imported, read = best_of(import_game), best_of(read_only)
            total_import += imported
            total_read += read
            print(f"import {game_id:5}: {imported * 1000:8.2f} ms  ({imported / read:6.0f}x reading the files)")
        print(f"import all  : {total_import * 1000:8.2f} ms  ({total_import / total_read:6.0f}x reading the files)")
        searches = []
        for game_id in GAMES:
            for query in QUERIES:
                start = time.perf_counter()
                storage.search(connection, game_id, query)
                searches.append(time.perf_counter() - start)
        print(f"search      : median {statistics.median(searches) * 1000:.3f} ms over {len(searches)} queries")
        connection.close()


if __name__ == "__main__":
    main()
