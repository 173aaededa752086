"""The instance's settings file (referee.toml): what it may set, how a bad one is refused, what wins."""

from __future__ import annotations

import os

import pytest

from validator import settings
from validator.limits import CLI_LIMITS, GIB, MIB, NAMES, WEB_LIMITS, LimitSettingError, parse_assignment, parse_figure
from validator.settings import SettingsError


@pytest.fixture(autouse=True)
def no_chosen_settings_file(monkeypatch):
    monkeypatch.delenv(settings.ENVIRONMENT_VARIABLE, raising=False)


def written(folder, text: str):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / settings.FILE_NAME
    path.write_text(text, encoding="utf-8")
    return path


def refusal(folder, text: str) -> SettingsError:
    written(folder, text)
    with pytest.raises(SettingsError) as raised:
        settings.load(folder)
    return raised.value


def test_no_file_gives_every_default(tmp_path):
    loaded = settings.load(tmp_path / "absent")
    assert loaded.limits(web=False) == CLI_LIMITS
    assert loaded.limits(web=True) == WEB_LIMITS
    assert dict(loaded.table("storage")) == {}


def test_a_good_file_sets_the_command_lines_and_the_webs_limits_apart(tmp_path):
    written(tmp_path, '[limits]\npieces = 200_000\ntext_bytes = "2GiB"\n\n[web.limits]\npieces = "5k"\n')
    loaded = settings.load(tmp_path)
    cli, web = loaded.limits(web=False), loaded.limits(web=True)
    assert (cli.pieces, cli.text_bytes, cli.traits) == (200_000, 2 * GIB, CLI_LIMITS.traits)
    assert (web.pieces, web.text_bytes, web.traits) == (5_000, WEB_LIMITS.text_bytes, WEB_LIMITS.traits)
    assert dict(loaded.table("limits")) == {"pieces": 200_000, "text_bytes": 2 * GIB}


def test_the_web_defaults_are_smaller_and_the_cli_admits_the_largest_real_saves():
    assert CLI_LIMITS.entry_bytes >= 256 * MIB and CLI_LIMITS.text_bytes >= 512 * 1000 * 1000
    for name in NAMES:
        assert getattr(WEB_LIMITS, name) <= getattr(CLI_LIMITS, name), name
    assert WEB_LIMITS.text_bytes < CLI_LIMITS.text_bytes and WEB_LIMITS.xml_bytes < CLI_LIMITS.xml_bytes


def test_settings_file_named_by_the_environment_wins_over_the_instances(tmp_path, monkeypatch):
    written(tmp_path / "instance", "[limits]\npieces = 10\n")
    chosen = written(tmp_path / "elsewhere", "[limits]\npieces = 20\n")
    monkeypatch.setenv(settings.ENVIRONMENT_VARIABLE, str(chosen))
    assert settings.load(tmp_path / "instance").limits(web=False).pieces == 20


def test_a_changed_file_is_read_again(tmp_path):
    path = written(tmp_path, "[limits]\npieces = 10\n")
    assert settings.load(tmp_path).limits(web=False).pieces == 10
    path.write_text("[limits]\npieces = 12345\n", encoding="utf-8")
    os.utime(path, ns=(path.stat().st_mtime_ns + 10**9,) * 2)
    assert settings.load(tmp_path).limits(web=False).pieces == 12345


def test_bad_toml_names_the_file_line_column_and_key(tmp_path):
    error = refusal(tmp_path, "[limits]\ntraits = 100\npieces = \n")
    assert (error.line, error.column) == (3, 10)
    assert str(error) == (f"{tmp_path / 'referee.toml'}, line 3, column 10: the settings file is not valid TOML: "
                          "invalid value (the line of 'pieces'); correct it or remove that line.")


def test_a_key_given_twice_is_bad_toml(tmp_path):
    error = refusal(tmp_path, "[limits]\npieces = 1\npieces = 2\n")
    assert error.line == 3 and "cannot overwrite a value" in str(error)


def test_an_unknown_key_is_refused_with_the_known_ones(tmp_path):
    error = refusal(tmp_path, "[limits]\npieces = 5\n\n[web.limits]\npeices = 5\n")
    assert error.line == 5
    assert f"line 5: [web.limits] has no key 'peices'; its keys are {', '.join(NAMES)}." in str(error)


