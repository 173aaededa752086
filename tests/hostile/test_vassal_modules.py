"""Grid numbering from an uploaded module and odd zips: refused with a sentence, before any work."""

from __future__ import annotations

import pytest

from tests.hostile import shapes
from tests.hostile.conftest import WEB_PEAK_MB
from tests.hostile.cost import measure

REFUSALS = [
    # An offset of two billion letters built a label of 77 million letters, one at a time.
    (
        "",
        'hType="A" hOff="2000000000"',
        'HexGridNumbering\'s hOff="2000000000" is more than the grid_offset limit of 10,000',
    ),
    # Leading zeros were counted against 10**leading, a number with two billion digits.
    (
        "",
        'hLeading="2000000000"',
        'HexGridNumbering\'s hLeading="2000000000" is more than the grid_leading limit of 32',
    ),
    ("", 'vOff="-20000"', 'HexGridNumbering\'s vOff="-20000" is more than the grid_offset limit of 10,000'),
    # Every location divides by the spacing.
    ('dx="0"', "", 'HexGrid\'s dx="0" is not a distance of at least 0.001 pixel'),
    ('dy="0"', "", 'HexGrid\'s dy="0" is not a distance of at least 0.001 pixel'),
    ('dy="-64"', "", 'HexGrid\'s dy="-64" is not a distance of at least 0.001 pixel'),
    ('dx="1e-320"', "", 'HexGrid\'s dx="1e-320" is not a distance of at least 0.001 pixel'),
]


@pytest.mark.parametrize("grid_attributes, numbering, sentence", REFUSALS)
def test_hostile_grid_numbers_are_refused_when_the_module_is_read(tmp_path, grid_attributes, numbering, sentence):
    path = shapes.build_file(tmp_path / "buildFile.xml", "HexGrid", grid_attributes, numbering)
    cost = measure("module_location", path, argument=[100, 100])
    assert cost.refused, cost
    assert sentence in cost.refused
    assert "line 6" in cost.refused or "line 7" in cost.refused
    assert cost.refused.endswith(
        "the module must be corrected (in VASSAL's module editor) before its saves can be checked."
    )
    assert cost.peak_mb < WEB_PEAK_MB


def test_a_square_grid_without_spacing_is_refused(tmp_path):
    path = shapes.build_file(tmp_path / "buildFile.xml", "SquareGrid", 'dx="0"', "")
    cost = measure("module_location", path, argument=[100, 100])
    assert cost.refused and 'SquareGrid\'s dx="0" is not a distance of at least 0.001 pixel' in cost.refused


def test_a_point_whose_label_would_be_huge_is_refused_with_the_point(tmp_path):
    # A fine grid and letters: column 999 / 0.001 needs 38,424 letters.
    path = shapes.build_file(tmp_path / "buildFile.xml", "HexGrid", 'dx="0.001"', 'hType="A"')
    cost = measure("module_location", path, argument=[999, 100])
    assert (
        cost.refused
        and (
            "the point (999, 100) on the map Main is so far along the grid of the board Board that "
            "its label would have 38,424 characters, more than the label_characters limit of 1,000"
        )
        in cost.refused
    )
    assert cost.peak_mb < WEB_PEAK_MB


def test_ordinary_numbering_still_names_points(tmp_path):
    path = shapes.build_file(
        tmp_path / "buildFile.xml",
        "HexGrid",
        'dx="50" dy="64" x0="0" y0="32"',
        'hType="A" hOff="0" vOff="1" stagger="false"',
    )
    assert measure("module_location", path, argument=[100, 96]).summary == "C02"


def test_a_zip_needing_a_version_no_tool_writes_is_refused(tmp_path):
    path = shapes.write_vsav(tmp_path / "odd.vsav", shapes.voxz(shapes.restore()))
    data = bytearray(path.read_bytes())
    header = data.index(b"PK\x01\x02")  # the central directory's entry
    data[header + 6 : header + 8] = (99).to_bytes(2, "little")  # "version needed to extract": 9.9
    path.write_bytes(bytes(data))
    for operation in ("vassal_save", "module_location"):
        cost = measure(operation, path, argument=[0, 0])
        assert (
            cost.refused == f"{path}: is a zip archive that uses a feature VASSAL never writes (zip file version 9.9)."
        )
