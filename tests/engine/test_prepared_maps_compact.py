"""The compact form of a prepared map: each location kept as bytes or its hexes as columns, read when asked for;
damage found on loading.

A World at War's shipped map, prepared and kept in each test's own instance
folder (see tests/conftest.py), as tests/engine/test_prepared_maps.py does.
"""

from __future__ import annotations

import pickle

from validator import prepared_maps
from validator.games import get
from validator.saves import xml_reader

from tests.engine.test_prepared_maps import AWAW_MAP, Preparations, entry_of


def kept_and_fresh(tmp_path):
    path = tmp_path / "awaw-map.xml"
    path.write_bytes(AWAW_MAP.read_bytes())
    game, data, source = get("awaw"), path.read_bytes(), str(path)
    preparations = Preparations(game, data, source)
    fresh = prepared_maps.prepared(game, data, source, preparations)
    kept = prepared_maps.prepared(game, data, source, preparations)
    assert preparations.count == 1
    return game, data, source, kept, fresh


def test_a_kept_maps_locations_and_hexes_are_read_only_when_asked_for_and_equal_the_fresh_ones(tmp_path):
    _, _, _, kept, fresh = kept_and_fresh(tmp_path)
    rows = kept.locations.rows
    assert all(type(row) is bytes for row in rows.values())  # nothing decoded by loading
    assert kept.locations.hexes is not None and len(kept.locations.hexes.ids) == len(fresh.locations) - len(rows)
    some = list(fresh.locations)[:5]
    assert [kept.locations[location_id] for location_id in some] == [fresh.locations[i] for i in some]
    hexes = kept.derived["awaw"].hexes
    assert hexes[some[0]] is hexes[some[0]]  # read once
    assert dict(kept.locations) == dict(fresh.locations)
    assert dict(hexes) == dict(fresh.derived["awaw"].hexes)
    assert len(hexes) == len(fresh.derived["awaw"].hexes) and list(hexes) == list(fresh.derived["awaw"].hexes)


def test_a_hex_table_knows_only_hexes(tmp_path):
    _, _, _, kept, _ = kept_and_fresh(tmp_path)
    hexes = kept.derived["awaw"].hexes
    first = next(iter(hexes))
    assert first in hexes and "no such hex" not in hexes and hexes.get("no such hex") is None
    assert all(kept.locations[hex_id].kind == "hex" for hex_id in list(hexes)[:50])


def test_a_byte_changed_inside_a_kept_location_is_found_on_loading_and_the_entry_rebuilt(tmp_path):
    game, data, source, kept, _ = kept_and_fresh(tmp_path)
    entry = entry_of(game, data, source)
    whole = entry.read_bytes()
    last_hex = kept.locations.hexes.ids[-1].encode()
    at = whole.rindex(last_hex) + len(last_hex) - 1  # a letter of the last hex's id: the pickle still loads
    damaged = whole[:at] + bytes([whole[at] ^ 0x01]) + whole[at + 1:]
    header = len(prepared_maps.entry_header(game)) + prepared_maps.CHECKSUM_BYTES
    pickle.loads(damaged[header:])  # the damage is invisible to the pickle itself
    entry.write_bytes(damaged)
    xml_reader._MAP_CACHE.clear()
    preparations = Preparations(game, data, source)
    rebuilt = prepared_maps.prepared(game, data, source, preparations)
    assert preparations.count == 1  # refused on loading, prepared again
    assert entry.read_bytes() == whole
    assert dict(rebuilt.locations) == dict(kept.locations)
