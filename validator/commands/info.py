"""``referee info``: where Referee keeps its data, and what is imported and registered."""

from __future__ import annotations

import argparse

from validator import console
from validator.commands.common import EXIT_OK, add_format, command, print_json


def register(commands) -> None:
    parser = command(commands, "info", "say where Referee keeps its data, and what is imported and registered")
    add_format(parser)
    parser.set_defaults(handler=run)


def run(arguments: argparse.Namespace) -> int:
    from validator import info

    facts = info.gather()
    if arguments.format == "json":
        print_json(facts)
    else:
        console.write_text(info.as_text(facts))
    return EXIT_OK
