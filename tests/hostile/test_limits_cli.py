"""The command line's limits: --limit and [limits] of referee.toml reach the readers, and a refusal says how to raise.

The save is one German division whose marker lists 10,005 keys (a list of
the game: the list_items limit), so a lowered limit refuses a file of a few
kilobytes and a raised one admits it; the command line's default admits it.
"""

from __future__ import annotations

import pytest

from validator import cli, settings
from validator.limits import MIB

from tests.hostile.limit_saves import ROOT, wide_tito_save

LISTED = 10_005
"""The items the wide unit's marker lists: its 4 keys, 10,001 more."""


@pytest.fixture(autouse=True)
def no_chosen_settings_file(monkeypatch):
    monkeypatch.delenv(settings.ENVIRONMENT_VARIABLE, raising=False)


@pytest.fixture
def wide(tmp_path):
    return wide_tito_save(tmp_path / "files", LISTED - 4)


def checked(run_cli, wide, *options):
    module, save = wide
    return run_cli("check", save, "--module", module, "--game", "tito", *options)


def hint(instance_dir) -> str:
    return f"raise it with --limit list_items=N or in [limits] of {instance_dir / 'referee.toml'}."


def test_the_command_lines_defaults_admit_the_wide_save(run_cli, wide):
    code, out, err = checked(run_cli, wide)
    assert code == 0, err
    assert "legal" in out


def test_a_limit_lowered_with_the_option_refuses_naming_it_the_figure_and_how_to_raise_it(run_cli, wide,
                                                                                          instance_dir):
    code, out, err = checked(run_cli, wide, "--limit", "list_items=100")
    assert code == 2 and out == ""
    _, save = wide
    assert err == (f"referee: {save}: piece de-704 holds a list of {LISTED:,} items, more than the list_items limit "
                   f"of 100; {hint(instance_dir)}\n")


def test_the_same_save_is_admitted_once_the_option_raises_the_limit(run_cli, wide):
    assert checked(run_cli, wide, "--limit", "list_items=100")[0] == 2
    code, out, err = checked(run_cli, wide, "--limit", "list_items=100", "--limit", "list_items=20k")
    assert code == 0, err  # the last option given wins


def test_the_settings_file_sets_the_limit_and_the_option_wins_over_it(run_cli, wide, instance_dir):
    instance_dir.mkdir(parents=True, exist_ok=True)
    (instance_dir / "referee.toml").write_text("[limits]\nlist_items = 100\n", encoding="utf-8")
    code, _, err = checked(run_cli, wide)
    assert code == 2 and f"more than the list_items limit of 100; {hint(instance_dir)}" in err
    assert checked(run_cli, wide, "--limit", "list_items=20000")[0] == 0
    (instance_dir / "referee.toml").write_text("[limits]\nlist_items = 20_000\n", encoding="utf-8")
    assert checked(run_cli, wide)[0] == 0
    code, _, err = checked(run_cli, wide, "--limit", "list_items=10004")
    assert code == 2 and "more than the list_items limit of 10,004" in err


def test_the_web_limits_of_the_settings_file_do_not_bind_the_command_line(run_cli, wide, instance_dir):
    instance_dir.mkdir(parents=True, exist_ok=True)
    (instance_dir / "referee.toml").write_text("[web.limits]\nlist_items = 100\n", encoding="utf-8")
    assert checked(run_cli, wide)[0] == 0


def test_export_and_vassal_dump_take_the_option_too(run_cli, wide, instance_dir):
    module, save = wide
    code, _, err = run_cli("export", save, "--module", module, "--game", "tito", "--limit", "list_items=1k")
    assert code == 2 and f"more than the list_items limit of 1,000; {hint(instance_dir)}" in err
    assert run_cli("export", save, "--module", module, "--game", "tito", "--limit", "list_items=1M")[0] == 0
    code, _, err = run_cli("vassal", "dump", save, "--limit", "list_items=1000")
    assert code == 2 and f"more than the list_items limit of 1,000; {hint(instance_dir)}" in err
    assert run_cli("vassal", "dump", save, "--limit", "list_items=1000000")[0] == 0


