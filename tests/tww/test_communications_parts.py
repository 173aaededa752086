"""15.2: a unit no path joins to its supply sources, partisans or not, is told apart from one partisans cut off.

The map's connected parts are found once per map; a unit in a part that holds
none of the hexes the sources reach is kept from them by the map itself.
"""

from __future__ import annotations

from validator import runner
from validator.saves.xml_reader import read_position_file

from .conftest import save_text, unit

FAR_HEX = '  <hex id="h4040" column="40" row="40" area="netherlands" terrain="clear"/>\n'


def test_a_unit_on_a_part_of_the_map_no_path_joins_is_warned_and_a_pocketed_one_still_violates(write_save):
    save = write_save(save_text(
        pieces=[unit("su-3", "pact", "soviet-union", "h0103", communication="yes"),
                unit("su-4", "pact", "soviet-union", "h4040", communication="yes")],
        facts=[("war-entry:yugoslavia", "1"), ("supply-source:pact", "h1200")], turn="2", phasing="pact",
    ))
    map_file = save.parent / "map.xml"
    map_file.write_text(map_file.read_text(encoding="utf-8").replace("</map>", FAR_HEX + "</map>"), encoding="utf-8")
    report = runner.check(read_position_file(save))
    (violation,) = report.violations
    assert violation.pieces == ("su-3",) and violation.facts["pocket_size"] == 12
    (warning,) = [result for result in report.results if result.pieces == ("su-4",)]
    assert warning.severity == "warning" and str(warning.case) == "15.2"
    assert "no path on the map joins its hex" in warning.message and "partisans or not" in warning.message


def test_a_unit_reached_only_through_hexes_partisans_may_close_is_unchecked_and_a_source_among_them_counts(write_save):
    """Kurdistan's alignment not given: its hexes may be closed to either side."""
    save = write_save(save_text(
        pieces=[unit("tr-1", "nato", "turkey", "h0505", communication="yes"),
                unit("tr-2", "nato", "turkey", "h0102", communication="yes")],
        facts=[("supply-source:nato", "h0000")],
    ))
    (unchecked,) = [result for result in runner.check(read_position_file(save)).results if result.pieces == ("tr-1",)]
    assert unchecked.severity == "unchecked" and "only through hexes that partisans may close" in unchecked.message
    assert "Kurdish partisans' alignment" in unchecked.message
    from_kurdistan = write_save(save_text(
        pieces=[unit("tr-1", "nato", "turkey", "h0505", communication="yes"),
                unit("tr-2", "nato", "turkey", "h0102", communication="yes")],
        facts=[("supply-source:nato", "h0604")],
    ), name="from-kurdistan.xml")
    results = runner.check(read_position_file(from_kurdistan)).results
    assert {result.pieces for result in results if result.severity == "unchecked" and result.pieces} == {
        ("tr-1",), ("tr-2",)}
    assert not runner.check(read_position_file(from_kurdistan)).violations
