"""The ``referee`` command line: the parser and the way a command's outcome becomes an exit code.

Each command lives in its own module under :mod:`validator.commands`; this
module only builds the parser from them and runs the chosen handler.  A run
imports the module of the command it names and no other (issue 14's lean
start-up): ``referee --version`` alone is answered before any parser is
built, a check of file names alone is run without argparse, and only help
and a mistyped command need every command's module.

Exit codes: 0 success, 1 violations found (``check``), 2 unusable input --
an unknown game, an unreadable file, an unknown case.  Every error is one
sentence on standard error, never a traceback.
"""

from __future__ import annotations

import importlib
import sys

from validator import __version__, collection, console
from validator.errors import CheckDefectError, InputError

# Each command and the module that registers it, in the order ``referee --help`` lists them.
COMMANDS = {
    "rules": "validator.commands.rules",
    "games": "validator.commands.games",
    "check": "validator.commands.check",
    "export": "validator.commands.check",
    "diff": "validator.commands.diff",
    "vassal": "validator.commands.vassal",
    "info": "validator.commands.info",
    "serve": "validator.commands.serve",
    "maintenance": "validator.commands.maintenance",
    "database": "validator.commands.database",
    "arbiter": "validator.commands.arbiter",
}
COMMAND_MODULES = tuple(dict.fromkeys(COMMANDS.values()))
VERSION = f"referee {__version__}"


def main(argv: list[str] | None = None) -> int:
    """Run one command; output into a pipe that closed early ends quietly (docs/cli.md, "Output").

    Without ``argv`` it is the ``referee`` process's own command line: the
    process ends when it returns, so its objects are left to the exit
    (:func:`validator.collection.left_to_exit`).
    """
    console.prepare_streams()
    try:
        try:
            return _run(sys.argv[1:] if argv is None else argv)
        finally:
            sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's flush at exit
    except BrokenPipeError:
        console.silence_standard_output()
        return console.EXIT_BROKEN_PIPE
    finally:
        if argv is None:
            collection.left_to_exit()


def _run(argv: list[str]) -> int:
    if argv == ["--version"]:  # as argparse's version action answers it, without building a parser
        sys.stdout.write(VERSION + "\n")
        raise SystemExit(0)
    with collection.collector_paused():  # the commands' modules and the parser: nothing to collect
        from validator import compiled_methods

        compiled_methods.install()  # before any command's module imports dataclasses: it imports it leaner
        from validator.commands.common import EXIT_UNUSABLE, explained

        arguments = _parsed(argv)
    if arguments is None:
        return EXIT_UNUSABLE
    try:
        return arguments.handler(arguments)
    except (InputError, CheckDefectError) as error:
        console.write_error(f"referee: {explained(_message(error), arguments)}")
        return EXIT_UNUSABLE
    except KeyboardInterrupt:
        return 130


def _parsed(argv: list[str]):
    """The command's arguments; None once the help of a command line that names no handler is shown.

    A check of file names alone is parsed without argparse
    (:func:`validator.commands.check.parsed_plainly`); anything else by the parser.
    """
    if argv[:1] == ["check"]:
        from validator.commands.check import parsed_plainly

        plain = parsed_plainly(argv)
        if plain is not None:
            return plain
    parser = _build_parser(argv)
    arguments = parser.parse_args(argv)
    if getattr(arguments, "handler", None) is None:  # no command, or a group without its subcommand
        getattr(arguments, "usage_of", parser).print_help(sys.stderr)
        return None
    return arguments


def _message(error: Exception) -> str:
    return error.args[0] if error.args else str(error)


def _build_parser(argv: list[str] | None = None):
    """Every command, positional and option has a help line; each option's says its default.

    Given the words of a run that names a command first, only that command's
    module is imported and registered: its parsing and help are the same as
    in the whole parser, and the opening of ``referee --help`` (which reads
    the instance folder) is left out, since only the whole parser shows it.
    Without them, or for anything else, every command.
    """
    import argparse

    from validator.commands.formatting import HelpFormatter

    named = COMMANDS.get(argv[0]) if argv else None
    parser = argparse.ArgumentParser(prog="referee", description=None if named else _description(),
                                     formatter_class=HelpFormatter)
    parser.add_argument("--version", action="version", version=VERSION)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    for name in (named,) if named else COMMAND_MODULES:
        importlib.import_module(name).register(commands)
    return parser


def _description() -> str:
    """The opening of ``referee --help``: what Referee is and the instance folder in force."""
    from validator import instance

    variable = instance.ENVIRONMENT_VARIABLE
    how = f"chosen by {variable}" if instance.is_chosen() else f"set {variable} to choose another folder"
    return ("A rules reference and position validator for board wargames played in VASSAL. "
            f"Data is kept in {console.displayable(str(instance.resolved_folder()))} ({how}); "
            "referee info shows what it holds.")


if __name__ == "__main__":
    sys.exit(main())
