"""Saves an A World at War check cannot use: exit code 2 with the file, the line and what is wrong."""

from __future__ import annotations

import shutil

import pytest

from .fixtures import FIXTURES

LEGAL = (FIXTURES / "legal-occupied-france.xml").read_text(encoding="utf-8")


@pytest.fixture
def write(tmp_path):
    shutil.copy(FIXTURES / "map.xml", tmp_path / "map.xml")

    def write_save(text: str, name: str = "save.xml"):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write_save


def with_fact(text: str, name: str, value: str) -> str:
    return text.replace('  <map href', f'  <fact name="{name}" value="{value}"/>\n  <map href', 1)


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def test_the_legal_save_is_usable(run_cli, write):
    code, out, err = run_cli("check", write(LEGAL))
    assert (code, err) == (0, "")


@pytest.mark.parametrize(
    "name, value, problem",
    [
        ("at-war", "germany germany", "puts a power at war with itself"),
        ("at-war", "germany narnia", "does not name two known powers"),
        ("control", "germany 9999", "names the hex(es) 9999, which the map does not have"),
        ("area-control", "germany atlantis", "names the area(s) atlantis, which the map does not have"),
        ("rgt", "lots", "is not a whole number"),
        ("moslem-unrest", "libya 1", "does not name a Middle East area"),
        ("surrendered", "italy italy", "has a power surrender to itself"),
        ("weather", "fine", "is not an A World at War fact"),
    ],
)
def test_bad_facts_are_refused_with_their_line(run_cli, write, name, value, problem):
    text = with_fact(LEGAL, name, value)
    code, out, err = run_cli("check", write(text))
    assert code == 2 and out == ""
    needle = f'value="{value}"'
    assert f"line {line_of(text, needle)}" in err
    assert problem in err


def test_a_bad_value_of_a_repeated_fact_is_refused_at_its_own_line(run_cli, write):
    """The save gives at-war several times; the bad one comes first, so its line is not the name's last."""
    text = LEGAL.replace('  <fact name="at-war"', '  <fact name="at-war" value="germany germany"/>\n  <fact name="at-war"', 1)
    assert text.count('<fact name="at-war"') > 2
    code, out, err = run_cli("check", write(text))
    assert code == 2 and out == ""
    bad_line = line_of(text, 'value="germany germany"')
    assert f"line {bad_line}: the fact at-war='germany germany'" in err


@pytest.mark.parametrize(
    "old, new, problem",
    [
        ('builder="britain" ', "", "is a partisan without a builder"),
        ('builder="britain"', 'builder="narnia"', "was built by 'narnia'"),
        ('home="france" ', "", "is a partisan without a home country"),
        ('builder="britain"', 'builder="britain" faction="axis"', "is marked faction 'axis'"),
        ('type="partisan"', 'type="dragon"', "has the type 'dragon'"),
        ('placed-this-phase="true"', 'placed-this-phase="yes"', "use 'true' or 'false'"),
        ('placed-this-phase="true"', 'colour="red"', "has the attribute 'colour'"),
    ],
)
def test_bad_partisans_are_refused_with_their_line(run_cli, write, old, new, problem):
    text = LEGAL.replace(old, new, 1)
    code, out, err = run_cli("check", write(text))
    assert code == 2, err
    assert f"line {line_of(text, '<piece id=')}" in err
    assert problem in err


def test_a_unit_without_an_owner_is_refused(run_cli, write):
    text = LEGAL.replace("  </pieces>", '    <piece id="de1" name="Infantry" type="infantry" location="0303"/>\n  </pieces>')
    code, out, err = run_cli("check", write(text))
    assert code == 2 and "the piece 'de1' has no owner" in err


def test_a_piece_on_an_unknown_hex_is_refused(run_cli, write):
    text = LEGAL.replace('location="0202"', 'location="9999"')
    code, out, err = run_cli("check", write(text))
    assert code == 2 and "'9999', which the map does not have" in err


def test_a_bad_turn_is_refused(run_cli, write):
    code, out, err = run_cli("check", write(LEGAL.replace('turn="spring 1943"', 'turn="7"')))
    assert code == 2 and "should be a season" in err


def test_map_neighbours_that_do_not_exist_are_refused(run_cli, tmp_path):
    (tmp_path / "map.xml").write_text(
        '<map xmlns="urn:referee:save:1" game="awaw">\n  <area id="france" name="France"/>\n'
        '  <hex id="a" area="france" neighbours="b"/>\n</map>\n', encoding="utf-8")
    save = tmp_path / "save.xml"
    save.write_text(LEGAL.replace('location="0202"', 'location="a"'), encoding="utf-8")
    code, out, err = run_cli("check", save)
    assert code == 2 and "map.xml, line 3" in err and "names a neighbour 'b' that the map does not have" in err


@pytest.mark.parametrize(
    "old, new, problem",
    [
        ('area="france" features="city capital objective"', 'area="france" features="castle"', "unknown feature(s) castle"),
        ('id="0101" column="1" row="1" area="france"', 'id="0101" column="1" row="1" area="narnia"', "lies in the area 'narnia'"),
        ('id="0101" column="1" row="1" area="france"', 'id="0101" column="1" row="1" area="france" controller="mordor"', "has the controller 'mordor'"),
        ('id="0101" column="1" row="1" area="france"', 'id="0101" column="1" row="1" area="france" island="maybe"', "island='maybe'"),
        ('<area id="ukraine" name="Ukraine" part-of="russia"/>', '<area id="ukraine" name="Ukraine" part-of="narnia"/>', "is part of 'narnia'"),
    ],
)
def test_bad_map_data_is_refused_with_the_map_line(run_cli, tmp_path, old, new, problem):
    text = (FIXTURES / "map.xml").read_text(encoding="utf-8")
    assert old in text
    changed = text.replace(old, new, 1)
    (tmp_path / "map.xml").write_text(changed, encoding="utf-8")
    save = tmp_path / "save.xml"
    save.write_text(LEGAL, encoding="utf-8")
    code, out, err = run_cli("check", save)
    assert code == 2 and problem in err
    assert f"map.xml, line {line_of(changed, new)}" in err
