"""The referee command line: contracts, exit codes and bad input."""

import json

import pytest

from validator import __version__
from validator.cases import CaseNumber
from validator.cli import main
from validator.games import registry

from tests.rulebook.samples import DOTTED


def write(path, data):
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


def test_version_and_help(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert __version__ in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    assert "rules" in capsys.readouterr().out


@pytest.mark.parametrize(
    "data, message",
    [
        (b"", "the file is empty"),
        (b"   \n\n", "the file is empty"),
        (b"6.2 Stacking\n\x00\x01\x02", "line 2 holds a NUL byte"),
        ("1.0 Intro\nCaf\u00e9".encode("latin-1"), "line 2, column 4: byte 0xe9 is not UTF-8"),
        (b"Just a letter to a friend.\nNo numbers at all.\n", "no case numbers found"),
    ],
)
def test_bad_rulebook_files_exit_2_and_keep_the_earlier_import(tmp_path, run_cli, data, message):
    good = write(tmp_path / "pond.txt", DOTTED)
    assert run_cli("rules", "import", "tww", good, "--no-fixups", "--force")[0] == 0
    bad = write(tmp_path / "bad.txt", data)
    code, out, err = run_cli("rules", "import", "tww", bad, "--no-fixups", "--force")
    assert code == 2
    assert message in err and "bad.txt" in err and "Traceback" not in err
    code, out, _ = run_cli("rules", "list", "tww", "--format", "json")
    assert [entry["case"] for entry in json.loads(out)][:3] == ["7", "7.1", "7.1.1"]


def test_missing_file_and_unknown_game(tmp_path, run_cli):
    code, _, err = run_cli("rules", "import", "tito", tmp_path / "absent.txt")
    assert code == 2 and "absent.txt: no such file." in err
    code, _, err = run_cli("rules", "import", "chess", tmp_path / "absent.txt")
    assert code == 2 and "There is no game 'chess'. Known games: awaw, tito, tww." in err
    code, _, err = run_cli("rules", "show", "tito", "6.21")
    assert code == 2 and "not imported yet" in err and "referee rules import tito tito-rulebook.txt" in err


def test_plugin_fixups_that_do_not_match_are_refused(tmp_path, run_cli):
    text = write(tmp_path / "pond.txt", DOTTED)
    code, _, err = run_cli("rules", "import", "tww", text)
    assert code == 2 and "does not match pond.txt" in err and "--no-fixups" in err


def test_list_refs_show_checks_json_contracts(tmp_path, run_cli):
    text = write(tmp_path / "pond.txt", DOTTED)
    assert run_cli("rules", "import", "tww", text, "--no-fixups", "--force")[0] == 0

    cases = json.loads(run_cli("rules", "list", "tww", "--format", "json")[1])
    assert {"case": "7.2.1.1", "parent": "7.2.1"}.items() <= cases[6].items()
    assert all({"case", "title", "parent"} <= entry.keys() for entry in cases)

    references = json.loads(run_cli("rules", "refs", "tww", "--format", "json")[1])
    assert references == [{"from": "7.1.2", "to": "12", "resolved": False, "text": "12"}]

    shown = json.loads(run_cli("rules", "show", "tww", "7.2", "--format", "json")[1])
    assert shown["case"] == "7.2" and [child["case"] for child in shown["children"]] == ["7.2.1", "7.2.2"]
    code, out, _ = run_cli("rules", "show", "tww", "7.1.2")
    assert code == 0 and "[12?]" in out

    code, out, err = run_cli("rules", "show", "tww", "7.9")
    assert code == 2 and "has no case '7.9'. The nearest case is 7." in err

    code, out, _ = run_cli("rules", "checks", "tww", "--format", "json")
    assert code == 0 and isinstance(json.loads(out), list)


def test_list_before_import_shows_the_plugin_index(run_cli):
    code, out, err = run_cli("rules", "list", "tito", "--format", "json")
    entries = json.loads(out)
    assert code == 0 and "not imported yet" in err
    assert {"case": "6.21", "parent": "6.2", "source": "index"}.items() <= next(
        entry for entry in entries if entry["case"] == "6.21"
    ).items()


@pytest.mark.parametrize("game", sorted(registry()))
def test_checks_are_listed_in_case_order_each_case_in_registration_order(run_cli, game):
    registered = registry()[game].rules.checks()
    code, out, _ = run_cli("rules", "checks", game, "--format", "json")
    listed = json.loads(out)
    cases = [CaseNumber.parse(entry["case"]) for entry in listed]
    assert code == 0 and cases == sorted(cases)
    assert sorted(entry["name"] for entry in listed) == sorted(check.name for check in registered)
    for case in cases:
        assert [entry["name"] for entry in listed if entry["case"] == str(case)] == [
            check.name for check in registered if check.case == case]
    text = run_cli("rules", "checks", game)[1]
    assert [line.split()[0] for line in text.splitlines()] == [entry["rule"] for entry in listed]