def test_a_limit_on_the_module_reaches_the_module_reader(run_cli, wide, instance_dir):
    module, save = wide
    code, _, err = run_cli("check", save, "--module", module, "--game", "tito", "--limit", "xml_bytes=1k")
    assert code == 2
    assert f"{module}, entry 'buildFile.xml': the entry declares" in err
    assert "more than the xml_bytes limit of 1,000; raise it with --limit xml_bytes=N or in [limits] of" in err
    code, _, err = run_cli("vassal", "module", module, "--limit", "xml_bytes=1k")
    assert code == 2 and "more than the xml_bytes limit of 1,000; raise it with --limit xml_bytes=N" in err
    assert run_cli("vassal", "module", module, "--limit", "xml_bytes=1M")[0] == 0


@pytest.mark.parametrize("value, sentence", [
    ("list_items", "argument --limit: 'list_items' is not NAME=VALUE, such as pieces=200000 or text_bytes=2GiB."),
    ("list_item=5", "argument --limit: there is no limit called 'list_item'; the limits are entry_bytes, "),
    ("list_items=lots", "argument --limit: 'lots' is not a figure; give a whole number, optionally with k, M, G"),
    ("list_items=0", "argument --limit: '0' is less than 1, the least a limit may be."),
])
def test_a_bad_option_is_exit_2_with_a_sentence(run_cli, wide, capsys, value, sentence):
    with pytest.raises(SystemExit) as exited:
        checked(run_cli, wide, "--limit", value)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert sentence in err and "Traceback" not in err


def test_a_bad_settings_file_is_exit_2_naming_file_line_and_key(run_cli, wide, instance_dir):
    instance_dir.mkdir(parents=True, exist_ok=True)
    (instance_dir / "referee.toml").write_text("[limits]\nlist_items = \"many\"\n", encoding="utf-8")
    code, _, err = checked(run_cli, wide)
    assert code == 2
    assert err.startswith(f"referee: {instance_dir / 'referee.toml'}, line 2: [limits] list_items: 'many' is not "
                          "a figure")


def test_the_help_names_the_option(run_cli, capsys):
    with pytest.raises(SystemExit):
        cli.main(["check", "--help"])
    assert "--limit NAME=VALUE" in capsys.readouterr().out


def test_a_save_of_our_format_is_held_to_xml_bytes_before_it_is_parsed(run_cli, tmp_path, instance_dir):
    example = ROOT / "examples" / "tito" / "overstacked.xml"
    padded = tmp_path / "padded.xml"
    padded.write_bytes(example.read_bytes() + b"<!-- " + b"x" * (5 * MIB) + b" -->\n")
    assert run_cli("check", padded)[0] == 1  # the command line's 64 MiB admit it; it has two violations
    code, _, err = run_cli("check", padded, "--limit", "xml_bytes=4MiB")
    assert code == 2
    assert err == (f"referee: {padded}: the file holds {padded.stat().st_size:,} bytes, more than the xml_bytes limit "
                   f"of 4,194,304; raise it with --limit xml_bytes=N or in [limits] of {instance_dir / 'referee.toml'}."
                   "\n")


def test_a_save_of_our_format_past_32_mib_is_read_when_xml_bytes_admits_it(run_cli, tmp_path):
    example = ROOT / "examples" / "tito" / "overstacked.xml"
    padded = tmp_path / "padded.xml"
    comment = b"<!-- " + b"x" * (9 * MIB) + b" -->\n"  # libxml2 refuses a single comment past 10 MB
    padded.write_bytes(example.read_bytes() + comment * 4)
    assert padded.stat().st_size > 32 * MIB
    code, out, err = run_cli("check", padded)  # the default 64 MiB of xml_bytes, no fixed 32 MiB cap before it
    assert code == 1 and "2 violations" in out, err
