"""``referee arbiter``: add, list and remove the arbiters who may write rulings, and change their passwords.

A password is read without echo from a terminal (asked twice), or as one line
from standard input when it is not a terminal, so scripts can pipe it in.
"""

from __future__ import annotations

import argparse
import sys

from validator import console
from validator.commands.common import EXIT_OK, UsageError, add_format, command, database, print_json


def register(commands) -> None:
    group = command(commands, "arbiter", "add, list and remove arbiters, who may write rulings on the web")
    actions = group.add_subparsers(title="arbiter commands", metavar="ACTION")
    adding = command(actions, "add", "add an arbiter, reading the password from the terminal or standard input")
    adding.add_argument("name", help="the arbiter's sign-in name: letters, digits, dots, dashes, underscores")
    adding.set_defaults(handler=add)
    listing = command(actions, "list", "list the arbiters with the dates they were added")
    add_format(listing)
    listing.set_defaults(handler=list_arbiters)
    removing = command(actions, "remove", "remove an arbiter; their rulings stay, signed with their name")
    removing.add_argument("name", help="the arbiter's sign-in name")
    removing.set_defaults(handler=remove)
    changing = command(actions, "passwd", "change an arbiter's password, read as for add")
    changing.add_argument("name", help="the arbiter's sign-in name")
    changing.set_defaults(handler=change_password)


def add(arguments: argparse.Namespace) -> int:
    from validator.arbitration import arbiters

    arbiters.checked_name(arguments.name)
    password = _read_password()
    with database() as connection:
        arbiters.add(connection, arguments.name, password)
    console.write_text(f"The arbiter {arguments.name} was added; they can sign in on the web now.")
    return EXIT_OK


def list_arbiters(arguments: argparse.Namespace) -> int:
    from validator.arbitration import arbiters

    with database() as connection:
        found = arbiters.listed(connection)
    if arguments.format == "json":
        print_json([{"name": arbiter.name, "added_at": arbiter.added_at,
                     "password_changed_at": arbiter.password_changed_at} for arbiter in found])
    elif not found:
        console.write_text("There are no arbiters yet; add one with: referee arbiter add NAME")
    else:
        console.write_text("\n".join(f"{arbiter.name}  added {arbiter.added_at}" for arbiter in found))
    return EXIT_OK


def remove(arguments: argparse.Namespace) -> int:
    from validator.arbitration import arbiters

    with database() as connection:
        arbiters.remove(connection, arguments.name)
    console.write_text(f"The arbiter {arguments.name} was removed; their rulings keep their name.")
    return EXIT_OK


def change_password(arguments: argparse.Namespace) -> int:
    from validator.arbitration import arbiters

    with database() as connection:
        arbiters.require(connection, arguments.name)  # before asking for a password
        arbiters.change_password(connection, arguments.name, _read_password())
    console.write_text(f"The password of {arguments.name} was changed.")
    return EXIT_OK


def _read_password() -> str:
    """From a terminal without echo, asked twice; otherwise the first line of standard input."""
    if sys.stdin is not None and sys.stdin.isatty():
        import getpass

        password = getpass.getpass("Password: ")
        if getpass.getpass("The same password again: ") != password:
            raise UsageError("The two passwords differ; nothing was changed. Run the command again.")
        return password
    line = sys.stdin.readline() if sys.stdin is not None else ""
    if not line:
        raise UsageError("No password was given: type it at the terminal, or give it as one line on standard input.")
    return line.rstrip("\r\n")


