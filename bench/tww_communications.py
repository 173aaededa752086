"""Benchmark: The Third World War's communication check (15.2) on a large generated map.

Writes a map of 20,000 hexes (200 columns by 100 rows, odd-q) and a save with
2,000 units into a temporary folder.  Every nation of the partisan rules is
on it (Afghanistan, Finland, Yugoslavia, and Kurdistan across two nations)
with mixed terrain; Finland and Yugoslavia are active, the Kurds act against
NATO; every unit is marked in communication and a third exert zones of
control; both sides have supply sources.  Some units are cut off, so the
pocket search and the report of blocking hexes run too.

Prints, from one run (best of several repetitions each):

* the floor: lxml's bare parse of the map and the save (no schema);
* the communication work: deriving both sides' closed hexes and judging
  every marked unit (the two 15.2 checks, the position's caches cleared
  before each repetition), as a ratio to the floor -- target at most 3x;
  once on the map as prepared (its partisan hexes and hex network worked
  out when it was read, plugin/tww/network.py), once with those worked out
  again each time;
* for context, reading the save (parse, schema, model, game validation) and
  running every tww check on the map as prepared, each as a ratio to the
  same floor.

Run: PYTHONPATH=. python bench/tww_communications.py [columns rows units]
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

from lxml import etree

from validator import runner
from validator.saves.xml_reader import read_position_file

from plugin.tww import communications, partisans

REPEATS = 7
TERRAINS = ["clear"] * 5 + ["wilderness", "mountain", "mountain-pass", "forest", "rough"]
# (nation, side, first column) from west to east; each runs to the next one's first column.
NATIONS = [
    ("west-germany", "nato", 0), ("yugoslavia", "neutral", 30), ("greece", "nato", 55), ("turkey", "nato", 70),
    ("iraq", "pact", 95), ("iran", "neutral", 115), ("afghanistan", "pact", 135), ("soviet-union", "pact", 155),
    ("finland", "neutral", 175), ("sweden", "neutral", 190),
]


def nation_at(column: int) -> tuple[str, str]:
    chosen = NATIONS[0]
    for entry in NATIONS:
        if column >= entry[2]:
            chosen = entry
    return chosen[0], chosen[1]


def generate(folder: Path, columns: int, rows: int, units: int) -> Path:
    rng = random.Random(15)
    lines = ['<map xmlns="urn:referee:save:1" id="bench" grid="hex" layout="odd-q">']
    for nation, side, _ in NATIONS:
        lines.append(f'  <area id="{nation}" name="{nation.title()}" side="{side}"/>')
    lines.append('  <area id="kurdistan" name="Kurdistan" kind="region"/>')
    hexes = []
    for column in range(columns):
        nation, _ = nation_at(column)
        for row in range(rows):
            hex_id = f"x{column:03d}y{row:03d}"
            hexes.append((hex_id, column))
            extra = ' city="c"' if rng.random() < 0.01 else ""
            if nation in ("turkey", "iraq") and row > rows * 2 // 3:
                extra += ' region="kurdistan"'
            terrain = rng.choice(TERRAINS)
            lines.append(
                f'  <hex id="{hex_id}" column="{column}" row="{row}" area="{nation}" terrain="{terrain}"{extra}/>'
            )
    lines.append("</map>")
    (folder / "map.xml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    facts = [("war-entry:finland", "1"), ("war-entry:yugoslavia", "1"), ("kurdish-partisans", "nato")]
    facts += [("supply-source:nato", " ".join(f"x000y{row:03d}" for row in range(0, rows, 5)))]
    facts += [("supply-source:pact", " ".join(f"x{columns - 40:03d}y{row:03d}" for row in range(0, rows, 5)))]
    pieces = []
    for index in range(units):
        hex_id, column = rng.choice(hexes)
        side = "nato" if column < columns // 2 else "pact"
        nation, _ = nation_at(column)
        zoc = ' zoc="yes"' if index % 3 == 0 else ""
        pieces.append(
            f'    <piece id="u{index}" name="unit {index}" side="{side}" nationality="{nation}" type="infantry" '
            f'location="{hex_id}" communication="yes"{zoc}/>'
        )
    save = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<position xmlns="urn:referee:save:1" version="1" game="tww" turn="4" phase="movement" phasing="nato">',
    ]
    save += [f'  <fact name="{name}" value="{value}"/>' for name, value in facts]
    save += ['  <map href="map.xml"/>', "  <pieces>"] + pieces + ["  </pieces>", "</position>"]
    path = folder / "save.xml"
    path.write_text("\n".join(save) + "\n", encoding="utf-8")
    return path


def best(function, repeats: int = REPEATS) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return min(times), result


def forget_caches(position, map_too: bool = True) -> None:
    """Drop what the checks worked out and kept on the position (and, with ``map_too``, on its map, what its
    preparation worked out included), so each run starts cold."""
    position.derived.clear()
    if map_too:
        position.map.derived.clear()


def main(columns: int = 200, rows: int = 100, units: int = 2000) -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        save = generate(folder, columns, rows, units)
        map_bytes, save_bytes = (folder / "map.xml").read_bytes(), save.read_bytes()
        parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)

        def bare_parse():
            etree.fromstring(map_bytes, parser)
            etree.fromstring(save_bytes, parser)

        floor, _ = best(bare_parse)
        read_time, position = best(lambda: read_position_file(save))

        def communication_work(map_too: bool):
            forget_caches(position, map_too)
            return list(communications.partisan_closed_hexes(position)) + list(
                communications.unit_cut_off_by_partisans(position)
            )

        communication_time, results = best(lambda: communication_work(False))
        cold_time, cold_results = best(lambda: communication_work(True))
        assert cold_results == results, "the map's own reading gives the results its preparation gives"

        def every_check():
            forget_caches(position, map_too=False)
            return runner.check(position)

        check_time, report = best(every_check)

    cut_off = [result for result in results if result.kind == "violation"]
    closed = {side: len(side_map.blocked) for side, side_map in partisans.partisan_map(position).sides.items()}
    print(
        f"map: {columns * rows:,} hexes, {units:,} units marked in communication; "
        f"{len(map_bytes) + len(save_bytes):,} bytes of XML"
    )
    print(f"closed hexes: NATO {closed['nato']:,}, Pact {closed['pact']:,}; units cut off: {len(cut_off)}")
    print(f"bare lxml parse (floor):        {floor * 1000:8.1f} ms")
    print(
        f"communication check (15.2):     {communication_time * 1000:8.1f} ms  = {communication_time / floor:5.2f}x "
        "the floor (target <= 3x), the map as prepared"
    )
    print(
        f"  the map's 15.2 reading again: {cold_time * 1000:8.1f} ms  = {cold_time / floor:5.2f}x "
        "(its partisan hexes and hex network worked out each time)"
    )
    print(f"reading the save (schema, model, validation): {read_time * 1000:8.1f} ms  = {read_time / floor:5.2f}x")
    print(
        f"every tww check:                {check_time * 1000:8.1f} ms  = {check_time / floor:5.2f}x "
        f"({len(report.violations)} violations, {len(report.findings)} findings)"
    )


if __name__ == "__main__":
    main(*(int(argument) for argument in sys.argv[1:4]))
