"""Saves an A World at War check cannot use: exit code 2 with the file, the line and what is wrong."""

from __future__ import annotations

import re
import shutil

import pytest

from tests.game_fixtures import ROOT

FIXTURES = ROOT / "awaw"

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
        ("at-war", "germany germany", "not 'germany germany'; 'germany' is given twice"),
        ("at-war", "germany narnia", "takes two powers at war with each other, e.g. 'germany russia', not 'germany narnia'; 'narnia' is not a power"),
        ("control", "germany 9999", "then hexes of the map, separated by spaces, not 'germany 9999'; the map has no hex '9999'"),
        ("area-control", "germany atlantis", "not 'germany atlantis'; the map has no area 'atlantis'"),
        ("rgt", "lots", "the fact 'rgt' takes a whole number from 0 to 999999, not 'lots'"),
        ("moslem-unrest", "libya 1", "'libya' is not one of egypt, iraq-group, persia"),
        ("surrendered", "italy italy", "not 'italy italy'; 'italy' is given twice"),
        ("weather", "fine", "the fact 'weather' is not an A World at War fact; the facts are at-war, conquered,"),
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
    assert f"line {bad_line}: the fact 'at-war' takes two powers" in err


@pytest.mark.parametrize(
    "old, new, problem",
    [
        ('builder="britain" ', "", "has no builder=; it takes a power that builds partisans (germany,"),
        ('builder="britain"', 'builder="narnia"', "has builder='narnia'; it takes a power that builds partisans"),
        ('home="france" ', "", "has no home=; it takes the country it was built in"),
        ('builder="britain"', 'builder="britain" faction="axis"', "is marked faction 'axis'"),
        ('type="partisan"', 'type="dragon"', "has type='dragon'; it takes an A World at War piece type (air,"),
        ('placed-this-phase="true"', 'placed-this-phase="yes"', "has placed-this-phase='yes'; it takes true or false"),
        ('placed-this-phase="true"', 'colour="red"', "has an unknown attribute 'colour' (a partisan takes type, builder,"),
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
    assert code == 2 and "the position has turn='7'; it takes a season (winter, spring, summer, fall) and a year" in err


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
        ('area="france" features="city capital objective"', 'area="france" features="castle"', "the hex '0303' has features='castle'; it takes hex features (city, port, capital, objective, key-economic-area, "
         "ulster, abadan, ahwaz, tehran); 'castle' is not a hex feature"),
        ('id="0101" column="1" row="1" area="france"', 'id="0101" column="1" row="1" area="narnia"', "the hex '0101' has area='narnia'; it takes an area the map declares with <area>"),
        ('id="0101" column="1" row="1" area="france"', 'id="0101" column="1" row="1" area="france" controller="mordor"', "the hex '0101' has controller='mordor'; it takes a power, 'neutral' or 'none'"),
        ('id="0101" column="1" row="1" area="france"', 'id="0101" column="1" row="1" area="france" island="maybe"', "the hex '0101' has island='maybe'; it takes true or false"),
        ('<area id="ukraine" name="Ukraine" part-of="russia"/>', '<area id="ukraine" name="Ukraine" part-of="narnia"/>', "the area 'ukraine' has part-of='narnia'; it takes an area of the map or a known country"),
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


def write_map(tmp_path, text: str) -> None:
    (tmp_path / "map.xml").write_text(text, encoding="utf-8")


MAP = (FIXTURES / "map.xml").read_text(encoding="utf-8")


# -- a unit off the map -----------------------------------------------------------


def test_an_off_map_unit_listing_zoc_hexes_is_refused_at_its_line(run_cli, write):
    """A unit with no location has no ZoC: listing hexes for it contradicts itself (it used to stop wa1's placement)."""
    unit = '    <piece id="de9" name="Infantry" type="infantry" owner="germany" zoc-hexes="0202"/>\n'
    text = LEGAL.replace("  </pieces>", unit + "  </pieces>")
    code, out, err = run_cli("check", write(text))
    assert code == 2 and out == ""
    line = line_of(text, '<piece id="de9"')
    assert f"line {line}: the piece 'de9' is off the map" in err
    assert "exerts no ZoC" in err


def test_the_same_unit_on_the_map_still_exerts_its_listed_zoc(run_cli, write):
    unit = '    <piece id="de9" name="Infantry" type="infantry" owner="germany" location="0303" zoc-hexes="0202"/>\n'
    code, out, err = run_cli("check", write(LEGAL.replace("  </pieces>", unit + "  </pieces>")))
    assert code == 1 and "[11.353E] wa1 (built by Britain) was placed in the ZoC of the enemy de9" in out


# -- the country words of facts ------------------------------------------------------


@pytest.mark.parametrize(
    "name, value, problem",
    [
        ("conquered", "frnace germany", "'frnace' is not a known country or an area of the map"),
        ("conquered", "France germany", "'France' is not a known country or an area of the map"),
        ("diplomatic-result", "irland 7", "'irland' is not a known country or an area of the map"),
        ("minor-attacked", "grece italy", "'grece' is not a minor country"),
        ("minor-associated", "grece italy", "'grece' is not a minor country"),
        ("minor-war-declared", "persa britain", "'persa' is not a minor country"),
        ("minor-war-declared", "germany japan", "'germany' is not a minor country"),
        ("country-controller", "lebanon britain", "'lebanon' is not a minor country"),
        ("sued-for-peace", "britain europe", "'britain' is not one of usa"),
        ("sued-for-peace", "usa africa", "'africa' is not one of europe, pacific"),
    ],
)
def test_facts_naming_an_unknown_country_are_refused_at_their_line(run_cli, write, name, value, problem):
    text = with_fact(LEGAL, name, value)
    code, out, err = run_cli("check", write(text))
    assert code == 2 and out == ""
    needle = f'value="{value}"'
    assert f"line {line_of(text, needle)}: the fact '{name}' takes " in err and f"not '{value}'; {problem}" in err


@pytest.mark.parametrize(
    "name, value",
    [
        ("conquered", "algeria germany"),  # not in the vocabulary, but an area of the map
        ("conquered", "greece italy"),
        ("diplomatic-result", "ireland 5"),
        ("minor-attacked", "greece italy"),
        ("country-controller", "lebanon-syria britain"),
        ("sued-for-peace", "usa pacific"),
    ],
)
def test_facts_naming_known_countries_are_accepted(run_cli, write, name, value):
    code, out, err = run_cli("check", write(with_fact(LEGAL, name, value)))
    assert (code, err) == (0, "")


# -- facts that hold one value ------------------------------------------------------


def two_facts(name: str, first: str, second: str) -> str:
    """LEGAL with only these two values of the fact (its own rgt or conquered taken out)."""
    text = re.sub(f'  <fact name="{name}" value="[^"]*"/>\n', "", LEGAL)
    return with_fact(with_fact(text, name, first), name, second)


@pytest.mark.parametrize(
    "name, first, second",
    [
        ("rgt", "60", "10"),
        ("russian-occupation-policies", "1", "2"),
        ("western-allied-partisan-results", "0", "3"),
        ("russian-partisan-results", "2", "1"),
        ("indian-subversion-results", "1", "0"),
        ("persian-brp-route", "active", "inactive"),
        ("conquered", "greece italy", "greece germany"),
        ("surrendered", "italy allies", "italy germany"),
        ("diplomatic-result", "ireland 5", "ireland 7"),
        ("moslem-unrest", "egypt 1", "egypt 2"),
        ("country-controller", "lebanon-syria britain", "lebanon-syria italy"),
        ("objectives", "axis 3", "axis 4"),
    ],
)
def test_a_single_valued_fact_given_twice_differently_is_refused_at_the_second(run_cli, write, name, first, second):
    """The last value used to win silently, so the verdict depended on the order of the facts."""
    text = two_facts(name, first, second)
    code, out, err = run_cli("check", write(text))
    assert code == 2 and out == ""
    first_line, second_line = line_of(text, f'value="{first}"'), line_of(text, f'value="{second}"')
    assert first_line < second_line
    assert (f"line {second_line}: the fact '{name}' is given as '{second}' here and as '{first}' at line {first_line}; "
            "keep the one that holds and remove the other") in err


def test_rgt_given_twice_is_refused_whichever_comes_first(run_cli, write):
    """LEGAL has rgt 20: another rgt, before or after it, contradicts it."""
    before = LEGAL.replace('  <fact name="at-war"', '  <fact name="rgt" value="60"/>\n  <fact name="at-war"', 1)
    code, out, err = run_cli("check", write(before))
    second = line_of(before, '<fact name="rgt" value="20"')
    assert code == 2 and f"line {second}: the fact 'rgt' is given as '20' here and as '60'" in err


@pytest.mark.parametrize(
    "name, first, second",
    [
        ("rgt", "20", "20"),
        ("rgt", "20", "020"),  # the same number
        ("conquered", "france germany", "france germany"),
        ("conquered", "greece italy", "norway germany"),  # one value per country, not one fact
        ("diplomatic-result", "ireland 5", "ukraine 4"),
        ("minor-attacked", "greece italy", "greece germany"),  # list facts repeat freely
        ("minor-associated", "greece italy", "greece germany"),
        ("minor-war-declared", "greece usa", "greece britain"),
        ("sued-for-peace", "usa europe", "usa pacific"),
        ("at-war", "japan russia", "italy china"),
    ],
)
def test_identical_repeats_and_list_facts_are_accepted(run_cli, write, name, first, second):
    code, out, err = run_cli("check", write(two_facts(name, first, second)))
    assert code in (0, 1) and err == "", err


# -- counts ---------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["00060", "999999", "0"])
def test_counts_with_leading_zeros_or_six_digits_are_whole_numbers(run_cli, write, value):
    code, out, err = run_cli("check", write(LEGAL.replace('name="rgt" value="20"', f'name="rgt" value="{value}"')))
    assert (code, err) == (0, "")


@pytest.mark.parametrize("value", ["1000000", "-1", "6.5"])
def test_a_count_out_of_range_says_the_range(run_cli, write, value):
    text = LEGAL.replace('name="rgt" value="20"', f'name="rgt" value="{value}"')
    code, out, err = run_cli("check", write(text))
    assert code == 2
    line = line_of(text, '<fact name="rgt"')
    assert f"line {line}: the fact 'rgt' takes a whole number from 0 to 999999, not '{value}'" in err


# -- problems with the position or the map as a whole have a line ------------------


def test_a_missing_turn_is_reported_at_the_position_line(run_cli, write):
    text = LEGAL.replace(' turn="spring 1943"', "")
    code, out, err = run_cli("check", write(text))
    assert code == 2
    assert f"save.xml, line {line_of(text, '<position')}: the position has no turn=; it takes a season" in err


def test_an_unknown_map_attribute_is_reported_at_the_map_line(run_cli, tmp_path):
    write_map(tmp_path, MAP.replace('game="awaw"', 'game="awaw" colour="red"', 1))
    (tmp_path / "save.xml").write_text(LEGAL, encoding="utf-8")
    code, out, err = run_cli("check", tmp_path / "save.xml")
    assert code == 2
    assert (f"map.xml, line {line_of(MAP, '<map ')}: the map has an unknown attribute 'colour' (an A World at War map "
            "takes game, version, grid, layout)") in err
    assert "line 0" not in err


def test_a_map_for_another_game_is_reported_at_the_map_line():
    """The core reader refuses such a map first; the plugin's own check, for maps that reach it, names the line too."""
    from validator.model import Area, Location, MapData, Position

    from plugin.awaw import validate_position

    hexes = {hex_id: Location(hex_id, "hex", area="france", neighbours=(other,), line=line)
             for hex_id, other, line in (("a", "b", 6), ("b", "a", 7))}
    map_data = MapData(source="tito.xml", attributes={"game": "tito"}, areas={"france": Area("france", line=5)},
                       locations=hexes, line=4)
    problems = validate_position(Position(game="awaw", map=map_data, turn="spring 1943", line=2))
    assert problems == [(0, "the map tito.xml, line 4: the map has game='tito'; it takes one of awaw")]


def test_a_map_without_hexes_is_refused_at_its_line(run_cli, tmp_path):
    write_map(tmp_path, '<?xml version="1.0" encoding="UTF-8"?>\n\n<map xmlns="urn:referee:save:1" game="awaw">\n'
                        '  <area id="france" name="France"/>\n</map>\n')
    (tmp_path / "save.xml").write_text(LEGAL.replace(' location="0202"', ""), encoding="utf-8")
    code, out, err = run_cli("check", tmp_path / "save.xml")
    assert code == 2 and "map.xml, line 3: the map has no hexes" in err


def test_a_map_whose_hexes_touch_nothing_is_refused(run_cli, tmp_path):
    """No grid and no neighbour lists: every partisan would count as surrounded and no ZoC would reach it."""
    hexes = "".join(f'  <hex id="{hex_id}" area="france"/>\n' for hex_id in ("0202", "0203", "0302"))
    write_map(tmp_path, '<?xml version="1.0" encoding="UTF-8"?>\n<map xmlns="urn:referee:save:1" game="awaw">\n'
                        f'  <area id="france" name="France"/>\n{hexes}</map>\n')
    (tmp_path / "save.xml").write_text(LEGAL, encoding="utf-8")
    code, out, err = run_cli("check", tmp_path / "save.xml")
    assert code == 2 and out == ""
    assert "map.xml, line 2: no hex of the map has a neighbour" in err
    assert 'declare grid="hex"' in err and "list each hex's neighbours" in err


def test_a_map_with_neighbour_lists_and_no_grid_is_usable(run_cli, tmp_path):
    write_map(tmp_path, '<map xmlns="urn:referee:save:1" game="awaw">\n  <area id="france" name="France"/>\n'
                        '  <hex id="0202" area="france" neighbours="0203"/>\n'
                        '  <hex id="0203" area="france" neighbours="0202"/>\n</map>\n')
    (tmp_path / "save.xml").write_text(LEGAL, encoding="utf-8")
    code, out, err = run_cli("check", tmp_path / "save.xml")
    assert code in (0, 1) and err == ""


# -- part-of that goes round in a circle ---------------------------------------------


@pytest.mark.parametrize(
    "new, problem",
    [
        ('<area id="ukraine" name="Ukraine" part-of="ukraine"/>', "the area 'ukraine' is part of itself"),
        ('<area id="ukraine" name="Ukraine" part-of="kiev"/>\n  <area id="kiev" name="Kiev" part-of="ukraine"/>',
         "the area 'ukraine' is part of 'kiev', and part-of leads from there back to 'ukraine'"),
        ('<area id="ukraine" name="Ukraine" part-of="kiev"/>\n  <area id="kiev" name="Kiev" part-of="odessa"/>\n'
         '  <area id="odessa" name="Odessa" part-of="ukraine"/>',
         "(the circle holds 'ukraine', 'kiev', 'odessa')"),
    ],
)
def test_a_circle_of_part_of_is_refused_at_the_area_line(run_cli, tmp_path, new, problem):
    changed = MAP.replace('<area id="ukraine" name="Ukraine" part-of="russia"/>', new, 1)
    write_map(tmp_path, changed)
    (tmp_path / "save.xml").write_text(LEGAL, encoding="utf-8")
    code, out, err = run_cli("check", tmp_path / "save.xml")
    assert code == 2 and problem in err
    line = line_of(changed, '<area id="ukraine"')
    assert f"map.xml, line {line}: " in err
    assert "1 more problem" not in err  # one circle, one problem


# -- values a problem repeats stay short -------------------------------------------


def test_a_huge_fact_value_is_cut_short_in_the_problem(run_cli, write):
    value = " ".join(["germany"] * 20000)
    code, out, err = run_cli("check", write(with_fact(LEGAL, "at-war", value)))
    assert code == 2
    assert len(err) < 400, err
    assert f"the fact 'at-war' takes two powers at war with each other, e.g. 'germany russia', not '{value[:60]}…' ({len(value):,} characters)" in err


def test_a_fact_naming_many_unknown_hexes_names_a_few(run_cli, write):
    value = "germany " + " ".join(f"x{number}" for number in range(1000))
    code, out, err = run_cli("check", write(with_fact(LEGAL, "control", value)))
    assert code == 2
    assert len(err) < 500, err
    assert "characters); the map has no hexes 'x0', 'x1', 'x2', 'x3', 'x4' and 995 more" in err


@pytest.mark.parametrize(
    "old, new",
    [
        ('builder="britain"', 'builder="' + "n" * 5000 + '"'),
        ('home="france"', 'home="' + "n" * 5000 + '"'),
        ('placed-this-phase="true"', 'placed-this-phase="' + "y" * 5000 + '"'),
        ('placed-this-phase="true"', "n" * 5000 + '="true"'),
    ],
)
def test_a_huge_attribute_of_a_piece_is_cut_short(run_cli, write, old, new):
    code, out, err = run_cli("check", write(LEGAL.replace(old, new, 1)))
    assert code == 2
    assert len(err) < 400 and "(5,000 characters)" in err, err


def test_a_unit_listing_many_unknown_zoc_hexes_names_a_few(run_cli, write):
    listed = " ".join(f"z{number}" for number in range(500))
    unit = f'    <piece id="de9" name="Infantry" type="infantry" owner="germany" location="0303" zoc-hexes="{listed}"/>\n'
    code, out, err = run_cli("check", write(LEGAL.replace("  </pieces>", unit + "  </pieces>")))
    assert code == 2
    assert "has zoc-hexes='z0 z1 " in err and "the map has no hexes 'z0', 'z1', 'z2', 'z3', 'z4' and 495 more" in err
    assert "more problems" not in err  # one problem for the unit, not one per hex
