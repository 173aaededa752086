"""``referee vassal``: read VASSAL saves, logs and modules."""

from __future__ import annotations

import argparse
from pathlib import Path

from validator import console
from validator.commands import vassal_mapping, vassal_module
from validator.commands.common import EXIT_OK, add_format, add_limits, add_viewing, command, limits_of


def register(commands) -> None:
    vassal = command(commands, "vassal", "read VASSAL saves, logs and modules")
    vassal_commands = vassal.add_subparsers(title="vassal commands", metavar="VASSAL_COMMAND")
    dumping = command(vassal_commands, "dump", "list the pieces of a .vsav or .vlog (docs/vassal-dump.md)")
    dumping.add_argument("file", type=Path, metavar="FILE", help="a .vsav or .vlog file")
    dumping.add_argument("--module", type=Path, metavar="FILE",
                         help="the .vmod (or buildFile) that names the locations "
                              "(default: none; pieces are placed by x,y only)")
    dumping.add_argument("--steps", action="store_true",
                         help="a log's position when logging began, then each step's changes "
                              "(without it: the final position)")
    add_viewing(dumping, "show")
    add_limits(dumping)
    add_format(dumping)
    dumping.set_defaults(handler=dump)
    vassal_module.register(vassal_commands)
    vassal_mapping.register(vassal_commands)


def dump(arguments: argparse.Namespace) -> int:
    from validator.saves.vassal import dump as vassal_dump
    from validator.saves.vassal.reader import read_saved_game
    from validator.saves.vassal.sides import require_defined_side

    limits = limits_of(arguments)
    if arguments.viewer is not None:  # the save is read once more, only to know which sides it defines
        require_defined_side(arguments.viewer, read_saved_game(arguments.file, limits=limits))
    if arguments.steps:  # streamed: memory holds the position and one step, however long the log
        objects = vassal_dump.iter_dump(arguments.file, arguments.module, viewer=arguments.viewer,
                                        arbiter=arguments.arbiter, limits=limits)
        if arguments.format == "json":
            for data in objects:
                console.write_json(vassal_dump.render_json_line(data))
        else:
            for text in vassal_dump.render_text_lines(objects):
                console.write_text(text, end="")
        return EXIT_OK
    data = vassal_dump.dump_file(arguments.file, arguments.module, viewer=arguments.viewer,
                                 arbiter=arguments.arbiter, limits=limits)
    if arguments.format == "json":
        console.write_json(vassal_dump.render_json(data))
    else:
        console.write_text(vassal_dump.render_text(data), end="")
    return EXIT_OK