def test_an_unknown_table_is_refused_with_the_known_ones(tmp_path):
    error = refusal(tmp_path, "[limits]\npieces = 5\n[limit]\npieces = 5\n")
    assert error.line == 3
    assert str(error).endswith(": Referee has no settings table [limit]; the tables are [limits], [web.limits], "
                               "[storage], [web].")


def test_a_key_outside_any_table_is_refused(tmp_path):
    error = refusal(tmp_path, "pieces = 5\n")
    assert error.line == 1 and "'pieces' is set outside any table; put it under one of the tables" in str(error)


@pytest.mark.parametrize("value, problem", [
    ('"many"', "[limits] pieces: 'many' is not a figure; give a whole number"),
    ("true", "[limits] pieces: true is not a whole number; give one such as 20000 or \"20k\"."),
    ("2.5", "[limits] pieces: 2.5 is not a whole number"),
    ("[1, 2]", "[limits] pieces: [1, 2] is not a whole number"),
    ("-3", "[limits] pieces: -3 is less than 1, the least a limit may be."),
    ("0", "[limits] pieces: 0 is less than 1, the least a limit may be."),
    ('"0k"', "[limits] pieces: '0k' is less than 1, the least a limit may be."),
    ('"12 parsecs"', "[limits] pieces: '12 parsecs' is not a figure"),
])
def test_a_wrong_value_names_its_line_and_key(tmp_path, value, problem):
    error = refusal(tmp_path, f"# the site's own figures\n[limits]\npieces = {value}\n")
    assert error.line == 3 and problem in str(error), str(error)


def test_a_limit_with_a_floor_is_held_to_it_in_the_file_too(tmp_path):
    error = refusal(tmp_path, "[web.limits]\nchunk_bytes = 16\n")
    assert error.line == 2 and "16 is less than 4,096, the least the chunk_bytes limit may be" in str(error)


def test_a_settings_file_the_environment_names_must_exist(tmp_path, monkeypatch):
    missing = tmp_path / "nowhere.toml"
    monkeypatch.setenv(settings.ENVIRONMENT_VARIABLE, str(missing))
    with pytest.raises(SettingsError) as raised:
        settings.load(tmp_path)
    assert str(raised.value).startswith(f"{missing}: the settings file REFEREE_SETTINGS names does not exist; ")
    assert "unset REFEREE_SETTINGS" in str(raised.value)


def test_a_settings_file_that_is_a_folder_says_what_to_do(tmp_path):
    (tmp_path / settings.FILE_NAME).mkdir()
    with pytest.raises(SettingsError, match=r"cannot be read \(Is a directory\); make it a text file Referee may "
                                            r"read, or move it aside to use the defaults\.$"):
        settings.load(tmp_path)


def test_a_file_that_is_not_utf8_is_refused(tmp_path):
    (tmp_path / settings.FILE_NAME).write_bytes(b"[limits]\n# caf\xe9\n")
    with pytest.raises(SettingsError, match=r"referee\.toml, line 2: the settings file is not UTF-8 text \(byte 0xe9"):
        settings.load(tmp_path)


@pytest.mark.parametrize("text, figure", [
    ("20000", 20_000), ("20_000", 20_000), ("20,000", 20_000), ("20k", 20_000), ("20K", 20_000),
    ("3M", 3_000_000), ("1G", 10**9), ("2MB", 2_000_000), ("256KiB", 256 * 1024), ("256MiB", 256 * MIB),
    ("1GiB", GIB), (" 7 mib ", 7 * MIB),
])
def test_figures_take_decimal_and_binary_suffixes(text, figure):
    assert parse_figure(text) == figure


@pytest.mark.parametrize("text, problem", [
    ("pieces", "'pieces' is not NAME=VALUE, such as pieces=200000 or text_bytes=2GiB"),
    ("pieces=", "'pieces=' is not NAME=VALUE"),
    ("=5", "'=5' is not NAME=VALUE"),
    ("piece=5", "there is no limit called 'piece'; the limits are entry_bytes, text_bytes"),
    ("pieces=5x", "'5x' is not a figure; give a whole number"),
    ("pieces=-5", "'-5' is less than 1, the least a limit may be"),
    ("chunk_bytes=1", "1 is less than 4,096, the least the chunk_bytes limit may be"),
])
def test_a_bad_limit_assignment_says_what_is_wrong(text, problem):
    with pytest.raises(LimitSettingError) as raised:
        parse_assignment(text)
    assert problem in str(raised.value)
