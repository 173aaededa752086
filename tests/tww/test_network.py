"""15.2's hex network: its searches reach exactly the hexes a hex-by-hex search does, and a prepared map keeps it.

The searches step from open part to closable hex (plugin/tww/network.py);
here they are compared with validator.hexpaths' search over every hex, on
grids with random closable hexes and random closed ones among them.
"""

from __future__ import annotations

import random

from validator import hexgrid, hexpaths, prepared_maps, runner
from validator.saves import unchanged_files, xml_reader
from validator.saves.xml_reader import read_position_file

from plugin.tww import network

from .conftest import save_text, unit


def grid(columns: int, rows: int) -> dict[str, tuple[str, ...]]:
    hexes = {(column, row): f"h{column:02d}{row:02d}" for column in range(columns) for row in range(rows)}
    return dict(hexgrid.neighbours("odd-q", hexes))


def in_hexes(hexes: network.HexNetwork, nodes: set) -> set[str]:
    """The hexes the nodes stand for."""
    return {hex_id for hex_id in (*hexes.part_of, *hexes.singles) if hexes.node(hex_id) in nodes}


def test_the_network_reaches_what_a_search_over_every_hex_reaches():
    rng = random.Random(152)
    for trial in range(40):
        graph = grid(rng.randint(1, 12), rng.randint(1, 12))
        ids = list(graph)
        closable = {hex_id for hex_id in ids if rng.random() < rng.choice((0.2, 0.5, 0.8))}
        hexes = network.build(ids, [graph[hex_id] for hex_id in ids], closable)
        closed = {hex_id for hex_id in closable if rng.random() < 0.6}
        doubtful = (closable - closed) if trial % 2 else set()
        starts = rng.sample(ids, min(len(ids), rng.randint(1, 3))) + ["not-a-hex"]
        touched_by_hex: set[str] = set()
        touched: set[str] = set()
        surely = hexes.reachable(starts, closed | doubtful, touched=touched)
        expected = hexpaths.reachable(graph, starts, closed | doubtful, touched=touched_by_hex)
        assert in_hexes(hexes, surely) == expected and touched == touched_by_hex, trial
        resumed = hexes.reachable((*starts, *touched), closed, seen=surely)
        assert in_hexes(hexes, resumed) == hexpaths.reachable(graph, (*starts, *touched_by_hex), closed,
                                                              seen=expected), trial
        for hex_id in ids:  # the whole map's parts, closed hexes or not
            together = hexpaths.reachable(graph, (hex_id,))
            assert {other for other in ids if hexes.whole_part[hexes.node(other)]
                    == hexes.whole_part[hexes.node(hex_id)]} == together, trial


def test_a_prepared_map_keeps_its_hex_network(write_save, tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_INSTANCE", str(tmp_path / "instance"))
    save = write_save(save_text(pieces=[unit("su-1", "pact", "soviet-union", "h0103", communication="yes")],
                                facts=[("supply-source:pact", "h1200")], phasing="pact"))
    first = read_position_file(save)
    assert None in first.map.derived["tww.hex-network"], "worked out when the map is prepared"
    assert any((tmp_path / "instance" / prepared_maps.FOLDER_NAME).iterdir()), "the prepared map was kept"
    xml_reader._MAP_CACHE.clear()
    unchanged_files._CACHE.clear()

    def not_again(*arguments):
        raise AssertionError("the hex network was worked out again instead of loaded with the map")

    monkeypatch.setattr(network, "build", not_again)
    again = read_position_file(save)
    assert again.map is not first.map, "the map came from the instance's entry, not this process's cache"
    assert again.map.derived["tww.hex-network"][None] == first.map.derived["tww.hex-network"][None]
    assert runner.check(again).violations == runner.check(first).violations
