"""What every command shares: exit codes, the usage error, help texts, common options and output."""

from __future__ import annotations

import argparse
import json
from contextlib import closing
from pathlib import Path

from validator import console
from validator.errors import InputError
from validator.games import IN_TREE_GAMES, listed

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
    parser = commands.add_parser(name, help=summary, description=summary[0].upper() + summary[1:] + ".")
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


def print_json(data: object) -> None:
    """The stable JSON contracts (docs/cli.md): two-space indent, non-ASCII characters as they are."""
    console.write_json(json.dumps(data, ensure_ascii=False, indent=2))


def note(sentence: str) -> None:
    """A remark beside the output (standard error), such as what a VASSAL reading left out."""
    console.write_error(sentence)


def database():
    """A connection to the instance database that closes when the block ends."""
    from validator import instance, store

    return closing(store.connect(instance.database_path(instance.folder())))
