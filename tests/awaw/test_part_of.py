"""An area that is part of a part of a country is in that country: part-of is followed to its end."""

from __future__ import annotations

import shutil

import pytest

from validator import runner
from validator.saves.xml_reader import read_position_file

from plugin.awaw.situation import situation

from tests.game_fixtures import ROOT

FIXTURES = ROOT / "awaw"

UKRAINE = '<area id="ukraine" name="Ukraine" part-of="russia"/>'
KIEV = '<area id="kiev" name="Kiev" part-of="ukraine"/>'  # kiev -> ukraine -> russia
KIEV_HEX = '<hex id="1407" column="14" row="7" area="'


@pytest.fixture
def kiev_save(tmp_path):
    """A fixture save copied beside the test map, with hex 1407 moved from the Ukraine into Kiev."""
    text = (FIXTURES / "map.xml").read_text(encoding="utf-8")
    assert UKRAINE in text and KIEV_HEX + 'ukraine"' in text
    text = text.replace(UKRAINE, f"{UKRAINE}\n  {KIEV}").replace(KIEV_HEX + 'ukraine"', KIEV_HEX + 'kiev"')
    (tmp_path / "map.xml").write_text(text, encoding="utf-8")

    def copy(name: str, old: str = "", new: str = ""):
        save = (FIXTURES / f"{name}.xml").read_text(encoding="utf-8")
        assert old in save
        path = tmp_path / f"{name}.xml"  # in a case folder beside the map, as in tests/fixtures/awaw
        path.parent.mkdir(exist_ok=True)
        path.write_text(save.replace(old, new, 1), encoding="utf-8")
        return read_position_file(path)

    return copy


def test_a_hex_in_kiev_is_in_russia_and_in_the_ukraine(kiev_save):
    where = situation(kiev_save("11.33C/pass-ukraine-result-5"))
    kiev = where.hexes["1407"]
    assert (kiev.country, kiev.region) == ("russia", "kiev")
    assert kiev.regions == {"kiev", "ukraine", "russia"}
    assert where.area_countries["kiev"] == "russia"


def test_a_russian_partisan_in_kiev_stands_in_russia(kiev_save):
    """It used to be read as standing in the Ukraine, outside Russia (11.42)."""
    report = runner.check(kiev_save("11.33C/pass-ukraine-result-5"))
    assert [str(violation) for violation in report.violations] == []


def test_a_partisan_built_in_kiev_was_built_in_russia(kiev_save):
    position = kiev_save("11.33C/pass-ukraine-result-5", 'home="russia"', 'home="kiev"')
    (partisan,) = situation(position).partisans
    assert situation(position).home_country(partisan) == "russia"
    assert runner.check(position).violations == []


def test_kiev_still_counts_as_the_ukraine(kiev_save):
    """A diplomatic result of 6 in the Ukraine reaches Kiev, and so does area-control of the Ukraine."""
    position = kiev_save("11.33C/fail-communists-in-the-ukraine")
    assert situation(position).hexes["1407"].controller == "germany"  # from area-control germany ukraine
    assert [str(violation.case) for violation in runner.check(position).violations] == ["11.33C"]


def test_an_irish_partisan_next_to_an_area_within_ulster_is_next_to_ulster(tmp_path):
    """The Ulster exceptions (11.42, 11.71A) look at every area a hex lies within."""
    text = (FIXTURES / "map.xml").read_text(encoding="utf-8")
    ulster = '<area id="ulster" name="Ulster" part-of="britain"/>'
    assert ulster in text
    text = text.replace(ulster, f'{ulster}\n  <area id="belfast" name="Belfast" part-of="ulster"/>')
    # Only the area says Ulster now: the hexes lose their ulster feature.
    text = text.replace('area="ulster" features="ulster"', 'area="belfast"')
    text = text.replace('area="ulster" features="ulster city"', 'area="belfast" features="city"')
    assert 'area="ulster"' not in text
    (tmp_path / "map.xml").write_text(text, encoding="utf-8")
    for name in ("11.42/pass-irish-partisan-in-ulster", "11.71/fail-irish-partisan-next-to-ulster"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        shutil.copy(FIXTURES / f"{name}.xml", tmp_path / f"{name}.xml")
        original = runner.check(read_position_file(FIXTURES / f"{name}.xml"))
        moved = runner.check(read_position_file(tmp_path / f"{name}.xml"))
        assert [item.message for item in moved.violations] == [item.message for item in original.violations]
        assert [item.message for item in moved.findings] == [item.message for item in original.findings]
