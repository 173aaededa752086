"""`referee --help` and every subcommand's help: each argument explained, each option's default said."""

from __future__ import annotations

import argparse

import pytest

from validator import cli


def every_parser(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """The parser and all its subcommands' parsers, depth first, with the words that reach them."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from every_parser(child, (*path, name))


def arguments_of(parser: argparse.ArgumentParser):
    return [action for action in parser._actions
            if not isinstance(action, (argparse._HelpAction, argparse._SubParsersAction))]


PARSERS = list(every_parser(cli._build_parser()))


def test_the_walk_reaches_every_command():
    names = {" ".join(path) for path, _ in PARSERS}
    assert {"rules import", "rules list", "rules show", "rules checks", "check", "export", "vassal dump", "info",
            "serve"} <= names


@pytest.mark.parametrize("path, parser", PARSERS, ids=[" ".join(path) or "referee" for path, _ in PARSERS])
def test_every_command_and_argument_has_help_and_every_option_says_its_default(path, parser):
    assert parser.description, f"referee {' '.join(path)} has no description"
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                assert choice.help, f"the command {choice.dest} has no help line"
    shown = " ".join(parser.format_help().split())
    for action in arguments_of(parser):
        name = "/".join(action.option_strings) or action.dest
        assert action.help and action.help is not argparse.SUPPRESS, f"{name} has no help line"
        takes_a_value = action.option_strings and action.nargs != 0
        if action.default not in (None, False) and not isinstance(action, argparse._VersionAction):
            assert f"(default: {action.default})" in shown, f"{name} does not show its default {action.default!r}"
        elif takes_a_value and not action.required:
            assert "default" in action.help or "required" in action.help, f"{name} does not say its default"


def test_serve_and_format_show_their_defaults(capsys):
    for arguments in (["serve", "--help"], ["rules", "list", "--help"]):
        with pytest.raises(SystemExit):
            cli.main(arguments)
    shown = " ".join(capsys.readouterr().out.split())
    assert "(default: 127.0.0.1)" in shown and "(default: 5000)" in shown and "(default: text)" in shown


def test_help_names_the_folder_the_environment_chooses_as_an_absolute_path(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("REFEREE_INSTANCE", "club-data")
    monkeypatch.setenv("COLUMNS", "400")
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert f"Data is kept in {tmp_path / 'club-data'} (chosen by REFEREE_INSTANCE)" in out
    assert not (tmp_path / "club-data").exists()  # help only says where; it creates nothing


def test_help_names_the_default_folder_and_how_to_change_it(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("REFEREE_INSTANCE")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("COLUMNS", "400")
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    out = capsys.readouterr().out
    assert f"Data is kept in {tmp_path / 'data' / 'referee'} (set REFEREE_INSTANCE to choose another folder)" in out


def test_a_command_group_without_its_subcommand_shows_its_own_help(run_cli):
    code, out, err = run_cli("rules")
    assert code == 2 and out == ""
    assert "rules commands:" in err and "import your copy of a game's rulebook" in err


@pytest.mark.parametrize("columns", ["30", "80", "200"])
def test_the_help_is_laid_out_as_argparse_lays_it_out_on_a_terminal_of_any_width(monkeypatch, columns):
    """validator.commands.formatting.HelpFormatter measures the terminal late, and measures it as argparse does."""
    from validator.commands import formatting

    monkeypatch.setenv("COLUMNS", columns)
    ours = list(every_parser(cli._build_parser()))
    monkeypatch.setattr(formatting, "HelpFormatter", argparse.HelpFormatter)
    theirs = list(every_parser(cli._build_parser()))
    assert [path for path, _ in ours] == [path for path, _ in theirs]
    for (path, parser), (_, reference) in zip(ours, theirs, strict=True):
        assert type(parser._get_formatter()) is not type(reference._get_formatter())  # two formatters compared
        assert parser.prog == reference.prog, path
        assert parser.format_help() == reference.format_help(), path
        assert parser.format_usage() == reference.format_usage(), path
