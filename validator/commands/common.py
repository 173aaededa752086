"""What every command shares: exit codes, the usage error, help texts, common options and output.

It does not import argparse: a command line that needs no parser
(:func:`validator.commands.check.parsed_plainly`) is run without it.
"""

from __future__ import annotations

from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING

from validator import console
from validator.errors import InputError
from validator.games import IN_TREE_GAMES, listed
from validator.limits import Limits, LimitSettingError, parse_assignment, with_raising_hint

if TYPE_CHECKING:
    import argparse

EXIT_OK = 0
EXIT_VIOLATIONS = 1
EXIT_UNUSABLE = 2

GAME_HELP = f"the game's id, such as {listed(IN_TREE_GAMES)} (referee games list lists them all)"
FORMAT_HELP = "text to read, or json for scripts: the contracts in docs/cli.md (default: %(default)s)"


class UsageError(InputError):
    """A command given what it cannot use (exit code 2): the problem, after the file when one is named."""

    def __init__(self, problem: str, source: object = "") -> None:
        super().__init__(source, problem)


def command(commands, name: str, summary: str) -> argparse.ArgumentParser:
    """A subcommand whose own --help opens with the line the list of commands shows; alone, it shows its help."""
    from validator.commands.formatting import HelpFormatter

    parser = commands.add_parser(name, help=summary, description=summary[0].upper() + summary[1:] + ".",
                                 formatter_class=HelpFormatter)
    parser.set_defaults(handler=None, usage_of=parser)
    return parser


def add_format(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("text", "json"), default="text", help=FORMAT_HELP)


def add_vassal_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--module", type=Path, metavar="FILE",
                        help="the VASSAL module (.vmod or buildFile) the save was made with; "
                             "required for VASSAL files")
    parser.add_argument("--mapping", type=Path, metavar="FILE",
                        help="the module mapping (default: the game's own mappings/vassal-mapping.xml)")
    add_viewing(parser, "use", ", or the game's mapping lists")


def add_viewing(parser: argparse.ArgumentParser, verb: str, sides: str = "") -> None:
    seeing = parser.add_mutually_exclusive_group()
    seeing.add_argument("--viewer", metavar="SIDE",
                        help=f"{verb} only what this side may see: a side the save's player roster or masks name"
                             f"{sides} (default: a spectator's view)")
    seeing.add_argument("--arbiter", action="store_true",
                        help=f"{verb} every piece, masked and hidden ones included")


def add_limits(parser: argparse.ArgumentParser) -> None:
    """``--limit NAME=VALUE``, repeatable: one input limit for this run, over the settings file's (docs/limits.md)."""
    parser.add_argument("--limit", action="append", type=_limit_assignment, metavar="NAME=VALUE",
                        help="set one input limit for this run, such as pieces=200000 or text_bytes=2GiB; "
                             "repeatable (default: [limits] of the instance's referee.toml, else the figures "
                             "in docs/limits.md)")


def _limit_assignment(text: str) -> tuple[str, int]:
    try:
        return parse_assignment(text)
    except LimitSettingError as error:
        import argparse

        raise argparse.ArgumentTypeError(f"{error}.") from None


def limits_of(arguments: argparse.Namespace) -> Limits:
    """The limits a reading command applies: the defaults, then the settings file's [limits], then --limit."""
    from validator import instance, settings

    configured = settings.load(instance.resolved_folder()).limits(web=False)
    return configured.with_figures(dict(getattr(arguments, "limit", None) or ()))


def explained(sentence: str, arguments: argparse.Namespace) -> str:
    """An error's sentence; when it names a limit, with how to raise it (--limit only where the command has it)."""
    from validator import instance, settings

    where = settings.settings_path(instance.resolved_folder())
    return with_raising_hint(sentence, str(where), option=hasattr(arguments, "limit"))


def print_json(data: object) -> None:
    """The stable JSON contracts (docs/cli.md): two-space indent, non-ASCII characters as they are."""
    import json  # only a command asked for JSON needs it (issue 14's lean start-up)

    console.write_json(json.dumps(data, ensure_ascii=False, indent=2))


def note(sentence: str) -> None:
    """A remark beside the output (standard error), such as what a VASSAL reading left out."""
    console.write_error(sentence)


def database():
    """A connection to the instance database that closes when the block ends."""
    from validator import instance, store

    return closing(store.connect(instance.database_target(instance.folder())))
