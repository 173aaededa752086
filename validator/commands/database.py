"""``referee database move``: moving the instance's SQLite database to a PostgreSQL server."""

from __future__ import annotations

import argparse

from validator import console
from validator.commands.common import EXIT_OK, add_format, command, print_json


def register(commands) -> None:
    database = command(commands, "database", "move the instance database to a PostgreSQL server")
    database_commands = database.add_subparsers(title="database commands", metavar="DATABASE_COMMAND")
    moving = command(database_commands, "move",
                     "copy every table of the instance's SQLite database into an empty PostgreSQL database, "
                     "checking each table's row count")
    moving.add_argument("--to", required=True, metavar="URL",
                        help="the empty PostgreSQL database, as postgresql://USER@HOST/NAME (a password is better "
                             "kept in ~/.pgpass than in the URL)")
    add_format(moving)
    moving.set_defaults(handler=move)


def move(arguments: argparse.Namespace) -> int:
    from validator import database_move, instance

    result = database_move.move(instance.database_path(instance.folder()), arguments.to)
    if arguments.format == "json":
        print_json(result.as_json())
    else:
        console.write_text(database_move.summary(result))
    return EXIT_OK
