"""The SVG picture: closed hexes per side, units and offending hexes, CSP-safe."""

from __future__ import annotations

from lxml import etree

from validator import runner
from validator.saves.xml_reader import read_position_file

from plugin.tww import game
from plugin.tww.partisans import partisan_map
from plugin.tww.picture import main

from .conftest import FIXTURES

SVG = "{http://www.w3.org/2000/svg}"


def drawn(path):
    position = read_position_file(path)
    report = runner.check(position)
    return position, report, etree.fromstring(game.picture(position, report).encode())


def classes(root, name):
    return [element for element in root.iter() if element.get("class") == name]


def test_the_picture_marks_closed_hexes_units_and_offences():
    position, report, root = drawn(FIXTURES / "15.2/fail-finland.xml")
    assert root.tag == f"{SVG}svg"
    assert len(root.findall(f"{SVG}g[@id]")) == len(position.map.locations)
    assert len(classes(root, "closed-pact")) == len(partisan_map(position).sides["pact"].blocked) == 17
    assert classes(root, "closed-nato") == []
    assert [element.getparent().get("id") for element in classes(root, "offence")] == ["hex-h1003"]
    assert len(classes(root, "stack")) == 1
    assert root.find(f"{SVG}title").text.endswith(f": turn {position.turn}, 1 violation")


def test_undecided_hexes_are_drawn_dashed():
    _, _, root = drawn(FIXTURES / "15.1.3/pass-at-home.xml")  # no Kurdish alignment given
    assert len(classes(root, "maybe-closed-nato")) == len(classes(root, "maybe-closed-pact")) == 8


def test_no_style_attributes_or_elements_and_no_scripts():
    _, _, root = drawn(FIXTURES / "15.4.1.1/fail-greek-turkish.xml")
    assert not [element for element in root.iter() if "style" in element.attrib]
    assert root.find(f".//{SVG}style") is None and root.find(f".//{SVG}script") is None


def test_the_command_writes_a_picture(tmp_path, capsys):
    output = tmp_path / "out.svg"
    assert main([str(FIXTURES / "15.2/fail-yugoslavia.xml"), "-o", str(output)]) == 0
    assert etree.fromstring(output.read_bytes()).tag == f"{SVG}svg"
    assert main([str(tmp_path / "missing.xml")]) == 2
    assert "no such file" in capsys.readouterr().err
