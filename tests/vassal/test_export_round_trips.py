"""Round trips: a hand-written save -> a VASSAL save on the sample module -> read -> check, and export.

For every fixture and example a VASSAL save on the sample module can express
(no declared events, no off-map pieces, facts the mapping reads), checking
the VASSAL save must give exactly the results of checking the hand-written
save: same rules, severities, messages, locations and pieces (a message
quoting a line of its save is compared without the number).

A VASSAL save is checked without writing our save XML in between; its
export must read back as the very position read directly (every value and
line), with the very same results, so export and direct reading agree.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from modules import AWAW, TWW, NotExpressible, tito_module, tito_save_from_position
from submitting import check_file, export_file

from validator import runner
from validator.saves.vassal import read_saved_game
from validator.saves.xml_reader import SaveInputError, folder_resolver, read_position, read_position_file

ROOT = Path(__file__).resolve().parents[2]
TITO_FILES = sorted((ROOT / "tests" / "fixtures" / "tito").glob("*/*.xml")) + sorted(
    (ROOT / "examples" / "tito").glob("*.xml")
)
TWW_FILES = sorted((ROOT / "tests" / "fixtures" / "tww").glob("15*/*.xml")) + sorted(
    (ROOT / "examples" / "tww").glob("*legal.xml")
)
AWAW_FILES = sorted((ROOT / "tests" / "fixtures" / "awaw").glob("1*/*.xml")) + sorted(
    (ROOT / "examples" / "awaw").glob("partisans-*.xml")
)


def results(report):
    """What a report says; a line number a message quotes belongs to its own document, so it is left out."""
    return [
        (
            result.rule,
            result.severity,
            re.sub(r"\(line \d+\)", "(line N)", result.message),
            result.location,
            result.pieces,
        )
        for result in report.results
    ]


def _round_trip(tmp_path, path, make_module, make_save, game):
    try:
        expected = runner.check(read_position_file(path))
    except SaveInputError:
        pytest.skip("a bad-input fixture: nothing to compare")
    try:
        save = make_save(path, tmp_path / (path.stem + ".vsav"))
    except NotExpressible as reason:
        pytest.skip(f"a VASSAL save on the sample module cannot say {reason}")
    module = make_module(tmp_path)
    report = check_file(save, module, game)
    assert results(report) == results(expected)
    _assert_the_export_reads_back_as_the_position_read_directly(save, module, game, report, tmp_path)
    return report


def _assert_the_export_reads_back_as_the_position_read_directly(save, module, game, report, folder):
    back = read_position(export_file(save, module, game, relative_to=folder), str(save), folder_resolver(folder), game)
    direct = report.position
    assert back == direct
    assert dict(back.fact_lines) == dict(direct.fact_lines) and back.line == direct.line
    exact = [
        (result.rule, result.severity, result.message, result.location, result.pieces)
        for result in runner.check(back).results
    ]
    assert exact == [
        (result.rule, result.severity, result.message, result.location, result.pieces) for result in report.results
    ]


@pytest.mark.parametrize("path", TITO_FILES, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_tito_round_trip(tmp_path, path):
    _round_trip(tmp_path, path, tito_module, tito_save_from_position, "tito")


@pytest.mark.parametrize("path", TWW_FILES, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_tww_round_trip(tmp_path, path):
    _round_trip(tmp_path, path, TWW.module, TWW.save_from_position, "tww")


@pytest.mark.parametrize("path", AWAW_FILES, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_awaw_round_trip(tmp_path, path):
    _round_trip(tmp_path, path, AWAW.module, AWAW.save_from_position, "awaw")


def test_the_round_trips_cover_passing_and_failing_positions_of_every_game(tmp_path):
    """Guard against a harness that skips everything: count what each game really exercised."""
    covered = {}
    for game, files, make_module, make_save in (
        ("tito", TITO_FILES, tito_module, tito_save_from_position),
        ("tww", TWW_FILES, TWW.module, TWW.save_from_position),
        ("awaw", AWAW_FILES, AWAW.module, AWAW.save_from_position),
    ):
        module = make_module(tmp_path)
        legal = illegal = 0
        for path in files:
            try:
                read_position_file(path)
                save = make_save(path, tmp_path / f"{game}-{path.parent.name}-{path.stem}.vsav")
            except (SaveInputError, NotExpressible):
                continue
            report = check_file(save, module, game)
            legal += report.legal
            illegal += not report.legal
        covered[game] = (legal, illegal)
    assert all(legal >= 1 and illegal >= 1 for legal, illegal in covered.values()), covered
    assert sum(legal + illegal for legal, illegal in covered.values()) >= 20, covered


def test_overstacked_example_gives_its_two_stacking_violations(tmp_path):
    save = tito_save_from_position(ROOT / "examples" / "tito" / "overstacked.xml", tmp_path / "overstacked.vsav")
    report = check_file(save, tito_module(tmp_path), "tito")
    assert sorted((str(v.case), v.location) for v in report.violations) == [
        ("6.21", "bosnia/sarajevo/axis"),
        ("6.21", "montenegro/cetinje/axis"),
    ]
    assert report.position.source == str(save)


@pytest.mark.parametrize("fmt", ["VCSK", "VOBS", "VOXZ", "plain"])
def test_exporting_twice_gives_identical_bytes_whatever_the_save_generation(tmp_path, fmt):
    module = tito_module(tmp_path)
    exports = []
    for attempt, generation in (("first", fmt), ("second", fmt), ("reference", "VCSK")):
        folder = tmp_path / attempt
        folder.mkdir()
        save = tito_save_from_position(ROOT / "examples" / "tito" / "overstacked.xml", folder / "game.vsav", generation)
        assert read_saved_game(save).format == generation
        exports.append(export_file(save, module, "tito", relative_to=tmp_path))
    assert exports[0] == exports[1] == exports[2]
    assert exports[0].count(b"<piece ") == 23


def test_an_export_written_beside_its_map_reads_back_as_a_plain_save(tmp_path):
    save = tito_save_from_position(ROOT / "examples" / "tito" / "overstacked.xml", tmp_path / "overstacked.vsav")
    out = tmp_path / "exports"
    out.mkdir()
    xml = export_file(save, tito_module(tmp_path), "tito", relative_to=out)
    assert b'<map href="../../' in xml or b'<map href="..' in xml
    (out / "overstacked.xml").write_bytes(xml)
    position = read_position_file(out / "overstacked.xml", "tito")
    assert len(position.pieces) == 23
    absolute = export_file(save, tito_module(tmp_path), "tito")
    assert f'href="{(ROOT / "plugin" / "tito" / "maps" / "tito-map.xml").as_posix()}"'.encode() in absolute
    assert read_position(absolute, "x.xml", lambda href, game: (Path(href).read_bytes(), href), "tito").pieces
