"""In-process check ratios for bench/run: each game's check over lxml's bare parse of the same save and map.

For each position, from one run, best of ``--repeat`` (CPU time of this
process, which a shared machine moves less than wall-clock time):

* bare: ``lxml.etree.fromstring`` of the save and of its map;
* same map: reading the save and running every check, the map already read
  by this process (the case of a club checking save after save);
* new map: the same with every cache cleared first (this process's maps and
  file bytes, and the instance's prepared maps), as for a map never seen;
* per piece: what the same-map check adds over lxml's bare parse of the
  save alone (the map is not parsed again), over the number of pieces, in
  microseconds: the issue's "cost per piece" (the parse is lxml's).

It clears, before each new-map run: xml_reader's map cache, the unchanged-file
cache and the instance's ``prepared-maps`` folder.  It keeps the compiled
modules and the imported plugins (a process that checks has them too).
Prints one JSON object per position, for bench/run to put in its table.

    PYTHONPATH=. python bench/check_ratios.py FOLDER [--repeat 5] [--awaw 1250 5000 20000] [--only GAME] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import shutil
import sys
import time
from pathlib import Path

from lxml import etree

from validator import prepared_maps, runner
from validator.saves import unchanged_files, xml_reader
from validator.saves.xml_reader import read_position_file

sys.path.insert(0, str(Path(__file__).resolve().parent))
import awaw_check  # noqa: E402  (the bench folder is not a package)
import tito_position  # noqa: E402
import tww_communications  # noqa: E402


def best(repeat: int, work) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def forget_maps() -> None:
    """What a map never seen has not left behind: this process's caches and the instance's prepared maps."""
    xml_reader._MAP_CACHE.clear()
    unchanged_files._CACHE.clear()
    folder = prepared_maps.folder()
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def figures(name: str, save: Path, map_path: Path, repeat: int) -> dict:
    save_bytes, map_bytes = save.read_bytes(), map_path.read_bytes()

    def bare():
        etree.fromstring(save_bytes)
        etree.fromstring(map_bytes)

    def bare_save():
        etree.fromstring(save_bytes)

    def check():
        return runner.check(read_position_file(save))

    def new_map():
        forget_maps()
        return check()

    report = new_map()
    pieces = len(read_position_file(save).pieces)
    bare_time = best(repeat, bare)
    save_time = best(repeat, bare_save)
    same_time = best(repeat, check)
    new_time = best(max(2, repeat // 2), new_map)
    return {"position": name, "pieces": pieces, "results": len(report.results), "bare_s": bare_time,
            "same_map_s": same_time, "new_map_s": new_time, "same_map_ratio": same_time / bare_time,
            "new_map_ratio": new_time / bare_time, "us_per_piece": 1e6 * (same_time - save_time) / pieces}


def positions(folder: Path, awaw_sizes: list[int], hexes: int) -> list[tuple[str, Path, Path]]:
    """Every bench position, written once into ``folder``: (name, save, map)."""
    folder.mkdir(parents=True, exist_ok=True)
    by_country = awaw_check.write_map(folder / "map.xml", hexes)
    chosen = []
    for pieces in awaw_sizes:
        save = folder / f"awaw-{pieces}.xml"
        awaw_check.write_save(save, "map.xml", by_country, pieces, seed=pieces)
        chosen.append((f"awaw {pieces:,} pieces", save, folder / "map.xml"))
    tww_folder = folder / "tww"
    tww_folder.mkdir(exist_ok=True)
    chosen.append(("tww bench position", tww_communications.generate(tww_folder, 200, 100, 2000),
                   tww_folder / "map.xml"))
    chosen.append(("tito generated position", tito_position.write(folder / "tito"), tito_position.MAP_HREF))
    time.sleep(unchanged_files.RACY_NANOSECONDS / 1e9 + 0.1)  # a club's map file is old: let these settle
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--awaw", type=int, nargs="+", default=[1250, 5000, 20000])
    parser.add_argument("--hexes", type=int, default=20_000)
    parser.add_argument("--profile", action="store_true", help="profile the largest awaw check, map kept")
    parser.add_argument("--only", choices=("awaw", "tww", "tito"),
                        help="measure only this game's positions (all are still written)")
    arguments = parser.parse_args(argv)
    chosen = positions(arguments.folder, arguments.awaw, arguments.hexes)
    for name, save, map_path in chosen:
        if arguments.only and not name.startswith(arguments.only):
            continue
        print(json.dumps(figures(name, save, map_path, arguments.repeat)), flush=True)
    if arguments.profile:
        name, save, _ = chosen[len(arguments.awaw) - 1]
        runner.check(read_position_file(save))
        profile = cProfile.Profile()
        profile.enable()
        runner.check(read_position_file(save))
        profile.disable()
        stream = io.StringIO()
        pstats.Stats(profile, stream=stream).sort_stats("tottime").print_stats(20)
        print(f"profile of {name}, map kept:\n{stream.getvalue()}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
