"""`referee check FILE.vsav` and `referee export` through the command line."""

from pathlib import Path

from modules import tito_module, tito_save_from_position

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "tito"


def test_check_a_vassal_save_exits_1_with_the_same_violations(tmp_path, run_cli):
    module = tito_module(tmp_path)
    save = tito_save_from_position(EXAMPLES / "overstacked.xml", tmp_path / "overstacked.vsav")
    code, out, err = run_cli("check", save, "--module", module, "--game", "tito")
    assert code == 1
    assert sum("[6.21]" in line for line in out.splitlines()) == 2
    assert "pieces read" in err and "exported" not in err  # a check reads the save; only export exports


def test_export_then_check_the_xml(tmp_path, run_cli):
    module = tito_module(tmp_path)
    save = tito_save_from_position(EXAMPLES / "opening-setup.xml", tmp_path / "opening.vsav")
    target = tmp_path / "opening.xml"
    code, _, err = run_cli("export", save, "--module", module, "--game", "tito", "--output", target)
    assert code == 0, err
    assert run_cli("check", target)[0] == 0


def test_vassal_inputs_that_are_missing(tmp_path, run_cli):
    save = tmp_path / "game.vsav"
    save.write_bytes(b"not a zip")
    code, _, err = run_cli("check", save, "--game", "tito")
    assert code == 2 and "needs its module" in err
    code, _, err = run_cli("check", save, "--module", tmp_path / "x.vmod")
    assert code == 2 and "--game" in err


def test_an_export_to_a_place_that_cannot_take_it_is_one_sentence(tmp_path, run_cli):
    module = tito_module(tmp_path)
    save = tito_save_from_position(EXAMPLES / "opening-setup.xml", tmp_path / "opening.vsav")
    for target in (tmp_path / "no-such-folder" / "opening.xml", tmp_path):
        code, out, err = run_cli("export", save, "--module", module, "--game", "tito", "--output", target)
        assert code == 2, err
        assert f"{target}: the export cannot be written there" in err
        assert "Traceback" not in err and "pieces exported" not in err and out == ""
