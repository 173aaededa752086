"""Pieces off the map (no location) have not been built or placed: no check judges them."""

from __future__ import annotations

import pytest

from validator import runner
from validator.saves.xml_reader import read_position_file

from tests.game_fixtures import ROOT

FIXTURES = ROOT / "awaw"

LEGAL = (FIXTURES / "legal-occupied-france.xml").read_text(encoding="utf-8")

# Partisans that every check would object to on the map: of a country where none are built (11.33E/G/H),
# Axis ones in Europe not built by Germany (11.355), of a country with no pool (11.353A), of India not built
# by Japan (11.341C), of a surrendered power (11.38), over a pool (11.22, 11.23), in the Middle East before
# unrest (11.341A), marked as placed this phase (11.351-11.354).
OFF_MAP = [
    'builder="germany" home="germany"',
    'builder="japan" home="japan"',
    'builder="usa" home="usa"',
    'builder="italy" home="spain"',
    'builder="britain" home="algeria"',
    'builder="britain" home="india"',
    'builder="italy" home="egypt" placed-this-phase="true"',
    'builder="russia" home="france" placed-this-phase="true"',
    'builder="britain" home="britain" placed-this-phase="true"',
    'builder="germany" home="ireland" placed-this-phase="true"',
]


@pytest.mark.parametrize("attributes", OFF_MAP)
def test_no_check_judges_a_partisan_off_the_map(tmp_path, attributes):
    extra = "".join(f'    <piece id="x{number}" name="Spare" type="partisan" {attributes}/>\n' for number in range(3))
    text = LEGAL.replace("  </pieces>", extra + "  </pieces>")
    text = text.replace("  <map href", '  <fact name="surrendered" value="italy allies"/>\n  <map href', 1)
    (tmp_path / "map.xml").write_bytes((FIXTURES / "map.xml").read_bytes())
    (tmp_path / "save.xml").write_text(text, encoding="utf-8")
    judged = [str(result) for result in runner.iter_results(read_position_file(tmp_path / "save.xml"))
              if {"x0", "x1", "x2"} & set(result.pieces)]
    assert judged == []
