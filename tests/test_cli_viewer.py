"""`--viewer SIDE` takes only a side the save or the game's mapping defines, and names them otherwise."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from validator.saves.vassal.sequence import encode

ROOT = Path(__file__).resolve().parents[1]
MODULE = ROOT / "examples" / "vassal" / "tito-sample.vmod"
OPENING = ROOT / "examples" / "vassal" / "tito-opening.vsav"  # a save nobody has joined: its roster is empty
ESCAPE = "\x1b"


def _command(own: str, *subcommands: str) -> str:
    return encode([own, *subcommands], ESCAPE) if subcommands else own


def _chain(*traits: str) -> str:
    chained = traits[-1]
    for trait in reversed(traits[:-1]):
        chained = encode([trait, chained], "\t")
    return chained


def roster_save(path: Path) -> Path:
    """A plain-text .vsav on the sample Tito module: Anna plays Axis, Carl Chetnik; a mask engaged by side Italy."""
    spy = encode(["+", "7", _chain("obs;77,130;back.png;Mask;G;Hidden unit;side:", "piece;;;spy.png;Spy"),
                  _chain("Italy;", "Yugoslavia;100;100;;0")], "/")
    components = ("PLAYER\tpw-anna\tAnna\tAxis", "PLAYER\tpw-carl\tCarl\tChetnik",
                  "YugoslaviaBoardPicker\tZones\t0\t0", "Turn TrackBoardPicker\tTrack\t0\t0")
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("savedGame", _command("begin_save", "", _command("", spy), *components, "end_save"))
    return path


def test_dump_refuses_a_side_nothing_defines_and_lists_the_ones_that_exist(run_cli, tmp_path):
    save = roster_save(tmp_path / "roster.vsav")
    code, out, err = run_cli("vassal", "dump", save, "--viewer", "Allies")
    assert code == 2 and out == ""
    assert err == (f"referee: {save}: there is no side 'Allies'; the sides are 'Axis', 'Chetnik' and 'Italy' "
                   "(names are matched exactly), so name one of them or leave the viewer out to see as a spectator.\n")


@pytest.mark.parametrize("side", ["Axis", "Chetnik", "Italy"])
def test_dump_takes_a_roster_side_or_a_side_a_mask_names(run_cli, tmp_path, side):
    code, out, err = run_cli("vassal", "dump", roster_save(tmp_path / "roster.vsav"), "--viewer", side,
                             "--format", "json")
    assert code == 0, err
    spy = json.loads(out)["pieces"][0]
    assert json.loads(out)["viewer"] == side
    assert spy["name"] == ("Spy" if side == "Italy" else "Hidden unit")  # only Italy sees through its mask


def test_dump_of_a_save_that_defines_no_side_says_so(run_cli):
    code, _, err = run_cli("vassal", "dump", OPENING, "--viewer", "Axis")
    assert code == 2
    assert f"{OPENING}: the save defines no side (its player roster is empty and no mask names a side)" in err


def test_check_and_export_take_the_sides_of_the_game_mapping_too(run_cli, tmp_path):
    save = roster_save(tmp_path / "roster.vsav")
    for side in ("Yugoslav", "Chetnik"):
        code, _, err = run_cli("check", save, "--module", MODULE, "--game", "tito", "--viewer", side)
        assert code in (0, 1), err
    code, out, err = run_cli("export", save, "--module", MODULE, "--game", "tito", "--viewer", "axis")
    assert code == 2 and out == ""
    # the roster's sides, the mask's, then the ones plugin/tito/mappings/vassal-mapping.xml translates
    assert ("there is no side 'axis'; the sides are 'Axis', 'Chetnik', 'Italy', 'Yugoslav' and 'Neutral' "
            "(names are matched exactly)") in err


def test_check_of_a_save_with_an_empty_roster_lists_the_mapping_sides(run_cli):
    code, _, err = run_cli("check", OPENING, "--module", MODULE, "--game", "tito", "--viewer", "Partisans")
    assert code == 2
    assert "there is no side 'Partisans'; the sides are 'Axis', 'Yugoslav' and 'Neutral'" in err
    assert run_cli("check", OPENING, "--module", MODULE, "--game", "tito", "--viewer", "Axis")[0] in (0, 1)
