"""An instance folder Referee cannot use is said so in a sentence (exit 2), never a traceback.

REFEREE_INSTANCE pointing at a file, or at a folder below a file, is a slip
a user makes once; every command that keeps data names the file in the way,
and ``referee info``, which only looks, names it too instead of promising
that the folder will be created.
"""

from __future__ import annotations

import json

import pytest

from validator import instance
from validator.web import create_app


@pytest.fixture
def a_file(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("not a folder\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("below", [False, True], ids=["the file itself", "a folder below the file"])
@pytest.mark.parametrize("arguments", [
    ("rules", "list", "tito"),
    ("rules", "show", "tito", "6.21"),
    ("rules", "import", "tito", "absent-rulebook.txt"),
    ("serve",),
])
def test_a_command_needing_the_folder_names_the_file_in_its_way(run_cli, monkeypatch, a_file, arguments, below):
    monkeypatch.setenv("REFEREE_INSTANCE", str(a_file / "club" if below else a_file))
    code, out, err = run_cli(*arguments)
    assert code == 2, (out, err)
    assert err == (f"referee: {a_file / 'club' if below else a_file}: cannot be used as Referee's instance folder: "
                   f"{a_file} is a file, not a folder; set REFEREE_INSTANCE to a folder Referee may write in\n")
    assert a_file.read_text(encoding="utf-8") == "not a folder\n"


def test_info_names_the_file_where_the_folder_should_be(run_cli, monkeypatch, a_file):
    monkeypatch.setenv("REFEREE_INSTANCE", str(a_file))
    code, out, err = run_cli("info")
    assert code == 0 and err == ""
    assert out.splitlines()[0] == (f"Instance folder: {a_file} (chosen by REFEREE_INSTANCE; {a_file} is a file, "
                                   "not a folder, so Referee cannot keep its data there)")
    facts = json.loads(run_cli("info", "--format", "json")[1])
    assert facts["instance"]["file_in_the_way"] == str(a_file) and facts["instance"]["exists"] is False


def test_the_web_app_refuses_to_start_on_a_file_with_the_same_sentence(monkeypatch, a_file):
    monkeypatch.setenv("REFEREE_INSTANCE", str(a_file))
    with pytest.raises(instance.UnusableInstanceFolder, match="is a file, not a folder"):
        create_app()


def test_a_folder_where_the_secret_key_cannot_be_written_says_so(tmp_path):
    with pytest.raises(
        instance.UnusableInstanceFolder, match="cannot hold the web app's secret key .*REFEREE_SECRET_KEY"
    ):
        instance.secret_key(tmp_path / "never-created")
