"""``referee vassal module``: what a module holds that a mapping is written from."""

from __future__ import annotations

import argparse
from pathlib import Path

from validator import console
from validator.commands.common import EXIT_OK, add_format, add_limits, command, limits_of, print_json


def add_module_options(parser: argparse.ArgumentParser, *, positional: bool) -> None:
    """The module (positional, or ``--module``) and the extensions read with it."""
    if positional:
        parser.add_argument("module", type=Path, metavar="MODULE", help="the .vmod, or its bare buildFile.xml")
    else:
        parser.add_argument("--module", type=Path, metavar="MODULE", required=True,
                            help="the .vmod, or its bare buildFile.xml")
    parser.add_argument("--extension", type=Path, metavar="FILE", action="append",
                        help="a module extension (.vmdx, or its buildFile.xml) to read with the module; "
                             "repeat for each (default: none; VASSAL loads the ones the player chose, so none is "
                             "found by itself)")


def read_with_extensions(arguments: argparse.Namespace, *, extension_alone: bool = False):
    """The module the arguments name, with its extensions; a bare extension only where ``extension_alone``."""
    from validator.saves.vassal.extensions import with_extensions
    from validator.saves.vassal.module import read_module

    limits = limits_of(arguments)
    module = read_module(arguments.module, limits=limits)
    if module.extends is not None and not arguments.extension and extension_alone:
        return module
    return with_extensions(module, [read_module(path, limits=limits) for path in arguments.extension or ()])


def register(vassal_commands) -> None:
    summary = command(vassal_commands, "module",
                      "list what a module holds that a mapping needs: maps, boards, grids, zones, regions, "
                      "prototypes and pieces (docs/vassal-mapping.md)")
    add_module_options(summary, positional=True)
    add_limits(summary)
    add_format(summary)
    summary.set_defaults(handler=show_module)


def show_module(arguments: argparse.Namespace) -> int:
    from validator.saves.vassal.module_summary import render_text, summarise

    data = summarise(read_with_extensions(arguments, extension_alone=True))
    if arguments.format == "json":
        print_json(data)
    else:
        console.write_text(render_text(data), end="")
    return EXIT_OK
