"""Saves that share one map share its reading, but never each other's control facts."""

from __future__ import annotations

import gc
import shutil
import weakref

from validator import runner
from validator.saves.xml_reader import read_position_file

from plugin.awaw.situation import situation

from tests.game_fixtures import ROOT

FIXTURES = ROOT / "awaw"

LEGAL = (FIXTURES / "legal-occupied-france.xml").read_text(encoding="utf-8")


def write_pair(tmp_path):
    """Two saves on one map: the legal one, and the same without its area-control fact."""
    shutil.copy(FIXTURES / "map.xml", tmp_path / "map.xml")
    with_control = tmp_path / "with-control.xml"
    with_control.write_text(LEGAL, encoding="utf-8")
    without_control = tmp_path / "without-control.xml"
    without_control.write_text(
        LEGAL.replace('  <fact name="area-control" value="germany france"/>\n', ""), encoding="utf-8"
    )
    return with_control, without_control


def test_a_control_fact_does_not_leak_into_another_save_on_the_same_map(tmp_path):
    with_control, without_control = write_pair(tmp_path)
    first = read_position_file(with_control)
    second = read_position_file(without_control)
    assert first.map is second.map  # the map was read once
    controlled, plain = situation(first), situation(second)
    assert controlled.hexes["0303"].controller == "germany"
    assert plain.hexes["0303"].controller == plain.map_hexes["0303"].controller
    assert plain.hexes is plain.map_hexes  # no fact changed a hex: nothing was copied
    assert controlled.map_hexes is plain.map_hexes and controlled.hexes is not controlled.map_hexes
    # Reading the first save again after the second gives the same answer.
    assert situation(read_position_file(with_control)).hexes["0303"].controller == "germany"


def test_the_objective_list_is_the_maps_objective_hexes_in_order(tmp_path):
    with_control, _ = write_pair(tmp_path)
    where = situation(read_position_file(with_control))
    assert list(where.objective_hexes) == [
        hex_id for hex_id, hex_info in where.hexes.items() if hex_info.has("objective")
    ]
    assert where.objective_hexes  # the fixture map has objectives


def test_home_countries_read_map_areas_that_are_part_of_a_country(tmp_path):
    with_control, _ = write_pair(tmp_path)
    position = read_position_file(with_control)
    where = situation(position)
    for area in position.map.areas.values():
        assert where.area_countries[area.id] == (area.attributes.get("part-of") or area.id)


def test_a_checked_position_is_not_kept_alive_by_the_plugin(tmp_path):
    """A server checks save after save: what the plugin derives must go with each position."""
    with_control, _ = write_pair(tmp_path)
    position = read_position_file(with_control)
    runner.check(position)
    reading = situation(position)
    assert situation(position) is reading  # worked out once, read by every check
    gone = weakref.ref(position)
    del position, reading
    gc.collect()
    assert gone() is None
