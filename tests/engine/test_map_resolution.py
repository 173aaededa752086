"""A save copied anywhere finds the map its game ships, as docs/save-format.md says.

An href is a path from the save's folder; when no file is there, its last
part is looked up among the maps the save's game ships.  These tests copy
the real Tito example out of the checkout and run the real command line.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from validator import cli
from validator.saves.xml_reader import SaveInputError, read_position_file

from .conftest import FROG, MAP, position_xml

CHECKOUT = Path(__file__).resolve().parents[2]
EXAMPLE = CHECKOUT / "examples" / "tito" / "overstacked.xml"
SHIPPED_HREF = "../../plugin/tito/maps/tito-map.xml"
TITO_MAPS = sorted(path.name for path in (CHECKOUT / "plugin" / "tito" / "maps").glob("*.xml"))


def copy_of_example(folder: Path, href: str | None = None) -> Path:
    """The overstacked example written into ``folder``, its map href replaced when one is given."""
    text = EXAMPLE.read_text(encoding="utf-8")
    assert f'<map href="{SHIPPED_HREF}"/>' in text
    if href is not None:
        text = text.replace(f'<map href="{SHIPPED_HREF}"/>', f'<map href="{href}"/>')
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "overstacked.xml"
    path.write_text(text, encoding="utf-8")
    return path


def map_line() -> int:
    text = EXAMPLE.read_text(encoding="utf-8")
    return text[: text.index("<map href")].count("\n") + 1


def check_json(path: Path, capsys) -> tuple[int, dict]:
    code = cli.main(["check", str(path), "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def results(report: dict) -> list:
    return [report["violations"], report["findings"], report["legal"]]


@pytest.mark.parametrize("href", [SHIPPED_HREF, "tito-map.xml", "maps/tito-map.xml", "..\\maps\\tito-map.xml"])
def test_a_copied_save_is_checked_against_the_shipped_map(tmp_path, capsys, href):
    in_place_code, in_place = check_json(EXAMPLE, capsys)
    code, copied = check_json(copy_of_example(tmp_path / "club" / "saves", href), capsys)
    assert (code, results(copied)) == (in_place_code, results(in_place))
    assert code == 1 and any(item["rule"] == "tito:6.21" for item in copied["violations"])


def run_check(save: Path, folder: Path) -> subprocess.CompletedProcess:
    """``referee check`` in a real process started in ``folder``, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "validator.cli", "check", str(save)],
        cwd=folder, capture_output=True, text=True, timeout=120, check=False,
    )


def test_the_command_checks_a_copy_placed_anywhere_as_it_checks_the_example(tmp_path):
    save = copy_of_example(tmp_path)
    copied, in_place = run_check(save, tmp_path), run_check(EXAMPLE, tmp_path)
    assert (copied.returncode, copied.stderr) == (1, "")
    assert copied.stdout.replace(str(save), "SAVE") == in_place.stdout.replace(str(EXAMPLE), "SAVE")
    assert "[6.21]" in copied.stdout


def test_a_name_no_map_answers_lists_the_maps_the_game_ships(tmp_path, capsys):
    save = copy_of_example(tmp_path, "club-map.xml")
    assert cli.main(["check", str(save)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    message = captured.err.strip()
    assert "\n" not in message and "Traceback" not in message
    assert message.startswith(
        f"referee: {save}, line {map_line()}: the map 'club-map.xml' cannot be used: {tmp_path / 'club-map.xml'}: "
    ), message
    assert "no such file, and Tito and His Partisan Army (SPI) ships no map of that name; " in message
    assert message.endswith(f"or name in href one of the maps the game ships: {', '.join(TITO_MAPS)}"), message


def test_a_file_next_to_the_save_comes_before_the_shipped_map(tmp_path, capsys):
    save = copy_of_example(tmp_path, "tito-map.xml")
    (tmp_path / "tito-map.xml").write_text("<map>\n<unclosed>", encoding="utf-8")
    assert cli.main(["check", str(save)]) == 2
    message = capsys.readouterr().err
    assert f"{tmp_path / 'tito-map.xml'}, line 2" in message and "not well-formed XML" in message


def test_a_folder_named_by_the_href_is_not_replaced_by_a_shipped_map(tmp_path, capsys):
    save = copy_of_example(tmp_path, "tito-map.xml")
    (tmp_path / "tito-map.xml").mkdir()
    assert cli.main(["check", str(save)]) == 2
    assert "is a folder" in capsys.readouterr().err


# -- The same rule for a game of our own, whose maps folder is in a temporary folder --------


@pytest.fixture
def pond_with_a_shipped_map(pond, tmp_path, monkeypatch):
    import dataclasses

    from validator import games

    shipped = tmp_path / "plugin"
    (shipped / "maps").mkdir(parents=True)
    (shipped / "maps" / "pond-map.xml").write_text(MAP.replace("North Pond", "Shipped North Pond"), encoding="utf-8")
    game = dataclasses.replace(pond, folder=shipped)
    monkeypatch.setitem(games.registry(), "pond", game)
    return game


def write_pond_save(folder: Path, href: str, name: str = "save.xml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(position_xml(FROG.format(id="f1", at="north/pad"), map_part=f'<map href="{href}"/>'), "utf-8")
    return path


def test_a_shipped_map_read_by_many_saves_is_prepared_once(pond_with_a_shipped_map, tmp_path):
    first = read_position_file(write_pond_save(tmp_path / "a", "pond-map.xml"))
    second = read_position_file(write_pond_save(tmp_path / "b", "elsewhere/pond-map.xml"))
    assert first.map.areas["north"].name == "Shipped North Pond"
    assert first.map is second.map


def test_a_game_that_ships_no_maps_says_so(pond, tmp_path):
    with pytest.raises(SaveInputError) as raised:
        read_position_file(write_pond_save(tmp_path / "a", "pond-map.xml"))
    assert raised.value.problem == (
        f"the map 'pond-map.xml' cannot be used: {tmp_path / 'a' / 'pond-map.xml'}: no such file, and Pond ships no "
        "maps; put the map file there"
    )


@pytest.mark.parametrize(
    "make_href, reason",
    [
        (lambda folder: "a" * 5000 + ".xml", "cannot be read (File name too long)"),
        (lambda folder: "x/" * 3000 + "tito-map.xml", "cannot be read (File name too long)"),
        (lambda folder: _symbolic_link_loop(folder), "cannot be read (a loop of symbolic links)"),
    ],
)
def test_an_href_no_file_can_answer_is_one_sentence(tmp_path, capsys, make_href, reason):
    save = copy_of_example(tmp_path, make_href(tmp_path))
    assert cli.main(["check", str(save)]) == 2
    message = capsys.readouterr().err
    assert message.startswith(f"referee: {save}, line {map_line()}: the map '") and message.count("\n") == 1
    assert message.rstrip().endswith(reason), message[-200:]


def _symbolic_link_loop(folder: Path) -> str:
    (folder / "loop-one").symlink_to(folder / "loop-two")
    (folder / "loop-two").symlink_to(folder / "loop-one")
    return "loop-one"
