"""The ``referee`` command line: the parser and the way a command's outcome becomes an exit code.

Each command lives in its own module under :mod:`validator.commands`; this
module only builds the parser from them and runs the chosen handler.

Exit codes: 0 success, 1 violations found (``check``), 2 unusable input --
an unknown game, an unreadable file, an unknown case.  Every error is one
sentence on standard error, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from validator import __version__, console, instance
from validator.commands.common import EXIT_UNUSABLE, explained
from validator.errors import CheckDefectError, InputError

COMMAND_MODULES = (
    "validator.commands.rules",
    "validator.commands.games",
    "validator.commands.check",
    "validator.commands.diff",
    "validator.commands.vassal",
    "validator.commands.info",
    "validator.commands.serve",
    "validator.commands.maintenance",
    "validator.commands.database",
    "validator.commands.arbiter",
)


def main(argv: list[str] | None = None) -> int:
    """Run one command; output into a pipe that closed early ends quietly (docs/cli.md, "Output")."""
    console.prepare_streams()
    try:
        try:
            return _run(argv)
        finally:
            sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's flush at exit
    except BrokenPipeError:
        console.silence_standard_output()
        return console.EXIT_BROKEN_PIPE


def _run(argv: list[str] | None) -> int:
    parser = _build_parser()
    arguments = parser.parse_args(argv)
    if getattr(arguments, "handler", None) is None:  # no command, or a group without its subcommand
        getattr(arguments, "usage_of", parser).print_help(sys.stderr)
        return EXIT_UNUSABLE
    try:
        return arguments.handler(arguments)
    except (InputError, CheckDefectError) as error:
        console.write_error(f"referee: {explained(_message(error), arguments)}")
        return EXIT_UNUSABLE
    except KeyboardInterrupt:
        return 130


def _message(error: Exception) -> str:
    return error.args[0] if error.args else str(error)


def _build_parser() -> argparse.ArgumentParser:
    """Every command, positional and option has a help line; each option's says its default."""
    parser = argparse.ArgumentParser(prog="referee", description=_description())
    parser.add_argument("--version", action="version", version=f"referee {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(commands)
    return parser


def _description() -> str:
    """The opening of ``referee --help``: what Referee is and the instance folder in force."""
    variable = instance.ENVIRONMENT_VARIABLE
    how = f"chosen by {variable}" if instance.is_chosen() else f"set {variable} to choose another folder"
    return ("A rules reference and position validator for board wargames played in VASSAL. "
            f"Data is kept in {console.displayable(str(instance.resolved_folder()))} ({how}); "
            "referee info shows what it holds.")


if __name__ == "__main__":
    sys.exit(main())
